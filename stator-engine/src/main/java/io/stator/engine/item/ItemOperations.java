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
import java.util.Arrays;
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

    final Storage storage;
    final StripedLocks locks = new StripedLocks(4096);
    /** Item collections' size checks, one writer at a time per collection; taken after item locks, never before. */
    final StripedLocks collectionLocks = new StripedLocks(1024);
    final TransactionClaims claims = new TransactionClaims();

    final IndexPropagator propagator;
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

    /**
     * The outcome of a write: the item before and after it, and the write units it consumed.
     *
     * @param itemCollectionSize the size of the item's collection after the write, on a table
     *                           with a local secondary index; -1 otherwise
     */
    public record WriteResult(Map<String, AttributeValue> oldItem, Map<String, AttributeValue> newItem,
                              ConsumedCapacity consumed, long itemCollectionSize) {}

    /** The outcome of a read: the item or null, and the read units it consumed. */
    public record ReadResult(Map<String, AttributeValue> item, ConsumedCapacity consumed) {}

    /** A single-item write (PutItem, UpdateItem, DeleteItem), if its condition holds. */
    public WriteResult write(ItemWrite write) {
        return mutateIf(write.table(), write.rowKey(), write.condition(), write.returnOldItemOnFailure(),
                write.mutation());
    }

    public ReadResult get(TableDefinition table, Map<String, AttributeValue> key, boolean consistentRead) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        Map<String, AttributeValue> item = read(rowKey(table, key));
        return new ReadResult(item, ConsumedCapacity.ofTable(
                CapacityUnits.read(item == null ? 0 : ItemSize.of(item), consistentRead)));
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
     * locks after this call sees the catalog as it was at the call (see {@link #current}), so an
     * index added before it gets the change of every write not already in the store.
     */
    public void awaitWritesInFlight() {
        locks.awaitAll();
    }

    /**
     * The table's definition as it is now, not as the request found it: an index created in
     * between must get the write's change (IndexBuilds relies on it). Called with the item's lock held.
     */
    TableDefinition current(TableDefinition requested) {
        TableDefinition current = catalog.findById(requested.id());
        return current != null ? current : requested;
    }

    /** The read-modify-write every single-item write goes through (see the class comment). */
    public WriteResult mutate(TableDefinition requested, byte[] rowKey, ItemMutation mutation) {
        // Checked before the lock, which a committing transaction holds: the write fails at once,
        // as DynamoDB's does, instead of waiting for the transaction to finish. A transaction
        // that claims the item after this check waits for this write's lock, and sees its result.
        if (claims.isClaimed(rowKey)) throw transactionConflict();
        ReentrantLock lock = locks.lockFor(rowKey);
        lock.lock();
        try {
            TableDefinition table = current(requested);
            Map<String, AttributeValue> oldItem = read(rowKey);
            Map<String, AttributeValue> newItem = mutation.apply(oldItem);
            if (oldItem == null && newItem == null) {
                return new WriteResult(null, null, ConsumedCapacity.ofTable(CapacityUnits.write(0, 0)), -1);
            }
            ReentrantLock collectionLock = table.localIndexes().isEmpty() ? null
                    : collectionLocks.lockFor(partitionKey(table, oldItem != null ? oldItem : newItem));
            if (collectionLock != null) collectionLock.lock();
            Staged staged;
            try (WriteBatch batch = storage.newBatch()) {
                staged = stage(batch, null, table, rowKey, oldItem, newItem);
                storage.commit(batch);
            } finally {
                if (collectionLock != null) collectionLock.unlock();
            }
            if (staged.queuedIndexChanges()) propagator.wake();
            return staged.result();
        } finally {
            lock.unlock();
        }
    }

    /**
     * DynamoDB's answer to a write on an item that a transaction is committing (the message
     * recorded from DynamoDB in docs/dynamodb/batches-transactions.md).
     */
    static DynamoDbException transactionConflict() {
        return new DynamoDbException(ErrorType.TRANSACTION_CONFLICT, "Transaction is ongoing for the item");
    }

    /** The item stored under the row key, or null. Called with the item's lock held. */
    Map<String, AttributeValue> read(byte[] rowKey) {
        byte[] stored = storage.get(Keyspace.ITEMS, rowKey);
        return stored == null ? null : ItemCodec.decode(stored);
    }

    /** A write added to a batch: its result, and whether it queued changes for global indexes. */
    record Staged(WriteResult result, boolean queuedIndexChanges) {}

    /**
     * Adds one item's write to a batch: the item, the table's counters, its index entries and
     * its item collection's size. Called with the item's lock and, on a table with a local index,
     * its collection's lock held (see {@link #collectionLocks}). Throws when the write would
     * pass the item-collection limit (the batch must then not be committed).
     *
     * @param pendingCollections the collection-size changes already in the batch (a
     *                           transaction's earlier items), or null for a single write
     */
    Staged stage(WriteBatch batch, Map<CollectionKey, Long> pendingCollections, TableDefinition table, byte[] rowKey,
                 Map<String, AttributeValue> oldItem, Map<String, AttributeValue> newItem) {
        long oldSize = oldItem == null ? 0 : ItemSize.of(oldItem);
        long newSize = newItem == null ? 0 : ItemSize.of(newItem);
        ConsumedCapacity.Builder consumed = new ConsumedCapacity.Builder().table(CapacityUnits.write(oldSize, newSize));
        if (newItem == null) {
            batch.delete(Keyspace.ITEMS, rowKey);
        } else {
            batch.put(Keyspace.ITEMS, rowKey, ItemCodec.encode(newItem));
        }
        TableCounters.record(batch, table.id(), (newItem == null ? 0 : 1) - (oldItem == null ? 0 : 1),
                newSize - oldSize);
        IndexChanges changes = maintainIndexes(batch, table, oldItem, newItem, consumed);
        long collectionSize = -1;
        if (!table.localIndexes().isEmpty()) {
            collectionSize = recordCollection(batch, pendingCollections, table, oldItem != null ? oldItem : newItem,
                    newSize - oldSize + changes.localBytes());
        }
        return new Staged(new WriteResult(oldItem, newItem, consumed.build(), collectionSize), changes.queued());
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
    private long recordCollection(WriteBatch batch, Map<CollectionKey, Long> pending, TableDefinition table,
                                  Map<String, AttributeValue> item, long delta) {
        byte[] partitionKey = partitionKey(table, item);
        CollectionKey key = pending == null ? null : new CollectionKey(table.id(), partitionKey);
        long before = counters.collectionSize(table.id(), partitionKey) + (key == null ? 0 : pending.getOrDefault(key, 0L));
        long size = before + delta;
        if (delta > 0 && size > itemCollectionLimitBytes) {
            // DynamoDB's own message is unknown; this is the reason text its API reference gives
            // for the same refusal in TransactWriteItems (docs/dynamodb/indexes.md §6).
            throw new DynamoDbException(ErrorType.ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED, "Collection size exceeded.");
        }
        TableCounters.recordCollection(batch, table.id(), partitionKey, delta);
        if (key != null) pending.merge(key, delta, Long::sum);
        return size;
    }

    /** An item's partition key value, encoded: what names its item collection within the table. */
    static byte[] partitionKey(TableDefinition table, Map<String, AttributeValue> item) {
        return KeyEncoding.encode(item.get(table.keySchema().partitionKey()));
    }

    /** One item collection: a table and a partition key value (encoded). */
    record CollectionKey(long tableId, byte[] partitionKey) {
        @Override
        public boolean equals(Object o) {
            return o instanceof CollectionKey k && k.tableId == tableId && Arrays.equals(k.partitionKey, partitionKey);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(tableId) * 31 + Arrays.hashCode(partitionKey);
        }
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
