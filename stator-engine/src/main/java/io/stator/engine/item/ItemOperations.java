package io.stator.engine.item;

import io.stator.core.error.ConditionalCheckFailedException;
import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.key.KeyEncoding;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.item.ItemCodec;
import io.stator.core.item.ItemSize;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.CapacityUnits;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.storage.Keyspace;
import io.stator.engine.storage.Storage;
import io.stator.engine.storage.WriteBatch;
import io.stator.engine.table.KeySchema;
import io.stator.engine.index.IndexEntries;
import io.stator.engine.index.IndexEntry;
import io.stator.engine.index.IndexPropagator;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableCounters;
import io.stator.engine.table.TableDefinition;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Single-item reads and writes.
 *
 * <p>Every write is a read-modify-write of one item through {@link #mutate}: take the item's
 * lock, read the item as it is, compute the new item with a pure function of the old one
 * ({@link ItemMutation}), commit the result in one atomic batch, release the lock. PutItem and
 * DeleteItem are mutations that ignore or drop the old item; conditional writes and UpdateItem
 * add a check or a change inside the same function, so the check and the write are atomic with
 * respect to every other write of that item. The old item is always read: DynamoDB bills a
 * write by the larger of the item before and after it.
 */
public final class ItemOperations {

    /** Base-table rows have index id 0 in the key layout. */
    static final int BASE_TABLE = 0;

    private final Storage storage;
    private final StripedLocks locks = new StripedLocks(4096);
    private final StripedLocks collectionLocks = new StripedLocks(1024);

    private final IndexPropagator propagator;
    private final Catalog catalog;
    private final TableCounters counters;
    private final long itemCollectionLimitBytes;

    public ItemOperations(Storage storage, IndexPropagator propagator, Catalog catalog, long itemCollectionLimitBytes) {
        this.storage = storage;
        this.propagator = propagator;
        this.catalog = catalog;
        this.counters = catalog.counters();
        this.itemCollectionLimitBytes = itemCollectionLimitBytes;
    }

    /** Computes an item's new state from its old state; returns null to delete it. */
    @FunctionalInterface
    public interface ItemMutation {
        /** @param oldItem the item as stored, or null when absent */
        Map<String, AttributeValue> apply(Map<String, AttributeValue> oldItem);
    }

    /** The outcome of a write: the item before and after it, and the write units it consumed. */
    /**
     * @param itemCollectionSize the size of the item's collection after the write, on a table
     *                           with a local secondary index; -1 otherwise
     */
    public record WriteResult(Map<String, AttributeValue> oldItem, Map<String, AttributeValue> newItem,
                              ConsumedCapacity consumed, long itemCollectionSize) {}

    /** The outcome of a read: the item or null, and the read units it consumed. */
    public record ReadResult(Map<String, AttributeValue> item, ConsumedCapacity consumed) {}

    /** PutItem: replaces the whole item, if {@code condition} (null for none) holds. */
    public WriteResult put(TableDefinition table, Map<String, AttributeValue> item, Condition condition,
                           boolean returnOldItemOnFailure) {
        PrimaryKeys.checkItem(table.keySchema(), item);
        IndexEntries.checkItem(table, item);
        return mutateIf(table, rowKey(table, item), condition, returnOldItemOnFailure, old -> item);
    }

    /** DeleteItem: removes the item, if {@code condition} (null for none) holds. */
    public WriteResult delete(TableDefinition table, Map<String, AttributeValue> key, Condition condition,
                              boolean returnOldItemOnFailure) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        return mutateIf(table, rowKey(table, key), condition, returnOldItemOnFailure, old -> null);
    }

    /**
     * UpdateItem: {@code update} computes the new item from the old one (null when absent), if
     * {@code condition} (null for none) holds.
     */
    public WriteResult update(TableDefinition table, Map<String, AttributeValue> key, Condition condition,
                              boolean returnOldItemOnFailure, ItemMutation update) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        return mutateIf(table, rowKey(table, key), condition, returnOldItemOnFailure, old -> {
            Map<String, AttributeValue> updated = update.apply(old);
            if (updated != null) IndexEntries.checkUpdate(table, old, updated);
            return updated;
        });
    }

    public ReadResult get(TableDefinition table, Map<String, AttributeValue> key, boolean consistentRead) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        byte[] stored = storage.get(Keyspace.ITEMS, rowKey(table, key));
        if (stored == null) return new ReadResult(null, ConsumedCapacity.ofTable(CapacityUnits.read(0, consistentRead)));
        Map<String, AttributeValue> item = ItemCodec.decode(stored);
        return new ReadResult(item, ConsumedCapacity.ofTable(CapacityUnits.read(ItemSize.of(item), consistentRead)));
    }

    /** Runs {@code work} holding the lock of the item stored under {@code rowKey}. */
    public void withItemLock(byte[] rowKey, Runnable work) {
        ReentrantLock lock = locks.lockFor(rowKey);
        lock.lock();
        try {
            work.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every write that holds an item lock now has committed. A write that takes its
     * lock after this call sees the catalog as it was at the call (see {@link #mutate}), so an
     * index added before it gets the change of every write not already in the store.
     */
    public void awaitWritesInFlight() {
        locks.awaitAll();
    }

    /** The read-modify-write every single-item write goes through (see the class comment). */
    public WriteResult mutate(TableDefinition requested, byte[] rowKey, ItemMutation mutation) {
        ReentrantLock lock = locks.lockFor(rowKey);
        lock.lock();
        try {
            // The definition as it is now, not as the request found it: an index created in
            // between must get this write's change (IndexBuilds relies on it).
            TableDefinition current = catalog.findById(requested.id());
            TableDefinition table = current != null ? current : requested;
            byte[] stored = storage.get(Keyspace.ITEMS, rowKey);
            Map<String, AttributeValue> oldItem = stored == null ? null : ItemCodec.decode(stored);
            Map<String, AttributeValue> newItem = mutation.apply(oldItem);
            if (oldItem == null && newItem == null) {
                return new WriteResult(null, null, ConsumedCapacity.ofTable(CapacityUnits.write(0, 0)), -1);
            }
            long oldSize = oldItem == null ? 0 : ItemSize.of(oldItem);
            long newSize = newItem == null ? 0 : ItemSize.of(newItem);
            IndexChanges changes;
            long collectionSize = -1;
            ConsumedCapacity.Builder consumed = new ConsumedCapacity.Builder().table(CapacityUnits.write(oldSize, newSize));
            Map<String, AttributeValue> anyItem = oldItem != null ? oldItem : newItem;
            // Writes to any item of a collection check and change its size: one at a time, or
            // two could pass the limit together. Taken after the item's lock, never before.
            ReentrantLock collectionLock = table.localIndexes().isEmpty() ? null
                    : collectionLocks.lockFor(partitionKey(table, anyItem));
            if (collectionLock != null) collectionLock.lock();
            try (WriteBatch batch = storage.newBatch()) {
                if (newItem == null) {
                    batch.delete(Keyspace.ITEMS, rowKey);
                } else {
                    batch.put(Keyspace.ITEMS, rowKey, ItemCodec.encode(newItem));
                }
                TableCounters.record(batch, table.id(), (newItem == null ? 0 : 1) - (oldItem == null ? 0 : 1),
                        newSize - oldSize);
                changes = maintainIndexes(batch, table, oldItem, newItem, consumed);
                if (collectionLock != null) {
                    collectionSize = recordCollection(batch, table, anyItem, newSize - oldSize + changes.localBytes());
                }
                storage.commit(batch);
            } finally {
                if (collectionLock != null) collectionLock.unlock();
            }
            if (changes.queued()) propagator.wake();
            return new WriteResult(oldItem, newItem, consumed.build(), collectionSize);
        } finally {
            lock.unlock();
        }
    }

    /** What a write did to the indexes: queued global changes, and the change in local entry bytes. */
    private record IndexChanges(boolean queued, long localBytes) {}

    /**
     * Adds to the batch what the write changes in the table's secondary indexes: local index
     * entries directly (they are written with the item, as DynamoDB's are), global index changes
     * as records for the propagator (they arrive later, as DynamoDB's do). Called with the
     * item's lock held.
     */
    private IndexChanges maintainIndexes(WriteBatch batch, TableDefinition table, Map<String, AttributeValue> oldItem,
                                         Map<String, AttributeValue> newItem, ConsumedCapacity.Builder consumed) {
        boolean queued = false;
        long localBytes = 0;
        for (IndexDefinition index : table.indexes()) {
            if (index.status() == IndexDefinition.IndexStatus.DELETING) continue;
            IndexEntry before = IndexEntries.entry(table, index, oldItem);
            IndexEntry after = IndexEntries.entry(table, index, newItem);
            if (IndexEntry.same(before, after)) continue;
            boolean moved = before != null && !IndexEntry.sameKey(before, after);
            consumed.index(index.name(), index.global(),
                    CapacityUnits.indexWrite(moved ? before.size() : -1, after == null ? -1 : after.size()));
            if (index.global()) {
                propagator.enqueue(batch, table.id(), index.id(), before, after);
                queued = true;
            } else {
                if (before != null && !IndexEntry.sameKey(before, after)) batch.delete(Keyspace.ITEMS, before.key());
                if (after != null) batch.put(Keyspace.ITEMS, after.key(), after.value());
                long bytes = (after == null ? 0 : after.size()) - (before == null ? 0 : before.size());
                TableCounters.recordIndex(batch, table.id(), index.id(),
                        (after == null ? 0 : 1) - (before == null ? 0 : 1), bytes);
                localBytes += bytes;
            }
        }
        return new IndexChanges(queued, localBytes);
    }

    /**
     * Adds a write's change to its item collection's size, refusing it when the collection would
     * pass the limit (ItemCollectionSizeLimitExceededException; DynamoDB's limit is 10 GB, and
     * configurable here so that tests can reach it). Returns the collection's new size.
     */
    private long recordCollection(WriteBatch batch, TableDefinition table, Map<String, AttributeValue> item, long delta) {
        byte[] partitionKey = partitionKey(table, item);
        long size = counters.collectionSize(table.id(), partitionKey) + delta;
        if (delta > 0 && size > itemCollectionLimitBytes) {
            // DynamoDB's own message is unknown; this is the reason text its API reference gives
            // for the same refusal in TransactWriteItems (notes/indexes.md §6).
            throw new DynamoDbException(ErrorType.ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED, "Collection size exceeded.");
        }
        TableCounters.recordCollection(batch, table.id(), partitionKey, delta);
        return size;
    }

    private static byte[] partitionKey(TableDefinition table, Map<String, AttributeValue> item) {
        return KeyEncoding.encode(item.get(table.keySchema().partitionKey()));
    }

    /**
     * A write guarded by a condition: the condition is evaluated on the item as stored, under the
     * item's lock, and the write happens only when it holds (ConditionalCheckFailedException
     * otherwise, carrying the old item when {@code returnOldItemOnFailure}). A null condition
     * always holds.
     */
    public WriteResult mutateIf(TableDefinition table, byte[] rowKey, Condition condition,
                                boolean returnOldItemOnFailure, ItemMutation mutation) {
        if (condition == null) return mutate(table, rowKey, mutation);
        return mutate(table, rowKey, old -> {
            if (!ConditionEvaluator.matches(condition, old)) {
                throw new ConditionalCheckFailedException(returnOldItemOnFailure ? old : null);
            }
            return mutation.apply(old);
        });
    }

    /** The storage key of the item with these key attributes (an item or a Key parameter). */
    public static byte[] rowKey(TableDefinition table, Map<String, AttributeValue> keyOrItem) {
        KeySchema schema = table.keySchema();
        AttributeValue partition = keyOrItem.get(schema.partitionKey());
        AttributeValue sort = schema.hasSortKey() ? keyOrItem.get(schema.sortKey()) : null;
        return KeyLayout.encodeItemKey(table.id(), BASE_TABLE, partition, sort);
    }
}
