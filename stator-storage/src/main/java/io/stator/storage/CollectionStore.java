package io.stator.storage;

import java.util.List;

/**
 * The item rows of every table, as a backend shared by several servers can keep them: the unit
 * of atomicity is the <b>item collection</b>, every row of one partition key value of one table
 * (its items and their local-index entries), which {@link #commit} changes all together and only
 * if the rows it read are still as it read them. Nothing else is atomic: what an item's commit
 * owes to rows of other collections is the caller's to make idempotent.
 * Design and reasons: docs/storage-contract.md.
 *
 * <p><b>Row keys</b> are framed as {@link RowKeyFraming} says (the engine's key layout follows
 * that framing): {@code [table id 8][kind 4][hash 8][length 2][partition key][clustering]}. The
 * collection of a row is its table, hash and partition key; its kind (0 for an item, an index
 * id for an index entry) and its clustering bytes name it within the collection. Rows of one
 * collection and kind are ordered by their clustering bytes, unsigned.
 *
 * <p><b>Consistency.</b> A {@link Consistency#STRONG} read sees every commit that returned before
 * it started, and is linearizable: it first settles a commit still in flight, so that no later
 * read sees an older value than it saw. A {@link Consistency#COMMITTED} one also sees every commit
 * that returned before it started, but may or may not see one in flight, and leaves it unsettled
 * (Cassandra: QUORUM rather than SERIAL, a plain read rather than a Paxos round); a caller that
 * compares and sets on what it read loses nothing by it, a stale value only failing the commit.
 * An {@link Consistency#EVENTUAL} one may miss recent commits, never sees a commit in part, and
 * costs a backend least.
 *
 * <p>Implementations: {@link LockingCollectionStore} over an ordered-bytes {@link Storage} in one
 * process (RocksDB), and the Cassandra backend. The contract test suite runs against each.
 */
public interface CollectionStore {

    enum Consistency { STRONG, COMMITTED, EVENTUAL }

    /** What a commit expects a row to hold when it applies: the value it read, or null for none. */
    record Expected(byte[] rowKey, byte[] value) {}

    /** A row's new value, or null to delete it. */
    record Change(byte[] rowKey, byte[] value) {}

    /**
     * The row's position in {@link #scan}'s order: its hash on an ordered backend, another
     * backend's own (Cassandra: its partition's token, shifted onto the same space).
     */
    default long position(byte[] rowKey) {
        return RowKeyFraming.hash(rowKey);
    }

    /** Makes the table's rows storable (a backend that keeps a table per table creates it). */
    void createTable(long tableId);

    /** Deletes every row of the table; the table may be created again afterwards. */
    void dropTable(long tableId);

    /** The row's value, or null. */
    byte[] get(byte[] rowKey, Consistency consistency);

    /**
     * The rows' values (null for an absent row), in the keys' order: {@link #get} of each, which
     * a backend with network round trips runs all at once.
     */
    default List<byte[]> getAll(List<byte[]> rowKeys, Consistency consistency) {
        List<byte[]> values = new java.util.ArrayList<>(rowKeys.size());
        for (byte[] k : rowKeys) values.add(get(k, consistency));
        return values;
    }

    /**
     * The rows of one collection and kind with clustering bytes in [from, to), both row keys of
     * that collection and kind (either may be null for unbounded, with {@code within} then giving
     * any row key of the collection and kind), ascending or descending. Close the cursor when done.
     */
    Cursor range(byte[] within, byte[] fromInclusive, byte[] toExclusive, boolean reverse, Consistency consistency);

    /**
     * {@link #range} for a reader that means to read about {@code rowsWanted} rows (a Query's
     * Limit): a backend that fetches rows in pages sizes its first page by it, so that a page of
     * ten items does not fetch the hundred behind them. The cursor still gives every row of the
     * range as it moves on.
     */
    default Cursor range(byte[] within, byte[] fromInclusive, byte[] toExclusive, boolean reverse, Consistency consistency,
                         int rowsWanted) {
        return range(within, fromInclusive, toExclusive, reverse, consistency);
    }

    /**
     * The rows of one kind of one table, every collection, in the backend's scan order: each row
     * exactly once over the scan. Scan positions are the 64-bit space of hashes (unsigned): the
     * scan gives the rows whose position falls in [fromHash, toHash) ({@code toHash} 0 for the
     * end of the space), in position order, starting after {@code startAfter} when it is a row
     * key the scan gave. An ordered backend's position is the row key's hash; another's is its own
     * (Cassandra: the token, shifted onto the same space), so segments of the hash space are
     * segments of any backend's order.
     */
    Cursor scan(long tableId, int kind, long fromHash, long toHash, byte[] startAfter, Consistency consistency);

    /**
     * Applies every change if every expectation holds, all of them or none, isolated from every
     * other commit of the collection: no reader sees part of it. Every row named belongs to one
     * collection.
     *
     * @return false, applying nothing, when some row is not as expected
     * @throws StorageFaultException if the backend cannot write now and nothing is applied; a
     *         backend that cannot tell at once whether a commit applied (a Cassandra timeout)
     *         finds out before it returns
     * @throws IllegalArgumentException if the rows are not all of one collection
     */
    boolean commit(List<Expected> expected, List<Change> changes);

    /**
     * Applies every change without expecting anything, as the backend's plain write where it has
     * one (Cassandra: a timestamped QUORUM write, no Paxos round): all of them, ordered against
     * other writes of the rows by the backend's own order (the last timestamp wins), not isolated
     * from a {@link #commit} running on them. Every row named belongs to one collection.
     *
     * @throws StorageFaultException if the backend cannot write now and nothing is applied
     */
    default void write(List<Change> changes) {
        if (!commit(List.of(), changes)) throw new IllegalStateException("a commit expecting nothing was refused");
    }
}
