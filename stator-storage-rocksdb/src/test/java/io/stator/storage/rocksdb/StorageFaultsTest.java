package io.stator.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;
import io.stator.storage.Snapshot;
import io.stator.storage.StorageFaultException;
import io.stator.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults that heal: when the store cannot write, every write fails with a
 * {@link StorageFaultException} and writes nothing, reads go on, the fault and its cause are
 * reported once; once the fault is cleared, writes resume in the same open store, and every
 * write acknowledged before and after is there, also after reopening.
 *
 * <p>Two ways to fill the store, one body: a real full disk (a small tmpfs the test mounts,
 * skipped where mounting is refused), and RocksDB's own space cap (its SstFileManager's maximum
 * allowed space), which runs everywhere, so that CI always checks the same behaviour.
 */
class StorageFaultsTest {

    /** Random, so that compression cannot shrink what fills the disk. */
    private static final int VALUE_BYTES = 64 << 10;

    @TempDir
    Path tmp;

    private final List<String> log = new CopyOnWriteArrayList<>();

    /** A way to make the store unable to write, and to clear it. */
    private interface Fault {
        /** Makes writes fail soon (maybe only after some more writes). */
        void inject(RocksStorage storage) throws Exception;

        /** Gives back 16 MB: less than RocksDB waits for (32 MB free, RocksOpening.RESUME_FREE_BYTES). */
        void clearPartly() throws Exception;

        void clear() throws Exception;

