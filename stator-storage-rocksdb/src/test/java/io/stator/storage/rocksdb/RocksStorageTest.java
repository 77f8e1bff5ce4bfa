package io.stator.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;
import io.stator.storage.Snapshot;
import io.stator.storage.WriteBatch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;

class RocksStorageTest {

    @TempDir
    Path tmp;

    private final List<RocksStorage> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(RocksStorage::close);
    }

    private RocksStorage open() {
        return track(RocksStorage.open(tmp.resolve("data"), TestKeyspaces.ALL));
    }

    private RocksStorage track(RocksStorage storage) {
        opened.add(storage);
        return storage;
    }

    // --------------------------------------------------------------------------------------------
    // Point reads and writes

    @Test
    void putGetDelete() {
        RocksStorage storage = open();
        assertNull(storage.get(TestKeyspaces.ITEMS, b("k")));

        commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, b("k"), b("v1")));
        assertEquals("v1", s(storage.get(TestKeyspaces.ITEMS, b("k"))));

        commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, b("k"), b("v2")));
        assertEquals("v2", s(storage.get(TestKeyspaces.ITEMS, b("k"))));

        commit(storage, batch -> batch.delete(TestKeyspaces.ITEMS, b("k")));
        assertNull(storage.get(TestKeyspaces.ITEMS, b("k")));
    }

    @Test
    void emptyValuesAndBinaryKeysRoundTrip() {
        RocksStorage storage = open();
        byte[] key = {0, (byte) 0xFF, 0, 1};
        commit(storage, batch -> {
            batch.put(TestKeyspaces.ITEMS, key, new byte[0]);
            batch.put(TestKeyspaces.ITEMS, new byte[0], b("empty key"));
        });
        assertArrayEquals(new byte[0], storage.get(TestKeyspaces.ITEMS, key));
        assertEquals("empty key", s(storage.get(TestKeyspaces.ITEMS, new byte[0])));
        assertNull(storage.get(TestKeyspaces.ITEMS, new byte[] {0, (byte) 0xFF, 0}));
    }

    @Test
    void batchBecomesVisibleAllAtOnceAcrossKeyspaces() {
        RocksStorage storage = open();
        commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, b("old"), b("x")));
        try (Snapshot before = storage.snapshot(); WriteBatch batch = storage.newBatch()) {
            for (int i = 0; i < 100; i++) {
                batch.put(TestKeyspaces.ITEMS, b("item" + i), b("v" + i));
            }
            batch.put(TestKeyspaces.CATALOG, b("table"), b("desc"));
            batch.delete(TestKeyspaces.ITEMS, b("old"));
            batch.put(TestKeyspaces.ITEMS, b("item0"), b("last write in the batch wins"));
            assertEquals(103, batch.size());
            assertNull(storage.get(TestKeyspaces.ITEMS, b("item1")), "nothing is visible before commit");

            storage.commit(batch);

            assertEquals("last write in the batch wins", s(storage.get(TestKeyspaces.ITEMS, b("item0"))));
            for (int i = 1; i < 100; i++) {
                assertEquals("v" + i, s(storage.get(TestKeyspaces.ITEMS, b("item" + i))));
            }
            assertEquals("desc", s(storage.get(TestKeyspaces.CATALOG, b("table"))));
            assertNull(storage.get(TestKeyspaces.ITEMS, b("old")));
            // A snapshot taken before the commit sees none of it.
            assertNull(storage.get(before, TestKeyspaces.ITEMS, b("item5")));
            assertNull(storage.get(before, TestKeyspaces.CATALOG, b("table")));
            assertEquals("x", s(storage.get(before, TestKeyspaces.ITEMS, b("old"))));
        }
    }

    @Test
    void emptyBatchCommitsNothing() {
        RocksStorage storage = open();
        try (WriteBatch batch = storage.newBatch()) {
            assertEquals(0, batch.size());
            storage.commit(batch);
        }
        assertEquals(List.of(), keys(storage.range(null, TestKeyspaces.ITEMS, null, null, false)));
    }

    // --------------------------------------------------------------------------------------------
    // Snapshots

    @Test
    void snapshotDoesNotSeeLaterWrites() {
        RocksStorage storage = open();
        commit(storage, batch -> {
            batch.put(TestKeyspaces.ITEMS, b("a"), b("1"));
            batch.put(TestKeyspaces.ITEMS, b("b"), b("1"));
            batch.put(TestKeyspaces.ITEMS, b("c"), b("1"));
        });
        try (Snapshot snapshot = storage.snapshot()) {
            commit(storage, batch -> {
                batch.put(TestKeyspaces.ITEMS, b("a"), b("2")); // overwrite
                batch.delete(TestKeyspaces.ITEMS, b("b")); // delete
                batch.put(TestKeyspaces.ITEMS, b("d"), b("2")); // insert
            });
            storage.deleteRange(TestKeyspaces.ITEMS, b("c"), b("cz"));

            assertEquals("1", s(storage.get(snapshot, TestKeyspaces.ITEMS, b("a"))));
            assertEquals("1", s(storage.get(snapshot, TestKeyspaces.ITEMS, b("b"))));
            assertEquals("1", s(storage.get(snapshot, TestKeyspaces.ITEMS, b("c"))));
            assertNull(storage.get(snapshot, TestKeyspaces.ITEMS, b("d")));
            assertEquals(List.of("a=1", "b=1", "c=1"), rows(storage.range(snapshot, TestKeyspaces.ITEMS, null, null, false)));
            assertEquals(List.of("c=1", "b=1", "a=1"), rows(storage.range(snapshot, TestKeyspaces.ITEMS, null, null, true)));

            // The latest state, meanwhile:
            assertEquals(List.of("a=2", "d=2"), rows(storage.range(null, TestKeyspaces.ITEMS, null, null, false)));
            assertEquals("2", s(storage.get(null, TestKeyspaces.ITEMS, b("a"))));
        }
    }

    @Test
    void cursorOutlivesItsSnapshot() {
        RocksStorage storage = open();
        commit(storage, batch -> {
            batch.put(TestKeyspaces.ITEMS, b("a"), b("1"));
            batch.put(TestKeyspaces.ITEMS, b("b"), b("1"));
        });
        Snapshot snapshot = storage.snapshot();
        try (Cursor cursor = storage.range(snapshot, TestKeyspaces.ITEMS, null, null, false)) {
            snapshot.close();
            commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, b("a0"), b("new")));
            storage.flush();
            List<String> keys = new ArrayList<>();
            while (cursor.next()) {
                keys.add(s(cursor.key()));
            }
            assertEquals(List.of("a", "b"), keys);
        }
        assertThrows(IllegalStateException.class, () -> storage.get(snapshot, TestKeyspaces.ITEMS, b("a")));
    }

    // --------------------------------------------------------------------------------------------
    // Ranges

    @Test
    void rangeForwardAndReverseWithAndWithoutBounds() {
        RocksStorage storage = open();
        commit(storage, batch -> {
            for (String k : List.of("a", "b", "ba", "c", "d", "e")) {
                batch.put(TestKeyspaces.ITEMS, b(k), b(k.toUpperCase()));
            }
        });

        assertEquals(List.of("a", "b", "ba", "c", "d", "e"), keys(storage.range(null, TestKeyspaces.ITEMS, null, null, false)));
        assertEquals(List.of("e", "d", "c", "ba", "b", "a"), keys(storage.range(null, TestKeyspaces.ITEMS, null, null, true)));

        assertEquals(List.of("b", "ba", "c"), keys(storage.range(null, TestKeyspaces.ITEMS, b("b"), b("d"), false)));
        assertEquals(List.of("c", "ba", "b"), keys(storage.range(null, TestKeyspaces.ITEMS, b("b"), b("d"), true)));

        // Bounds that fall between keys.
        assertEquals(List.of("ba", "c"), keys(storage.range(null, TestKeyspaces.ITEMS, b("b0"), b("cc"), false)));
        assertEquals(List.of("c", "ba"), keys(storage.range(null, TestKeyspaces.ITEMS, b("b0"), b("cc"), true)));

        // One side open.
        assertEquals(List.of("c", "d", "e"), keys(storage.range(null, TestKeyspaces.ITEMS, b("c"), null, false)));
        assertEquals(List.of("e", "d", "c"), keys(storage.range(null, TestKeyspaces.ITEMS, b("c"), null, true)));
        assertEquals(List.of("a", "b"), keys(storage.range(null, TestKeyspaces.ITEMS, null, b("ba"), false)));
        assertEquals(List.of("b", "a"), keys(storage.range(null, TestKeyspaces.ITEMS, null, b("ba"), true)));

        // Empty ranges: from == to, from > to, past either end.
        assertEquals(List.of(), keys(storage.range(null, TestKeyspaces.ITEMS, b("c"), b("c"), false)));
        assertEquals(List.of(), keys(storage.range(null, TestKeyspaces.ITEMS, b("c"), b("c"), true)));
        assertEquals(List.of(), keys(storage.range(null, TestKeyspaces.ITEMS, b("d"), b("b"), false)));
        assertEquals(List.of(), keys(storage.range(null, TestKeyspaces.ITEMS, b("d"), b("b"), true)));
        assertEquals(List.of(), keys(storage.range(null, TestKeyspaces.ITEMS, b("f"), null, false)));
        assertEquals(List.of(), keys(storage.range(null, TestKeyspaces.ITEMS, null, b("a"), true)));

        // Values come with their keys.
        assertEquals(List.of("ba=BA", "b=B"), rows(storage.range(null, TestKeyspaces.ITEMS, b("b"), b("c"), true)));
    }

    @Test
    void rangeOrdersKeysAsUnsignedBytes() {
        RocksStorage storage = open();
        byte[][] ordered = {{}, {0x00}, {0x00, 0x00}, {0x01}, {0x7F}, {(byte) 0x80}, {(byte) 0xFF}, {(byte) 0xFF, 0x00}};
        commit(storage, batch -> {
            for (int i = ordered.length - 1; i >= 0; i--) {
                batch.put(TestKeyspaces.ITEMS, ordered[i], new byte[] {(byte) i});
            }
        });
        try (Cursor cursor = storage.range(null, TestKeyspaces.ITEMS, null, null, false)) {
            for (byte[] expected : ordered) {
                assertTrue(cursor.next());
                assertArrayEquals(expected, cursor.key());
            }
            assertFalse(cursor.next());
        }
        // Bounds compare unsigned too: [0x7F, 0xFF) holds 0x7F and 0x80.
        try (Cursor cursor = storage.range(null, TestKeyspaces.ITEMS, new byte[] {0x7F}, new byte[] {(byte) 0xFF}, true)) {
            assertTrue(cursor.next());
            assertArrayEquals(new byte[] {(byte) 0x80}, cursor.key());
            assertTrue(cursor.next());
            assertArrayEquals(new byte[] {0x7F}, cursor.key());
            assertFalse(cursor.next());
        }
    }

    @Test
    void rangeMergesMemtableAndFilesAndSkipsDeletes() {
        RocksStorage storage = open();
        commit(storage, batch -> {
            for (int i = 0; i < 1000; i++) {
                batch.put(TestKeyspaces.ITEMS, key(i), b("old" + i));
            }
        });
        storage.flush(); // the old versions now live in an SST file
        commit(storage, batch -> {
            for (int i = 0; i < 1000; i += 2) {
                batch.delete(TestKeyspaces.ITEMS, key(i));
            }
            batch.put(TestKeyspaces.ITEMS, key(501), b("new"));
        });
        List<String> forward = rows(storage.range(null, TestKeyspaces.ITEMS, key(490), key(510), false));
        assertEquals(List.of(r(491, "old491"), r(493, "old493"), r(495, "old495"), r(497, "old497"), r(499, "old499"),
                r(501, "new"), r(503, "old503"), r(505, "old505"), r(507, "old507"), r(509, "old509")), forward);
        List<String> reverse = rows(storage.range(null, TestKeyspaces.ITEMS, key(490), key(510), true));
        assertEquals(forward.reversed(), reverse);
        for (int i = 0; i < 1000; i++) {
            byte[] value = storage.get(TestKeyspaces.ITEMS, key(i));
            if (i % 2 == 0) {
                assertNull(value);
            } else {
                assertEquals(i == 501 ? "new" : "old" + i, s(value));
            }
        }
    }

    @Test
    void cursorHandsOutFreshArrays() {
        RocksStorage storage = open();
        commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, b("key"), b("value")));
        try (Cursor cursor = storage.range(null, TestKeyspaces.ITEMS, null, null, false)) {
            assertThrows(IllegalStateException.class, cursor::key, "not positioned before next()");
            assertTrue(cursor.next());
            byte[] key = cursor.key();
            byte[] value = cursor.value();
            key[0] = 'X';
            value[0] = 'X';
            assertNotSame(key, cursor.key());
            assertEquals("key", s(cursor.key()));
            assertEquals("value", s(cursor.value()));
            assertFalse(cursor.next());
            assertFalse(cursor.next(), "stays exhausted");
            assertThrows(IllegalStateException.class, cursor::value);
        }
    }

    @Test
    void boundsArrayMayBeReusedByTheCallerAfterRange() {
        RocksStorage storage = open();
        commit(storage, batch -> {
            batch.put(TestKeyspaces.ITEMS, b("a"), b("1"));
            batch.put(TestKeyspaces.ITEMS, b("b"), b("2"));
            batch.put(TestKeyspaces.ITEMS, b("c"), b("3"));
        });
        byte[] from = b("b");
        byte[] to = b("c");
        try (Cursor cursor = storage.range(null, TestKeyspaces.ITEMS, from, to, false)) {
            from[0] = 'a';
            to[0] = 'z';
            assertEquals(List.of("b"), drainKeys(cursor));
        }
    }

    // --------------------------------------------------------------------------------------------
    // deleteRange

    @Test
    void deleteRangeDeletesExactlyTheHalfOpenRange() {
        RocksStorage storage = open();
        commit(storage, batch -> {
            for (String k : List.of("a", "b", "ba", "c", "d")) {
                batch.put(TestKeyspaces.ITEMS, b(k), b(k));
                batch.put(TestKeyspaces.CATALOG, b(k), b(k));
            }
        });
        storage.flush(); // half the rows in files, half in the memtable
        commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, b("bb"), b("bb")));

        storage.deleteRange(TestKeyspaces.ITEMS, b("b"), b("c"));
        assertEquals(List.of("a", "c", "d"), keys(storage.range(null, TestKeyspaces.ITEMS, null, null, false)));
        assertEquals(List.of("d", "c", "a"), keys(storage.range(null, TestKeyspaces.ITEMS, null, null, true)));
        assertEquals(List.of("a", "b", "ba", "c", "d"), keys(storage.range(null, TestKeyspaces.CATALOG, null, null, false)),
                "other keyspaces are untouched");

        storage.deleteRange(TestKeyspaces.ITEMS, b("d"), b("a")); // reversed: empty, no error
        storage.deleteRange(TestKeyspaces.ITEMS, b("c"), b("c"));
        assertEquals(List.of("a", "c", "d"), keys(storage.range(null, TestKeyspaces.ITEMS, null, null, false)));

        storage.close();
        RocksStorage reopened = open();
        assertEquals(List.of("a", "c", "d"), keys(reopened.range(null, TestKeyspaces.ITEMS, null, null, false)));
    }

    @Test
    void deleteRangeWithOpenBounds() {
        RocksStorage storage = open();
        byte[][] keys = {{}, {0x01}, {0x7F}, {(byte) 0x80}, {(byte) 0xFF}, {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}};
        commit(storage, batch -> {
            for (byte[] k : keys) {
                batch.put(TestKeyspaces.ITEMS, k, b("v"));
            }
        });
        storage.deleteRange(TestKeyspaces.ITEMS, null, new byte[] {0x7F});
        assertNull(storage.get(TestKeyspaces.ITEMS, new byte[0]));
        assertNull(storage.get(TestKeyspaces.ITEMS, new byte[] {0x01}));
        assertEquals("v", s(storage.get(TestKeyspaces.ITEMS, new byte[] {0x7F})));

        storage.deleteRange(TestKeyspaces.ITEMS, new byte[] {(byte) 0x80}, null);
        assertEquals(List.of("7f"), hexKeys(storage.range(null, TestKeyspaces.ITEMS, null, null, false)));

        storage.deleteRange(TestKeyspaces.ITEMS, null, null);
        assertEquals(List.of(), hexKeys(storage.range(null, TestKeyspaces.ITEMS, null, null, false)));
        storage.deleteRange(TestKeyspaces.ITEMS, null, null); // on an empty keyspace: nothing to do
    }

    // --------------------------------------------------------------------------------------------
    // Persistence, modes, keyspaces

    @Test
    void dataSurvivesCloseAndReopen() {
        RocksStorage storage = open();
        commit(storage, batch -> {
            batch.put(TestKeyspaces.ITEMS, b("in-file"), b("1"));
            batch.put(TestKeyspaces.CATALOG, b("table"), b("t"));
        });
        storage.flush();
        commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, b("in-wal-only"), b("2")));
        storage.close();

        RocksStorage reopened = open();
        assertEquals("1", s(reopened.get(TestKeyspaces.ITEMS, b("in-file"))));
        assertEquals("2", s(reopened.get(TestKeyspaces.ITEMS, b("in-wal-only"))));
        assertEquals("t", s(reopened.get(TestKeyspaces.CATALOG, b("table"))));
        assertEquals(tmp.resolve("data").toAbsolutePath(), reopened.dataDirectory());
        assertFalse(reopened.isInMemory());
    }

    @Test
    void inMemoryModeWritesNothingToTheDirectory() throws Exception {
        Path dir = tmp.resolve("mem");
        Files.createDirectories(dir);
        Path missing = tmp.resolve("never-created");
        RocksStorage storage = track(RocksStorage.builder(dir, TestKeyspaces.ALL).inMemory(true).fsync(true).open());
        RocksStorage other = track(RocksStorage.builder(missing, TestKeyspaces.ALL).inMemory(true).open());
        assertTrue(storage.isInMemory());
        assertFalse(storage.isFsync(), "no WAL to sync in memory");
        for (int round = 0; round < 3; round++) {
            int r = round;
            commit(storage, batch -> {
                for (int i = 0; i < 1000; i++) {
                    batch.put(TestKeyspaces.ITEMS, key(i), b("round" + r));
                }
                batch.put(TestKeyspaces.CATALOG, b("t"), b("round" + r));
            });
            storage.flush(); // SST files, manifest: all in RocksDB's in-memory Env
        }
        storage.deleteRange(TestKeyspaces.ITEMS, key(10), key(20));
        assertEquals("round2", s(storage.get(TestKeyspaces.ITEMS, key(999))));
        assertNull(storage.get(TestKeyspaces.ITEMS, key(15)));
        assertEquals(990, keys(storage.range(null, TestKeyspaces.ITEMS, null, null, false)).size());
        try (Snapshot snapshot = storage.snapshot()) {
            commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, key(0), b("after")));
            assertEquals("round2", s(storage.get(snapshot, TestKeyspaces.ITEMS, key(0))));
        }
        commit(other, batch -> batch.put(TestKeyspaces.ITEMS, key(0), b("other")));
        assertEquals("after", s(storage.get(TestKeyspaces.ITEMS, key(0))), "two in-memory stores are separate");
        storage.close();
        other.close();

        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.toList());
        }
        assertFalse(Files.exists(missing));
        // Nothing was kept: the same name opens empty.
        RocksStorage again = track(RocksStorage.builder(dir, TestKeyspaces.ALL).inMemory(true).open());
        assertNull(again.get(TestKeyspaces.ITEMS, key(0)));
    }

    @Test
    void keyspacesAreIndependent() {
        RocksStorage storage = open();
        commit(storage, batch -> {
            batch.put(TestKeyspaces.ITEMS, b("same"), b("item"));
            batch.put(TestKeyspaces.CATALOG, b("same"), b("catalog"));
            batch.put(TestKeyspaces.CATALOG, b("only-catalog"), b("c"));
        });
        assertEquals("item", s(storage.get(TestKeyspaces.ITEMS, b("same"))));
        assertEquals("catalog", s(storage.get(TestKeyspaces.CATALOG, b("same"))));
        assertNull(storage.get(TestKeyspaces.ITEMS, b("only-catalog")));
        assertEquals(List.of("same"), keys(storage.range(null, TestKeyspaces.ITEMS, null, null, false)));

        commit(storage, batch -> batch.delete(TestKeyspaces.ITEMS, b("same")));
        assertEquals("catalog", s(storage.get(TestKeyspaces.CATALOG, b("same"))));
        storage.deleteRange(TestKeyspaces.CATALOG, null, null);
        assertNull(storage.get(TestKeyspaces.CATALOG, b("same")));
        commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, b("x"), b("y")));
        assertEquals(List.of("x"), keys(storage.range(null, TestKeyspaces.ITEMS, null, null, false)));
    }

    @Test
    void aKeyspaceTheStoreWasNotOpenedWithIsRefused() throws Exception {
        Keyspace other = Keyspace.of("not-opened", Keyspace.Kind.ROWS);
        try (RocksStorage storage = RocksStorage.open(tmp.resolve("data"), List.of(TestKeyspaces.ITEMS))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> storage.get(other, b("k")));
            assertEquals("key space not-opened was not opened with this store", e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> storage.get(TestKeyspaces.CATALOG, b("k")));
            assertNull(storage.get(TestKeyspaces.ITEMS, b("k")));
        }
    }

    @Test
    void aKeyspaceIsOneInstancePerNameAndKind() {
        assertSame(TestKeyspaces.ITEMS, Keyspace.of("items", Keyspace.Kind.BULK));
        assertThrows(IllegalArgumentException.class, () -> Keyspace.of("items", Keyspace.Kind.ROWS));
        assertThrows(IllegalArgumentException.class, () -> Keyspace.of("", Keyspace.Kind.ROWS));
    }

    @Test
    void unknownColumnFamiliesOnDiskAreOpenedAndKept() throws Exception {
        Path dir = tmp.resolve("data");
        RocksStorage.open(dir, TestKeyspaces.ALL).close();
        // A column family this version does not know, as a newer Stator might have left behind.
        byte[] extra = "future-keyspace".getBytes(StandardCharsets.UTF_8);
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY));
        for (Keyspace keyspace : TestKeyspaces.ALL) {
            descriptors.add(new ColumnFamilyDescriptor(b(keyspace.storedName())));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
             RocksDB db = RocksDB.open(options, dir.toString(), descriptors, handles)) {
            try (ColumnFamilyHandle handle = db.createColumnFamily(new ColumnFamilyDescriptor(extra))) {
                db.put(handle, b("k"), b("v"));
            }
            handles.forEach(ColumnFamilyHandle::close);
        }

        RocksStorage storage = track(RocksStorage.open(dir, TestKeyspaces.ALL));
        commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, b("i"), b("1")));
        storage.close();

        try (org.rocksdb.Options options = new org.rocksdb.Options()) {
            List<String> names = RocksDB.listColumnFamilies(options, dir.toString()).stream().map(RocksStorageTest::s).toList();
            assertTrue(names.containsAll(List.of("default", "catalog", "items", "future-keyspace")), names.toString());
        }
    }

    @Test
    void rocksDbErrorsBecomeStorageExceptionsWithTheStatus() throws Exception {
        Path dir = tmp.resolve("data");
        RocksStorage.open(dir, TestKeyspaces.ALL).close();
        Files.writeString(dir.resolve("CURRENT"), "MANIFEST-999999\n");
        StorageException e = assertThrows(StorageException.class, () -> RocksStorage.open(dir, TestKeyspaces.ALL));
        assertTrue(e.getMessage().startsWith("cannot open data directory " + dir.toAbsolutePath() + ": IOError: "),
                e.getMessage());
        assertTrue(e.getMessage().contains("MANIFEST-999999"), e.getMessage());
        assertTrue(e.getCause() instanceof org.rocksdb.RocksDBException);
    }

    @Test
    void aFileWhereTheDirectoryShouldBeIsAClearError() throws Exception {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        StorageException e = assertThrows(StorageException.class, () -> RocksStorage.open(file, TestKeyspaces.ALL));
        assertTrue(e.getMessage().contains("cannot create data directory"), e.getMessage());
    }

    // --------------------------------------------------------------------------------------------
    // Concurrency

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void concurrentCommitsFromEightThreads() throws Exception {
        concurrentCommits(open(), false);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void concurrentSyncedCommitsShareFsyncsAndSurviveReopen() throws Exception {
        Path dir = tmp.resolve("fsync");
        RocksStorage storage = track(RocksStorage.builder(dir, TestKeyspaces.ALL).fsync(true).memoryBytes(8L << 20).open());
        assertTrue(storage.isFsync());
        concurrentCommits(storage, true);
        storage.close();
        RocksStorage reopened = track(RocksStorage.open(dir, TestKeyspaces.ALL));
        assertEquals(8 * 100, keys(reopened.range(null, TestKeyspaces.ITEMS, b("a/"), b("a0"), false)).size());
    }

    /**
     * 8 writers commit batches that each put one row in ITEMS and one in CATALOG, while readers
     * count both keyspaces in one snapshot: a torn batch or an inconsistent snapshot shows up as
     * different counts.
     */
    private void concurrentCommits(RocksStorage storage, boolean fsync) throws Exception {
        int writers = 8;
        int perWriter = fsync ? 100 : 1000;
        ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
        try {
            CountDownLatch start = new CountDownLatch(1);
            AtomicBoolean done = new AtomicBoolean();
            List<Future<?>> writes = new ArrayList<>();
            for (int t = 0; t < writers; t++) {
                int thread = t;
                writes.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perWriter; i++) {
                        String suffix = thread + "/" + String.format("%06d", i);
                        try (WriteBatch batch = storage.newBatch()) {
                            batch.put(TestKeyspaces.ITEMS, b("a/" + suffix), b("v"));
                            batch.put(TestKeyspaces.CATALOG, b("b/" + suffix), b("v"));
                            storage.commit(batch);
                        }
                        assertEquals("v", s(storage.get(TestKeyspaces.ITEMS, b("a/" + suffix))), "read your write");
                    }
                    return null;
                }));
            }
            List<Future<Integer>> reads = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                reads.add(pool.submit(() -> {
                    start.await();
                    int checks = 0;
                    do {
                        try (Snapshot snapshot = storage.snapshot()) {
                            int items = count(storage.range(snapshot, TestKeyspaces.ITEMS, b("a/"), b("a0"), checks % 2 == 0));
                            int catalog = count(storage.range(snapshot, TestKeyspaces.CATALOG, b("b/"), b("b0"), false));
                            assertEquals(items, catalog, "a snapshot saw half a batch");
                        }
                        checks++;
                    } while (!done.get());
                    return checks;
                }));
            }
            start.countDown();
            for (Future<?> write : writes) {
                write.get();
            }
            done.set(true);
            for (Future<Integer> read : reads) {
                assertTrue(read.get() > 0);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(writers * perWriter, count(storage.range(null, TestKeyspaces.ITEMS, b("a/"), b("a0"), false)));
        assertEquals(writers * perWriter, count(storage.range(null, TestKeyspaces.CATALOG, b("b/"), b("b0"), true)));
    }

    // --------------------------------------------------------------------------------------------
    // Lifecycle and misuse

    @Test
    void closeFreesForgottenCursorsAndSnapshotsAndIsIdempotent() {
        RocksStorage storage = open();
        commit(storage, batch -> {
            batch.put(TestKeyspaces.ITEMS, b("a"), b("1"));
            batch.put(TestKeyspaces.ITEMS, b("b"), b("2"));
        });
        Snapshot snapshot = storage.snapshot();
        Cursor cursor = storage.range(snapshot, TestKeyspaces.ITEMS, b("a"), b("z"), false);
        assertTrue(cursor.next());
        Cursor unstarted = storage.range(null, TestKeyspaces.ITEMS, null, null, true);
        WriteBatch batch = storage.newBatch();
        batch.put(TestKeyspaces.ITEMS, b("c"), b("3"));

        storage.close();
        assertDoesNotThrow(storage::close);

        // Every late call is an exception, not a crash.
        assertThrows(StorageException.class, cursor::next);
        assertThrows(StorageException.class, cursor::key);
        assertThrows(StorageException.class, unstarted::next);
        assertThrows(StorageException.class, () -> storage.get(TestKeyspaces.ITEMS, b("a")));
        assertThrows(StorageException.class, () -> storage.get(snapshot, TestKeyspaces.ITEMS, b("a")));
        assertThrows(StorageException.class, () -> storage.commit(batch));
        assertThrows(StorageException.class, () -> batch.put(TestKeyspaces.ITEMS, b("d"), b("4")));
        assertThrows(StorageException.class, storage::snapshot);
        assertThrows(StorageException.class, () -> storage.range(null, TestKeyspaces.ITEMS, null, null, false));
        assertThrows(StorageException.class, () -> storage.deleteRange(TestKeyspaces.ITEMS, null, null));
        assertThrows(StorageException.class, storage::flush);
        StorageException e = assertThrows(StorageException.class, storage::newBatch);
        assertTrue(e.getMessage().contains("is closed"), e.getMessage());
        // Closing what was already freed is harmless.
        cursor.close();
        unstarted.close();
        snapshot.close();
        batch.close();
        batch.close();

        RocksStorage reopened = open();
        assertEquals(List.of("a", "b"), keys(reopened.range(null, TestKeyspaces.ITEMS, null, null, false)));
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void closeWhileOtherThreadsAreBusyIsAnExceptionForThemNotACrash() throws Exception {
        for (int round = 0; round < 5; round++) {
            RocksStorage storage = track(RocksStorage.open(tmp.resolve("busy" + round), TestKeyspaces.ALL));
            commit(storage, batch -> {
                for (int i = 0; i < 200; i++) {
                    batch.put(TestKeyspaces.ITEMS, key(i), b("v"));
                }
            });
            int threads = 6;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch running = new CountDownLatch(threads);
            List<Future<Long>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int kind = t % 3;
                workers.add(pool.submit(() -> {
                    long operations = 0;
                    running.countDown();
                    try {
                        while (true) {
                            switch (kind) {
                                case 0 -> storage.get(TestKeyspaces.ITEMS, key((int) (operations % 200)));
                                case 1 -> {
                                    try (Snapshot snapshot = storage.snapshot();
                                         Cursor cursor = storage.range(snapshot, TestKeyspaces.ITEMS, key(50), key(150), operations % 2 == 0)) {
                                        while (cursor.next()) {
                                            cursor.key();
                                            cursor.value();
                                        }
                                    }
                                }
                                default -> commit(storage, batch -> batch.put(TestKeyspaces.ITEMS, b("w"), b("x")));
                            }
                            operations++;
                        }
                    } catch (StorageException expected) {
                        assertTrue(expected.getMessage().contains("is closed"), expected.getMessage());
                        return operations;
                    }
                }));
            }
            running.await();
            Thread.sleep(50);
            storage.close();
            try {
                for (Future<Long> worker : workers) {
                    assertTrue(worker.get(30, TimeUnit.SECONDS) >= 0);
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void closedCursorsSnapshotsAndBatchesAreRejected() {
        RocksStorage storage = open();
        Cursor cursor = storage.range(null, TestKeyspaces.ITEMS, null, null, false);
        cursor.close();
        cursor.close();
        assertThrows(IllegalStateException.class, cursor::next);

        Snapshot snapshot = storage.snapshot();
        snapshot.close();
        snapshot.close();
        assertThrows(IllegalStateException.class, () -> storage.get(snapshot, TestKeyspaces.ITEMS, b("a")));
        assertThrows(IllegalStateException.class, () -> storage.range(snapshot, TestKeyspaces.ITEMS, null, null, false));

        WriteBatch batch = storage.newBatch();
        batch.put(TestKeyspaces.ITEMS, b("a"), b("1"));
        batch.close();
        assertThrows(IllegalStateException.class, () -> storage.commit(batch));
        assertThrows(IllegalStateException.class, () -> batch.put(TestKeyspaces.ITEMS, b("a"), b("1")));
        assertNull(storage.get(TestKeyspaces.ITEMS, b("a")));
    }

    @Test
    void batchesAndSnapshotsOfAnotherStoreAreRejected() {
        RocksStorage storage = open();
        RocksStorage other = track(RocksStorage.builder(tmp.resolve("other"), TestKeyspaces.ALL).inMemory(true).open());
        try (WriteBatch batch = other.newBatch(); Snapshot snapshot = other.snapshot()) {
            batch.put(TestKeyspaces.ITEMS, b("a"), b("1"));
            assertThrows(IllegalArgumentException.class, () -> storage.commit(batch));
            assertThrows(IllegalArgumentException.class, () -> storage.get(snapshot, TestKeyspaces.ITEMS, b("a")));
        }
    }

    // --------------------------------------------------------------------------------------------
    // Helpers

    private interface BatchWriter {
        void write(WriteBatch batch);
    }

    private static void commit(RocksStorage storage, BatchWriter writer) {
        try (WriteBatch batch = storage.newBatch()) {
            writer.write(batch);
            storage.commit(batch);
        }
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String s(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] key(int i) {
        return b(String.format("key%05d", i));
    }

    private static String r(int i, String value) {
        return "key" + String.format("%05d", i) + "=" + value;
    }

    private static List<String> keys(Cursor cursor) {
        try (cursor) {
            return drainKeys(cursor);
        }
    }

    private static List<String> drainKeys(Cursor cursor) {
        List<String> keys = new ArrayList<>();
        while (cursor.next()) {
            keys.add(s(cursor.key()));
        }
        return keys;
    }

    private static List<String> hexKeys(Cursor cursor) {
        List<String> keys = new ArrayList<>();
        try (cursor) {
            while (cursor.next()) {
                keys.add(java.util.HexFormat.of().formatHex(cursor.key()));
            }
        }
        return keys;
    }

    private static List<String> rows(Cursor cursor) {
        List<String> rows = new ArrayList<>();
        try (cursor) {
            while (cursor.next()) {
                rows.add(s(cursor.key()) + "=" + s(cursor.value()));
            }
        }
        return rows;
    }

    private static int count(Cursor cursor) {
        int n = 0;
        try (cursor) {
            while (cursor.next()) {
                n++;
            }
        }
        return n;
    }
}
