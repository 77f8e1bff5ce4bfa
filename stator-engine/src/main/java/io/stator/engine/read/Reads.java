package io.stator.engine.read;

import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.Projector;
import io.stator.core.item.ItemCodec;
import io.stator.core.item.PageSize;
import io.stator.core.item.StoredItem;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.Usage;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Runs {@link ReadPlan}s, as DynamoDB pages reads:
 * <ul>
 *   <li>a page ends after {@code Limit} items were read, or once the items read reach 1 MB
 *       (measured as DynamoDB measures pages, see {@link PageSize}; the item that reaches it is
 *       part of the page), whichever comes first; both count items before the filter, which only
 *       decides what is returned (so ScannedCount can be far above Count);</li>
 *   <li>a page that ended early carries LastEvaluatedKey, the key of the last item read, even
 *       when no item follows it (DynamoDB does not look ahead);</li>
 *   <li>a page reads one consistent snapshot and walks the key range with a cursor: memory is
 *       bounded by the page, never by the table; a single item is one point lookup;</li>
 *   <li>what was read is described as the {@link io.stator.engine.capacity.CapacityMeter} prices
 *       it: the items' documented sizes summed over the page (4 KB a unit, with the minimum of
 *       one read when nothing was read); the operation admits the read before and charges it
 *       after, once it knows what it returns.</li>
 * </ul>
 * Rows are in key order (see {@code KeyLayout}): for a Query, one partition in sort-key order;
 * for a Scan, partitions in hash order, and a parallel-scan segment is a contiguous hash range.
 */
public final class Reads {

    private final Storage storage;
    private final Deployment deployment;

    public Reads(Storage storage, Deployment deployment) {
        this.storage = storage;
        this.deployment = deployment;
    }

    /** Runs the plan on the latest committed state (a page on a snapshot of its own). */
    public Page read(ReadPlan plan) {
        if (plan.singleItem()) return readItem(plan, null);
        if (Arrays.compareUnsigned(plan.range().from(), plan.range().to()) >= 0) return readRange(plan, null);
        try (Snapshot snapshot = plan.consistentRead() ? storage.snapshot() : storage.eventualSnapshot()) {
            return readRange(plan, snapshot);
        }
    }

    /** Runs the plan on a snapshot that the caller shares between several reads (a transaction's). */
    public Page read(ReadPlan plan, Snapshot snapshot) {
        return plan.singleItem() ? readItem(plan, snapshot) : readRange(plan, snapshot);
    }

    private Page readItem(ReadPlan plan, Snapshot snapshot) {
        byte[] rowKey = plan.range().from();
        byte[] stored = snapshot != null ? storage.get(snapshot, Keyspaces.ITEMS, rowKey)
                : plan.consistentRead() ? storage.get(Keyspaces.ITEMS, rowKey) : storage.getCommitted(Keyspaces.ITEMS, rowKey);
        long bytes = stored == null ? 0 : ItemCodec.measure(stored, null).itemSize();
        Usage.Read usage = new Usage.Read(null, bytes, 0, plan.consistentRead(), plan.transactional());
        if (stored == null) return new Page(List.of(), 0, 0, 0, null, usage, null);
        // Left undecoded: the response writes it straight from its stored bytes (StoredItem.visit).
        Map<String, AttributeValue> item = new StoredItem(stored);
        if (plan.projection() != null) item = Projector.project(item, plan.projection());
        return new Page(List.of(item), 1, 1, bytes, null, usage, null);
    }

    private Page readRange(ReadPlan plan, Snapshot snapshot) {
        ReadTarget target = plan.target();
        TableDefinition table = target.table();
        byte[] from = plan.range().from();
        byte[] to = plan.range().to();
        // On shared storage a scan's positions are the backend's (Cassandra's tokens), not
        // hashes: the scan resumes after the start key, which it gave in this segment, whatever
        // the key's hash, and the storage finds the segment's end by position.
        boolean sharedScan = deployment.scansByBackendPosition() && to.length <= KeyLayout.PARTITION_KEY_LENGTH_OFFSET;
        if (plan.exclusiveStartKey() != null) {
            byte[] start = target.rowKey(plan.exclusiveStartKey());
            if (plan.forward()) from = sharedScan ? KeyLayout.successor(start) : max(from, KeyLayout.successor(start));
            else to = min(to, start);
        }
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        int count = 0;
        int scanned = 0;
        long pageBytes = 0;
        long bytesRead = 0;
        long bytesFetched = 0;
        String sortKey = table.keySchema().sortKey();
        Map<String, AttributeValue> last = null;
        boolean stoppedEarly = false;
        long lastHash = hashBefore(to);
        if (sharedScan || Arrays.compareUnsigned(from, to) < 0) {
            try (Cursor cursor = storage.range(snapshot, Keyspaces.ITEMS, from, to, !plan.forward(), plan.limit())) {
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
                    if (plan.fetchFromTable()) {
                        byte[] fetched = storage.get(snapshot, Keyspaces.ITEMS, RowKeys.of(table, row));
                        item = fetched == null ? null : new StoredItem(fetched);
                        if (fetched != null) bytesFetched += ItemCodec.measure(fetched, sortKey).itemSize();
                    }
                    if (item != null && (plan.filter() == null || ConditionEvaluator.matches(plan.filter(), item))) {
                        count++;
                        if (!plan.countOnly()) items.add(returned(plan, item));
                    }
                    if (scanned >= plan.limit() || pageBytes >= PageSize.PAGE_LIMIT) {
                        stoppedEarly = true;
                        if (plan.forward()) lastHash = KeyLayout.hashOf(cursor.key());
                        break;
                    }
                }
            }
        }
        Map<String, AttributeValue> lastEvaluatedKey = stoppedEarly ? target.lastEvaluatedKey(last) : null;
        Usage.Read usage = new Usage.Read(target.index(), bytesRead, bytesFetched, plan.consistentRead(),
                plan.transactional(), from.length >= KeyLayout.PARTITION_KEY_LENGTH_OFFSET ? KeyLayout.hashOf(from) : 0,
                lastHash);
        return new Page(items, count, scanned, bytesRead, lastEvaluatedKey, usage, null);
    }

    /** An item as the plan returns it: projected, or (fetched by a local index) as the index projects it. */
    private static Map<String, AttributeValue> returned(ReadPlan plan, Map<String, AttributeValue> item) {
        if (plan.projection() != null) return Projector.project(item, plan.projection());
        return plan.reprojectFetched() ? plan.target().projectedByIndex(item) : item;
    }

    /**
     * The last hash (unsigned) before an exclusive upper bound: the one before its hash when the
     * bound carries one, else the end of the hash space (the bound is past the table or index).
     */
    private static long hashBefore(byte[] to) {
        if (to.length < KeyLayout.PARTITION_KEY_LENGTH_OFFSET) return -1L;
        long hash = KeyLayout.hashOf(to);
        boolean exactlyAtHash = to.length == KeyLayout.PARTITION_KEY_LENGTH_OFFSET;
        return exactlyAtHash && hash != 0 ? hash - 1 : hash;
    }

    private static byte[] max(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b) >= 0 ? a : b;
    }

    private static byte[] min(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b) <= 0 ? a : b;
    }
}
