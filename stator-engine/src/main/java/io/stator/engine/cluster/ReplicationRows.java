package io.stator.engine.cluster;

import io.stator.storage.CollectionStore;
import io.stator.storage.CollectionStore.Change;
import io.stator.storage.CollectionStore.Consistency;
import io.stator.storage.Cursor;
import io.stator.storage.RowKeyFraming;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where global tables' rows live on shared storage ({@code engine/replication}).
 *
 * <ul>
 *   <li><b>Item versions</b> (ITEM_VERSIONS, keyed by the item's row key): in the item's own
 *       collection, as rows of kind {@value #VERSION_KIND}, so that a version commits in the
 *       compare-and-set its item's change makes anyway, and a write expecting it unchanged (the
 *       replication log does, so that two servers never give one item the same or an older
 *       version) costs nothing more. A tombstone is such a row without its item.</li>
 *   <li><b>The replication log</b> (REPLICATION_LOG): one collection per table (its keys' first
 *       eight bytes: the table id, or -1 for the region's own rows), the rest of the key its
 *       clustering bytes, in the key space's reserved table. Its rows are written by the store's
 *       plain write, never compare-and-set: each server numbers its own log's changes, so no two
 *       servers write one row, and a change's row is written before its item's commit, as a hint
 *       (the log's reader ships a change only once it committed).</li>
 * </ul>
 */
final class ReplicationRows {

    static final int VERSION_KIND = ReservedKinds.ITEM_VERSION;
    private static final int LOG_COLLECTION_BYTES = 8;

    private ReplicationRows() {}

    /** The store's row of an item's version. */
    static byte[] versionRow(byte[] itemRowKey) {
        return RowKeyFraming.rowKey(RowKeyFraming.tableId(itemRowKey), VERSION_KIND, RowKeyFraming.hash(itemRowKey),
                RowKeyFraming.partitionKey(itemRowKey), RowKeyFraming.clustering(itemRowKey));
    }

    /** The ITEM_VERSIONS key (the item's row key) of a store's row. */
    static byte[] versionKey(byte[] row) {
        return RowKeyFraming.rowKey(RowKeyFraming.tableId(row), 0, RowKeyFraming.hash(row), RowKeyFraming.partitionKey(row),
                RowKeyFraming.clustering(row));
    }

    /** Whether a range of ITEM_VERSIONS keys is a whole table's ({@code [table]} to {@code [table + 1]}). */
    static boolean wholeTable(byte[] from, byte[] to) {
        return from.length == LOG_COLLECTION_BYTES && to != null && to.length == LOG_COLLECTION_BYTES;
    }

    /** The versions of a cursor of store rows (committed values) whose keys lie in [from, to), as ITEM_VERSIONS keys. */
    static Cursor versionsWithin(Cursor rows, byte[] from, byte[] to) {
        return new Cursor() {
            private byte[] current;

            @Override
            public boolean next() {
                while (rows.next()) {
                    current = versionKey(rows.key());
                    if (Arrays.compareUnsigned(current, from) >= 0 && (to == null || Arrays.compareUnsigned(current, to) < 0)) {
                        return true;
                    }
                }
                return false;
            }

            @Override public byte[] key() { return current; }
            @Override public byte[] value() { return rows.value(); }
            @Override public void close() { rows.close(); }
        };
    }

    /** The store's row of a REPLICATION_LOG key, in the key space's reserved table {@code metaTable}. */
    static byte[] logRow(long metaTable, byte[] key) {
        if (key.length < LOG_COLLECTION_BYTES) throw new IllegalArgumentException("not a replication log key");
        return RowKeyFraming.rowKey(metaTable, 0, 0, Arrays.copyOf(key, LOG_COLLECTION_BYTES),
                Arrays.copyOfRange(key, LOG_COLLECTION_BYTES, key.length));
    }

    /** The REPLICATION_LOG key of a store's row. */
    static byte[] logKey(byte[] row) {
        byte[] collection = RowKeyFraming.partitionKey(row);
        byte[] clustering = RowKeyFraming.clustering(row);
        byte[] key = Arrays.copyOf(collection, collection.length + clustering.length);
        System.arraycopy(clustering, 0, key, collection.length, clustering.length);
        return key;
    }

    /** Writes the log's rows by the store's plain write, collection by collection. */
    static void writeLog(CollectionStore store, List<Change> rows) {
        Map<Long, List<Change>> byCollection = new LinkedHashMap<>();
        for (Change c : rows) {
            byCollection.computeIfAbsent(ByteBuffer.wrap(RowKeyFraming.partitionKey(c.rowKey())).getLong(), t -> new ArrayList<>())
                    .add(c);
        }
        for (List<Change> changes : byCollection.values()) store.write(changes);
    }

    /** The log's rows in [from, to) within {@code from}'s collection (a {@code to} in another reads to its end). */
    static Cursor logRange(CollectionStore store, long metaTable, byte[] from, byte[] to, boolean reverse) {
        Cursor rows = store.range(logRow(metaTable, Arrays.copyOf(from, LOG_COLLECTION_BYTES)), logRow(metaTable, from),
                sameLogCollection(from, to) ? logRow(metaTable, to) : null, reverse, Consistency.COMMITTED);
        return new Cursor() {
            @Override public boolean next() { return rows.next(); }
            @Override public byte[] key() { return logKey(rows.key()); }
            @Override public byte[] value() { return rows.value(); }
            @Override public void close() { rows.close(); }
        };
    }

    /** Deletes the log's rows in [from, to) of one collection, or a whole collection (its table dropped). */
    static void deleteLogRange(CollectionStore store, long metaTable, byte[] from, byte[] to) {
        boolean within = sameLogCollection(from, to);
        List<Change> deletes = new ArrayList<>();
        try (Cursor c = store.range(logRow(metaTable, Arrays.copyOf(from, LOG_COLLECTION_BYTES)),
                within ? logRow(metaTable, from) : null, within ? logRow(metaTable, to) : null, false, Consistency.COMMITTED)) {
            while (c.next()) deletes.add(new Change(c.key(), null));
        }
        for (int i = 0; i < deletes.size(); i += 100) store.write(deletes.subList(i, Math.min(deletes.size(), i + 100)));
    }

    /** Whether two REPLICATION_LOG keys (or bounds) are of one collection. */
    static boolean sameLogCollection(byte[] a, byte[] b) {
        return b != null && b.length >= LOG_COLLECTION_BYTES && Arrays.equals(a, 0, LOG_COLLECTION_BYTES, b, 0,
                LOG_COLLECTION_BYTES);
    }
}
