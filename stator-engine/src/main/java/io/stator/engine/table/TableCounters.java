package io.stator.engine.table;

import io.stator.core.item.ItemCodec;
import io.stator.core.key.KeyLayout;
import io.stator.core.key.XxHash64;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.cluster.ReservedKinds;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.Counters;
import io.stator.storage.Cursor;
import io.stator.storage.RowKeyFraming;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.ByteBuffer;

/**
 * A table's ItemCount and TableSizeBytes, kept exact by every write: each write batch adds the
 * change it makes to the table's counters, in the same atomic commit as the item. DynamoDB
 * refreshes these figures about every six hours; Stator's are current.
 *
 * <p>Counter rows in the COUNTERS key space: {@code [table id, 8 bytes big-endian]['I']} counts
 * items, {@code [table id]['S']} sums their sizes by DynamoDB's item-size rules;
 * {@code [table id]['i'][index id, 4 bytes]} and {@code [table id]['s'][index id]} do the same
 * for each secondary index's entries (ItemCount and IndexSizeBytes); on a table with a local
 * index, {@code [table id]['c'][partition key bytes]} sums an item collection's size (its items
 * and their local index entries).
 *
 * <p>Where several servers share the store ({@link Deployment#keepsCollectionSizesInCollections}),
 * a commit cannot add to a counter, and an item collection's size is instead a row of the
 * collection itself, in the ITEMS key space under the reserved kind {@link ReservedKinds#COLLECTION_SIZE}
 * ({@code [table id][kind][hash][partition key]}, no clustering bytes; its value a counter's
 * 8 bytes, absent for 0): each write reads it, expects it unchanged and rewrites it in the commit
 * of its item, one compare-and-set of the collection, so the size is exact whichever servers
 * write the collection. No read of a kind (Query, Scan, an index's walk) meets it; DeleteTable
 * drops it with the table's rows.
 */
public final class TableCounters {

    private static final byte ITEM_COUNT = 'I';
    private static final byte SIZE_BYTES = 'S';
    private static final byte INDEX_ITEM_COUNT = 'i';
    private static final byte INDEX_SIZE_BYTES = 's';
    private static final byte COLLECTION_SIZE = 'c';
    private static final byte PARTITIONS = 'p';

    private final Storage storage;
    private final boolean collectionSizesInCollections;

    public TableCounters(Storage storage, Deployment deployment) {
        this.storage = storage;
        this.collectionSizesInCollections = deployment.keepsCollectionSizesInCollections();
    }

    /** Adds a write's effect on the table's counters to the write's batch. */
    public static void record(WriteBatch batch, long tableId, long itemDelta, long sizeDelta) {
        if (itemDelta != 0) batch.addToCounter(Keyspaces.COUNTERS, key(tableId, ITEM_COUNT), itemDelta);
        if (sizeDelta != 0) batch.addToCounter(Keyspaces.COUNTERS, key(tableId, SIZE_BYTES), sizeDelta);
    }

    /** Adds a change of one index's entries to a batch. */
    public static void recordIndex(WriteBatch batch, long tableId, int indexId, long itemDelta, long sizeDelta) {
        if (itemDelta != 0) batch.addToCounter(Keyspaces.COUNTERS, indexKey(tableId, INDEX_ITEM_COUNT, indexId), itemDelta);
        if (sizeDelta != 0) batch.addToCounter(Keyspaces.COUNTERS, indexKey(tableId, INDEX_SIZE_BYTES, indexId), sizeDelta);
    }

    public long indexItemCount(long tableId, int indexId) {
        return Counters.decode(storage.get(Keyspaces.COUNTERS, indexKey(tableId, INDEX_ITEM_COUNT, indexId)));
    }

    public long indexSizeBytes(long tableId, int indexId) {
        return Counters.decode(storage.get(Keyspaces.COUNTERS, indexKey(tableId, INDEX_SIZE_BYTES, indexId)));
    }

