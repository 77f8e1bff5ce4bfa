package io.stator.server.api;

import static io.stator.server.testing.DynamoAssertions.assertResourceNotFound;
import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static io.stator.server.testing.ItemTables.ANY_SHAPE;
import static io.stator.server.testing.ItemTables.keyOf;
import static io.stator.server.testing.KeyShape.PARTITION_KEY;
import static io.stator.server.testing.KeyShape.SORT_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.ItemTables;
import io.stator.server.testing.KeyCases;
import io.stator.server.testing.KeyShape;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * GetItem against a running Stator, one body per key configuration where keys matter. Expected
 * texts and capacity units are DynamoDB's (docs/dynamodb/dynamodb-errors.md section 9).
 */
class GetItemTest {

    @RegisterExtension
    static final ItemTables db = new ItemTables();

    private static GetItemResponse get(KeyShape shape, Map<String, AttributeValue> key,
                                       Consumer<GetItemRequest.Builder> options) {
        return db.client().getItem(b -> {
            b.tableName(db.table(shape)).key(key);
            options.accept(b);
        });
    }

    private static double consumedReadUnits(KeyShape shape, Map<String, AttributeValue> key, boolean consistentRead) {
        GetItemResponse r = get(shape, key, b -> b.consistentRead(consistentRead)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        return db.totalUnits(shape, r.consumedCapacity());
    }

    // ---- reading ----------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void getItemReturnsTheStoredItemWithStrongAndEventualConsistency(KeyShape shape) {
        Map<String, AttributeValue> item = shape.newItem(Map.of("a", AttributeValue.fromS("x"),
                "n", AttributeValue.fromN("1.50"), "l", AttributeValue.fromL(List.of(AttributeValue.fromBool(true)))));
        db.put(shape, item);
        Map<String, AttributeValue> expected = new HashMap<>(item);
        expected.put("n", AttributeValue.fromN("1.5"));

        assertSameItem(expected, get(shape, keyOf(shape, item), b -> b.consistentRead(true)).item());
        // A write acknowledged is visible to an eventually consistent read on Stator at once.
        assertSameItem(expected, get(shape, keyOf(shape, item), b -> b.consistentRead(false)).item());
        assertSameItem(expected, get(shape, keyOf(shape, item), b -> { }).item());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void getItemOfAbsentItemAnswersWithoutItem(KeyShape shape) {
        GetItemResponse r = get(shape, shape.newKey(), b -> b.consistentRead(true));
        assertFalse(r.hasItem(), "no Item member at all");
        assertNull(r.consumedCapacity());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void getItemFindsOnlyTheItemWithThatSortKey(KeyShape shape) {
        Map<String, AttributeValue> first = shape.newItem(Map.of("which", AttributeValue.fromS("first")));
        Map<String, AttributeValue> second = new HashMap<>(first);
        second.put(SORT_KEY, shape.newKey().get(SORT_KEY));
        second.put("which", AttributeValue.fromS("second"));
        db.put(shape, first);
        db.put(shape, second);

        assertSameItem(first, get(shape, keyOf(shape, first), b -> b.consistentRead(true)).item());
        assertSameItem(second, get(shape, keyOf(shape, second), b -> b.consistentRead(true)).item());
        Map<String, AttributeValue> neither = keyOf(shape, first);
        neither.put(SORT_KEY, shape.newKey().get(SORT_KEY));
        assertFalse(get(shape, neither, b -> b.consistentRead(true)).hasItem());
    }

    // ---- keys -------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void getItemRejectsKeysThatDoNotFitTheSchema(KeyShape shape) {
        for (KeyCases.InvalidKey c : KeyCases.invalidKeys(shape)) {
            assertValidation(c.description(), c.message(), () -> get(shape, c.key(), b -> { }));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void getItemFindsItemsWithKeysAtTheLengthLimits(KeyShape shape) {
        for (Map<String, AttributeValue> key : KeyCases.longestKeys(shape)) {
            assertFalse(get(shape, key, b -> b.consistentRead(true)).hasItem());
            Map<String, AttributeValue> item = new HashMap<>(key);
            item.put("a", AttributeValue.fromS("x"));
            db.put(shape, item);
            assertSameItem(item, get(shape, key, b -> b.consistentRead(true)).item());
        }
    }

    @Test
    void getItemChecksKeyValuesBeforeLookingUpTheTable() {
        assertValidation("One or more parameter values were invalid: An string set  may not be empty",
                () -> db.client().getItem(b -> b.tableName("no-such-table").key(Map.of("a", AttributeValue.fromSs(List.of())))));
        assertValidation("The parameter cannot be converted to a numeric value: b",
                () -> db.client().getItem(b -> b.tableName("no-such-table").key(Map.of("a", AttributeValue.fromN("b")))));
    }

    @Test
    void getItemOnMissingTableIsResourceNotFound() {
        assertResourceNotFound("Requested resource not found", () -> db.client().getItem(b -> b.tableName("no-such-table")
                .key(Map.of("a", AttributeValue.fromS("x")))));
        // The key is checked against the schema only once the table is found.
        assertResourceNotFound("Requested resource not found",
                () -> db.client().getItem(b -> b.tableName("no-such-table").key(Map.of())));
    }

    // ---- AttributesToGet --------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void getItemWithAttributesToGetReturnsOnlyThoseAttributes(KeyShape shape) {
        Map<String, AttributeValue> item = shape.newItem(Map.of("b", AttributeValue.fromS("bee"),
                "g", AttributeValue.fromN("23"), "h", AttributeValue.fromS("not asked for")));
        db.put(shape, item);
        Map<String, AttributeValue> key = keyOf(shape, item);

        GetItemResponse r = get(shape, key, b -> b.attributesToGet("b", "g", "absent").consistentRead(true));
        assertSameItem(Map.of("b", item.get("b"), "g", item.get("g")), r.item());

        r = get(shape, key, b -> b.attributesToGet(PARTITION_KEY).consistentRead(true));
        assertSameItem(Map.of(PARTITION_KEY, item.get(PARTITION_KEY)), r.item());

        // The item exists, none of the attributes does: an empty Item, not a missing one.
        r = get(shape, key, b -> b.attributesToGet("absent").consistentRead(true));
        assertTrue(r.hasItem());
        assertEquals(Map.of(), r.item());
    }

    @Test
    void getItemChargesForTheWholeItemWhateverAttributesToGetAsksFor() {
        Map<String, AttributeValue> item = DynamoSize.padded(ANY_SHAPE.newKey(), 5000);
        db.put(ANY_SHAPE, item);
        GetItemResponse r = get(ANY_SHAPE, keyOf(ANY_SHAPE, item), b -> b.attributesToGet(PARTITION_KEY)
                .consistentRead(true).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(2.0, r.consumedCapacity().capacityUnits());
    }

    @Test
    void getItemRejectsDuplicateAttributesToGet() {
        assertValidation("One or more parameter values were invalid: Duplicate value in attribute name: a",
                () -> get(ANY_SHAPE, ANY_SHAPE.newKey(), b -> b.attributesToGet("a", "b", "a")));
        // Before the table is looked up.
        assertValidation("One or more parameter values were invalid: Duplicate value in attribute name: a",
                () -> db.client().getItem(b -> b.tableName("no-such-table").key(Map.of()).attributesToGet("a", "a")));
    }

    @Test
    void getItemChecksKeyValuesBeforeAttributesToGet() {
        assertValidation("The parameter cannot be converted to a numeric value: b", () -> db.client().getItem(b -> b
                .tableName("abc").key(Map.of("a", AttributeValue.fromN("b"))).attributesToGet("a", "a")));
    }

    @Test
    void getItemRejectsEmptyAttributesToGet() {
        assertValidation("1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 1",
                () -> get(ANY_SHAPE, ANY_SHAPE.newKey(), b -> b.attributesToGet(List.of())));
    }

    // ---- consumed capacity ------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void getItemConsumesOneUnitPer4KBStronglyAndHalfEventually(KeyShape shape) {
        Map<String, AttributeValue> key = shape.newKey();
        for (long[] sizeAndUnits : new long[][] {{4096, 1}, {4097, 2}, {8192, 2}, {8193, 3}, {409_600, 100}}) {
            db.put(shape, DynamoSize.padded(key, sizeAndUnits[0]));
            String what = sizeAndUnits[0] + " bytes";
            assertEquals(sizeAndUnits[1], consumedReadUnits(shape, key, true), what + ", strongly consistent");
            assertEquals(sizeAndUnits[1] / 2.0, consumedReadUnits(shape, key, false), what + ", eventually consistent");
        }
        db.put(shape, key);
        assertEquals(1.0, consumedReadUnits(shape, key, true), "a tiny item");
        assertEquals(0.5, consumedReadUnits(shape, key, false), "a tiny item");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void getItemOfAbsentItemStillConsumesTheMinimumRead(KeyShape shape) {
        assertEquals(1.0, consumedReadUnits(shape, shape.newKey(), true));
        assertEquals(0.5, consumedReadUnits(shape, shape.newKey(), false));
    }

    @Test
    void getItemReportsCapacityPerTableWithIndexes() {
        GetItemResponse r = get(ANY_SHAPE, ANY_SHAPE.newKey(),
                b -> b.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertEquals(db.table(ANY_SHAPE), r.consumedCapacity().tableName());
        assertEquals(0.5, r.consumedCapacity().capacityUnits());
        assertEquals(0.5, r.consumedCapacity().table().capacityUnits());
    }

    @Test
    void getItemReportsNoCapacityWithNone() {
        GetItemResponse r = get(ANY_SHAPE, ANY_SHAPE.newKey(), b -> b.returnConsumedCapacity(ReturnConsumedCapacity.NONE));
        assertNull(r.consumedCapacity());
    }
}
