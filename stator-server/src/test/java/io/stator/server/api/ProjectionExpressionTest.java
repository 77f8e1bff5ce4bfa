package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.l;
import static io.stator.server.testing.Attrs.m;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.names;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Attrs.ss;
import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static io.stator.server.testing.ItemTables.ANY_SHAPE;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.ItemTables;
import io.stator.server.testing.KeyShape;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * ProjectionExpression and the legacy AttributesToGet on GetItem, against a running Stator. The
 * shape of the result is DynamoDB's: nesting is kept, several indexes into one list come back as
 * one compacted list in index order, and paths that lead nowhere are left out (dynalite's and
 * Scylla's suites, run against DynamoDB; docs/dynamodb/expressions.md section 6).
 */
class ProjectionExpressionTest {

    private static final String INVALID_PROJECTION = "Invalid ProjectionExpression: ";

    @RegisterExtension
    static final ItemTables db = new ItemTables();

    /** An item with nested maps and lists to project. */
    private static final Map<String, AttributeValue> ATTRIBUTES = item(
            "a", m("b", l(m("c", n("1"), "d", n("2")), m("c", n("3"), "e", n("4"))), "x", s("top")),
            "l", l(s("l0"), s("l1"), s("l2"), s("l3")),
            "c", l(m("b", n("0")), s("c1"), s("c2")),
            "bb", m("a", s("ba"), "b", s("bb"), "c", s("bc")),
            "s", s("text"), "ss", ss("x", "y"), "a.b", s("dotted"), "name", s("reserved"));

    private static Map<String, AttributeValue> stored() {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(ATTRIBUTES);
        db.put(ANY_SHAPE, item);
        return item;
    }

    private static GetItemResponse get(Map<String, AttributeValue> keyOrItem, Consumer<GetItemRequest.Builder> options) {
        return db.client().getItem(b -> {
            b.tableName(db.table(ANY_SHAPE)).key(ItemTables.keyOf(ANY_SHAPE, keyOrItem));
            options.accept(b);
        });
    }

    private static Map<String, AttributeValue> projected(Map<String, AttributeValue> item, String projection) {
        return get(item, b -> b.projectionExpression(projection)).item();
    }

    // ---- the shape of the result ------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void projectionReturnsOnlyTheNamedAttributes(KeyShape shape) {
        Map<String, AttributeValue> item = shape.newItem(ATTRIBUTES);
        db.put(shape, item);
        GetItemResponse r = db.client().getItem(b -> b.tableName(db.table(shape)).key(ItemTables.keyOf(shape, item))
                .projectionExpression("s, ss"));
        assertSameItem(item("s", s("text"), "ss", ss("x", "y")), r.item());
        GetItemResponse keys = db.client().getItem(b -> b.tableName(db.table(shape)).key(ItemTables.keyOf(shape, item))
                .projectionExpression(String.join(", ", shape.keyNames())));
        assertSameItem(ItemTables.keyOf(shape, item), keys.item());
    }

    @Test
    void projectionKeepsTheNestingOfNestedPaths() {
        Map<String, AttributeValue> item = stored();
        assertSameItem(item("a", m("b", l(m("c", n("3"))))), projected(item, "a.b[1].c"));
        assertSameItem(item("a", m("x", s("top"))), projected(item, "a.x"));
        assertSameItem(item("a", m("b", l(m("c", n("1"), "d", n("2"))))), projected(item, "a.b[0]"));
    }

    @Test
    void severalIndexesIntoOneListAreCompactedInIndexOrder() {
        Map<String, AttributeValue> item = stored();
        assertSameItem(item("l", l(s("l0"), s("l2"))), projected(item, "l[2], l[0]"));
        assertSameItem(item("l", l(s("l1"), s("l3"))), projected(item, "l[3], l[9], l[1]"));
        // c[0] has no member a, so it is left out; b.c and b.b come back as one map (dynalite's case).
        assertSameItem(item("bb", m("b", s("bb"), "c", s("bc")), "c", l(s("c1"), s("c2"))),
                projected(item, "bb.c, c[2], bb.b, c[1], c[0].a"));
    }

    @Test
    void pathsUnderOneListElementAreMerged() {
        Map<String, AttributeValue> item = stored();
        assertSameItem(item("a", m("b", l(m("c", n("1"), "d", n("2")), m("e", n("4"))))),
                projected(item, "a.b[0].c, a.b[1].e, a.b[0].d"));
    }

    @Test
    void pathsThatLeadNowhereAreLeftOut() {
        Map<String, AttributeValue> item = stored();
        assertSameItem(item("s", s("text")), projected(item, "s, nothere, a.nothere, l[9], a.b[5].c"));
        for (String intoTheWrongKind : List.of("a[0]", "s.x", "s[0]", "l[0].x", "ss[0]")) {
            assertSameItem(Map.of(), projected(item, intoTheWrongKind));
        }
        GetItemResponse none = get(item, b -> b.projectionExpression("nothere, a.b[7]"));
        assertTrue(none.hasItem(), "an existing item answers Item even when nothing is projected");
        assertSameItem(Map.of(), none.item());
    }

    @Test
    void anAbsentItemHasNoItem() {
        assertFalse(get(ANY_SHAPE.newKey(), b -> b.projectionExpression("a, b.c")).hasItem());
    }

    // ---- placeholders and reserved words ----------------------------------------------------

    @Test
    void placeholdersStandForOneWholeName() {
        Map<String, AttributeValue> item = stored();
        assertSameItem(item("a.b", s("dotted")),
                get(item, b -> b.projectionExpression("#ab").expressionAttributeNames(names("#ab", "a.b"))).item());
        assertSameItem(item("a", m("x", s("top")), "name", s("reserved")), get(item, b -> b
                .projectionExpression("#a.#x, #n").expressionAttributeNames(names("#a", "a", "#x", "x", "#n", "name")))
                .item());
    }

    /** Reserved words are refused in any case and at any depth, before paths are compared. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"name|name", "Size, Size|Size", "s, a.Count|Count", "l[0].data|data"})
    void reservedWordsAreRefused(String projection, String word) {
        assertValidation(INVALID_PROJECTION + "Attribute name is a reserved keyword; reserved keyword: " + word,
                () -> projected(stored(), projection));
    }

    @Test
    void unusedNamesAreRefused() {
        assertValidation("Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}",
                () -> get(stored(), b -> b.projectionExpression("#a").expressionAttributeNames(names("#a", "a", "#b", "b"))));
    }

    @Test
    void overlappingOrConflictingPathsAreRefused() {
        String overlap = INVALID_PROJECTION + "Two document paths overlap with each other; must remove or rewrite one "
                + "of these paths; path one: ";
        Map<String, AttributeValue> item = stored();
        assertValidation(overlap + "[a], path two: [a]", () -> projected(item, "a, a"));
        assertValidation(overlap + "[a, b], path two: [a]", () -> projected(item, "a.b, a"));
        assertValidation(overlap + "[l], path two: [l, [0]]", () -> projected(item, "l, l[0]"));
        assertValidation(overlap + "[a], path two: [a]",
                () -> get(item, b -> b.projectionExpression("#x, #y").expressionAttributeNames(names("#x", "a", "#y", "a"))));
        assertValidation(INVALID_PROJECTION + "Two document paths conflict with each other; must remove or rewrite one "
                + "of these paths; path one: [a, b], path two: [a, [0]]", () -> projected(item, "a.b, a[0]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void projectionCannotReachIntoKeyAttributes(KeyShape shape) {
        for (String keyName : shape.keyNames()) {
            for (String path : List.of(keyName + ".x", keyName + "[0]")) {
                assertValidation("Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
                        + "allowed: Key: " + keyName, () -> db.client().getItem(b -> b.tableName(db.table(shape))
                        .key(shape.newKey()).projectionExpression(path)));
            }
        }
    }

    // ---- AttributesToGet --------------------------------------------------------------------

    @Test
    void attributesToGetNamesTopLevelAttributesOnly() {
        Map<String, AttributeValue> item = stored();
        assertSameItem(item("s", s("text"), "a.b", s("dotted"), "name", s("reserved")),
                get(item, b -> b.attributesToGet("s", "a.b", "name", "nothere")).item());
        GetItemResponse none = get(item, b -> b.attributesToGet("nothere"));
        assertTrue(none.hasItem());
        assertSameItem(Map.of(), none.item());
    }

    @Test
    void attributesToGetMayNotNameAnAttributeTwice() {
        assertValidation("One or more parameter values were invalid: Duplicate value in attribute name: s",
                () -> get(stored(), b -> b.attributesToGet("s", "a", "s")));
    }

    @Test
    void attributesToGetAndProjectionExpressionCannotBeMixed() {
        assertValidation("Can not use both expression and non-expression parameters in the same request: "
                + "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}",
                () -> get(stored(), b -> b.attributesToGet("s").projectionExpression("s")));
    }
}
