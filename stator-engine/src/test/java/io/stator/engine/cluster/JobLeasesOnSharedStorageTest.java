package io.stator.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.jobs.JobLeases;
import io.stator.engine.jobs.JobRunner;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.LockingCollectionStore;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's lease whose compare-and-set is lost while the lease is free (on Cassandra, a Paxos round
 * timed out under contention on the partition of the jobs' rows, decided as not applied) is taken
 * on the next try, so the job runs now rather than at the next sweep; a lease another server holds
 * is still not taken. Seen on Cassandra: an import IN_PROGRESS with nothing processed after its
 * lane was idle, finished only when a later start resumed it.
 */
class JobLeasesOnSharedStorageTest {

    @Test
    void aJobWhoseLeaseCommitIsLostWhileTheLeaseIsFreeRunsAtOnce(@TempDir Path dir) throws Exception {
        try (RocksStorage rocks = RocksStorage.open(dir, Keyspaces.ALL)) {
            LosingStore store = new LosingStore(new LockingCollectionStore(rocks, Keyspaces.ITEMS), r -> !LosingStore.itemRow(r));
            SharedStorage storage = new SharedStorage(store, Clock.systemUTC(), null);
            JobLeases leases = new JobLeases(storage, 30_000);
            AtomicInteger ran = new AtomicInteger();
            try (JobRunner runner = new JobRunner(leases)) {
                JobRunner.Lane lane = runner.lane("imports", false);
                store.toLose.set(2);
                lane.submit("import/1", ran::incrementAndGet);
                runner.awaitIdle();
                assertEquals(1, ran.get(), "the job ran once its lane was idle");
                assertEquals(0, store.toLose.get());
            }

            // Another server's lease is read again and left to it, however many commits are lost.
            JobLeases other = new JobLeases(storage, 30_000);
            assertTrue(other.hold("export/1"));
            store.toLose.set(1);
            assertFalse(leases.hold("export/1"));
            assertEquals(1, store.toLose.get(), "not even tried");
        }
    }

    /**
     * A job a sweep finds (its record written by another server an instant ago) is left to the
     * server that started it: adopted only once its lease expired, or once it has had none for a
     * whole lease. Seen on Cassandra: a restore run by the server that had not started it, whose
     * sweep took the lease before the starting server's lane did.
     */
    @Test
    void aJobASweepFindsIsLeftToItsOwnServerForALease(@TempDir Path dir) throws Exception {
        long lease = 400;
        try (RocksStorage rocks = RocksStorage.open(dir, Keyspaces.ALL)) {
            SharedStorage storage = new SharedStorage(new LockingCollectionStore(rocks, Keyspaces.ITEMS),
                    Clock.systemUTC(), null);
            JobLeases sweeper = new JobLeases(storage, lease);
            JobLeases starter = new JobLeases(storage, lease);

            assertFalse(sweeper.adopt("restore/1"), "no lease yet: its own server is about to take it");
            assertTrue(starter.hold("restore/1"));
            assertFalse(sweeper.adopt("restore/1"), "held");

            // Never taken (its server died before): adopted once a whole lease has passed without one.
            assertFalse(sweeper.adopt("restore/2"));
            Thread.sleep(lease + 100);
            assertTrue(sweeper.adopt("restore/2"));

            // Taken and not renewed (its server died after): adopted at once when it expired.
            assertTrue(starter.hold("restore/3"));
            Thread.sleep(lease + 100);
            assertTrue(sweeper.adopt("restore/3"));
        }
    }
}
