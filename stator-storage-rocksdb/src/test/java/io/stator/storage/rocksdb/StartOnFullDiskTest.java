package io.stator.storage.rocksdb;

import static io.stator.storage.rocksdb.StorageChild.catalogKey;
import static io.stator.storage.rocksdb.StorageChild.itemKey;
import static io.stator.storage.rocksdb.StorageChild.largeValue;
import static io.stator.storage.rocksdb.StorageChild.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;
import io.stator.storage.Snapshot;
import io.stator.storage.StorageFaultException;
import io.stator.storage.WriteBatch;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store killed with -9 while its disk is full opens again on that full disk: opening for
 * writes would write, so it opens for reads only (ReadOnlyStart). Every acknowledged write can
 * be read, every write is refused as during a full-disk fault, another process cannot take the
 * directory meanwhile, and once space is freed the same open store takes writes again, the
 * snapshot and cursor it handed out before still reading what they read, with every write kept
 * after a reopen. On a small tmpfs the test mounts (skipped where mounting is refused).
 */
class StartOnFullDiskTest {

    private static final Pattern ACK = Pattern.compile("ack (\\d+);");

    @TempDir
    Path tmp;

    private final List<String> log = new CopyOnWriteArrayList<>();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void opensForReadsOnAFullDiskAndTakesWritesOnceSpaceIsFreed() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(tmp.resolve("disk"), 64L << 20)) {
            Path data = disk.root().resolve("data");
            Path stderr = tmp.resolve("child-stderr.txt");
            disk.fillLeaving(6L << 20);
            long lastAck = fillThenKill(data, stderr);
            assertTrue(lastAck >= 10, "too few writes before the disk was full: " + (lastAck + 1));

            try (RocksStorage storage = RocksStorage.builder(data, TestKeyspaces.ALL).faultLog(log::add).open()) {
                assertEveryWrite(storage, lastAck);
                assertEquals(1, log.size(), () -> "reported: " + log);
                assertTrue(log.get(0).contains("No space left on device"), log.get(0));
                assertTrue(log.get(0).contains("Opened for reads only"), log.get(0));

                // Every write is refused as during a full-disk fault, and writes nothing.
                long refusedKey = lastAck + 1;
                StorageFaultException refused = assertThrows(StorageFaultException.class, () -> put(storage, refusedKey));
                assertEquals(StorageFaultException.Kind.OUT_OF_SPACE, refused.kind());
                assertEquals(StorageFaultException.Kind.OUT_OF_SPACE, assertThrows(StorageFaultException.class,
                        () -> storage.deleteRange(TestKeyspaces.ITEMS, itemKey(0, 'a'), itemKey(1, 'a'))).kind());
                assertNull(storage.get(TestKeyspaces.ITEMS, itemKey(refusedKey, 'a')));

                // Another process cannot open the directory behind its back.
                try (ChildProcess other = ChildProcess.start(tmp.resolve("other-stderr.txt"), "hold", data.toString())) {
                    assertTrue(other.process().waitFor(60, TimeUnit.SECONDS), "the other process opened the directory");
                    assertTrue(other.stderrText().contains("in use by another process"), other.stderrText());
                }

                // A snapshot and a cursor handed out now read on after the store reopens.
                try (Snapshot before = storage.snapshot();
                     Cursor cursor = storage.range(before, TestKeyspaces.CATALOG, null, null, false)) {
                    assertTrue(cursor.next());
                    assertArrayEquals(catalogKey(0), cursor.key());

                    disk.free();
                    long next = awaitWrites(storage, refusedKey);
                    assertEquals(2, log.size(), () -> "reported: " + log);
                    assertTrue(log.get(1).contains("writes resumed"), log.get(1));

                    assertNull(storage.get(before, TestKeyspaces.ITEMS, itemKey(refusedKey, 'a')), "the snapshot moved on");
                    for (long i = 1; i <= lastAck; i++) {
                        assertTrue(cursor.next(), "row " + i + " of the cursor");
                        assertArrayEquals(catalogKey(i), cursor.key());
                        assertArrayEquals(value(i), cursor.value());
                    }
                    assertFalse(cursor.next(), "the cursor sees a write made after it");
                    assertEveryWrite(storage, next - 1);
                }
            }

            try (RocksStorage reopened = RocksStorage.builder(data, TestKeyspaces.ALL).faultLog(log::add).open()) {
                long last = lastAck + 1;
                while (reopened.get(TestKeyspaces.ITEMS, itemKey(last + 1, 'a')) != null) last++;
                assertEveryWrite(reopened, last);
                put(reopened, last + 1);
            }
            assertEquals(2, log.size(), () -> "reported: " + log);
        }
    }

    /** A child writes until its disk is full and is killed with -9; its last acknowledged write. */
    private static long fillThenKill(Path data, Path stderr) throws Exception {
        long lastAck = -1;
        try (ChildProcess child = ChildProcess.start(stderr, "fill", data.toString())) {
            child.awaitLine("ready;", 60);
            while (true) {
                String line = child.nextLine(60);
                if (line.equals("full;")) break;
                Matcher m = ACK.matcher(line);
                assertTrue(m.matches(), line);
                lastAck = Long.parseLong(m.group(1));
            }
            child.killHard();
        }
        return lastAck;
    }

    /** Puts from {@code first} on until one is taken (within a minute); the next key to put. */
    private static long awaitWrites(RocksStorage storage, long first) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                put(storage, first);
                break;
            } catch (StorageFaultException e) {
                if (System.nanoTime() > deadline) fail("writes did not resume within 60 s: " + e.getMessage());
                Thread.sleep(100);
            }
        }
        for (long i = first + 1; i < first + 10; i++) put(storage, i);
        return first + 10;
    }

    private static void put(RocksStorage storage, long i) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.put(TestKeyspaces.ITEMS, itemKey(i, 'a'), largeValue(i));
            batch.put(TestKeyspaces.CATALOG, catalogKey(i), value(i));
            storage.commit(batch);
        }
    }

    /** Writes 0 to {@code last}, whole, by point reads and in a range. */
    private static void assertEveryWrite(RocksStorage storage, long last) {
        for (long i = 0; i <= last; i++) {
            assertArrayEquals(largeValue(i), storage.get(TestKeyspaces.ITEMS, itemKey(i, 'a')), "item " + i);
            assertArrayEquals(value(i), storage.get(TestKeyspaces.CATALOG, catalogKey(i)), "row " + i);
        }
        try (Cursor cursor = storage.range(null, TestKeyspaces.CATALOG, null, null, false)) {
            long n = 0;
            while (cursor.next()) n++;
            assertEquals(last + 1, n, "rows in the range");
        }
    }
}
