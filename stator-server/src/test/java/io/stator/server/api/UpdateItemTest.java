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

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.ItemTables;
import io.stator.server.testing.KeyShape;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * UpdateItem against a running Stator. Expected behaviour and texts are DynamoDB's, as recorded
 * by suites run against it (dynalite, Scylla's Alternator tests; docs/dynamodb/expressions.md sections
 * 5 and 9.3).
 */
class UpdateItemTest {

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final String INVALID_PATH = "The document path provided in the update expression is invalid for update";
    private static final String MISSING_OPERAND =
            "The provided expression refers to an attribute that does not exist in the item";
    private static final String WRONG_TYPE = "An operand in the update expression has an incorrect data type";

    @RegisterExtension
    static final ItemTables db = new ItemTables();

    // ---- helpers ----------------------------------------------------------------------------

    private static UpdateItemResponse update(KeyShape shape, Map<String, AttributeValue> keyOrItem,
                                             Consumer<UpdateItemRequest.Builder> options) {
        return db.client().updateItem(b -> {
            b.tableName(db.table(shape)).key(ItemTables.keyOf(shape, keyOrItem));
            options.accept(b);
        });
    }

    /** Updates the item with this key by the expression, its :values given as name, value pairs. */
    private static UpdateItemResponse update(KeyShape shape, Map<String, AttributeValue> keyOrItem, String expression,
                                             Object... values) {
        return update(shape, keyOrItem, expression(expression, values));
    }

    private static UpdateItemResponse update(Map<String, AttributeValue> keyOrItem, String expression, Object... values) {
        return update(ANY_SHAPE, keyOrItem, expression, values);
    }

    /** As {@link #update(Map, String, Object...)}, asking for {@code returnValues}. */
    private static Map<String, AttributeValue> returned(ReturnValue returnValues, Map<String, AttributeValue> keyOrItem,
                                                        String expression, Object... values) {
        UpdateItemResponse r = update(ANY_SHAPE, keyOrItem, expression(expression, values).andThen(
                b -> b.returnValues(returnValues)));
        return r.hasAttributes() ? r.attributes() : null;
    }

    private static Consumer<UpdateItemRequest.Builder> expression(String expression, Object... values) {
        return b -> {
            b.updateExpression(expression);
            if (values.length > 0) b.expressionAttributeValues(item(values));
        };
    }

    /** Stores a new item of {@link ItemTables#ANY_SHAPE} with these attributes (name, value pairs). */
    private static Map<String, AttributeValue> stored(Object... attributes) {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(item(attributes));
        db.put(ANY_SHAPE, item);
        return item;
    }

    private static Map<String, AttributeValue> read(Map<String, AttributeValue> keyOrItem) {
        return db.read(ANY_SHAPE, keyOrItem);
    }

    /** The update is refused with {@code message} and the item is left as it was. */
    private static void assertRefused(String message, Map<String, AttributeValue> item, String expression,
                                      Object... values) {
        Map<String, AttributeValue> before = read(item);
        assertValidation(expression, message, () -> update(item, expression, values));
        assertSameItem(before, read(item));
    }

    private static AttributeValueUpdate attributeUpdate(AttributeAction action, AttributeValue value) {
        return AttributeValueUpdate.builder().action(action).value(value).build();
    }

    // ---- SET --------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void setStoresValuesOfEveryTypeAndKeepsOtherAttributes(KeyShape shape) {
        Map<String, AttributeValue> item = shape.newItem(item("kept", s("k"), "s", s("old")));
        db.put(shape, item);
        Map<String, AttributeValue> values = item(":s", s("text"), ":n", n("-12.50"), ":b", b(0, 255),
                ":bool", bool(false), ":null", nul(), ":ss", ss("x", "y"), ":ns", ns("1", "2.5"), ":bs", bs(new int[] {1}),
                ":l", l(s("a"), n("1")), ":m", m("x", m("y", l())), ":empty", s(""));

        update(shape, item, b -> b.updateExpression("SET s = :s, n = :n, b = :b, bool = :bool, nul = :null, ss = :ss, "
                + "ns = :ns, bs = :bs, l = :l, m = :m, blank = :empty").expressionAttributeValues(values));

