package io.stator.engine.cluster;

import io.stator.storage.Cursor;
import io.stator.storage.RowKeyFraming;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Where point-in-time recovery's rows (the RECOVERY key space, {@code backup/RecoveryLog}) live on
 * shared storage: in their item's own collection, as rows of two kinds of their own beside the
 * item and its local-index entries.
 *
 * <p>Why there. A history row must commit with its item's change, whichever server makes it. On a
 * shared store a commit is atomic within one collection only (one compare-and-set); a batch over
 * two collections is a transaction on compare-and-set, about nine Paxos rounds instead of one or
 * two. Kept in the item's collection, the history row costs one row more in the compare-and-set
 * the write makes anyway, a transaction stays over the collections of its own items, and the rows
 * spread over the cluster as the table's items do (by partition key): no partition per table or
 * per time. What it costs instead: a Scan of the table (Cassandra reads a token range and filters
 * by kind) passes over the history rows of the recovery window too, as it passes over a global
 * index's entries; and an item written very often keeps all its window's history in its
 * collection's Cassandra partition (an item updated ten times a second for 35 days: 30 million
 * rows), which the window's trim folds away as it moves.
 *
 * <p>Rows (persisted), from RecoveryLog's keys:
 * <pre>
 * table (8) 'B' + row key               -> row key with kind {@value #BASE_KIND}, clustering as the item's
 * table (8) 'H' + commit ms (8) + row key -> row key with kind {@value #HISTORY_KIND}, clustering: commit ms (8) + the item's
 * </pre>
 * Both kinds sort below the commit markers' (-1). A range of RECOVERY is a scan of the table's rows
 * of that kind, filtered to the range: the same rows as an ordered store's range, but in the
 * store's scan order, which keeps each item's changes in time order (they share a collection) but
 * not the changes of different items (RecoveryLog needs only the former).
 */
final class RecoveryRows {

    static final int BASE_KIND = ReservedKinds.RECOVERY_BASE;
    static final int HISTORY_KIND = ReservedKinds.RECOVERY_HISTORY;
    /** RecoveryLog's row types (persisted). */
    private static final byte BASE = 'B';
    private static final byte HISTORY = 'H';
    private static final int TYPE_OFFSET = 8;
    private static final int MILLIS_BYTES = 8;

    private RecoveryRows() {}

    /** The store's row of a RECOVERY key. */
    static byte[] row(byte[] key) {
        byte type = key[TYPE_OFFSET];
        if (type == BASE) {
            byte[] item = Arrays.copyOfRange(key, TYPE_OFFSET + 1, key.length);
            return RowKeyFraming.rowKey(RowKeyFraming.tableId(item), BASE_KIND, RowKeyFraming.hash(item),
                    RowKeyFraming.partitionKey(item), RowKeyFraming.clustering(item));
        }
        if (type != HISTORY) throw new IllegalArgumentException("not a point-in-time recovery row: type " + type);
        int itemAt = TYPE_OFFSET + 1 + MILLIS_BYTES;
        byte[] item = Arrays.copyOfRange(key, itemAt, key.length);
        byte[] sortKey = RowKeyFraming.clustering(item);
        byte[] clustering = Arrays.copyOfRange(key, TYPE_OFFSET + 1, TYPE_OFFSET + 1 + MILLIS_BYTES + sortKey.length);
        System.arraycopy(sortKey, 0, clustering, MILLIS_BYTES, sortKey.length);
        return RowKeyFraming.rowKey(RowKeyFraming.tableId(item), HISTORY_KIND, RowKeyFraming.hash(item),
                RowKeyFraming.partitionKey(item), clustering);
    }

    /** The RECOVERY key of a store's row. */
    static byte[] key(byte[] row) {
        long table = RowKeyFraming.tableId(row);
        byte[] clustering = RowKeyFraming.clustering(row);
        boolean history = RowKeyFraming.kind(row) == HISTORY_KIND;
        byte[] sortKey = history ? Arrays.copyOfRange(clustering, MILLIS_BYTES, clustering.length) : clustering;
        byte[] item = RowKeyFraming.rowKey(table, 0, RowKeyFraming.hash(row), RowKeyFraming.partitionKey(row), sortKey);
        ByteBuffer key = ByteBuffer.allocate(TYPE_OFFSET + 1 + (history ? MILLIS_BYTES : 0) + item.length).putLong(table);
        if (history) key.put(HISTORY).put(clustering, 0, MILLIS_BYTES);
        else key.put(BASE);
        return key.put(item).array();
    }

    /** The table a RECOVERY key or bound (at least the table id) is of. */
    static long tableOf(byte[] keyOrBound) {
        return ByteBuffer.wrap(keyOrBound).getLong(0);
    }

    /**
     * The kinds of store rows a range of RECOVERY keys of one table may hold: one type's when
     * both bounds are of that type (RecoveryLog's ranges), else both (a table's whole history).
     */
    static int[] kindsBetween(byte[] from, byte[] to) {
        if (from.length > TYPE_OFFSET && to.length > TYPE_OFFSET && tableOf(from) == tableOf(to)) {
            for (byte type : new byte[] {BASE, HISTORY}) {
                if (from[TYPE_OFFSET] == type && (to[TYPE_OFFSET] == type
                        || (to[TYPE_OFFSET] == type + 1 && to.length == TYPE_OFFSET + 1))) {
                    return new int[] {type == BASE ? BASE_KIND : HISTORY_KIND};
                }
            }
        }
        return new int[] {BASE_KIND, HISTORY_KIND};
    }

    /** True when the RECOVERY key lies in [from, to). */
    static boolean within(byte[] key, byte[] from, byte[] to) {
        return Arrays.compareUnsigned(key, from) >= 0 && (to == null || Arrays.compareUnsigned(key, to) < 0);
    }

    /** The rows of a cursor of store rows (committed values) whose RECOVERY keys lie in [from, to), as RECOVERY keys. */
    static Cursor within(Cursor rows, byte[] from, byte[] to) {
        return new Cursor() {
            private byte[] current;

            @Override
            public boolean next() {
                while (rows.next()) {
                    current = RecoveryRows.key(rows.key());
                    if (within(current, from, to)) return true;
                }
                return false;
            }

            @Override public byte[] key() { return current; }
            @Override public byte[] value() { return rows.value(); }
            @Override public void close() { rows.close(); }
        };
    }
}
