package io.stator.server.api;

import static io.stator.server.testing.Attrs.b;
import static io.stator.server.testing.Attrs.bool;
import static io.stator.server.testing.Attrs.bs;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.l;
import static io.stator.server.testing.Attrs.m;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.names;
import static io.stator.server.testing.Attrs.ns;
import static io.stator.server.testing.Attrs.nul;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Attrs.ss;
import static io.stator.server.testing.Attrs.with;
import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static io.stator.server.testing.ItemTables.ANY_SHAPE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.server.testing.ItemTables;
import io.stator.server.testing.KeyShape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalOperator;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * ConditionExpression and the legacy Expected on PutItem, UpdateItem and DeleteItem, against a
 * running Stator: every comparator and function against every type it takes, with DynamoDB's
 * semantics (a comparison of different types is false, not an error; a missing attribute makes
 * everything but {@code <>} false; an absent item is an item without attributes). Sources:
 * docs/dynamodb/expressions.md sections 4.2, 8 and 9.1.
 */
class ConditionalWritesTest {

    private static final String INVALID = "One or more parameter values were invalid: ";

    @RegisterExtension
    static final ItemTables db = new ItemTables();

    /** The three writes that take a condition. */
    enum Write { PUT, UPDATE, DELETE }

    /** Every condition case is evaluated against an item with these attributes. */
    private static final Map<String, AttributeValue> ATTRIBUTES = item(
            "s", s("abc"), "s2", s("abd"), "es", s(""), "mb", s("é中"), "emoji", s("\uD83D\uDE00"),
            "n", n("5"), "n2", n("10"),
            "b", b(1, 2, 3), "b2", b(0x80),
            "bool", bool(true), "nul", nul(),
            "ss", ss("a", "b"), "ns", ns("1", "2"), "bs", bs(new int[] {1}, new int[] {2}),
            "l", l(s("a"), n("1"), l(n("1")), m("x", n("1"))), "el", l(),
            "m", m("x", n("1"), "y", l(s("deep"))), "em", m());

    /** The :values conditions may use; each case is sent only those it names. */
    private static final Map<String, AttributeValue> VALUES = item(
            ":s", s("abc"), ":s2", s("abd"), ":ab", s("ab"), ":bc", s("bc"), ":zzz", s("zzz"), ":a", s("a"),
            ":empty", s(""), ":fullwidthA", s("\uFF21"), ":three", s("3"), ":dotted", s("dotted"), ":de", s("de"), ":deep", s("deep"),
            ":n0", n("0"), ":n1", n("1"), ":n1x", n("1.0"), ":n2", n("2"), ":n3", n("3"), ":n4", n("4"), ":n5", n("5"),
            ":n5x", n("5.00"), ":n10", n("10"),
            ":b", b(1, 2, 3), ":b1", b(1), ":b12", b(1, 2), ":b23", b(2, 3), ":b7f", b(0x7f),
            ":true", bool(true), ":false", bool(false), ":nul", nul(),
            ":ss", ss("b", "a"), ":ns", ns("2", "1"), ":bs", bs(new int[] {2}, new int[] {1}),
            ":l", l(s("a"), n("1"), l(n("1")), m("x", n("1"))), ":l1", l(n("1")), ":mx", m("x", n("1")),
            ":m", m("y", l(s("deep")), "x", n("1")),
            ":tS", s("S"), ":tN", s("N"), ":tB", s("B"), ":tBOOL", s("BOOL"), ":tNULL", s("NULL"), ":tSS", s("SS"),
            ":tNS", s("NS"), ":tBS", s("BS"), ":tL", s("L"), ":tM", s("M"));

    private static final Pattern VALUE_PLACEHOLDER = Pattern.compile(":[A-Za-z0-9_]+");