    /** Drops a deleted index's counters. */
    public void dropIndex(long tableId, int indexId) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.delete(Keyspaces.COUNTERS, indexKey(tableId, INDEX_ITEM_COUNT, indexId));
            batch.delete(Keyspaces.COUNTERS, indexKey(tableId, INDEX_SIZE_BYTES, indexId));
            batch.delete(Keyspaces.COUNTERS, indexKey(tableId, PARTITIONS, indexId));
            storage.commit(batch);
        }
    }

    /**
     * Adds a change of one item collection's size to a batch, called with the collection held.
     *
     * @param stored the size {@link #collectionSize} read for this write
     * @param before the size before this write: {@code stored} and the batch's earlier changes of
     *               the collection (a transaction's earlier items)
     */
    public void recordCollection(WriteBatch batch, long tableId, byte[] partitionKey, long stored, long before,
                                 long sizeDelta) {
        if (!collectionSizesInCollections) {
            if (sizeDelta != 0) batch.addToCounter(Keyspaces.COUNTERS, collectionKey(tableId, partitionKey), sizeDelta);
            return;
        }
        // The row as read, expected unchanged at commit: a write from another server in between
        // loses this commit, which the pipeline starts over with the size read again.
        byte[] row = collectionRow(tableId, partitionKey);
        long after = before + sizeDelta;
        batch.expect(Keyspaces.ITEMS, row, stored == 0 ? null : Counters.encode(stored));
        if (after == 0) batch.delete(Keyspaces.ITEMS, row);
        else batch.put(Keyspaces.ITEMS, row, Counters.encode(after));
    }

    /** The size of the item collection of one partition key. */
    public long collectionSize(long tableId, byte[] partitionKey) {
        if (collectionSizesInCollections) return Counters.decode(storage.get(Keyspaces.ITEMS, collectionRow(tableId, partitionKey)));
        return Counters.decode(storage.get(Keyspaces.COUNTERS, collectionKey(tableId, partitionKey)));
    }

    /** An item collection's size row on shared storage: a row of the collection (see the class comment). */
    private static byte[] collectionRow(long tableId, byte[] partitionKey) {
        return RowKeyFraming.rowKey(tableId, ReservedKinds.COLLECTION_SIZE, XxHash64.hash(partitionKey), partitionKey, new byte[0]);
    }

    private static byte[] collectionKey(long tableId, byte[] partitionKey) {
        return ByteBuffer.allocate(9 + partitionKey.length).putLong(tableId).put(COLLECTION_SIZE).put(partitionKey).array();
    }

    public long itemCount(long tableId) {
        return Counters.decode(storage.get(Keyspaces.COUNTERS, key(tableId, ITEM_COUNT)));
    }

    public long sizeBytes(long tableId) {
        return Counters.decode(storage.get(Keyspaces.COUNTERS, key(tableId, SIZE_BYTES)));
    }

    /**
     * The partitions of the table (index id 0) or of a global index, as their first hashes, kept so
     * that a restart does not merge them (partitions are split, never merged); empty when none
     * were kept.
     */
    public long[] partitionStarts(long tableId, int indexId) {
        byte[] stored = storage.get(Keyspaces.COUNTERS, indexKey(tableId, PARTITIONS, indexId));
        if (stored == null) return new long[0];
        ByteBuffer b = ByteBuffer.wrap(stored);
        long[] starts = new long[stored.length / Long.BYTES];
        for (int i = 0; i < starts.length; i++) starts[i] = b.getLong();
        return starts;
    }

    /** Keeps the partitions of the table (index id 0) or of a global index; dropped with the table. */
    public void savePartitionStarts(long tableId, int indexId, long[] starts) {
        ByteBuffer b = ByteBuffer.allocate(starts.length * Long.BYTES);
        for (long start : starts) b.putLong(start);
        try (WriteBatch batch = storage.newBatch()) {
            batch.put(Keyspaces.COUNTERS, indexKey(tableId, PARTITIONS, indexId), b.array());
            storage.commit(batch);
        }
    }

    /**
     * Counts the table's items and each secondary index's entries again, by a walk of each, and
     * replaces the counters with what it found: how storage that several servers share keeps
     * ItemCount, TableSizeBytes and IndexSizeBytes, since its commits cannot add to a counter
     * (engine/cluster/SharedUpkeep runs it for the tables written since, as DynamoDB refreshes these
     * figures from time to time). Not for storage whose writes add to the counters: a write
     * between the walk and the replacement would be lost from them. Item collections' sizes are
     * not counted: there they are rows of their collections, exact (see the class comment).
     */
    public void recount(TableDefinition table) {
        long[] items = walk(table.id(), 0);
        try (WriteBatch batch = storage.newBatch()) {
            batch.put(Keyspaces.COUNTERS, key(table.id(), ITEM_COUNT), Counters.encode(items[0]));
            batch.put(Keyspaces.COUNTERS, key(table.id(), SIZE_BYTES), Counters.encode(items[1]));
            for (IndexDefinition index : table.indexes()) {
                long[] entries = walk(table.id(), index.id());
                batch.put(Keyspaces.COUNTERS, indexKey(table.id(), INDEX_ITEM_COUNT, index.id()), Counters.encode(entries[0]));
                batch.put(Keyspaces.COUNTERS, indexKey(table.id(), INDEX_SIZE_BYTES, index.id()), Counters.encode(entries[1]));
            }
            storage.commit(batch);
        }
    }

    /** The rows of the table (index id 0) or of one index, and the sum of their sizes. */
    private long[] walk(long tableId, int indexId) {
        long rows = 0;
        long bytes = 0;
        try (Snapshot snapshot = storage.snapshot();
             Cursor c = storage.range(snapshot, Keyspaces.ITEMS, KeyLayout.indexPrefix(tableId, indexId),
                     KeyLayout.indexUpperBound(tableId, indexId), false)) {
            while (c.next()) {
                rows++;
                bytes += ItemCodec.measure(c.value(), null).itemSize();
            }
        }
        return new long[] {rows, bytes};
    }

    /** Drops a deleted table's counters. */
    void drop(long tableId) {
        storage.deleteRange(Keyspaces.COUNTERS, key(tableId, (byte) 0), key(tableId + 1, (byte) 0));
    }

    private static byte[] indexKey(long tableId, byte which, int indexId) {
        return ByteBuffer.allocate(13).putLong(tableId).put(which).putInt(indexId).array();
    }

    private static byte[] key(long tableId, byte which) {
        return ByteBuffer.allocate(9).putLong(tableId).put(which).array();
    }
}
