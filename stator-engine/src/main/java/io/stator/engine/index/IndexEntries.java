package io.stator.engine.index;

import io.stator.core.error.DynamoDbException;
import io.stator.core.item.ItemCodec;
import io.stator.core.item.ItemSize;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.Utf8;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.IndexDefinition.KeyAttribute;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an item puts in each secondary index: an entry under the index key (with the table key
 * appended, so entries stay unique), holding the projected attributes; nothing when the item
 * lacks one of the index key attributes (a sparse index). Also DynamoDB's checks on the values
 * an item gives its index keys.
 */
public final class IndexEntries {

    private IndexEntries() {}

    /** The item's entry in the index, or null when the item is absent or not in the index. */
    public static IndexEntry entry(TableDefinition table, IndexDefinition index, Map<String, AttributeValue> item) {
        if (item == null) return null;
        if (index.isVector()) return VectorEntries.entry(table, index, item);
        List<AttributeValue> partition = parts(index.partitionKey(), item, PrimaryKeys.MAX_PARTITION_KEY_BYTES);
        if (partition == null) return null;
        List<AttributeValue> sort = parts(index.sortKey(), item, PrimaryKeys.MAX_SORT_KEY_BYTES);
        if (sort == null) return null;
        KeySchema tableKey = table.keySchema();
        byte[] key = KeyLayout.encodeIndexEntryKey(table.partitionHash(), table.id(), index.id(), partition, sort,
                item.get(tableKey.partitionKey()), tableKey.hasSortKey() ? item.get(tableKey.sortKey()) : null);
        Map<String, AttributeValue> projected = project(table, index, item);
        return new IndexEntry(key, ItemCodec.encode(projected), ItemSize.of(projected));
    }

    /**
     * The item's values of these index key attributes, or null when it lacks one or holds one the
     * index cannot take: of another type, an empty string or binary, or longer than a key of its
     * role may be. Writes are refused such values ({@link #checkItem}), but an item written before
     * the index existed may hold one; DynamoDB's backfill leaves such an item out of the index
     * ("the items remain in the table, but the index doesn't have a corresponding entry",
     * developer guide, GSI.OnlineOps.ViolationDetection.html).
     */
    private static List<AttributeValue> parts(List<KeyAttribute> keys, Map<String, AttributeValue> item, int maxBytes) {
        List<AttributeValue> parts = new ArrayList<>(keys.size());
        for (KeyAttribute k : keys) {
            AttributeValue v = item.get(k.name());
            if (v == null || v.type() != k.type() || isEmpty(v) || tooLong(v, maxBytes)) return null;
            parts.add(v);
        }
        return parts;
    }

    private static boolean isEmpty(AttributeValue v) {
        return v instanceof AttributeValue.S s ? s.value().isEmpty() : v instanceof AttributeValue.B b && b.value().length == 0;
    }

    /** Whether a key value is longer than {@code maxBytes} (a string of few characters is not measured). */
    private static boolean tooLong(AttributeValue v, int maxBytes) {
        if (v instanceof AttributeValue.S s && s.value().length() * 3L <= maxBytes) return false;
        return bytes(v) > maxBytes;
    }

    /** A key value's length as its limits count it: UTF-8 bytes, binary bytes (numbers always fit). */
    private static int bytes(AttributeValue v) {
        return switch (v) {
            case AttributeValue.S s -> Utf8.encodedLength(s.value());
            case AttributeValue.B b -> b.value().length;
            default -> 0;
        };
    }

