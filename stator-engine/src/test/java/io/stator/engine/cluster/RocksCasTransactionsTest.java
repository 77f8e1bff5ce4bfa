package io.stator.engine.cluster;

import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.CollectionStore;
import io.stator.storage.LockingCollectionStore;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions on compare-and-set over RocksDB's collection store (LockingCollectionStore), each
 * call delayed a little at random, as a distributed store's are: without it, one process's calls
 * are so quick that the steps of concurrent transactions rarely interleave.
 */
class RocksCasTransactionsTest extends CasTransactionsContract {

    @TempDir
    static Path tmp;

    private static RocksStorage storage;
    private static CollectionStore store;

    @BeforeAll
    static void open() {
        storage = RocksStorage.open(tmp.resolve("data"), Keyspaces.ALL);
        store = jittered(new LockingCollectionStore(storage, Keyspaces.ITEMS));
    }

    @AfterAll
    static void close() {
        storage.close();
    }

    private static CollectionStore jittered(CollectionStore store) {
        return new CollectionStore() {
            private void pause() {
                java.util.concurrent.locks.LockSupport.parkNanos(
                        java.util.concurrent.ThreadLocalRandom.current().nextLong(20_000, 200_000));
            }

            @Override
            public void createTable(long tableId) { store.createTable(tableId); }

            @Override
            public void dropTable(long tableId) { store.dropTable(tableId); }

            @Override
            public byte[] get(byte[] rowKey, Consistency consistency) {
                pause();
                return store.get(rowKey, consistency);
            }

            @Override
            public io.stator.storage.Cursor range(byte[] within, byte[] from, byte[] to, boolean reverse,
                                                  Consistency consistency) {
                return store.range(within, from, to, reverse, consistency);
            }

            @Override
            public io.stator.storage.Cursor scan(long tableId, int kind, long fromHash, long toHash, byte[] startAfter,
                                                 Consistency consistency) {
                return store.scan(tableId, kind, fromHash, toHash, startAfter, consistency);
            }

            @Override
            public boolean commit(java.util.List<Expected> expected, java.util.List<Change> changes) {
                pause();
                return store.commit(expected, changes);
            }
        };
    }

    @Override
    protected int transfersPerWriter() { return 60; }

    @Override
    protected CollectionStore store() {
        return store;
    }
}
