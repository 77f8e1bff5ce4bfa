package io.stator.engine.item;

import io.stator.core.item.ItemCodec;
import io.stator.core.item.PageSize;
import io.stator.core.item.StoredItem;
import io.stator.core.key.KeyLayout;
import io.stator.core.key.KeyRange;
import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.CapacityUnits;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.storage.Cursor;
import io.stator.engine.storage.Keyspace;
import io.stator.engine.storage.Snapshot;
import io.stator.engine.storage.Storage;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Query and Scan, one page at a time, as DynamoDB pages them:
 * <ul>
 *   <li>a page ends after {@code Limit} items were read, or once the items read reach 1 MB
 *       (measured as DynamoDB measures pages, see {@link PageSize}; the item that reaches it is
 *       part of the page), whichever comes first; both count items before the filter, which only
 *       decides what is returned (so ScannedCount can be far above Count);</li>
 *   <li>a page that ended early carries LastEvaluatedKey, the key of the last item read, even
 *       when no item follows it (DynamoDB does not look ahead);</li>
 *   <li>the page reads one consistent snapshot and walks the key range with a cursor: memory is
 *       bounded by the page, never by the table;</li>
 *   <li>capacity is charged for the items read, by their documented sizes summed over the page,
 *       4 KB a unit, with the minimum of one read when nothing was read.</li>
 * </ul>
 * Rows are in key order (see {@code KeyLayout}): for a Query, one partition in sort-key order;
 * for a Scan, partitions in hash order, and a parallel-scan segment is a contiguous hash range.
 */
public final class PageReader {

    private final Storage storage;

    public PageReader(Storage storage) {
        this.storage = storage;
    }

    /**
     * One page of a query or scan.
     *
     * @param items            the items that passed the filter, in order
     * @param scannedCount     the items read
     * @param lastEvaluatedKey the key to continue from, or null when the range is exhausted
     */
    public record Page(List<Map<String, AttributeValue>> items, int scannedCount,
                       Map<String, AttributeValue> lastEvaluatedKey, ConsumedCapacity consumed) {}

    /** Query: the items of one partition, optionally narrowed by a sort-key condition. */
    public Page query(TableDefinition table, AttributeValue partitionKey, SortKeyCondition sortKey, boolean forward,
                      Map<String, AttributeValue> exclusiveStartKey, int limit, boolean consistentRead,
                      Predicate<Map<String, AttributeValue>> filter) {
        KeyRange range = sortKeyRange(table, partitionKey, sortKey);
        return read(new Source(table, null, false), range, forward, exclusiveStartKey, limit, consistentRead, filter);
    }

    /** Scan: the whole table, or one segment of a parallel scan. */
    public Page scan(TableDefinition table, int segment, int totalSegments, Map<String, AttributeValue> exclusiveStartKey,
                     int limit, boolean consistentRead, Predicate<Map<String, AttributeValue>> filter) {
        KeyRange range = KeyLayout.segmentBounds(table.id(), ItemOperations.BASE_TABLE, segment, totalSegments);
        return read(new Source(table, null, false), range, true, exclusiveStartKey, limit, consistentRead, filter);
    }

    /**
     * Query on a secondary index: the entries of one index partition (equality on every
     * partition-key attribute), narrowed by equality on the first sort-key attributes and a
     * condition on the next one, in sort-key order, attribute by attribute.
     *
     * @param fetchFromTable read each entry's item from the table (a local index asked for
     *                       attributes it does not project), billed to the table
     */
    public Page queryIndex(TableDefinition table, IndexDefinition index, List<AttributeValue> partitionKey,
                           List<AttributeValue> sortKeyPrefix, SortKeyCondition sortKey, boolean forward,
                           Map<String, AttributeValue> exclusiveStartKey, int limit, boolean consistentRead,
                           boolean fetchFromTable, Predicate<Map<String, AttributeValue>> filter) {
        byte[] prefix = concat(KeyLayout.indexPartitionPrefix(table.id(), index.id(), partitionKey),
                KeyLayout.components(sortKeyPrefix));
        KeyRange range = componentRange(prefix, sortKey);
        return read(new Source(table, index, fetchFromTable), range, forward, exclusiveStartKey, limit, consistentRead,
                filter);
    }