    /** The :values an expression names, taken from {@link #VALUES}; null when it names none. */
    private static Map<String, AttributeValue> valuesOf(String expression) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        Matcher m = VALUE_PLACEHOLDER.matcher(expression);
        while (m.find()) values.put(m.group(), VALUES.get(m.group()));
        return values.isEmpty() ? null : values;
    }

    // ---- writes under a condition -----------------------------------------------------------

    /**
     * Runs {@code write} on the item with {@code item}'s key under the condition: PutItem puts the
     * item with a mark added, UpdateItem adds the mark, DeleteItem deletes.
     */
    private static void write(Write write, Map<String, AttributeValue> item, String condition,
                              Map<String, String> names, ReturnValuesOnConditionCheckFailure onFailure) {
        Map<String, AttributeValue> values = valuesOf(condition);
        Map<String, AttributeValue> updateValues = with(values == null ? Map.of() : values, ":written", bool(true));
        String table = db.table(ANY_SHAPE);
        Map<String, AttributeValue> key = ItemTables.keyOf(ANY_SHAPE, item);
        switch (write) {
            case PUT -> db.client().putItem(b -> b.tableName(table).item(with(item, "written", bool(true)))
                    .conditionExpression(condition).expressionAttributeNames(names).expressionAttributeValues(values)
                    .returnValuesOnConditionCheckFailure(onFailure));
            case UPDATE -> db.client().updateItem(b -> b.tableName(table).key(key).updateExpression("SET written = :written")
                    .conditionExpression(condition).expressionAttributeNames(names).expressionAttributeValues(updateValues)
                    .returnValuesOnConditionCheckFailure(onFailure));
            case DELETE -> db.client().deleteItem(b -> b.tableName(table).key(key)
                    .conditionExpression(condition).expressionAttributeNames(names).expressionAttributeValues(values)
                    .returnValuesOnConditionCheckFailure(onFailure));
        }
    }

    /** What {@code write} leaves when it happens. */
    private static Map<String, AttributeValue> written(Write write, Map<String, AttributeValue> item) {
        return write == Write.DELETE ? null : with(item, "written", bool(true));
    }

    /** The call fails with DynamoDB's ConditionalCheckFailedException, which it returns. */
    private static ConditionalCheckFailedException assertConditionFails(Executable call) {
        ConditionalCheckFailedException e = assertThrows(ConditionalCheckFailedException.class, call);
        assertEquals("ConditionalCheckFailedException", e.awsErrorDetails().errorCode());
        assertEquals("The conditional request failed", e.awsErrorDetails().errorMessage());
        assertEquals(400, e.statusCode());
        return e;
    }

    /**
     * Stores a fresh copy of {@code attributes}, writes under the condition, and checks that the
     * write happened exactly when the condition {@code holds}.
     */
    private static void assertConditionDecides(Write write, Map<String, AttributeValue> attributes, String condition,
                                               Map<String, String> names, boolean holds) {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(attributes);
        db.put(ANY_SHAPE, item);
        if (holds) {
            write(write, item, condition, names, null);
            assertSameItem(written(write, item), db.read(ANY_SHAPE, item));
        } else {
            assertConditionFails(() -> write(write, item, condition, names, null));
            assertSameItem(item, db.read(ANY_SHAPE, item));
        }
    }

    // ---- every comparator and function ------------------------------------------------------

    /** A condition and whether it holds for {@link #ATTRIBUTES}. */
    record Case(String condition, boolean holds) {
        @Override public String toString() { return condition + (holds ? " holds" : " fails"); }
    }

    private static Case holds(String condition) { return new Case(condition, true); }

    private static Case fails(String condition) { return new Case(condition, false); }

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        // = compares values of one type; sets regardless of order, lists and maps deeply.
        c.addAll(List.of(holds("s = :s"), fails("s = :zzz"), holds("es = :empty"), holds("n = :n5"),
                holds("n = :n5x"), fails("n = :n10"), holds("b = :b"), fails("b = :b12"), holds("bool = :true"),
                fails("bool = :false"), holds("nul = :nul"), holds("ss = :ss"), holds("ns = :ns"), holds("bs = :bs"),
                holds("l = :l"), fails("l = :l1"), holds("m = :m"), fails("m = :mx"), holds("m.x = :n1"),
                holds("l[1] = :n1"), fails("m.y[0] = l[0]"),
                holds(":n5 = n"), holds(":s = :s")));
        // Different types are never equal, and that is no error.
        c.addAll(List.of(fails("s = :n5"), fails("n = :s"), fails("ss = :a"), fails("l = :ss"), fails("b = :s"),
                fails("nul = :false"), fails("ns = :n1")));
        // <> is the negation of =, so it holds for different types and missing attributes.
        c.addAll(List.of(holds("s <> :zzz"), fails("s <> :s"), holds("n <> :s"), holds("nothere <> :s"),
                fails("ss <> :ss"), fails("l <> :l"), fails("m <> :m"), holds("nothere <> neither")));
        // < <= > >= order S by UTF-8 bytes, N numerically, B by unsigned bytes; nothing else.
        c.addAll(List.of(holds("s < :s2"), fails("s2 < :s"), holds("n < :n10"), fails("n < :n5"), holds("b < :b23"),
                fails("b2 < :b7f"), holds("emoji > :fullwidthA"), holds("n < n2"), holds("s > :ab"),
                holds("n <= :n5"), holds("s <= :s"), holds("b <= :b"), fails("n <= :n1"), holds("n2 > n"),
                holds("b2 > :b7f"), fails("n > :n5"), holds("n >= :n5"), fails("s >= :s2"), holds("b >= :b12"),
                fails("n < :s"), fails("s > :n1"), fails("b < :s"), fails("nothere < :n10"), fails("nothere >= :n0"),
                fails("ss < l"), fails("n < nothere")));
        // BETWEEN is inclusive, and false across types or with bounds the wrong way round at runtime.
        c.addAll(List.of(holds("n BETWEEN :n1 AND :n10"), holds("n BETWEEN :n5 AND :n5"),
                fails("n2 BETWEEN :n1 AND :n5"), holds("s BETWEEN :ab AND :s2"), holds("b BETWEEN :b12 AND :b23"),
                fails("n BETWEEN :s AND :s2"), fails("nothere BETWEEN :n1 AND :n10"), fails("n BETWEEN n2 AND :n1"),
                holds("n BETWEEN :n1 AND n2")));
        // IN: equal to any candidate, which may be of mixed types.
        c.addAll(List.of(holds("n IN (:n1, :n5)"), holds("n IN (:s, :n5x)"), fails("s IN (:zzz, :n1)"),
                fails("nothere IN (:s)"), holds("ss IN (:ns, :ss)"), holds("s IN (s2, :s)")));
        // AND binds tighter than OR, NOT tighter than AND; parentheses group.
        c.addAll(List.of(holds("n = :n5 AND s = :s"), fails("n = :n5 AND s = :zzz"), holds("n = :n1 OR s = :s"),
                fails("n = :n1 OR s = :zzz"), holds("NOT n = :n1"), fails("NOT n = :n5"),
                holds("n = :n5 OR n = :n1 AND s = :zzz"), fails("(n = :n5 OR n = :n1) AND s = :zzz"),
                fails("NOT n = :n1 AND s = :zzz"), holds("NOT (n = :n1 AND s = :zzz)"), holds("NOT NOT n = :n5"),
                holds("(n = :n5)"), holds("n = :n5 and s = :s Or n = :n1")));
        // attribute_exists and attribute_not_exists, at the top and nested.
        c.addAll(List.of(holds("attribute_exists(s)"), fails("attribute_exists(nothere)"),
                holds("attribute_exists(nul)"), holds("attribute_exists(m.x)"), fails("attribute_exists(m.nothere)"),
                holds("attribute_exists(l[0])"), fails("attribute_exists(l[9])"), holds("attribute_exists(m.y[0])"),
                fails("attribute_exists(s.x)"), fails("attribute_exists(m[0])"),
                holds("attribute_not_exists(nothere)"), fails("attribute_not_exists(s)"),
                holds("attribute_not_exists(m.nothere)"), holds("attribute_not_exists(l[9])")));
        // attribute_type, for every type.
        c.addAll(List.of(holds("attribute_type(s, :tS)"), holds("attribute_type(n, :tN)"),
                holds("attribute_type(b, :tB)"), holds("attribute_type(bool, :tBOOL)"),
                holds("attribute_type(nul, :tNULL)"), holds("attribute_type(ss, :tSS)"),
                holds("attribute_type(ns, :tNS)"), holds("attribute_type(bs, :tBS)"), holds("attribute_type(l, :tL)"),
                holds("attribute_type(m, :tM)"), holds("attribute_type(m.x, :tN)"), fails("attribute_type(s, :tN)"),
                fails("attribute_type(ss, :tS)"), fails("attribute_type(l, :tM)"),
                fails("attribute_type(nothere, :tS)")));
        // begins_with: a prefix of a string or of a binary, of the same type.
        c.addAll(List.of(holds("begins_with(s, :ab)"), holds("begins_with(s, :s)"), fails("begins_with(s, :s2)"),
                holds("begins_with(s, :empty)"), holds("begins_with(b, :b12)"), fails("begins_with(b, :b23)"),
                fails("begins_with(s, :b12)"), fails("begins_with(n, :ab)"), fails("begins_with(ss, :a)"),
                fails("begins_with(nothere, :ab)"), holds("begins_with(s, es)"), holds("begins_with(m.y[0], :de)")));
        // contains: substring, byte run, set member, list element; false for other containers.
        c.addAll(List.of(holds("contains(s, :bc)"), fails("contains(s, :zzz)"), holds("contains(b, :b23)"),
                fails("contains(b, :b7f)"), holds("contains(ss, :a)"), fails("contains(ss, :zzz)"),
                holds("contains(ns, :n1)"), holds("contains(ns, :n1x)"), fails("contains(ns, :n10)"),
                holds("contains(bs, :b1)"), fails("contains(bs, :b7f)"), holds("contains(l, :a)"),
                holds("contains(l, :n1)"), holds("contains(l, :l1)"), holds("contains(l, :mx)"),
                fails("contains(l, :zzz)"), fails("contains(n, :n5)"), fails("contains(ss, :n1)"),
                fails("contains(ns, :a)"), fails("contains(m, :n1)"), fails("contains(nothere, :a)"),
                holds("contains(ss, l[0])"), holds("contains(m.y, :deep)"), fails("contains(el, :a)")));
        // size: characters, bytes, members, elements, entries; nothing for other types.
        // A parenthesized operand, a function's too, as DynamoDB accepts it (issue 36).
        c.addAll(List.of(holds("(size(s)) = :n3"), holds("(s) = :s"), fails("(size(s)) < :n3"),
                holds("(size(s)) BETWEEN :n1 AND :n5"), holds("(n) IN (:n1, :n5)")));
        c.addAll(List.of(holds("size(s) = :n3"), holds("size(es) = :n0"), holds("size(mb) = :n2"),
                holds("size(b) = :n3"), holds("size(ss) = :n2"), holds("size(ns) = :n2"), holds("size(bs) = :n2"),
                holds("size(l) = :n4"), holds("size(el) = :n0"), holds("size(m) = :n2"), holds("size(em) = :n0"),
                holds("size(m.y) = :n1"), holds("size(s) > :n2"), holds("size(l) BETWEEN :n1 AND :n5"),
                holds("size(ss) IN (:n1, :n2)"), holds("size(s) < n"), fails("size(n) = :n1"),
                fails("size(bool) = :n1"), fails("size(nothere) = :n0"), fails("size(s) = :three"),
                holds("size(ss) = size(ns)")));
        return c;
    }

    static Stream<Arguments> everyCaseOnEveryWrite() {
        return Stream.of(Write.values()).flatMap(w -> cases().stream().map(c -> Arguments.of(w, c)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("everyCaseOnEveryWrite")
    void conditionDecidesWhetherTheWriteHappens(Write write, Case c) {
        assertConditionDecides(write, ATTRIBUTES, c.condition(), null, c.holds());
    }

    @ParameterizedTest
    @EnumSource(Write.class)
    void conditionsNameAttributesThroughPlaceholders(Write write) {
        Map<String, AttributeValue> attributes = item("size", n("5"), "a.b", s("dotted"), "m", m("x.y", n("1")));
        assertConditionDecides(write, attributes, "#size = :n5 AND #dotted = :dotted AND attribute_exists(m.#xy)",
                names("#size", "size", "#dotted", "a.b", "#xy", "x.y"), true);
        // A dot inside a name is part of the name, not a path separator.
        assertConditionDecides(write, attributes, "attribute_exists(#ab)", names("#ab", "a.b"), true);
        assertConditionDecides(write, attributes, "attribute_exists(#ab.#b)", names("#ab", "a", "#b", "b"), false);
    }

    // ---- absent items -----------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void putIfAbsentSucceedsOnceThenFails(KeyShape shape) {
        Map<String, AttributeValue> item = shape.newItem(item("v", n("1")));
        String condition = "attribute_not_exists(pk)";
        db.client().putItem(b -> b.tableName(db.table(shape)).item(item).conditionExpression(condition));
        assertSameItem(item, db.read(shape, item));
        Map<String, AttributeValue> second = with(item, "v", n("2"));
        assertConditionFails(() -> db.client().putItem(b -> b.tableName(db.table(shape)).item(second)
                .conditionExpression(condition)));
        assertSameItem(item, db.read(shape, item));
    }

    @ParameterizedTest
    @EnumSource(Write.class)
    void conditionsOnAnAbsentItemSeeNoAttributes(Write write) {
        for (String holds : List.of("attribute_not_exists(s)", "s <> :s", "NOT s = :s", "NOT contains(ss, :a)")) {
            Map<String, AttributeValue> key = ANY_SHAPE.newKey();
            write(write, key, holds, null, null);
            // UpdateItem creates the item (an upsert); DeleteItem has nothing to delete.
            assertSameItem(write == Write.DELETE ? null : written(write, key), db.read(ANY_SHAPE, key));
        }
        for (String fails : List.of("attribute_exists(s)", "s = :s", "size(s) = :n0", "attribute_type(s, :tS)",
                "begins_with(s, :empty)", "s IN (:s)", "s BETWEEN :ab AND :s")) {
            Map<String, AttributeValue> key = ANY_SHAPE.newKey();
            assertConditionFails(() -> write(write, key, fails, null, null));
            assertNull(db.read(ANY_SHAPE, key), "no item is created by a failed " + write);
        }
    }

    // ---- ConditionalCheckFailedException ----------------------------------------------------

    @ParameterizedTest
    @EnumSource(Write.class)
    void failedConditionReturnsTheOldItemWithAllOld(Write write) {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(item("s", s("dog"), "n", n("1.50")));
        db.put(ANY_SHAPE, item);
        ConditionalCheckFailedException e = assertConditionFails(
                () -> write(write, item, "s = :s", null, ReturnValuesOnConditionCheckFailure.ALL_OLD));
        assertSameItem(with(item, "n", n("1.5")), e.item());

        ConditionalCheckFailedException none = assertConditionFails(
                () -> write(write, item, "s = :s", null, ReturnValuesOnConditionCheckFailure.NONE));
        assertFalse(none.hasItem(), "NONE returns no item");
        ConditionalCheckFailedException byDefault = assertConditionFails(() -> write(write, item, "s = :s", null, null));
        assertFalse(byDefault.hasItem(), "NONE is the default");

        Map<String, AttributeValue> absent = ANY_SHAPE.newKey();
        ConditionalCheckFailedException noItem = assertConditionFails(
                () -> write(write, absent, "attribute_exists(s)", null, ReturnValuesOnConditionCheckFailure.ALL_OLD));
        assertFalse(noItem.hasItem(), "there was no item to return");
    }

    @Test
    void successfulConditionalWriteReturnsNoItemOfTheFailureKind() {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(item("s", s("abc")));
        db.put(ANY_SHAPE, item);
        var r = db.client().updateItem(b -> b.tableName(db.table(ANY_SHAPE)).key(ItemTables.keyOf(ANY_SHAPE, item))
                .updateExpression("SET t = :a").conditionExpression("s = :s")
                .expressionAttributeValues(item(":a", s("a"), ":s", s("abc")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
        assertFalse(r.hasAttributes());
    }

    // ---- legacy Expected --------------------------------------------------------------------

    private static ExpectedAttributeValue expected(ComparisonOperator operator, AttributeValue... values) {
        return ExpectedAttributeValue.builder().comparisonOperator(operator).attributeValueList(values).build();
    }

    private static ExpectedAttributeValue equalTo(AttributeValue value) {
        return ExpectedAttributeValue.builder().value(value).build();
    }

    private static final ExpectedAttributeValue ABSENT = ExpectedAttributeValue.builder().exists(false).build();

    /** Writes under {@code expected} (joined by {@code operator}, null for the default) with each write. */
    private static void writeExpecting(Write write, Map<String, AttributeValue> item,
                                       Map<String, ExpectedAttributeValue> expected, ConditionalOperator operator) {
        String table = db.table(ANY_SHAPE);
        Map<String, AttributeValue> key = ItemTables.keyOf(ANY_SHAPE, item);
        switch (write) {
            case PUT -> db.client().putItem(b -> b.tableName(table).item(with(item, "written", bool(true)))
                    .expected(expected).conditionalOperator(operator));
            case UPDATE -> db.client().updateItem(b -> b.tableName(table).key(key).expected(expected)
                    .conditionalOperator(operator).attributeUpdates(Map.of("written",
                            software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate.builder()
                                    .value(bool(true)).build())));
            case DELETE -> db.client().deleteItem(b -> b.tableName(table).key(key).expected(expected)
                    .conditionalOperator(operator));
        }
    }

    private static void assertExpectedDecides(Write write, Map<String, ExpectedAttributeValue> expected,
                                              ConditionalOperator operator, boolean holds) {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(ATTRIBUTES);
        db.put(ANY_SHAPE, item);
        if (holds) {
            writeExpecting(write, item, expected, operator);
            assertSameItem(written(write, item), db.read(ANY_SHAPE, item));
        } else {
            assertConditionFails(() -> writeExpecting(write, item, expected, operator));
            assertSameItem(item, db.read(ANY_SHAPE, item));
        }
    }

    record ExpectedCase(String attribute, ExpectedAttributeValue expected, boolean holds) {
        @Override public String toString() {
            return attribute + " " + (expected.comparisonOperator() != null ? expected.comparisonOperator()
                    + " " + expected.attributeValueList() : expected) + (holds ? " holds" : " fails");
        }
    }

    static List<ExpectedCase> expectedCases() {
        ComparisonOperator eq = ComparisonOperator.EQ;
        return List.of(
                new ExpectedCase("s", equalTo(s("abc")), true),
                new ExpectedCase("s", equalTo(s("zzz")), false),
                new ExpectedCase("ss", ExpectedAttributeValue.builder().exists(true).value(ss("b", "a")).build(), true),
                new ExpectedCase("nothere", equalTo(s("abc")), false),
                new ExpectedCase("nothere", ABSENT, true),
                new ExpectedCase("s", ABSENT, false),
                new ExpectedCase("n", expected(eq, n("5.0")), true),
                new ExpectedCase("n", expected(eq, s("5")), false),
                new ExpectedCase("n", expected(ComparisonOperator.NE, n("5")), false),
                new ExpectedCase("nothere", expected(ComparisonOperator.NE, n("5")), true),
                new ExpectedCase("n", expected(ComparisonOperator.LT, n("10")), true),
                new ExpectedCase("s", expected(ComparisonOperator.LT, s("abc")), false),
                new ExpectedCase("n", expected(ComparisonOperator.LE, n("5")), true),
                new ExpectedCase("b", expected(ComparisonOperator.GT, b(1, 2)), true),
                new ExpectedCase("n", expected(ComparisonOperator.GT, s("1")), false),
                new ExpectedCase("s", expected(ComparisonOperator.GE, s("abd")), false),
                new ExpectedCase("n", expected(ComparisonOperator.BETWEEN, n("5"), n("10")), true),
                new ExpectedCase("n2", expected(ComparisonOperator.BETWEEN, n("1"), n("5")), false),
                new ExpectedCase("s", expected(ComparisonOperator.IN, s("x"), s("abc")), true),
                new ExpectedCase("n", expected(ComparisonOperator.IN, n("1"), n("2")), false),
                new ExpectedCase("nothere", expected(ComparisonOperator.NULL), true),
                new ExpectedCase("nul", expected(ComparisonOperator.NULL), false),
                new ExpectedCase("nul", expected(ComparisonOperator.NOT_NULL), true),
                new ExpectedCase("nothere", expected(ComparisonOperator.NOT_NULL), false),
                new ExpectedCase("s", expected(ComparisonOperator.CONTAINS, s("bc")), true),
                new ExpectedCase("ss", expected(ComparisonOperator.CONTAINS, s("a")), true),
                new ExpectedCase("l", expected(ComparisonOperator.CONTAINS, n("1")), true),
                new ExpectedCase("ns", expected(ComparisonOperator.CONTAINS, n("7")), false),
                new ExpectedCase("ss", expected(ComparisonOperator.NOT_CONTAINS, s("z")), true),
                new ExpectedCase("ss", expected(ComparisonOperator.NOT_CONTAINS, s("a")), false),
                // A missing attribute "not containing" anything is false (Scylla's suite, run against DynamoDB).
                new ExpectedCase("nothere", expected(ComparisonOperator.NOT_CONTAINS, s("z")), false),
                new ExpectedCase("s", expected(ComparisonOperator.BEGINS_WITH, s("ab")), true),
                new ExpectedCase("b", expected(ComparisonOperator.BEGINS_WITH, b(2)), false));
    }

    static Stream<Arguments> everyExpectedCaseOnEveryWrite() {
        return Stream.of(Write.values()).flatMap(w -> expectedCases().stream().map(c -> Arguments.of(w, c)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("everyExpectedCaseOnEveryWrite")
    void expectedDecidesWhetherTheWriteHappens(Write write, ExpectedCase c) {
        assertExpectedDecides(write, Map.of(c.attribute(), c.expected()), null, c.holds());
    }

    @ParameterizedTest
    @EnumSource(Write.class)
    void conditionalOperatorJoinsExpectedEntriesWithAndOrOr(Write write) {
        Map<String, ExpectedAttributeValue> oneOfTwo = new LinkedHashMap<>();
        oneOfTwo.put("s", equalTo(s("abc")));
        oneOfTwo.put("n", equalTo(n("6")));
        assertExpectedDecides(write, oneOfTwo, null, false);
        assertExpectedDecides(write, oneOfTwo, ConditionalOperator.AND, false);
        assertExpectedDecides(write, oneOfTwo, ConditionalOperator.OR, true);
        Map<String, ExpectedAttributeValue> both = new LinkedHashMap<>(oneOfTwo);
        both.put("n", expected(ComparisonOperator.GE, n("5")));
        assertExpectedDecides(write, both, ConditionalOperator.AND, true);
    }

    static Stream<Arguments> invalidExpected() {
        ExpectedAttributeValue.Builder e = ExpectedAttributeValue.builder();
        return Stream.of(
                Arguments.of(e.copy().value(s("x")).attributeValueList(s("x")).comparisonOperator("EQ").build(),
                        INVALID + "Value and AttributeValueList cannot be used together for Attribute: a"),
                Arguments.of(e.copy().exists(true).comparisonOperator("EQ").value(s("x")).build(),
                        INVALID + "Exists and ComparisonOperator cannot be used together for Attribute: a"),
                Arguments.of(e.copy().comparisonOperator("LT").build(),
                        INVALID + "Value or AttributeValueList must be used with ComparisonOperator: LT for Attribute: a"),
                Arguments.of(expected(ComparisonOperator.EQ, s("x"), s("y")),
                        INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator"),
                Arguments.of(expected(ComparisonOperator.NULL, s("x")),
                        INVALID + "Invalid number of argument(s) for the NULL ComparisonOperator"),
                Arguments.of(expected(ComparisonOperator.BETWEEN, s("x")),
                        INVALID + "Invalid number of argument(s) for the BETWEEN ComparisonOperator"),
                Arguments.of(expected(ComparisonOperator.IN, s("x"), n("1")),
                        INVALID + "AttributeValues inside AttributeValueList must be of same type"),
                Arguments.of(expected(ComparisonOperator.BETWEEN, n("2"), n("1")),
                        "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"),
                Arguments.of(e.copy().attributeValueList(s("x")).build(),
                        INVALID + "AttributeValueList can only be used with a ComparisonOperator for Attribute: a"),
                Arguments.of(e.copy().build(), INVALID + "Value must be provided when Exists is null for Attribute: a"),
                Arguments.of(e.copy().exists(true).build(),
                        INVALID + "Value must be provided when Exists is true for Attribute: a"),
                Arguments.of(e.copy().exists(false).value(s("x")).build(),
                        INVALID + "Value cannot be used when Exists is false for Attribute: a"),
                // A value type the operator does not take: a ValidationException before the item is
                // read, not a failed condition (scylladb test/alternator/test_expected.py, run
                // against DynamoDB; the text is ScanFilter's, recorded by dynalite).
                Arguments.of(expected(ComparisonOperator.GT, bool(true)),
                        INVALID + "ComparisonOperator GT is not valid for BOOL AttributeValue type"),
                Arguments.of(expected(ComparisonOperator.BEGINS_WITH, n("1")),
                        INVALID + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"),
                Arguments.of(expected(ComparisonOperator.CONTAINS, l(n("1"))),
                        INVALID + "ComparisonOperator CONTAINS is not valid for L AttributeValue type"),
                Arguments.of(expected(ComparisonOperator.IN, l(n("1")), l(n("2"))),
                        INVALID + "ComparisonOperator IN is not valid for L AttributeValue type"),
                Arguments.of(expected(ComparisonOperator.BETWEEN, ss("a"), ss("b")),
                        INVALID + "ComparisonOperator BETWEEN is not valid for SS AttributeValue type"));
    }

    /**
     * An empty Expected is valid (test_expected.py::test_update_expected_empty, run against
     * DynamoDB), but not with a ConditionalOperator (ibid.; DynamoDB Local's text).
     */
    @Test
    void anEmptyExpectedIsNoConditionUnlessAConditionalOperatorComesWithIt() {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(item("a", s("x")));
        db.put(ANY_SHAPE, item);
        for (Write write : Write.values()) {
            if (write == Write.DELETE) continue;
            writeExpecting(write, item, Map.of(), null);
            assertEquals(bool(true), db.read(ANY_SHAPE, item).get("written"), write.toString());
            assertValidation(write.toString(), "ConditionalOperator cannot be used without Filter or Expected",
                    () -> writeExpecting(write, item, Map.of(), ConditionalOperator.AND));
        }
        writeExpecting(Write.DELETE, item, Map.of(), null);
        assertNull(db.read(ANY_SHAPE, item));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("invalidExpected")
    void invalidExpectedIsRefusedWithDynamoDbsMessage(ExpectedAttributeValue expected, String message) {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(item("a", s("x")));
        db.put(ANY_SHAPE, item);
        for (Write write : Write.values()) {
            assertValidation(write.toString(), message, () -> writeExpecting(write, item, Map.of("a", expected), null));
        }
        assertSameItem(item, db.read(ANY_SHAPE, item));
    }

    @Test
    void expectedAndConditionExpressionCannotBeMixed() {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(item("a", s("x")));
        String message = "Can not use both expression and non-expression parameters in the same request: "
                + "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}";
        Map<String, ExpectedAttributeValue> expected = Map.of("a", ABSENT);
        assertValidation(message, () -> db.client().putItem(b -> b.tableName(db.table(ANY_SHAPE)).item(item)
                .expected(expected).conditionExpression("attribute_not_exists(a)")));
        assertValidation(message, () -> db.client().deleteItem(b -> b.tableName(db.table(ANY_SHAPE))
                .key(ItemTables.keyOf(ANY_SHAPE, item)).expected(expected).conditionExpression("attribute_not_exists(a)")));
        assertValidation("Can not use both expression and non-expression parameters in the same request: "
                + "Non-expression parameters: {Expected} Expression parameters: {UpdateExpression}",
                () -> db.client().updateItem(b -> b.tableName(db.table(ANY_SHAPE)).key(ItemTables.keyOf(ANY_SHAPE, item))
                        .expected(expected).updateExpression("REMOVE a")));
    }
}
