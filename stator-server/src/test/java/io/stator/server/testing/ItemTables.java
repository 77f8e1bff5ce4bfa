package io.stator.server.testing;

import static io.stator.server.testing.KeyShape.PARTITION_KEY;
import static io.stator.server.testing.KeyShape.SORT_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * One Stator for a whole test class, with a table of every {@link KeyShape}. Register it as a
 * static field: {@code @RegisterExtension static final ItemTables db = new ItemTables();}.
 */
public final class ItemTables implements BeforeAllCallback, AfterAllCallback {

    private StatorTestServer server;
    private Map<KeyShape, String> tables;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = StatorTestServer.start();
        tables = KeyShape.createTables(server.client());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
    }

    public DynamoDbClient client() { return server.client(); }

    /** Where the server listens, for requests sent without the SDK. */
    public java.net.URI endpoint() { return server.endpoint(); }

    /** The name of the table of that shape. */
    public String table(KeyShape shape) { return tables.get(shape); }

    /** The shape of table for tests where the key configuration does not matter. */
    public static final KeyShape ANY_SHAPE = new KeyShape(ScalarAttributeType.S, null);

    public void put(KeyShape shape, Map<String, AttributeValue> item) {
        client().putItem(b -> b.tableName(table(shape)).item(item));
    }

    /** The item with the key of {@code keyOrItem}, read strongly consistent; null when absent. */
    public Map<String, AttributeValue> read(KeyShape shape, Map<String, AttributeValue> keyOrItem) {
        GetItemResponse response = client().getItem(b -> b.tableName(table(shape))
                .key(keyOf(shape, keyOrItem)).consistentRead(true));
        return response.hasItem() ? response.item() : null;
    }

    /**
     * The units of a ConsumedCapacity returned for ReturnConsumedCapacity TOTAL, after checking
     * that it names the table of that shape and has no per-table breakdown (INDEXES only).
     */
    public double totalUnits(KeyShape shape, ConsumedCapacity consumed) {
        assertEquals(table(shape), consumed.tableName());
        assertNull(consumed.table(), "TOTAL has no per-table breakdown");
        return consumed.capacityUnits();
    }

    /** The key attributes of an item. */
    public static Map<String, AttributeValue> keyOf(KeyShape shape, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> key = new HashMap<>();
        key.put(PARTITION_KEY, item.get(PARTITION_KEY));
        if (shape.hasSortKey()) key.put(SORT_KEY, item.get(SORT_KEY));
        return key;
    }
}