    /** The attributes an index entry holds: all, or the keys (table and index) plus INCLUDE's. */
    public static Map<String, AttributeValue> project(TableDefinition table, IndexDefinition index,
                                                      Map<String, AttributeValue> item) {
        if (index.projectionType() == IndexDefinition.ProjectionType.ALL) return item;
        Map<String, AttributeValue> projected = new LinkedHashMap<>();
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            if (index.projects(e.getKey(), table.keySchema())) projected.put(e.getKey(), e.getValue());
        }
        return projected;
    }

    /**
     * DynamoDB's checks on the index key values of an item written whole (PutItem): of the
     * declared type, and not an empty string or binary ({@link EmptyIndexKeyException}).
     */
    public static void checkItem(TableDefinition table, Map<String, AttributeValue> item) {
        check(table, null, item, false);
    }

    /**
     * The same checks on the index key attributes an update changed. Only those: an item written
     * before an index existed may hold a value the index cannot take (the backfill left it out),
     * and updates of its other attributes are accepted (dynalite's validateUpdates checks the
     * updated attributes only). An empty value gets UpdateItem's own message, which names no
     * index (real AWS texts, docs/dynamodb/indexes.md §4.2).
     */
    public static void checkUpdate(TableDefinition table, Map<String, AttributeValue> oldItem,
                                   Map<String, AttributeValue> newItem) {
        check(table, oldItem, newItem, true);
    }

    private static void check(TableDefinition table, Map<String, AttributeValue> oldItem,
                              Map<String, AttributeValue> item, boolean update) {
        // When an attribute keys several indexes, DynamoDB names the alphabetically first (real
        // AWS texts, docs/dynamodb/indexes.md §4.1): of the indexes a bad value fails, the one
        // with the least name is reported. Nothing is sorted or allocated when every value is good.
        Failure failure = firstFailure(table.globalIndexes(), null, oldItem, item, update);
        failure = firstFailure(table.localIndexes(), failure, oldItem, item, update);
        if (failure == null) {
            if (!table.vectorIndexes().isEmpty()) VectorEntries.check(table, update ? oldItem : null, item);
            return;
        }
        IndexDefinition failed = failure.index();
        KeyAttribute failedKey = failure.key();
        AttributeValue v = item.get(failedKey.name());
        if (v.type() != failedKey.type()) {
            throw DynamoDbException.invalidParameter("Type mismatch for Index Key " + failedKey.name() + " Expected: "
                    + failedKey.type() + " Actual: " + v.type() + " IndexName: " + failed.name());
        }
        if (!isEmpty(v)) {
            // Too long for its role: a real AWS text (wellcomecollection/platform#2285, SDK v2: "Size
            // limit exceeded for Index Key componentId Actual Size: 2175 bytes Max Size: 2048 bytes
            // IndexName: work-sets-index"; architect/dynalite#35); a sort key's, with its 1,024, by analogy.
            throw DynamoDbException.invalidParameter("Size limit exceeded for Index Key " + failedKey.name()
                    + " Actual Size: " + bytes(v) + " bytes Max Size: " + maxBytes(failed, failedKey)
                    + " bytes IndexName: " + failed.name());
        }
        String type = v instanceof AttributeValue.S ? "string" : "binary";
        throw new EmptyIndexKeyException(update
                ? "One or more parameter values are not valid. The update expression attempted to update "
                        + "a secondary index key to a value that is not supported. The AttributeValue for "
                        + "a key attribute cannot contain an empty " + type + " value."
                : "One or more parameter values are not valid. A value specified for a secondary index "
                        + "key is not supported. The AttributeValue for a key attribute cannot contain an "
                        + "empty " + type + " value. IndexName: " + failed.name() + ", IndexKey: " + failedKey.name());
    }

    /** An index key attribute whose value an index cannot take. */
    private record Failure(IndexDefinition index, KeyAttribute key) {}

    /** The failure of least index name among {@code indexes} and {@code best} (null for none). */
    private static Failure firstFailure(List<IndexDefinition> indexes, Failure best, Map<String, AttributeValue> oldItem,
                                        Map<String, AttributeValue> item, boolean update) {
        for (IndexDefinition index : indexes) {
            if (best != null && index.name().compareTo(best.index().name()) > 0) continue;
            for (KeyAttribute k : index.keyAttributes()) {
                if (invalid(index, k, oldItem, item, update)) {
                    best = new Failure(index, k);
                    break;
                }
            }
        }
        return best;
    }

    /** A key value's largest length in this index: 2,048 bytes in its partition key, 1,024 in its sort key. */
    private static int maxBytes(IndexDefinition index, KeyAttribute k) {
        return index.partitionKey().contains(k) ? PrimaryKeys.MAX_PARTITION_KEY_BYTES : PrimaryKeys.MAX_SORT_KEY_BYTES;
    }

    /**
     * Whether the item's value for this index key attribute is of another type, empty or too long
     * (an update checks what it changed only).
     */
    private static boolean invalid(IndexDefinition index, KeyAttribute k, Map<String, AttributeValue> oldItem,
                                   Map<String, AttributeValue> item, boolean update) {
        AttributeValue v = item.get(k.name());
        if (v == null || (update && oldItem != null && v.equals(oldItem.get(k.name())))) return false;
        if (v.type() != k.type()) return true;
        return isEmpty(v) || tooLong(v, maxBytes(index, k));
    }
}
