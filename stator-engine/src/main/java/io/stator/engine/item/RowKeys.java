package io.stator.engine.item;

import io.stator.core.key.KeyEncoding;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import java.util.LinkedHashMap;
import java.util.Map;

/** Where an item is stored ({@link KeyLayout}) and which item collection it belongs to. */
public final class RowKeys {

    private RowKeys() {}

    /** The storage key of the item with these key attributes (an item or a Key parameter). */
    public static byte[] of(TableDefinition table, Map<String, AttributeValue> keyOrItem) {
        KeySchema schema = table.keySchema();
        AttributeValue partition = keyOrItem.get(schema.partitionKey());
        AttributeValue sort = schema.hasSortKey() ? keyOrItem.get(schema.sortKey()) : null;
        return KeyLayout.encodeItemKey(table.partitionHash(), table.id(), KeyLayout.BASE_TABLE_INDEX_ID, partition, sort);
    }

    /** An item's partition key value, encoded: what names its item collection within the table. */
    public static byte[] partitionKey(TableDefinition table, Map<String, AttributeValue> item) {
        return KeyEncoding.encode(item.get(table.keySchema().partitionKey()));
    }

    /** The primary key attributes of an item (a LastEvaluatedKey, a stream record's Keys). */
    public static Map<String, AttributeValue> keyOf(KeySchema schema, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> key = new LinkedHashMap<>(2);
        key.put(schema.partitionKey(), item.get(schema.partitionKey()));
        if (schema.hasSortKey()) key.put(schema.sortKey(), item.get(schema.sortKey()));
        return key;
    }
}
