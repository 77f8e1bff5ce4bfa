package io.stator.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.CollectionStore;
import io.stator.storage.LockingCollectionStore;
import io.stator.storage.RowKeyFraming;
import io.stator.storage.WriteBatch;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tables written, which the upkeep counts again ({@code TableCounters#recount}), are reported
 * only once their commit has landed: a recount that took a table's mark while the commit was still
 * in flight could walk past the item before it landed, and the counters would stay without that
 * write until the table's next one (seen on Cassandra: ItemCount 299 of 300 items for a minute).
 */
class WrittenTablesTest {

    private static final long TABLE = 7;

    @Test
    void aTableIsReportedWrittenOnceItsCommitHasLandedNotBefore(@TempDir Path dir) throws Exception {
        try (RocksStorage rocks = RocksStorage.open(dir, Keyspaces.ALL)) {
            HeldStore store = new HeldStore(new LockingCollectionStore(rocks, Keyspaces.ITEMS));
            store.createTable(TABLE);
            SharedStorage storage = new SharedStorage(store, Clock.systemUTC(), null);
            Thread writer = Thread.ofPlatform().start(() -> {
                try (WriteBatch batch = storage.newBatch()) {
                    batch.put(Keyspaces.ITEMS, RowKeyFraming.rowKey(TABLE, 0, 1, new byte[] {'a'}, new byte[0]), new byte[] {1});
                    storage.commit(batch);
                }
            });
            assertTrue(store.committing.await(30, TimeUnit.SECONDS), "the commit reached the store");
            assertEquals(Set.of(), storage.takeWrittenTables(), "reported while its commit is in flight");
            store.release.countDown();
            writer.join(30_000);
            assertEquals(Set.of(TABLE), storage.takeWrittenTables());
            assertEquals(Set.of(), storage.takeWrittenTables(), "taken once");
        }
    }

    /** Holds the item commits of {@link #TABLE} until released, as a slow Paxos round would. */
    private static final class HeldStore extends ForwardingStore {
        final CountDownLatch committing = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        HeldStore(CollectionStore store) {
            super(store);
        }

        @Override
        public boolean commit(List<Expected> expected, List<Change> changes) {
            byte[] any = !changes.isEmpty() ? changes.get(0).rowKey() : expected.get(0).rowKey();
            if (RowKeyFraming.tableId(any) == TABLE) {
                committing.countDown();
                try {
                    if (!release.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("never released");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return store.commit(expected, changes);
        }
    }
}