    /** Scan of a secondary index (or a segment of it). */
    public Page scanIndex(TableDefinition table, IndexDefinition index, int segment, int totalSegments,
                          Map<String, AttributeValue> exclusiveStartKey, int limit, boolean consistentRead,
                          boolean fetchFromTable, Predicate<Map<String, AttributeValue>> filter) {
        KeyRange range = KeyLayout.segmentBounds(table.id(), index.id(), segment, totalSegments);
        return read(new Source(table, index, fetchFromTable), range, true, exclusiveStartKey, limit, consistentRead,
                filter);
    }

    /** What a page reads: the table's items, or an index's entries (and maybe their items). */
    private record Source(TableDefinition table, IndexDefinition index, boolean fetchFromTable) {

        /** The row key of a start key: an item's, or an index entry's (index key, then table key). */
        byte[] rowKey(Map<String, AttributeValue> key) {
            if (index == null) return ItemOperations.rowKey(table, key);
            KeySchema t = table.keySchema();
            return KeyLayout.encodeIndexEntryKey(table.id(), index.id(), values(index.partitionKey(), key),
                    values(index.sortKey(), key), key.get(t.partitionKey()), t.hasSortKey() ? key.get(t.sortKey()) : null);
        }

        /** LastEvaluatedKey: the table's key, and on an index the index's key too. */
        Map<String, AttributeValue> keyOf(Map<String, AttributeValue> row) {
            Map<String, AttributeValue> key = PageReader.keyOf(table.keySchema(), row);
            if (index != null) {
                for (IndexDefinition.KeyAttribute k : index.keyAttributes()) key.put(k.name(), row.get(k.name()));
            }
            return key;
        }

        private static List<AttributeValue> values(List<IndexDefinition.KeyAttribute> keys,
                                                   Map<String, AttributeValue> item) {
            List<AttributeValue> values = new ArrayList<>(keys.size());
            for (IndexDefinition.KeyAttribute k : keys) values.add(item.get(k.name()));
            return values;
        }
    }

    private Page read(Source source, KeyRange range, boolean forward, Map<String, AttributeValue> exclusiveStartKey,
                      int limit, boolean consistentRead, Predicate<Map<String, AttributeValue>> filter) {
        TableDefinition table = source.table();
        byte[] from = range.from();
        byte[] to = range.to();
        if (exclusiveStartKey != null) {
            byte[] start = source.rowKey(exclusiveStartKey);
            if (forward) from = max(from, KeyLayout.successor(start));
            else to = min(to, start);
        }
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        int scanned = 0;
        long pageBytes = 0;
        long bytesRead = 0;
        long bytesFetched = 0;
        String sortKey = table.keySchema().sortKey();
        Map<String, AttributeValue> last = null;
        boolean stoppedEarly = false;
        if (Arrays.compareUnsigned(from, to) < 0) {
            try (Snapshot snapshot = storage.snapshot();
                 Cursor cursor = storage.range(snapshot, Keyspace.ITEMS, from, to, !forward)) {
                while (cursor.next()) {
                    // Measured from the stored bytes, and decoded only as far as the filter
                    // reads it: an item the filter rejects is never decoded whole.
                    byte[] stored = cursor.value();
                    ItemCodec.Sizes sizes = ItemCodec.measure(stored, sortKey);
                    StoredItem row = new StoredItem(stored);
                    scanned++;
                    bytesRead += sizes.itemSize();
                    pageBytes += sizes.pageSize();
                    last = row;
                    StoredItem item = row;
                    if (source.fetchFromTable()) {
                        byte[] fetched = storage.get(snapshot, Keyspace.ITEMS, ItemOperations.rowKey(table, row));
                        item = fetched == null ? null : new StoredItem(fetched);
                        if (fetched != null) bytesFetched += ItemCodec.measure(fetched, sortKey).itemSize();
                    }
                    if (item != null && (filter == null || filter.test(item))) items.add(item.decoded());
                    if (scanned >= limit || pageBytes >= PageSize.PAGE_LIMIT) {
                        stoppedEarly = true;
                        break;
                    }
                }
            }
        }
        Map<String, AttributeValue> lastEvaluatedKey = stoppedEarly ? source.keyOf(last) : null;
        ConsumedCapacity consumed;
        if (source.index() == null) {
            consumed = ConsumedCapacity.ofTable(CapacityUnits.read(bytesRead, consistentRead));
        } else {
            // Entries are billed to the index; items fetched for them, to the table (summed).
            consumed = new ConsumedCapacity.Builder()
                    .table(bytesFetched > 0 ? CapacityUnits.read(bytesFetched, consistentRead) : 0)
                    .index(source.index().name(), source.index().global(), CapacityUnits.read(bytesRead, consistentRead))
                    .build();
        }
        return new Page(items, scanned, lastEvaluatedKey, consumed);
    }

