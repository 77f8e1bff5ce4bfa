package io.stator.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link CollectionStore} contract on an ordered-bytes {@link Storage} used by one process
 * (RocksDB): rows are the rows of one key space of the storage under their own keys, so the scan
 * order is the key's hash order; a commit holds its collection's lock (one of a fixed set of
 * stripes) while it compares the expected rows and commits its batch, which makes it atomic and
 * isolated from every other commit of the collection in this process. Strong and eventual reads
 * are the same read.
 */
public final class LockingCollectionStore implements CollectionStore {

    private static final int STRIPES = 1024;

    private final Storage storage;
    private final Keyspace rows;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    /** @param rows the key space that holds every collection's rows */
    public LockingCollectionStore(Storage storage, Keyspace rows) {
        this.storage = storage;
        this.rows = rows;
        for (int i = 0; i < STRIPES; i++) stripes[i] = new ReentrantLock();
    }

    @Override
    public void createTable(long tableId) {
        // Nothing to make: every table's rows share one key space.
    }

    @Override
    public void dropTable(long tableId) {
        storage.deleteRange(rows, RowKeyFraming.tablePrefix(tableId), RowKeyFraming.kindUpperBound(tableId, -1));
    }

    @Override
    public byte[] get(byte[] rowKey, Consistency consistency) {
        return storage.get(rows, rowKey);
    }

    @Override
    public Cursor range(byte[] within, byte[] fromInclusive, byte[] toExclusive, boolean reverse,
                        Consistency consistency) {
        byte[] prefix = Arrays.copyOf(within, RowKeyFraming.clusteringOffset(within));
        byte[] from = fromInclusive != null ? fromInclusive : prefix;
        byte[] to = toExclusive != null ? toExclusive : upperBound(prefix);
        return storage.range(null, rows, from, to, reverse);
    }

    @Override
    public Cursor scan(long tableId, int kind, long fromHash, long toHash, byte[] startAfter, Consistency consistency) {
        byte[] from = startAfter != null ? Arrays.copyOf(startAfter, startAfter.length + 1)
                : RowKeyFraming.hashBound(tableId, kind, fromHash);
        byte[] to = toHash == 0 ? RowKeyFraming.kindUpperBound(tableId, kind)
                : RowKeyFraming.hashBound(tableId, kind, toHash);
        return storage.range(null, rows, from, to, false);
    }

    @Override
    public boolean commit(List<Expected> expected, List<Change> changes) {
        if (expected.isEmpty() && changes.isEmpty()) return true;
        byte[] any = !changes.isEmpty() ? changes.get(0).rowKey() : expected.get(0).rowKey();
        List<byte[]> keys = new ArrayList<>(expected.size() + changes.size());
        for (Expected e : expected) keys.add(e.rowKey());
        for (Change c : changes) keys.add(c.rowKey());
        for (byte[] key : keys) {
            if (!RowKeyFraming.sameCollection(any, key)) {
                throw new IllegalArgumentException("a commit changes one item collection");
            }
        }
        ReentrantLock lock = stripes[Math.floorMod(Arrays.hashCode(RowKeyFraming.collection(any)), STRIPES)];
        lock.lock();
        try {
            for (Expected e : expected) {
                if (!Arrays.equals(storage.get(rows, e.rowKey()), e.value())) return false;
            }
            try (WriteBatch batch = storage.newBatch()) {
                for (Change c : changes) {
                    if (c.value() == null) batch.delete(rows, c.rowKey());
                    else batch.put(rows, c.rowKey(), c.value());
                }
                storage.commit(batch);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    private static byte[] upperBound(byte[] prefix) {
        int i = prefix.length - 1;
        while (i >= 0 && prefix[i] == (byte) 0xFF) i--;
        byte[] bound = Arrays.copyOf(prefix, i + 1);
        bound[i]++;
        return bound;
    }
}
