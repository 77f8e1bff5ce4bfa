package io.stator.engine.write;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemLimits;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.TestEngine;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's put holds every item to DynamoDB's limits, whichever writer hands it over: 400 KB
 * at the edge and one byte past it, 32 levels of nesting and one more.
 */
class ItemWriteLimitsTest {

    @Test
    void aPutIsHeldTo400KBAtTheEdgeAndOneBytePast(@TempDir Path directory) throws Exception {
        try (TestEngine test = TestEngine.open(directory)) {
            Engine engine = test.engine();
            TableDefinition table = test.createTable("t", false, null, null);
            int room = (int) (ItemSize.MAX_ITEM_SIZE - ItemSize.of(item("pk", "edge", "v", "")));
            Map<String, AttributeValue> edge = item("pk", "edge", "v", "x".repeat(room));
            assertEquals(ItemSize.MAX_ITEM_SIZE, ItemSize.of(edge));
            engine.items().write(ItemWrite.put(table, edge, null, ReturnValues.NONE, false, false));
            assertEquals(edge, engine.items().get(table, item("pk", "edge"), true, null).item());

            Map<String, AttributeValue> past = item("pk", "past", "v", "x".repeat(room + 1));
            DynamoDbException refused = assertThrows(DynamoDbException.class,
                    () -> ItemWrite.put(table, past, null, ReturnValues.NONE, false, false));
            assertEquals("Item size has exceeded the maximum allowed size", refused.getMessage());
            assertNull(engine.items().get(table, item("pk", "past"), true, null).item());
        }
    }

    @Test
    void aPutIsHeldTo32LevelsOfNesting(@TempDir Path directory) throws Exception {
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.createTable("t", false, null, null);
            ItemWrite.put(table, item("pk", "a", "doc", nested(ItemLimits.MAX_NESTING_LEVELS - 1)), null,
                    ReturnValues.NONE, false, false);
            Map<String, AttributeValue> tooDeep = item("pk", "a", "doc", nested(ItemLimits.MAX_NESTING_LEVELS));
            DynamoDbException refused = assertThrows(DynamoDbException.class,
                    () -> ItemWrite.put(table, tooDeep, null, ReturnValues.NONE, false, false));
            assertEquals("Nesting Levels have exceeded supported limits: "
                    + "Attributes in the item have nested levels beyond supported limit", refused.getMessage());
        }
    }

    /** A string inside {@code maps} maps: the attribute holding it is nested maps + 1 levels deep. */
    private static AttributeValue nested(int maps) {
        AttributeValue value = new AttributeValue.S("x");
        for (int i = 0; i < maps; i++) value = new AttributeValue.M(Map.of("m", value));
        return value;
    }
}
