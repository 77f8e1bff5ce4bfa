package io.stator.storage;

/**
 * The storage SPI: ordered bytes in, bytes out, with atomic multi-key commits and consistent
 * snapshots. It is deliberately narrow (point get, ordered range, atomic batch) so that a
 * distributed engine can implement it; no engine code may assume the storage is in-process.
 *
 * <p>Keys compare as unsigned bytes, lexicographically. Durability: when {@link #commit} returns,
 * the batch survives the server process being killed ({@code kill -9}); with {@code fsync}
 * enabled in the backend it also survives the machine losing power.
 *
 * <p>Faults: when the storage cannot write (a full disk, an I/O error), {@link #commit} and
 * {@link #deleteRange} throw {@link StorageFaultException} and write nothing, reads go on, and
 * writes resume by themselves once the backend has cleared the fault (see the backend for when).
 */
public interface Storage extends AutoCloseable {

    /** The value stored under the key, or null. Reads the latest committed state. */
    byte[] get(Keyspace keyspace, byte[] key);

    /** The value stored under the key in the snapshot, or null. */
    byte[] get(Snapshot snapshot, Keyspace keyspace, byte[] key);

    /**
     * The value stored under the key as of a commit that returned before the call, or null; one
     * in flight may or may not be seen. For reads that need no more: an eventually consistent
     * read, and a write's read of what it then expects ({@link WriteBatch#expect}), whose commit
     * fails on a stale value. One process's storage has nothing cheaper than {@link #get}.
     */
    default byte[] getCommitted(Keyspace keyspace, byte[] key) {
        return get(keyspace, key);
    }

    /**
     * A view for eventually consistent ranges (Query, Scan): as {@link #snapshot()}, or on a
     * backend where that costs more, the committed state as each read finds it
     * ({@link #getCommitted}'s consistency). Close it when done.
     */
    default Snapshot eventualSnapshot() {
        return snapshot();
    }

    /**
     * Applies every put and delete of the batch atomically: all of them or none.
     *
     * @throws StorageFaultException if the storage cannot write now; nothing of the batch is applied
     */
    void commit(WriteBatch batch);

    /**
     * Applies a batch that expects nothing (an item's put or delete, written without reading it)
     * as the backend's plain write, where it has one cheaper than {@link #commit}: atomic still,
     * but ordered against other writes of the same rows only by the backend's own order (on
     * Cassandra, its write timestamps: the last one wins), not isolated from commits that expect
     * those rows. One process's storage has nothing cheaper than {@link #commit}.
     *
     * @throws StorageFaultException if the storage cannot write now; nothing of the batch is applied
     */
    default void commitPlainly(WriteBatch batch) {
        commit(batch);
    }

    /** A consistent, read-only view of the store as of now. Close it when done. */
    Snapshot snapshot();

    /**
     * A consistent view of at least these keys as of one moment (reads that must agree): a
     * backend without global snapshots reads them together. Close it when done.
     */
    default Snapshot snapshotOf(Keyspace keyspace, java.util.List<byte[]> keys) {
        return snapshot();
    }

    /**
     * Where an item row falls in a scan (the 64-bit space that parallel-scan segments divide,
     * unsigned): the row key's hash on an ordered store; another backend's own scan order
     * otherwise (see {@link CollectionStore#position}).
     */
    default long scanPosition(byte[] rowKey) {
        return RowKeyFraming.hash(rowKey);
    }

    /**
     * Makes a new table's rows storable (a backend that keeps a table per DynamoDB table creates
     * it); called before the table's definition is committed.
     */
    default void createTable(long tableId) { }

    /**
     * Iterates the keys in [fromInclusive, toExclusive) in ascending order, or descending when
     * {@code reverse}, as of the snapshot (or the latest state when it is null). Either bound may
     * be null for "unbounded". Close the cursor when done.
     */
    Cursor range(Snapshot snapshot, Keyspace keyspace, byte[] fromInclusive, byte[] toExclusive, boolean reverse);

    /**
     * {@link #range} for a reader that means to read about {@code rowsWanted} keys (a Query's
     * Limit), which a storage that fetches rows in pages over the network sizes its first page by;
     * the cursor still gives every key of the range.
     */
    default Cursor range(Snapshot snapshot, Keyspace keyspace, byte[] fromInclusive, byte[] toExclusive, boolean reverse,
                         int rowsWanted) {
        return range(snapshot, keyspace, fromInclusive, toExclusive, reverse);
    }

    /**
     * Deletes every key in [fromInclusive, toExclusive), atomically. Used to drop a table's rows.
     *
     * @throws StorageFaultException if the storage cannot write now; nothing is deleted
     */
    void deleteRange(Keyspace keyspace, byte[] fromInclusive, byte[] toExclusive);

    /** A new, empty batch for this store. */
    WriteBatch newBatch();

    @Override
    void close();
}
