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
        return read(table, range, forward, exclusiveStartKey, limit, consistentRead, filter);
    }

    /** Scan: the whole table, or one segment of a parallel scan. */
    public Page scan(TableDefinition table, int segment, int totalSegments, Map<String, AttributeValue> exclusiveStartKey,
                     int limit, boolean consistentRead, Predicate<Map<String, AttributeValue>> filter) {
        KeyRange range = KeyLayout.segmentBounds(table.id(), ItemOperations.BASE_TABLE, segment, totalSegments);
        return read(table, range, true, exclusiveStartKey, limit, consistentRead, filter);
    }

    private Page read(TableDefinition table, KeyRange range, boolean forward, Map<String, AttributeValue> exclusiveStartKey,
                      int limit, boolean consistentRead, Predicate<Map<String, AttributeValue>> filter) {
        byte[] from = range.from();
        byte[] to = range.to();
        if (exclusiveStartKey != null) {
            byte[] start = ItemOperations.rowKey(table, exclusiveStartKey);
            if (forward) from = max(from, KeyLayout.successor(start));
            else to = min(to, start);
        }
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        int scanned = 0;
        long pageBytes = 0;
        long bytesRead = 0;
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
                    StoredItem item = new StoredItem(stored);
                    scanned++;
                    bytesRead += sizes.itemSize();
                    pageBytes += sizes.pageSize();
                    last = item;
                    if (filter == null || filter.test(item)) items.add(item.decoded());
                    if (scanned >= limit || pageBytes >= PageSize.PAGE_LIMIT) {
                        stoppedEarly = true;
                        break;
                    }
                }
            }
        }
        Map<String, AttributeValue> lastEvaluatedKey = stoppedEarly ? keyOf(table.keySchema(), last) : null;
        return new Page(items, scanned, lastEvaluatedKey, ConsumedCapacity.ofTable(CapacityUnits.read(bytesRead, consistentRead)));
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
