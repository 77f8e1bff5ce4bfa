package io.stator.engine.write;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.Items;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.TestEngine;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction's rules held by the engine itself, whatever front end hands it over: an item
 * named once (refused before anything is written or read), at most 4 MB.
 */
class TransactionItemsTest {

    @Test
    void transactWriteRefusesAnItemNamedTwiceAndWritesNothing(@TempDir Path directory) throws Exception {
        try (TestEngine test = TestEngine.open(directory)) {
            Engine engine = test.engine();
            TableDefinition table = test.createTable("t", false, null, null);
            List<ItemWrite> writes = List.of(
                    ItemWrite.put(table, item("pk", "other"), null, ReturnValues.NONE, false, true),
                    ItemWrite.put(table, item("pk", "a", "v", 1), null, ReturnValues.NONE, false, true),
                    ItemWrite.delete(table, item("pk", "a"), null, ReturnValues.NONE, false));
            DynamoDbException refused = assertThrows(DynamoDbException.class,
                    () -> engine.items().transactWrite(writes, null));
            assertEquals(ErrorType.VALIDATION, refused.type());
            assertEquals("Transaction request cannot include multiple operations on one item", refused.getMessage());
            assertNull(engine.items().get(table, item("pk", "other"), true, null).item());
            assertNull(engine.items().get(table, item("pk", "a"), true, null).item());
        }
    }

    @Test
    void transactGetRefusesAnItemNamedTwice(@TempDir Path directory) throws Exception {
        try (TestEngine test = TestEngine.open(directory)) {
            Engine engine = test.engine();
            TableDefinition table = test.createTable("t", false, null, null);
            DynamoDbException refused = assertThrows(DynamoDbException.class, () -> engine.items().transactGet(List.of(
                    new Items.Get(table, item("pk", "a"), null), new Items.Get(table, item("pk", "a"), null))));
            assertEquals("Transaction request cannot include multiple operations on one item", refused.getMessage());
        }
    }

    @Test
    void aFrontEndsGatheredItemsAreRefusedWhenRepeatedOrOver4MB(@TempDir Path directory) throws Exception {
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.createTable("t", false, null, null);
            TransactionItems named = new TransactionItems();
            named.name(table, item("pk", "a"));
            named.name(table, item("pk", 1)); // fits no item: its own error, passed over
            named.name(table, item("pk", 1));
            named.checkDistinct();
            named.name(ItemWrite.delete(table, item("pk", "a"), null, ReturnValues.NONE, false));
            assertEquals("Transaction request cannot include multiple operations on one item",
                    assertThrows(DynamoDbException.class, named::checkDistinct).getMessage());

            // 4 MB exactly is taken, one byte more is not.
            TransactionItems.checkPayload(TransactionItems.MAX_PAYLOAD_BYTES);
            named.carry(item("pk", "a", "v", "x"));
            named.checkPayload();
            assertEquals("Transaction payload size cannot exceed 4 MB", assertThrows(DynamoDbException.class,
                    () -> TransactionItems.checkPayload(TransactionItems.MAX_PAYLOAD_BYTES + 1)).getMessage());
        }
    }
}
