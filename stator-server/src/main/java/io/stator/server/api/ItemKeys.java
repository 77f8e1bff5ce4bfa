package io.stator.server.api;

import io.stator.core.model.AttributeValue;
import io.stator.engine.item.ItemOperations;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import java.nio.ByteBuffer;
import java.util.Map;

/** Which item a key names, for DynamoDB's rule that a batch or transaction names each item once. */
final class ItemKeys {

    private ItemKeys() {}

    /**
     * The item a key (or a whole item) names, equal for equal keys whatever the order of their
     * attributes; null when the key does not fit the table's key schema (that is its own error).
     */
    static Object identity(TableDefinition table, Map<String, AttributeValue> keyOrItem) {
        KeySchema schema = table.keySchema();
        AttributeValue partition = keyOrItem.get(schema.partitionKey());
        if (partition == null || partition.type() != schema.partitionKeyType()) return null;
        if (schema.hasSortKey()) {
            AttributeValue sort = keyOrItem.get(schema.sortKey());
            if (sort == null || sort.type() != schema.sortKeyType()) return null;
        }
        return ByteBuffer.wrap(ItemOperations.rowKey(table, keyOrItem));
    }
}
