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
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * DeleteItem against a running Stator, one body per key configuration where keys matter.
 * Expected texts and capacity units are DynamoDB's (docs/dynamodb/dynamodb-errors.md section 9).
 */
class DeleteItemTest {

    @RegisterExtension
    static final ItemTables db = new ItemTables();

    private static DeleteItemResponse delete(KeyShape shape, Map<String, AttributeValue> key) {
        return delete(shape, key, b -> { });
    }

    private static DeleteItemResponse delete(KeyShape shape, Map<String, AttributeValue> key,
                                             Consumer<DeleteItemRequest.Builder> options) {
        return db.client().deleteItem(b -> {
            b.tableName(db.table(shape)).key(key);
            options.accept(b);
        });
    }

    private static double consumedWriteUnits(KeyShape shape, Map<String, AttributeValue> key) {
        DeleteItemResponse r = delete(shape, key, b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        return db.totalUnits(shape, r.consumedCapacity());
    }

    // ---- deleting ---------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void deleteItemRemovesTheItem(KeyShape shape) {
        Map<String, AttributeValue> item = shape.newItem(Map.of("a", AttributeValue.fromS("x")));
        db.put(shape, item);

        DeleteItemResponse r = delete(shape, keyOf(shape, item));

        assertFalse(r.hasAttributes(), "DeleteItem answers {} by default");
        assertNull(r.consumedCapacity());
        assertNull(db.read(shape, keyOf(shape, item)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void deleteItemRemovesOnlyTheItemWithThatSortKey(KeyShape shape) {
        Map<String, AttributeValue> first = shape.newItem(Map.of());
        Map<String, AttributeValue> second = new HashMap<>(first);
        second.put(SORT_KEY, shape.newKey().get(SORT_KEY));
        db.put(shape, first);
        db.put(shape, second);

        delete(shape, keyOf(shape, first));

        assertNull(db.read(shape, keyOf(shape, first)));
        assertSameItem(second, db.read(shape, second));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void deleteItemOfAbsentItemSucceeds(KeyShape shape) {
        DeleteItemResponse r = delete(shape, shape.newKey(), b -> b.returnValues(ReturnValue.ALL_OLD));
        assertFalse(r.hasAttributes(), "nothing was deleted, so no Attributes");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void deleteItemReturnsTheDeletedItemWithAllOld(KeyShape shape) {
        Map<String, AttributeValue> item = shape.newItem(Map.of("b", AttributeValue.fromN("-0015.789e6"),
                "ss", AttributeValue.fromSs(List.of("x", "y"))));
        db.put(shape, item);

        DeleteItemResponse r = delete(shape, keyOf(shape, item), b -> b.returnValues(ReturnValue.ALL_OLD));

        Map<String, AttributeValue> expected = new HashMap<>(item);
        expected.put("b", AttributeValue.fromN("-15789000"));
        assertSameItem(expected, r.attributes());
        assertNull(db.read(shape, keyOf(shape, item)));
        assertFalse(delete(shape, keyOf(shape, item), b -> b.returnValues(ReturnValue.ALL_OLD)).hasAttributes(),
                "the second delete finds nothing");
    }

    @Test
    void deleteItemReturnsNothingWithReturnValuesNone() {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(Map.of("a", AttributeValue.fromS("x")));
        db.put(ANY_SHAPE, item);
        assertFalse(delete(ANY_SHAPE, keyOf(ANY_SHAPE, item), b -> b.returnValues(ReturnValue.NONE)).hasAttributes());
        assertNull(db.read(ANY_SHAPE, keyOf(ANY_SHAPE, item)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"})
    void deleteItemRejectsReturnValuesOtherThanAllOldOrNone(String returnValues) {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(Map.of());
        db.put(ANY_SHAPE, item);
        assertValidation("ReturnValues can only be ALL_OLD or NONE",
                () -> delete(ANY_SHAPE, item, b -> b.returnValues(returnValues)));
        assertSameItem(item, db.read(ANY_SHAPE, item));
    }

    // ---- keys -------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void deleteItemRejectsKeysThatDoNotFitTheSchema(KeyShape shape) {
        for (KeyCases.InvalidKey c : KeyCases.invalidKeys(shape)) {
            assertValidation(c.description(), c.message(), () -> delete(shape, c.key()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void deleteItemDeletesItemsWithKeysAtTheLengthLimits(KeyShape shape) {
        for (Map<String, AttributeValue> key : KeyCases.longestKeys(shape)) {
            db.put(shape, key);
            delete(shape, key);
            assertNull(db.read(shape, key));
        }
    }

    @Test
    void deleteItemChecksKeyValuesBeforeLookingUpTheTable() {
        assertValidation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes",
                () -> db.client().deleteItem(b -> b.tableName("no-such-table")
                        .key(Map.of("a", AttributeValue.builder().build()))));
    }

    @Test
    void deleteItemOnMissingTableIsResourceNotFound() {
        assertResourceNotFound("Requested resource not found", () -> db.client().deleteItem(b -> b.tableName("no-such-table")
                .key(Map.of("a", AttributeValue.fromS("x")))));
        assertResourceNotFound("Requested resource not found",
                () -> db.client().deleteItem(b -> b.tableName("no-such-table").key(Map.of())));
    }

    // ---- consumed capacity ------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void deleteItemConsumesOneWriteUnitPerKBOfTheDeletedItem(KeyShape shape) {
        Map<String, AttributeValue> key = shape.newKey();
        for (long[] sizeAndUnits : new long[][] {{1024, 1}, {1025, 2}, {1536, 2}, {409_600, 400}}) {
            db.put(shape, DynamoSize.padded(key, sizeAndUnits[0]));
            assertEquals(sizeAndUnits[1], consumedWriteUnits(shape, key), sizeAndUnits[0] + " bytes");
        }
        assertEquals(1.0, consumedWriteUnits(shape, key), "deleting an absent item");
    }

    @Test
    void deleteItemReportsCapacityPerTableWithIndexes() {
        Map<String, AttributeValue> key = ANY_SHAPE.newKey();
        db.put(ANY_SHAPE, DynamoSize.padded(key, 2049));
        DeleteItemResponse r = delete(ANY_SHAPE, key, b -> b.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertEquals(db.table(ANY_SHAPE), r.consumedCapacity().tableName());
        assertEquals(3.0, r.consumedCapacity().capacityUnits());
        assertEquals(3.0, r.consumedCapacity().table().capacityUnits());
    }

    @Test
    void deleteItemReportsNoCapacityWithNone() {
        DeleteItemResponse r = delete(ANY_SHAPE, ANY_SHAPE.newKey(),
                b -> b.returnConsumedCapacity(ReturnConsumedCapacity.NONE));
        assertNull(r.consumedCapacity());
    }
}