    /**
     * The rows under {@code prefix} whose next key component (an index sort-key attribute, in
     * its self-delimiting form) meets the condition; all rows under it without a condition.
     */
    private static KeyRange componentRange(byte[] prefix, SortKeyCondition condition) {
        byte[] end = KeyLayout.prefixUpperBound(prefix);
        if (condition == null) return new KeyRange(prefix, end);
        return switch (condition) {
            case SortKeyCondition.Equal e -> under(concat(prefix, component(e.value())));
            case SortKeyCondition.LessThan lt -> new KeyRange(prefix, concat(prefix, component(lt.value())));
            case SortKeyCondition.LessOrEqual le ->
                    new KeyRange(prefix, KeyLayout.prefixUpperBound(concat(prefix, component(le.value()))));
            case SortKeyCondition.GreaterThan gt ->
                    new KeyRange(KeyLayout.prefixUpperBound(concat(prefix, component(gt.value()))), end);
            case SortKeyCondition.GreaterOrEqual ge -> new KeyRange(concat(prefix, component(ge.value())), end);
            case SortKeyCondition.Between b -> new KeyRange(concat(prefix, component(b.lower())),
                    KeyLayout.prefixUpperBound(concat(prefix, component(b.upper()))));
            case SortKeyCondition.BeginsWith bw -> under(concat(prefix, KeyLayout.componentPrefix(bw.prefix())));
        };
    }

    private static KeyRange under(byte[] prefix) {
        return new KeyRange(prefix, KeyLayout.prefixUpperBound(prefix));
    }

    private static byte[] component(AttributeValue value) {
        return KeyLayout.components(List.of(value));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static KeyRange sortKeyRange(TableDefinition table, AttributeValue partitionKey, SortKeyCondition sortKey) {
        long id = table.id();
        int base = ItemOperations.BASE_TABLE;
        byte[] prefix = KeyLayout.partitionPrefix(id, base, partitionKey);
        byte[] end = KeyLayout.prefixUpperBound(prefix);
        if (sortKey == null) return new KeyRange(prefix, end);
        return switch (sortKey) {
            case SortKeyCondition.Equal e -> {
                byte[] key = KeyLayout.encodeItemKey(id, base, partitionKey, e.value());
                yield new KeyRange(key, KeyLayout.successor(key));
            }
            case SortKeyCondition.LessThan lt -> new KeyRange(prefix, KeyLayout.encodeItemKey(id, base, partitionKey, lt.value()));
            case SortKeyCondition.LessOrEqual le ->
                    new KeyRange(prefix, KeyLayout.successor(KeyLayout.encodeItemKey(id, base, partitionKey, le.value())));
            case SortKeyCondition.GreaterThan gt ->
                    new KeyRange(KeyLayout.successor(KeyLayout.encodeItemKey(id, base, partitionKey, gt.value())), end);
            case SortKeyCondition.GreaterOrEqual ge -> new KeyRange(KeyLayout.encodeItemKey(id, base, partitionKey, ge.value()), end);
            case SortKeyCondition.Between b -> new KeyRange(KeyLayout.encodeItemKey(id, base, partitionKey, b.lower()),
                    KeyLayout.successor(KeyLayout.encodeItemKey(id, base, partitionKey, b.upper())));
            case SortKeyCondition.BeginsWith bw -> {
                // S and B sort keys are stored as their raw bytes, last in the key, so every key
                // that begins with the prefix shares the prefix's row-key bytes.
                byte[] start = KeyLayout.encodeItemKey(id, base, partitionKey, bw.prefix());
                yield new KeyRange(start, KeyLayout.prefixUpperBound(start));
            }
        };
    }

    /** The primary key attributes of an item (its LastEvaluatedKey). */
    static Map<String, AttributeValue> keyOf(KeySchema schema, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> key = new LinkedHashMap<>(2);
        key.put(schema.partitionKey(), item.get(schema.partitionKey()));
        if (schema.hasSortKey()) key.put(schema.sortKey(), item.get(schema.sortKey()));
        return key;
    }

    private static byte[] max(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b) >= 0 ? a : b;
    }

    private static byte[] min(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b) <= 0 ? a : b;
    }
}