        assertSameItem(with(item, "s", s("text"), "n", n("-12.5"), "b", b(0, 255), "bool", bool(false), "nul", nul(),
                "ss", ss("x", "y"), "ns", ns("1", "2.5"), "bs", bs(new int[] {1}), "l", l(s("a"), n("1")),
                "m", m("x", m("y", l())), "blank", s("")), db.read(shape, item));
    }

    @Test
    void setAddsAndSubtractsNumbersExactly() {
        Map<String, AttributeValue> item = stored("n", n("5"), "tiny", n("0.1"));
        update(item, "SET plus = n + :d, diff = n - :d, reversed = :d - n, consts = :d + :d, exact = tiny + :tiny, "
                + "big = :big + :one", ":d", n("1.25"), ":tiny", n("0.2"), ":big", n("9".repeat(38)), ":one", n("-1"));
        Map<String, AttributeValue> after = read(item);
        assertEquals("6.25", after.get("plus").n());
        assertEquals("3.75", after.get("diff").n());
        assertEquals("-3.75", after.get("reversed").n());
        assertEquals("2.5", after.get("consts").n());
        assertEquals("0.3", after.get("exact").n(), "decimal, not binary floating point");
        assertEquals("9".repeat(37) + "8", after.get("big").n());
    }

    /**
     * A result DynamoDB cannot store is refused, and one that would need more than 38 digits gets
     * the overflow message too (Scylla's test_number.py, observed against DynamoDB).
     */
    @Test
    void arithmeticResultsBeyondTheNumberRangeOrPrecisionAreRefused() {
        String overflow = "Number overflow. Attempting to store a number with magnitude larger than supported range";
        Map<String, AttributeValue> item = stored("huge", n("1e50"), "top", n("9".repeat(38) + "e88"));
        assertRefused(overflow, item, "SET b = :x + :x", ":x", n("9e125"));
        assertRefused(overflow, item, "SET b = :x - :y", ":x", n("9e125"), ":y", n("-9e125"));
        assertRefused(overflow, item, "SET b = huge + :one", ":one", n("1"));
        assertRefused(overflow, item, "SET b = huge - :one", ":one", n("1"));
        assertRefused(overflow, item, "ADD huge :one", ":one", n("1"));
        assertRefused(overflow, item, "ADD top :one", ":one", n("1e88"));
        // 38 digits exactly are fine.
        update(item, "SET b = :x + :one, c = top - :step", ":x", n("1e37"), ":one", n("1"), ":step", n("1e88"));
        assertEquals("1" + "0".repeat(36) + "1", read(item).get("b").n());
        assertEquals("9".repeat(37) + "8" + "0".repeat(88), read(item).get("c").n());
    }

    @Test
    void setArithmeticNeedsExistingNumbers() {
        Map<String, AttributeValue> item = stored("s", s("x"), "n", n("1"));
        assertRefused(WRONG_TYPE, item, "SET a = s + :one", ":one", n("1"));
        assertRefused(WRONG_TYPE, item, "SET a = :one - s", ":one", n("1"));
        assertRefused(MISSING_OPERAND, item, "SET a = nothere + :one", ":one", n("1"));
        assertRefused(MISSING_OPERAND, item, "SET n = n + nothere");
    }

    @Test
    void ifNotExistsTakesTheAttributeWhenPresentAndTheValueOtherwise() {
        Map<String, AttributeValue> item = stored("a", n("2"));
        update(item, "SET a = if_not_exists(a, :v), b = if_not_exists(b, :v), c = if_not_exists(a, :v), "
                + "hits = if_not_exists(hits, :zero) + :one", ":v", n("9"), ":zero", n("0"), ":one", n("1"));
        assertSameItem(with(item, "b", n("9"), "c", n("2"), "hits", n("1")), read(item));
        update(item, "SET hits = if_not_exists(hits, :zero) + :one", ":zero", n("0"), ":one", n("1"));
        assertEquals("2", read(item).get("hits").n());
    }

    @Test
    void listAppendAppendsOrPrependsByArgumentOrder() {
        Map<String, AttributeValue> item = stored("l", l(s("hi"), n("2")));
        update(item, "SET appended = list_append(l, :more), prepended = list_append(:more, l), "
                + "twice = list_append(l, l), grown = list_append(if_not_exists(grown, :empty), :more)",
                ":more", l(s("x"), l(n("1"))), ":empty", l());
        Map<String, AttributeValue> after = read(item);
        assertEquals(l(s("hi"), n("2"), s("x"), l(n("1"))), after.get("appended"));
        assertEquals(l(s("x"), l(n("1")), s("hi"), n("2")), after.get("prepended"));
        assertEquals(l(s("hi"), n("2"), s("hi"), n("2")), after.get("twice"));
        assertEquals(l(s("x"), l(n("1"))), after.get("grown"));
    }

    @Test
    void listAppendNeedsExistingLists() {
        Map<String, AttributeValue> item = stored("s", s("x"), "ss", ss("a"), "m", m());
        for (String notAList : new String[] {"s", "ss", "m"}) {
            assertRefused(WRONG_TYPE, item, "SET a = list_append(" + notAList + ", :l)", ":l", l());
            assertRefused(WRONG_TYPE, item, "SET a = list_append(:l, " + notAList + ")", ":l", l());
        }
        assertRefused(MISSING_OPERAND, item, "SET a = list_append(nothere, :l)", ":l", l());
    }

    @Test
    void setReachesIntoNestedMapsAndListElements() {
        Map<String, AttributeValue> item = stored("m", m("a", m("b", n("1")), "l", l(m("x", n("1")))),
                "l", l(s("zero"), s("one"), s("two")));
        update(ANY_SHAPE, item, expression("SET m.a.b = :v, m.a.c = :v, m.l[0].x = :v, l[1] = :v, m.#dotted = :v",
                ":v", s("new")).andThen(b -> b.expressionAttributeNames(names("#dotted", "x.y"))));
        Map<String, AttributeValue> after = read(item);
        assertEquals(m("a", m("b", s("new"), "c", s("new")), "l", l(m("x", s("new"))), "x.y", s("new")),
                after.get("m"));
        assertEquals(l(s("zero"), s("new"), s("two")), after.get("l"));
    }

    @Test
    void setPastTheEndOfAListAppendsInIndexOrder() {
        Map<String, AttributeValue> item = stored("a", l(s("one"), s("two"), s("three")), "e", l());
        update(item, "SET a[7] = :v, e[0] = :v", ":v", s("hello"));
        assertEquals(l(s("one"), s("two"), s("three"), s("hello")), read(item).get("a"));
        assertEquals(l(s("hello")), read(item).get("e"));

        update(item, "SET a[84] = :a1, a[37] = :a2, a[17] = :a3, a[50] = :a4",
                ":a1", s("a1"), ":a2", s("a2"), ":a3", s("a3"), ":a4", s("a4"));
        assertEquals(l(s("one"), s("two"), s("three"), s("hello"), s("a3"), s("a2"), s("a4"), s("a1")),
                read(item).get("a"));
    }

    @Test
    void setDoesNotCreateIntermediateMapsOrLists() {
        Map<String, AttributeValue> item = stored("s", s("hello"), "l", l(s("hi")), "m", m("x", n("1")));
        assertRefused(INVALID_PATH, item, "SET nothere.c = :v", ":v", n("7"));
        assertRefused(INVALID_PATH, item, "SET nothere[0] = :v", ":v", n("7"));
        assertRefused(INVALID_PATH, item, "SET s.c = :v", ":v", n("7"));
        assertRefused(INVALID_PATH, item, "SET s[0] = :v", ":v", n("7"));
        assertRefused(INVALID_PATH, item, "SET l.c = :v", ":v", n("7"));
        assertRefused(INVALID_PATH, item, "SET m[0] = :v", ":v", n("7"));
        assertRefused(INVALID_PATH, item, "SET m.nothere.deeper = :v", ":v", n("7"));
        assertRefused(INVALID_PATH, item, "SET l[5].x = :v", ":v", n("7"));

        Map<String, AttributeValue> absent = ANY_SHAPE.newKey();
        assertValidation(INVALID_PATH, () -> update(absent, "SET a.b = :v", ":v", n("7")));
        assertNull(read(absent), "a refused update creates no item");
    }

    @Test
    void setReadsEveryValueFromTheItemBeforeTheUpdate() {
        Map<String, AttributeValue> item = stored("a", s("A"), "b", s("B"), "n", n("1"));
        update(item, "SET a = b, b = a, n = n + :one, dup = n", ":one", n("1"));
        assertSameItem(with(item, "a", s("B"), "b", s("A"), "n", n("2"), "dup", n("1")), read(item));
        // x does not exist until the update is done, so y cannot copy it.
        assertRefused(MISSING_OPERAND, item, "SET x = :v, y = x", ":v", n("4"));
        update(item, "REMOVE a SET gone = a");
        assertSameItem(with(without(item, "a"), "b", s("A"), "n", n("2"), "dup", n("1"), "gone", s("B")), read(item));
    }

    private static Map<String, AttributeValue> without(Map<String, AttributeValue> item, String name) {
        Map<String, AttributeValue> result = new java.util.LinkedHashMap<>(item);
        result.remove(name);
        return result;
    }

    @Test
    void setCanCopyKeyAttributes() {
        KeyShape shape = new KeyShape(software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S,
                software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.N);
        Map<String, AttributeValue> key = shape.newKey();
        update(shape, key, "SET dup = pk, twice = sk + sk");
        Map<String, AttributeValue> after = db.read(shape, key);
        assertEquals(key.get("pk"), after.get("dup"));
        assertEquals(Long.toString(2 * Long.parseLong(key.get("sk").n())), after.get("twice").n());
    }

    // ---- REMOVE -----------------------------------------------------------------------------

    @Test
    void removeDeletesAttributesMapMembersAndListElements() {
        Map<String, AttributeValue> item = stored("a", s("x"), "b", s("kept"), "m", m("x", n("1"), "y", n("2")),
                "l", l(s("0"), s("1"), s("2"), s("3")), "deep", m("c", l(s("hi"), m("x", m("y", l(n("3"), n("5"))), "q", n("2")))));
        update(item, "REMOVE a, m.x, l[0], l[2], deep.c[1].x.y[1], deep.c[1].q");
        assertSameItem(with(without(item, "a"), "m", m("y", n("2")), "l", l(s("1"), s("3")),
                "deep", m("c", l(s("hi"), m("x", m("y", l(n("3"))))))), read(item));
    }

    @Test
    void removeOfWhatIsNotThereDoesNothing() {
        Map<String, AttributeValue> item = stored("m", m("x", n("3")), "l", l(s("hi")));
        update(item, "REMOVE nothere, m.y, l[7]");
        assertSameItem(item, read(item));
    }

    @Test
    void removeUnderAMissingOrScalarParentIsInvalidForUpdate() {
        Map<String, AttributeValue> item = stored("s", s("hello"), "l", l(s("hi")), "m", m("x", n("1")));
        assertRefused(INVALID_PATH, item, "REMOVE nothere.c");
        assertRefused(INVALID_PATH, item, "REMOVE nothere[0]");
        assertRefused(INVALID_PATH, item, "REMOVE s.c");
        assertRefused(INVALID_PATH, item, "REMOVE s[0]");
        assertRefused(INVALID_PATH, item, "REMOVE l.c");
        assertRefused(INVALID_PATH, item, "REMOVE m[0]");
    }

    @Test
    void removeOfTheLastMemberLeavesAnEmptyMapOrList() {
        Map<String, AttributeValue> item = stored("m", m("b", n("1")), "l", l(n("1")));
        update(item, "REMOVE m.b, l[0]");
        assertSameItem(with(item, "m", m(), "l", l()), read(item));
    }

    @Test
    void removeAndSetOfListElementsUsePositionsBeforeTheUpdate() {
        Map<String, AttributeValue> item = stored("a", l(n("2"), n("3"), n("4"), n("5"), n("6"), n("7")));
        update(item, "REMOVE a[1] SET a[3] = :v", ":v", n("17"));
        assertEquals(l(n("2"), n("4"), n("17"), n("6"), n("7")), read(item).get("a"));

        db.put(ANY_SHAPE, item);
        update(item, "SET a[3] = :v REMOVE a[1]", ":v", n("17"));
        assertEquals(l(n("2"), n("4"), n("17"), n("6"), n("7")), read(item).get("a"));

        db.put(ANY_SHAPE, item);
        update(item, "REMOVE a[1], a[3], a[9]");
        assertEquals(l(n("2"), n("4"), n("6"), n("7")), read(item).get("a"));

        // An element inside a later element is found where it was, whatever is removed before it.
        Map<String, AttributeValue> nested = stored("a", l(m("x", n("0")), m("x", n("1")), m("x", n("2"), "y", n("2"))));
        update(nested, "REMOVE a[0], a[2].x");
        assertEquals(l(m("x", n("1")), m("y", n("2"))), read(nested).get("a"));
    }

    // ---- ADD and DELETE ---------------------------------------------------------------------

    @Test
    void addAddsToNumbersCountingAMissingOneAsZero() {
        Map<String, AttributeValue> item = stored("n", n("3"), "m", m("tally", n("1")));
        update(item, "ADD n :four, fresh :minus, m.tally :four, m.more :four", ":four", n("4"), ":minus", n("-2.5"));
        assertSameItem(with(item, "n", n("7"), "fresh", n("-2.5"), "m", m("tally", n("5"), "more", n("4"))), read(item));
    }

    @Test
    void addToANonNumberIsIncorrectDataType() {
        Map<String, AttributeValue> item = stored("s", s("hi"), "ss", ss("a"), "l", l(n("1")));
        assertRefused(WRONG_TYPE, item, "ADD s :one", ":one", n("1"));
        assertRefused(WRONG_TYPE, item, "ADD ss :one", ":one", n("1"));
        assertRefused(WRONG_TYPE, item, "ADD l :set", ":set", ns("1"));
        assertRefused(WRONG_TYPE, item, "ADD ss :set", ":set", ns("1"));
        assertRefused(INVALID_PATH, item, "ADD nothere.tally :one", ":one", n("1"));
    }

    @Test
    void addUnitesSetsOfEachType() {
        Map<String, AttributeValue> item = stored("ss", ss("dog", "cat"), "ns", ns("1", "2"), "bs", bs(new int[] {1}));
        update(item, "ADD ss :ss, ns :ns, bs :bs, newSet :ss", ":ss", ss("cat", "pig"), ":ns", ns("2.0", "3"),
                ":bs", bs(new int[] {1}, new int[] {2}));
        assertSameItem(with(item, "ss", ss("dog", "cat", "pig"), "ns", ns("1", "2", "3"),
                "bs", bs(new int[] {1}, new int[] {2}), "newSet", ss("cat", "pig")), read(item));
    }

    @Test
    void deleteTakesMembersOutOfSetsAndTheLastOneTakesTheAttribute() {
        Map<String, AttributeValue> item = stored("ss", ss("dog", "cat", "mouse"), "ns", ns("1", "2"),
                "bs", bs(new int[] {1}, new int[] {2}), "single", ss("only"), "m", m("nums", ns("5", "6")));
        update(item, "DELETE ss :ss, ns :ns, bs :bs, single :last, nothere :last, m.nums :five",
                ":ss", ss("cat", "mouse", "pig"), ":ns", ns("1.0"), ":bs", bs(new int[] {2}), ":last", ss("only"),
                ":five", ns("5"));
        assertSameItem(with(without(item, "single"), "ss", ss("dog"), "ns", ns("2"), "bs", bs(new int[] {1}),
                "m", m("nums", ns("6"))), read(item));
    }

    @Test
    void addAndDeleteTakeTheEmptyStringAsASetMember() {
        Map<String, AttributeValue> item = stored("ss", ss("a"));
        update(item, "ADD ss :blank", ":blank", ss(""));
        assertSameItem(with(item, "ss", ss("a", "")), read(item));
        update(item, "DELETE ss :blank", ":blank", ss(""));
        assertSameItem(item, read(item));
    }

    @Test
    void deleteFromAnotherTypeIsIncorrectDataTypeAndUnderAMissingParentInvalid() {
        Map<String, AttributeValue> item = stored("ss", ss("a"), "s", s("a"));
        assertRefused(WRONG_TYPE, item, "DELETE ss :ns", ":ns", ns("1"));
        assertRefused(WRONG_TYPE, item, "DELETE s :ss", ":ss", ss("a"));
        assertRefused(INVALID_PATH, item, "DELETE nothere.nums :ss", ":ss", ss("a"));
    }

    // ---- items that do not exist ------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void updateOfAnAbsentItemCreatesTheKeyAndWhatTheUpdateWrites(KeyShape shape) {
        Map<String, AttributeValue> key = shape.newKey();
        UpdateItemResponse r = update(shape, key, expression("SET a = :v ADD c :one, s :set REMOVE gone",
                ":v", s("x"), ":one", n("1"), ":set", ss("m")).andThen(b -> b.returnValues(ReturnValue.ALL_NEW)));
        Map<String, AttributeValue> expected = with(key, "a", s("x"), "c", n("1"), "s", ss("m"));
        assertSameItem(expected, r.attributes());
        assertSameItem(expected, db.read(shape, key));
    }

    @Test
    void removeAloneOnAnAbsentItemCreatesNothing() {
        Map<String, AttributeValue> key = ANY_SHAPE.newKey();
        UpdateItemResponse r = update(ANY_SHAPE, key, expression("REMOVE a, x.y, z[0]")
                .andThen(b -> b.returnValues(ReturnValue.ALL_NEW)));
        assertFalse(r.hasAttributes());
        assertNull(read(key));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void updateWithoutAnyUpdateCreatesAKeyOnlyItem(KeyShape shape) {
        Map<String, AttributeValue> key = shape.newKey();
        UpdateItemResponse r = update(shape, key, b -> b.returnValues(ReturnValue.ALL_NEW));
        assertSameItem(key, r.attributes());
        assertSameItem(key, db.read(shape, key));

        Map<String, AttributeValue> legacyKey = shape.newKey();
        update(shape, legacyKey, b -> b.attributeUpdates(Map.of()));
        assertSameItem(legacyKey, db.read(shape, legacyKey));
    }

    // ---- key attributes ---------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void keyAttributesCannotBeUpdated(KeyShape shape) {
        Map<String, AttributeValue> item = shape.newItem(item("a", n("1")));
        db.put(shape, item);
        for (String keyName : shape.keyNames()) {
            String message = INVALID + "Cannot update attribute " + keyName + ". This attribute is part of the key";
            AttributeValue value = item.get(keyName);
            for (String expression : new String[] {"SET " + keyName + " = :v", "REMOVE " + keyName,
                "SET a = :v, " + keyName + ".x = :v", "ADD #k :n", "DELETE #k :ss"}) {
                assertValidation(expression, message, () -> update(shape, item, b -> {
                    b.updateExpression(expression);
                    Map<String, AttributeValue> values = new java.util.LinkedHashMap<>();
                    if (expression.contains(":v")) values.put(":v", value);
                    if (expression.contains(":n")) values.put(":n", n("1"));
                    if (expression.contains(":ss")) values.put(":ss", ss("x"));
                    if (!values.isEmpty()) b.expressionAttributeValues(values);
                    if (expression.contains("#k")) b.expressionAttributeNames(names("#k", keyName));
                }));
            }
            assertValidation(message, () -> update(shape, item, b -> b.attributeUpdates(
                    Map.of(keyName, attributeUpdate(AttributeAction.PUT, value)))));
        }
        assertSameItem(item, db.read(shape, item));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void updatingBothKeyAttributesNamesThePartitionKey(KeyShape shape) {
        Map<String, AttributeValue> key = shape.newKey();
        assertValidation(INVALID + "Cannot update attribute pk. This attribute is part of the key",
                () -> update(shape, key, "REMOVE sk, pk"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void theKeyIsCheckedAgainstTheSchemaBeforeTheUpdatedPaths(KeyShape shape) {
        Map<String, AttributeValue> key = shape.newKey();
        key.put("extra", s("x"));
        assertValidation("The provided key element does not match the schema", () -> update(shape, key, b -> b
                .tableName(db.table(shape)).key(key).updateExpression("REMOVE pk")));
    }

    // ---- overlapping and conflicting paths --------------------------------------------------

    @Test
    void overlappingOrConflictingTargetPathsAreRefused() {
        Map<String, AttributeValue> item = stored("a", m("b", n("1")));
        String overlap = "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite "
                + "one of these paths; path one: ";
        String conflict = "Invalid UpdateExpression: Two document paths conflict with each other; must remove or "
                + "rewrite one of these paths; path one: ";
        assertRefused(overlap + "[a], path two: [a]", item, "SET a = :v REMOVE a", ":v", n("1"));
        assertRefused(overlap + "[a], path two: [a]", item, "REMOVE a SET a = :v", ":v", n("1"));
        assertRefused(overlap + "[a, b], path two: [a]", item, "SET a.b = :v REMOVE a", ":v", n("1"));
        assertRefused(overlap + "[a, [1]], path two: [a, [1]]", item, "SET a[1] = :v, a[1] = :v", ":v", n("1"));
        assertRefused(overlap + "[a, b], path two: [a, b, c, d]", item, "SET a.b = :v ADD a.b.c.d :v", ":v", n("1"));
        assertRefused(conflict + "[a, b], path two: [a, [1]]", item, "SET a.b = :v, a[1] = :v", ":v", n("1"));
        assertValidation(overlap + "[a], path two: [a]", () -> update(ANY_SHAPE, item,
                expression("SET #one = :v, #two = :v", ":v", n("1")).andThen(b ->
                        b.expressionAttributeNames(names("#one", "a", "#two", "a")))));
    }

    @Test
    void siblingPathsAndPathsOnlyReadMayBeCombined() {
        Map<String, AttributeValue> item = stored("a", m("x", n("3"), "y", n("4"), "c", m("y", n("3"))),
                "b", m("x", n("1"), "y", n("2")));
        update(item, "SET a.b = :v1, a.c.d = :v2, b.x = :v3 REMOVE a.x, b.y", ":v1", n("10"), ":v2", s("dog"),
                ":v3", n("17"));
        assertSameItem(with(item, "a", m("y", n("4"), "b", n("10"), "c", m("y", n("3"), "d", s("dog"))),
                "b", m("x", n("17"))), read(item));
        update(item, "SET a = b, b = a");
        assertEquals(m("x", n("17")), read(item).get("a"));
    }

    // ---- ReturnValues -----------------------------------------------------------------------

    @Test
    void returnValuesNoneAndAllOldAndAllNew() {
        Map<String, AttributeValue> item = stored("a", s("hi"), "b", s("dog"), "d", s("foo"));
        assertNull(returned(ReturnValue.NONE, item, "SET b = :v", ":v", s("cat")));
        assertFalse(update(item, "SET b = :v", ":v", s("cat")).hasAttributes(), "NONE is the default");
        assertSameItem(with(item, "b", s("cat")), returned(ReturnValue.ALL_OLD, item, "SET b = :v", ":v", s("cow")));
        assertSameItem(with(without(item, "d"), "b", s("pig")),
                returned(ReturnValue.ALL_NEW, item, "REMOVE d SET b = :v", ":v", s("pig")));

        Map<String, AttributeValue> absent = ANY_SHAPE.newKey();
        assertNull(returned(ReturnValue.ALL_OLD, absent, "SET b = :v", ":v", s("cat")), "no old item");
    }

    @Test
    void returnValuesUpdatedOldGivesTheOldValuesOfWrittenAttributes() {
        Map<String, AttributeValue> item = stored("a", s("hi"), "b", s("dog"));
        assertSameItem(item("b", s("dog")),
                returned(ReturnValue.UPDATED_OLD, item, "SET b = :v, c = :w", ":v", s("cat"), ":w", s("hello")));
        assertSameItem(item("b", s("cat")), returned(ReturnValue.UPDATED_OLD, item, "SET b = :v", ":v", s("cat")));
        assertSameItem(item("b", s("cat")), returned(ReturnValue.UPDATED_OLD, item, "REMOVE b"));
        assertNull(returned(ReturnValue.UPDATED_OLD, item, "SET b = :v", ":v", s("cat")), "b did not exist");
        assertSameItem(item("b", s("cat")),
                returned(ReturnValue.UPDATED_OLD, item, "SET b = :v, d = :w", ":v", s("dog"), ":w", s("lion")));
        assertSameItem(item("b", s("dog"), "d", s("lion")),
                returned(ReturnValue.UPDATED_OLD, item, "SET b = :v, d = :w", ":v", s("cat"), ":w", s("tiger")));
    }

    @Test
    void returnValuesUpdatedNewGivesTheNewValuesOfWrittenAttributesButNeverTheKey() {
        Map<String, AttributeValue> item = stored("a", s("hi"), "b", s("dog"), "n", n("1"));
        assertSameItem(item("b", s("cat"), "c", s("hello")),
                returned(ReturnValue.UPDATED_NEW, item, "SET b = :v, c = :w", ":v", s("cat"), ":w", s("hello")));
        assertNull(returned(ReturnValue.UPDATED_NEW, item, "REMOVE b"), "a removed attribute is not returned");
        assertSameItem(item("a", s("dog"), "b", s("tiger")), returned(ReturnValue.UPDATED_NEW, item,
                "SET a = :v, b = :w REMOVE c", ":v", s("dog"), ":w", s("tiger")));
        assertSameItem(item("n", n("2")), returned(ReturnValue.UPDATED_NEW, item, "SET n = n + :one", ":one", n("1")));
        assertSameItem(item("n", n("3")), returned(ReturnValue.UPDATED_NEW, item, "ADD n :one", ":one", n("1")));
        assertSameItem(item("a", n("1")),
                returned(ReturnValue.UPDATED_NEW, ANY_SHAPE.newKey(), "SET a = :v", ":v", n("1")));
    }

    @Test
    void returnValuesUpdatedOldAndNewKeepTheNestingOfNestedPaths() {
        Map<String, AttributeValue> item = stored("a", m("b", s("dog"), "c", l(n("1"), n("2"), n("3"))), "d", s("cat"));
        assertSameItem(item("a", m("b", s("dog"))),
                returned(ReturnValue.UPDATED_OLD, item, "SET a.b = :v", ":v", s("yo")));
        assertSameItem(item("a", m("c", l(n("2")))),
                returned(ReturnValue.UPDATED_OLD, item, "SET a.c[1] = :v", ":v", n("7")));
        assertSameItem(item("a", m("b", s("yo"), "c", l(n("7")))),
                returned(ReturnValue.UPDATED_OLD, item, "SET a.c[1] = :v, a.b = :w", ":v", n("8"), ":w", s("dog")));
        assertSameItem(item("a", m("b", s("hello"))),
                returned(ReturnValue.UPDATED_NEW, item, "SET a.b = :v", ":v", s("hello")));
        assertSameItem(item("a", m("b", s("dog"), "c", l(n("3")))),
                returned(ReturnValue.UPDATED_NEW, item, "SET a.c[1] = :v, a.b = :w", ":v", n("3"), ":w", s("dog")));
        assertSameItem(with(item, "a", m("b", s("hi"), "c", l(n("1"), n("3"), n("3")))),
                returned(ReturnValue.ALL_NEW, item, "SET a.b = :v", ":v", s("hi")));
        // a.c[3] does not exist, so only a.c[1] was updated.
        assertSameItem(item("a", m("c", l(n("3")))), returned(ReturnValue.UPDATED_OLD, item, "REMOVE a.c[1], a.c[3]"));
        assertNull(returned(ReturnValue.UPDATED_OLD, item, "SET a.x1 = :v", ":v", n("8")), "a.x1 is new");
        assertSameItem(item("a", m("x2", n("8"))), returned(ReturnValue.UPDATED_NEW, item, "SET a.x2 = :v", ":v", n("8")));
        // An element set past the end lands elsewhere, so its path selects nothing afterwards.
        assertNull(returned(ReturnValue.UPDATED_NEW, item, "SET a.c[100] = :v", ":v", n("70")));
        // After removing a.c[1], a.c[1] is the element that moved down into its place.
        assertSameItem(item("a", m("c", l(n("70")))), returned(ReturnValue.UPDATED_NEW, item, "REMOVE a.c[1]"));
    }

    // ---- item size --------------------------------------------------------------------------

    @Test
    void updateMayGrowAnItemTo400KBButNotOneByteMore() {
        Map<String, AttributeValue> item = stored("a", s("x"));
        AttributeValue fits = DynamoSize.padded(item, 409_600).get("filler");
        update(item, "SET filler = :f", ":f", fits);
        assertEquals(409_600, DynamoSize.of(read(item)));

        AttributeValue tooBig = s(fits.s() + "a");
        assertRefused("Item size to update has exceeded the maximum allowed size", item, "SET filler = :f", ":f", tooBig);
        assertRefused("Item size to update has exceeded the maximum allowed size", item, "SET more = :m", ":m", s("a"));
    }

    // ---- whole or not at all ----------------------------------------------------------------

    @Test
    void aFailingActionLeavesTheWholeItemUnchanged() {
        Map<String, AttributeValue> item = stored("n", n("1"), "s", s("text"), "l", l(n("1")), "ss", ss("a"));
        assertRefused(MISSING_OPERAND, item, "SET a = :v, b = nothere + :v", ":v", n("1"));
        assertRefused(WRONG_TYPE, item, "SET a = :v REMOVE l[0] ADD s :v", ":v", n("1"));
        assertRefused(INVALID_PATH, item, "ADD n :v DELETE ss :ss SET s.x = :v", ":v", n("1"), ":ss", ss("a"));
        assertRefused("Item size to update has exceeded the maximum allowed size", item,
                "SET a = :v REMOVE n, l[0]", ":v", s("a".repeat(409_600)));
    }

    // ---- legacy AttributeUpdates ------------------------------------------------------------

    @Test
    void attributeUpdatesPutAddAndDelete() {
        Map<String, AttributeValue> item = stored("n", n("1"), "ss", ss("a", "b"), "l", l(n("1")), "gone", s("x"),
                "emptied", ns("1"));
        Map<String, AttributeValueUpdate> updates = new java.util.LinkedHashMap<>();
        updates.put("put", attributeUpdate(AttributeAction.PUT, s("v")));
        updates.put("defaultPut", AttributeValueUpdate.builder().value(s("w")).build());
        updates.put("n", attributeUpdate(AttributeAction.ADD, n("2.5")));
        updates.put("fresh", attributeUpdate(AttributeAction.ADD, n("-1")));
        updates.put("ss", attributeUpdate(AttributeAction.ADD, ss("b", "c")));
        updates.put("l", attributeUpdate(AttributeAction.ADD, l(n("1"), s("x"))));
        updates.put("gone", AttributeValueUpdate.builder().action(AttributeAction.DELETE).build());
        updates.put("emptied", attributeUpdate(AttributeAction.DELETE, ns("1")));
        updates.put("neverThere", AttributeValueUpdate.builder().action(AttributeAction.DELETE).build());

        update(ANY_SHAPE, item, b -> b.attributeUpdates(updates));

        Map<String, AttributeValue> expected = with(without(without(item, "gone"), "emptied"), "put", s("v"),
                "defaultPut", s("w"), "n", n("3.5"), "fresh", n("-1"), "ss", ss("a", "b", "c"),
                "l", l(n("1"), n("1"), s("x")));
        assertSameItem(expected, read(item));
    }

    /**
     * DELETE actions alone on an item that is not there create nothing (API reference,
     * AttributeValueUpdate: for an item not found, "DELETE - Nothing happens; there is no attribute
     * to delete"), as REMOVE alone does; a PUT or ADD among them creates it.
     */
    @Test
    void attributeUpdatesThatOnlyDeleteCreateNoItem() {
        Map<String, AttributeValue> absent = ANY_SHAPE.newKey();
        Map<String, AttributeValueUpdate> deletes = new java.util.LinkedHashMap<>();
        deletes.put("a", AttributeValueUpdate.builder().action(AttributeAction.DELETE).build());
        deletes.put("ss", attributeUpdate(AttributeAction.DELETE, ss("x")));
        update(ANY_SHAPE, absent, b -> b.attributeUpdates(deletes));
        assertNull(read(absent), "DELETE alone created the item");

        Map<String, AttributeValueUpdate> withPut = new java.util.LinkedHashMap<>(deletes);
        withPut.put("p", attributeUpdate(AttributeAction.PUT, s("v")));
        update(ANY_SHAPE, absent, b -> b.attributeUpdates(withPut));
        assertSameItem(with(absent, "p", s("v")), read(absent));
    }

    @Test
    void attributeUpdatesAreCheckedWithTheirOwnMessages() {
        Map<String, AttributeValue> item = stored("s", s("x"), "ss", ss("a"));
        Map<String, AttributeValueUpdate[]> cases = Map.of(
                INVALID + "Only DELETE action is allowed when no attribute value is specified",
                new AttributeValueUpdate[] {AttributeValueUpdate.builder().action(AttributeAction.PUT).build(),
                    AttributeValueUpdate.builder().action(AttributeAction.ADD).build()},
                INVALID + "DELETE action with value is not supported for the type S",
                new AttributeValueUpdate[] {attributeUpdate(AttributeAction.DELETE, s("x"))},
                INVALID + "ADD action is not supported for the type S",
                new AttributeValueUpdate[] {attributeUpdate(AttributeAction.ADD, s("x"))},
                INVALID + "ADD action is not supported for the type BOOL",
                new AttributeValueUpdate[] {attributeUpdate(AttributeAction.ADD, bool(true))},
                "Type mismatch for attribute to update",
                new AttributeValueUpdate[] {attributeUpdate(AttributeAction.ADD, n("1")),
                    attributeUpdate(AttributeAction.DELETE, ns("1"))});
        cases.forEach((message, updates) -> {
            for (AttributeValueUpdate u : updates) {
                String target = message.startsWith("Type mismatch") && u.action() == AttributeAction.DELETE ? "ss" : "s";
                assertValidation(u.toString(), message, () -> update(ANY_SHAPE, item,
                        b -> b.attributeUpdates(Map.of(target, u))));
            }
        });
        assertSameItem(item, read(item));
    }

    // ---- consumed capacity ------------------------------------------------------------------

    private static double consumedWriteUnits(Map<String, AttributeValue> keyOrItem, String expression,
                                             Object... values) {
        UpdateItemResponse r = update(ANY_SHAPE, keyOrItem, expression(expression, values)
                .andThen(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)));
        return db.totalUnits(ANY_SHAPE, r.consumedCapacity());
    }

    @Test
    void updateConsumesOneWriteUnitPerKBOfTheLargerOfOldAndNewItem() {
        Map<String, AttributeValue> key = ANY_SHAPE.newKey();
        assertEquals(1.0, consumedWriteUnits(key, "SET a = :v", ":v", s("x")), "a new tiny item");
        AttributeValue kb = DynamoSize.padded(read(key), 1024).get("filler");
        assertEquals(1.0, consumedWriteUnits(key, "SET filler = :f", ":f", kb), "exactly 1 KB");
        assertEquals(2.0, consumedWriteUnits(key, "SET b = :v", ":v", s("y")), "1 KB + 2 bytes");
        assertEquals(2.0, consumedWriteUnits(key, "REMOVE filler"), "shrinking costs the old size");
        assertEquals(1.0, consumedWriteUnits(key, "REMOVE b"), "tiny to tiny");

        UpdateItemResponse r = update(ANY_SHAPE, key, expression("SET c = :v", ":v", s("z"))
                .andThen(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)));
        assertEquals(1.0, r.consumedCapacity().capacityUnits());
        assertEquals(1.0, r.consumedCapacity().table().capacityUnits());
        assertNull(update(key, "SET c = :v", ":v", s("z")).consumedCapacity(), "not asked for");
    }

    @ParameterizedTest
    @ValueSource(strings = {"NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"})
    void everyReturnValuesOptionIsAcceptedOnAnAbsentItem(String returnValues) {
        Map<String, AttributeValue> key = ANY_SHAPE.newKey();
        UpdateItemResponse r = update(ANY_SHAPE, key, expression("SET a = :v", ":v", s("x"))
                .andThen(b -> b.returnValues(returnValues)));
        Map<String, AttributeValue> expected = switch (returnValues) {
            case "ALL_NEW" -> with(key, "a", s("x"));
            case "UPDATED_NEW" -> item("a", s("x"));
            default -> null;
        };
        assertSameItem(expected, r.hasAttributes() ? r.attributes() : null);
    }
}
