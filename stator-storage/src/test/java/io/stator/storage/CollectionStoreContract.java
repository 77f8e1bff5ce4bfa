package io.stator.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The {@link CollectionStore} contract, which every backend's tests run by extending this class
 * (docs/storage-contract.md): compare-and-set commits of one item collection, all or nothing;
 * ranges within a collection in clustering order; scans covering each row exactly once over any
 * split of the hash space and resuming after any row they gave; dropped tables.
 *
 * <p>Each test uses table ids of its own (from {@link #tableId}), so that one store, even one
 * shared by several test classes, serves every test.
 */
public abstract class CollectionStoreContract {

    /** The store under test; the same instance for every test of a class is fine. */
    protected abstract CollectionStore store();

    private static final AtomicLong TABLES = new AtomicLong(System.nanoTime() & 0xFFFFFFFL);

    /** A table id no other test uses, created in the store. */
    protected long tableId() {
        long id = TABLES.incrementAndGet();
        store().createTable(id);
        return id;
    }

    protected static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A row key whose hash is derived from the partition key, as the engine's is (any function will do here). */
    protected static byte[] row(long table, int kind, String partitionKey, String clustering) {
        byte[] pk = bytes(partitionKey);
        long hash = 0x9E3779B97F4A7C15L * (partitionKey.hashCode() + 1L);
        hash ^= hash >>> 29;
        return RowKeyFraming.rowKey(table, kind, hash, pk, bytes(clustering));
    }

    private static CollectionStore.Change put(byte[] key, String value) {
        return new CollectionStore.Change(key, bytes(value));
    }

    private boolean put(byte[] key, byte[] expected, String value) {
        return store().commit(List.of(new CollectionStore.Expected(key, expected)), List.of(put(key, value)));
    }

    private static List<String> clusterings(Cursor cursor) {
        List<String> out = new ArrayList<>();
        try (cursor) {
            while (cursor.next()) {
                out.add(new String(RowKeyFraming.clustering(cursor.key()), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    @Test
    void aCommitAppliesOnlyWhenEveryRowIsAsExpected() {
        long t = tableId();
        byte[] item = row(t, 0, "p", "a");
        byte[] index = row(t, 1, "p", "x");
        assertNull(store().get(item, CollectionStore.Consistency.STRONG));

        assertTrue(store().commit(List.of(new CollectionStore.Expected(item, null)),
                List.of(put(item, "v1"), put(index, "i1"))));
        assertArrayEquals(bytes("v1"), store().get(item, CollectionStore.Consistency.STRONG));
        assertArrayEquals(bytes("i1"), store().get(index, CollectionStore.Consistency.STRONG));

        // Stale: expects the row absent, or an old value; nothing of the commit is applied.
        assertFalse(store().commit(List.of(new CollectionStore.Expected(item, null)),
                List.of(put(item, "v2"), put(index, "i2"))));
        assertFalse(store().commit(List.of(new CollectionStore.Expected(index, bytes("i1")),
                        new CollectionStore.Expected(item, bytes("v0"))),
                List.of(put(item, "v2"), new CollectionStore.Change(index, null))));
        assertArrayEquals(bytes("v1"), store().get(item, CollectionStore.Consistency.STRONG));
        assertArrayEquals(bytes("i1"), store().get(index, CollectionStore.Consistency.STRONG));

        assertTrue(store().commit(List.of(new CollectionStore.Expected(item, bytes("v1")),
                        new CollectionStore.Expected(index, bytes("i1"))),
                List.of(new CollectionStore.Change(item, null), new CollectionStore.Change(index, null))));
        assertNull(store().get(item, CollectionStore.Consistency.STRONG));
        assertNull(store().get(index, CollectionStore.Consistency.STRONG));
    }

    /**
     * A COMMITTED read (Cassandra: QUORUM) sees every commit that returned before it, point and
     * range alike: what the write pipeline's read and eventually consistent reads rely on.
     */
    @Test
    void aCommittedReadSeesEveryCommitThatReturned() {
        long t = tableId();
        byte[] item = row(t, 0, "p", "a");
        for (int i = 1; i <= 5; i++) {
            byte[] before = store().get(item, CollectionStore.Consistency.COMMITTED);
            assertTrue(put(item, before, "v" + i));
            assertArrayEquals(bytes("v" + i), store().get(item, CollectionStore.Consistency.COMMITTED));
            assertEquals(List.of("a"), clusterings(store().range(row(t, 0, "p", ""), null, null, false,
                    CollectionStore.Consistency.COMMITTED)));
        }
        assertTrue(store().commit(List.of(new CollectionStore.Expected(item, bytes("v5"))),
                List.of(new CollectionStore.Change(item, null))));
        assertNull(store().get(item, CollectionStore.Consistency.COMMITTED));
        // A stale expectation built on a committed read only fails the commit.
        assertFalse(put(item, bytes("v5"), "v6"));
        assertNull(store().get(item, CollectionStore.Consistency.STRONG));
    }

    /**
     * A row a commit only expects (a ConditionCheck's item, beside a change of another row of its
     * collection) is left exactly as it was: its value and its hash, which a scan gives back in
     * its key (per-partition capacity and the advisor's keys are counted by it).
     */
    @Test
    void aRowACommitOnlyExpectsKeepsItsValueAndHash() {
        long t = tableId();
        byte[] checked = row(t, 0, "p", "a");
        byte[] changed = row(t, 0, "p", "b");
        assertTrue(put(checked, null, "v"));
        assertTrue(store().commit(List.of(new CollectionStore.Expected(checked, bytes("v")),
                new CollectionStore.Expected(changed, null)), List.of(put(changed, "w"))));
        // An absent row expected absent stays absent.
        byte[] absent = row(t, 0, "p", "c");
        assertTrue(store().commit(List.of(new CollectionStore.Expected(absent, null)), List.of(put(changed, "x"))));
        assertNull(store().get(absent, CollectionStore.Consistency.STRONG));
        List<byte[]> keys = new ArrayList<>();
        try (Cursor cursor = store().scan(t, 0, 0, 0, null, CollectionStore.Consistency.STRONG)) {
            while (cursor.next()) keys.add(cursor.key());
        }
        assertEquals(2, keys.size());
        assertArrayEquals(checked, keys.get(0));
        assertArrayEquals(bytes("v"), store().get(checked, CollectionStore.Consistency.STRONG));
    }

    @Test
    void aCommitChangesOneCollectionOnly() {
        long t = tableId();
        assertThrows(IllegalArgumentException.class, () -> store().commit(List.of(),
                List.of(put(row(t, 0, "p", "a"), "v"), put(row(t, 0, "q", "a"), "v"))));
        assertThrows(IllegalArgumentException.class, () -> store().commit(List.of(),
                List.of(put(row(t, 0, "p", "a"), "v"), put(row(t + 1, 0, "p", "a"), "v"))));
        assertNull(store().get(row(t, 0, "p", "a"), CollectionStore.Consistency.STRONG));
    }

    @Test
    void aRangeGivesOneCollectionAndKindInClusteringOrder() {
        long t = tableId();
        for (String c : List.of("b", "a", "c", "ab")) assertTrue(put(row(t, 0, "p", c), null, c));
        // Neighbours that must stay out: another kind, and a partition key that "p" is a prefix of.
        assertTrue(put(row(t, 1, "p", "a"), null, "index"));
        assertTrue(put(row(t, 0, "pp", "a"), null, "other"));

        byte[] within = row(t, 0, "p", "");
        assertEquals(List.of("a", "ab", "b", "c"),
                clusterings(store().range(within, null, null, false, CollectionStore.Consistency.STRONG)));
        assertEquals(List.of("c", "b", "ab", "a"),
                clusterings(store().range(within, null, null, true, CollectionStore.Consistency.EVENTUAL)));
        assertEquals(List.of("ab", "b"), clusterings(store().range(within, row(t, 0, "p", "ab"), row(t, 0, "p", "c"),
                false, CollectionStore.Consistency.STRONG)));
        assertEquals(List.of("b", "ab"), clusterings(store().range(within, row(t, 0, "p", "ab"), row(t, 0, "p", "c"),
                true, CollectionStore.Consistency.STRONG)));
    }

    /**
     * A range told how many rows its reader wants (a Query's Limit) still gives every row as the
     * cursor moves on, in order, however few it fetches first (Cassandra: a first page of that
     * many rows, then the default page), and a reader may stop anywhere.
     */
    @Test
    void aRangeToldHowManyRowsAreWantedStillGivesEveryRow() {
        long t = tableId();
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            String c = String.format("%02d", i);
            all.add(c);
            assertTrue(put(row(t, 0, "p", c), null, c));
        }
        byte[] within = row(t, 0, "p", "");
        for (int wanted : new int[] {0, 1, 10, 24, 25, 26, Integer.MAX_VALUE}) {
            assertEquals(all, clusterings(store().range(within, null, null, false, CollectionStore.Consistency.COMMITTED,
                    wanted)), "rows wanted " + wanted);
        }
        assertEquals(all.subList(0, 15).reversed(), clusterings(store().range(within, null, row(t, 0, "p", "15"), true,
                CollectionStore.Consistency.STRONG, 4)));
        try (Cursor first = store().range(within, row(t, 0, "p", "03"), null, false, CollectionStore.Consistency.COMMITTED, 2)) {
            assertTrue(first.next());
            assertArrayEquals(bytes("03"), first.value());
            assertTrue(first.next());
            assertArrayEquals(bytes("04"), first.value());
        }
        assertEquals(List.of(), clusterings(store().range(row(t, 0, "none", ""), null, null, false,
                CollectionStore.Consistency.COMMITTED, 10)));
        assertEquals(List.of(), clusterings(store().range(row(tableId() + 1_000_000, 0, "p", ""), null, null, false,
                CollectionStore.Consistency.COMMITTED, 10)));
    }

    @Test
    void segmentsOfTheHashSpaceScanEachRowOnceAndResumeAfterAnyRow() {
        long t = tableId();
        Set<String> written = new HashSet<>();
        for (int p = 0; p < 60; p++) {
            for (int c = 0; c < 3; c++) {
                assertTrue(put(row(t, 0, "p" + p, "c" + c), null, "v"));
                written.add("p" + p + "/c" + c);
            }
            assertTrue(put(row(t, 2, "p" + p, "i"), null, "index"));
        }
        for (int segments : new int[] {1, 3, 7}) {
            Set<String> seen = new HashSet<>();
            for (int s = 0; s < segments; s++) {
                long from = segmentStart(s, segments);
                long to = s == segments - 1 ? 0 : segmentStart(s + 1, segments);
                // One row at a time: each scan resumes after the row the last one gave.
                byte[] after = null;
                while (true) {
                    try (Cursor cursor = store().scan(t, 0, from, to, after, CollectionStore.Consistency.STRONG)) {
                        if (!cursor.next()) break;
                        after = cursor.key();
                        assertEquals(0, RowKeyFraming.kind(after));
                        assertArrayEquals(bytes("v"), cursor.value());
                        String name = new String(RowKeyFraming.partitionKey(after), StandardCharsets.UTF_8) + "/"
                                + new String(RowKeyFraming.clustering(after), StandardCharsets.UTF_8);
                        assertTrue(seen.add(name), "scanned twice: " + name);
                    }
                }
            }
            assertEquals(written, seen, segments + " segments");
        }
    }

    @Test
    void concurrentCompareAndSetIncrementsLoseNothing() throws Exception {
        long t = tableId();
        byte[] key = row(t, 0, "counter", "");
        int writers = 8;
        int increments = 100;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < increments; i++) {
                        while (true) {
                            byte[] old = store().get(key, CollectionStore.Consistency.STRONG);
                            long n = old == null ? 0 : ByteBuffer.wrap(old).getLong();
                            byte[] next = ByteBuffer.allocate(8).putLong(n + 1).array();
                            if (store().commit(List.of(new CollectionStore.Expected(key, old)),
                                    List.of(new CollectionStore.Change(key, next)))) {
                                break;
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdownNow();
        }
        assertEquals(writers * increments, ByteBuffer.wrap(store().get(key, CollectionStore.Consistency.STRONG)).getLong());
    }

    @Test
    void aDroppedTableHasNoRowsAndOthersKeepTheirs() {
        long t = tableId();
        long other = tableId();
        assertTrue(put(row(t, 0, "p", "a"), null, "v"));
        assertTrue(put(row(t, 3, "p", "a"), null, "v"));
        assertTrue(put(row(other, 0, "p", "a"), null, "w"));
        store().dropTable(t);
        assertNull(store().get(row(t, 0, "p", "a"), CollectionStore.Consistency.STRONG));
        assertNull(store().get(row(t, 3, "p", "a"), CollectionStore.Consistency.STRONG));
        assertArrayEquals(bytes("w"), store().get(row(other, 0, "p", "a"), CollectionStore.Consistency.STRONG));
    }

    /** {@code ceil(segment * 2^64 / segments)}, as the engine splits the hash space. */
    protected static long segmentStart(int segment, int segments) {
        return java.math.BigInteger.valueOf(segment).shiftLeft(64).add(java.math.BigInteger.valueOf(segments - 1))
                .divide(java.math.BigInteger.valueOf(segments)).longValue();
    }
}