        /** RocksDB's words for the cause, which the report must carry. */
        String cause();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void writesRefusedOnAFullDiskResumeOnceSpaceIsFreed() throws Exception {
        // Room enough, once the ballast is gone, for RocksDB's condition to resume (32 MB free)
        // besides what the store holds, its write-ahead log preallocated (~35 MB).
        try (SmallDisk disk = SmallDisk.mount(tmp.resolve("disk"), 160L << 20)) {
            faultHeals(disk.root().resolve("data"), new Fault() {
                @Override
                public void inject(RocksStorage storage) throws Exception {
                    disk.fillLeaving(4L << 20);
                }

                @Override
                public void clearPartly() throws Exception {
                    disk.freeUntil(16L << 20);
                }

                @Override
                public void clear() throws Exception {
                    disk.free();
                }

                @Override
                public String cause() {
                    return "No space left on device";
                }
            });
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void writesRefusedPastTheSpaceCapResumeOnceItIsLifted() throws Exception {
        // RocksDB resumes once 32 MB are free on the disk itself.
        Assumptions.assumeTrue(Files.getFileStore(tmp).getUsableSpace() > (256L << 20),
                "skipped: less than 256 MB free under " + tmp);
        faultHeals(tmp.resolve("data"), new Fault() {
            private RocksStorage capped;

            @Override
            public void inject(RocksStorage storage) {
                capped = storage;
                storage.capSpace(1); // the next flush takes the table files past it
                try {
                    storage.flush();
                } catch (RuntimeException e) {
                    // the flush itself may report the fault; the writes below must
                }
            }

            @Override
            public void clearPartly() {
                capped.capSpace(16L << 20); // RocksDB counts the free space as at most the cap
            }

            @Override
            public void clear() {
                capped.capSpace(0);
            }

            @Override
            public String cause() {
                return "Max allowed space was reached";
            }
        });
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void closingWhileTheDiskIsFullKeepsEveryAcknowledgedWrite() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(tmp.resolve("disk"), 16L << 20)) {
            Path data = disk.root().resolve("data");
            List<Long> acknowledged = new ArrayList<>();
            long next = 0;
            try (RocksStorage storage = RocksStorage.builder(data, TestKeyspaces.ALL).faultLog(log::add).open()) {
                disk.fillLeaving(2L << 20);
                while (true) {
                    if (next > 1_000) fail("writes never failed on a full disk");
                    try {
                        put(storage, next);
                        acknowledged.add(next++);
                    } catch (StorageFaultException e) {
                        break;
                    }
                }
            } // closes while the disk is still full: it must not fail, nor log anything more
            assertEquals(1, log.size(), () -> "reported: " + log);

            disk.free();
            try (RocksStorage reopened = RocksStorage.builder(data, TestKeyspaces.ALL).faultLog(log::add).open()) {
                assertEveryItem(reopened, acknowledged);
                put(reopened, next);
                acknowledged.add(next);
                assertEveryItem(reopened, acknowledged);
            }
            assertEquals(1, log.size(), () -> "reported: " + log);
        }
    }

    private void faultHeals(Path data, Fault fault) throws Exception {
        List<Long> acknowledged = new ArrayList<>();
        long next = 0;
        try (RocksStorage storage = RocksStorage.builder(data, TestKeyspaces.ALL).faultLog(log::add).open()) {
            for (; next < 20; next++) {
                put(storage, next);
                acknowledged.add(next);
            }

            fault.inject(storage);
            StorageFaultException refused = null;
            for (int i = 0; i < 5_000 && refused == null; i++) {
                try {
                    put(storage, next);
                    acknowledged.add(next++);
                } catch (StorageFaultException e) {
                    refused = e;
                }
            }
            assertNotNull(refused, "writes never failed");
            assertEquals(StorageFaultException.Kind.OUT_OF_SPACE, refused.kind(), refused.getMessage());
            assertTrue(refused.getMessage().contains(fault.cause()), refused.getMessage());

            // Every write fails the same way and writes nothing; reads go on.
            for (int i = 0; i < 3; i++) {
                long key = next;
                StorageFaultException again = assertThrows(StorageFaultException.class, () -> put(storage, key));
                assertEquals(StorageFaultException.Kind.OUT_OF_SPACE, again.kind());
            }
            StorageFaultException range = assertThrows(StorageFaultException.class,
                    () -> storage.deleteRange(TestKeyspaces.ITEMS, key(0), key(1)));
            assertEquals(StorageFaultException.Kind.OUT_OF_SPACE, range.kind());
            assertNull(storage.get(TestKeyspaces.ITEMS, key(next)));
            assertEveryItem(storage, acknowledged);

            // Reported once, with its cause, however many writes failed.
            assertEquals(1, log.size(), () -> "reported: " + log);
            assertTrue(log.get(0).contains(fault.cause()), log.get(0));

            // Less than RocksDB's 32 MB free: it waits on, past its next look at the free space.
            fault.clearPartly();
            Thread.sleep(6_000);
            long stillRefused = next;
            assertThrows(StorageFaultException.class, () -> put(storage, stillRefused));
            assertEquals(1, log.size(), () -> "reported: " + log);

            fault.clear();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                try {
                    put(storage, next);
                    acknowledged.add(next++);
                    break;
                } catch (StorageFaultException e) {
                    if (System.nanoTime() > deadline) fail("writes did not resume within 60 s: " + e.getMessage());
                    Thread.sleep(100);
                }
            }
            for (int i = 0; i < 20; i++) {
                put(storage, next);
                acknowledged.add(next++);
            }
            assertEveryItem(storage, acknowledged);
            assertEquals(2, log.size(), () -> "reported: " + log);
            assertTrue(log.get(1).contains("resumed"), log.get(1));
        } // closing must not fail: the fault is over

        try (RocksStorage reopened = RocksStorage.open(data, TestKeyspaces.ALL)) {
            assertEveryItem(reopened, acknowledged);
            put(reopened, next);
        }
        assertEquals(2, log.size(), () -> "reported: " + log);
    }

    private static void put(RocksStorage storage, long i) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.put(TestKeyspaces.ITEMS, key(i), value(i));
            batch.put(TestKeyspaces.CATALOG, key(i), key(i));
            storage.commit(batch);
        }
    }

    /** Every acknowledged item, whole (both keyspaces), by point reads and by a range in a snapshot. */
    private static void assertEveryItem(RocksStorage storage, List<Long> acknowledged) {
        for (long i : acknowledged) {
            assertArrayEquals(value(i), storage.get(TestKeyspaces.ITEMS, key(i)), "item " + i);
            assertArrayEquals(key(i), storage.get(TestKeyspaces.CATALOG, key(i)), "catalog row " + i);
        }
        try (Snapshot snapshot = storage.snapshot();
             Cursor cursor = storage.range(snapshot, TestKeyspaces.ITEMS, null, null, false)) {
            int n = 0;
            while (cursor.next()) {
                assertArrayEquals(key(acknowledged.get(n)), cursor.key(), "key " + n + " of the range");
                n++;
            }
            assertEquals(acknowledged.size(), n, "items in the range");
        }
    }

    private static byte[] key(long i) {
        return ByteBuffer.allocate(8).putLong(i).array();
    }

    private static byte[] value(long i) {
        byte[] value = new byte[VALUE_BYTES];
        new Random(i).nextBytes(value);
        return value;
    }
}
