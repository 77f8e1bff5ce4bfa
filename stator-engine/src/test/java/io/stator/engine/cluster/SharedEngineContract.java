package io.stator.engine.cluster;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.core.item.ItemSize;
import io.stator.core.model.DynamoNumber;
import io.stator.engine.Engine;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.item.RowKeys;
import io.stator.engine.read.ComparisonOperator;
import io.stator.engine.read.KeyConditions.KeyCondition;
import io.stator.engine.read.Page;
import io.stator.engine.read.QuerySpec;
import io.stator.engine.read.ScanSpec;
import io.stator.engine.streams.Streams;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableCounters;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.UpdateTableSpec;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableSpecs;
import io.stator.engine.table.TableSpecs.GlobalIndexUpdate;
import io.stator.engine.table.TimeToLiveDescription;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.TransactionCanceledException;
import io.stator.engine.Items;
import io.stator.storage.CollectionStore;
import io.stator.storage.Cursor;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two engines on one shared store, as two Stator servers on one Cassandra keyspace are. Each
 * engine's item locks order only its own writers, so whatever holds here holds by the
 * compare-and-set commits of {@link SharedStorage}. Runs on RocksDB behind the collection-store
 * contract ({@code RocksSharedEngineTest}) and on a real Cassandra cluster
 * ({@code CassandraSharedEngineTest}); a backend's subclass may scale the workloads down.
 */
public abstract class SharedEngineContract {

    private Engine a;
    private Engine b;

    /** A store of its own for one test, empty. */
    protected abstract CollectionStore openStore();

    /** Releases what {@link #openStore} opened. */
    protected void closeStore() { }

    /** Rounds of the CreateTable race (each creates a table). */
    protected int raceRounds() { return 20; }

    /** Increments by each of six writers. */
    protected int incrementsPerWriter() { return 100; }

    /** Transfers by each of four writers. */
    protected int transfersPerWriter() { return 60; }

    private CollectionStore store;

    @BeforeEach
    void open() {
        store = openStore();
        a = engineOn(store);
        b = engineOn(store);
    }

    static Engine engineOn(CollectionStore store) {
        return new Engine(new SharedStorage(store, Clock.systemUTC(), null), TestEngine.config(Clock.systemUTC()),
                new CapacityMeter());
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        closeStore();
    }

    @Test
    void aTableCreatedByOneServerServesOnTheOtherAtOnce() {
        TableDefinition table = TestEngine.createTable(a, "t", true, null, null);
        TableDefinition seen = b.catalog().find("t");
        assertNotNull(seen, "read from the shared catalog on first use");
        assertEquals(table.id(), seen.id());
        a.items().write(ItemWrite.put(table, item("pk", "x", "sk", 1, "v", "a"), null, ReturnValues.NONE, false, false));
        assertEquals(item("pk", "x", "sk", 1, "v", "a"), b.items().get(seen, item("pk", "x", "sk", 1), true, null).item());

        DynamoDbException taken = assertThrows(DynamoDbException.class, () -> TestEngine.createTable(b, "t", false, null, null));
        assertEquals("Table already exists: t", taken.getMessage());
        TableDefinition other = TestEngine.createTable(b, "u", false, null, null);
        assertTrue(other.id() != table.id(), "ids are allocated by compare-and-set across servers");

        a.tables().delete("t");
        b.catalog().refresh();
        assertNull(b.catalog().find("t"));
    }

    @Test
    void aBackupOnOneServerIsTheTableAsRequestedThoughBothServersWriteAfter() throws Exception {
        TableDefinition table = TestEngine.createTable(a, "bk", true, null, null);
        for (int i = 0; i < 40; i++) {
            a.items().write(ItemWrite.put(table, item("pk", "p" + i, "sk", 1, "v", "old"), null, ReturnValues.NONE,
                    false, false));
        }
        io.stator.engine.backup.Backup backup = a.backups().create("bk", "one");
        b.backups().follow(); // what b's upkeep does each second, before the copy starts (5 s)
        TableDefinition seen = b.catalog().find("bk");
        b.items().write(ItemWrite.put(seen, item("pk", "p0", "sk", 1, "v", "new"), null, ReturnValues.NONE, false, false));
        b.items().write(ItemWrite.delete(seen, item("pk", "p1", "sk", 1), null, ReturnValues.NONE, false));
        b.items().write(ItemWrite.put(seen, item("pk", "p100", "sk", 1, "v", "new"), null, ReturnValues.NONE, false,
                false));
        a.items().write(ItemWrite.put(table, item("pk", "p2", "sk", 1, "v", "new"), null, ReturnValues.NONE, false, false));
        a.backups().awaitIdle();
        io.stator.engine.backup.Backup done = a.backups().describe(backup.arn());
        assertEquals(io.stator.engine.backup.Backup.Status.AVAILABLE, done.status());
        assertEquals(40, done.itemCount());
        TableDefinition copied = TestEngine.createTable(a, "sizes", true, null, null);
        for (int i = 0; i < 40; i++) {
            a.items().write(ItemWrite.put(copied, item("pk", "p" + i, "sk", 1, "v", "old"), null, ReturnValues.NONE,
                    false, false));
        }
        a.catalog().counters().recount(copied);
        assertEquals(a.catalog().counters().sizeBytes(copied.id()), done.sizeBytes(), "the table's size as counted");

        TableDefinition restoring = b.restores().fromBackup(backup.arn(), "bk2",
                new io.stator.engine.table.TableRestores.Overrides(null, null, null, null, null, null));
        b.backups().awaitIdle();
        a.backups().awaitIdle();
        b.catalog().refresh();
        TableDefinition restored = b.catalog().find("bk2");
        assertEquals(restoring.id(), restored.id());
        assertTrue(!restored.restoring(), "the restore ended");
        for (int i = 0; i < 40; i++) {
            assertEquals(item("pk", "p" + i, "sk", 1, "v", "old"),
                    b.items().get(restored, item("pk", "p" + i, "sk", 1), true, null).item(), "p" + i);
        }
        assertNull(b.items().get(restored, item("pk", "p100", "sk", 1), true, null).item());
    }

    @Test
    void twoServersCreatingOneNameConcurrentlyMakeOneTable() throws Exception {
        for (int round = 0; round < raceRounds(); round++) {
            String name = "race" + round;
            AtomicInteger created = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (Engine e : List.of(a, b, a, b)) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        TestEngine.createTable(e, name, false, null, null);
                        created.incrementAndGet();
                    } catch (DynamoDbException x) {
                        assertEquals(ErrorType.RESOURCE_IN_USE, x.type());
                        refused.incrementAndGet();
                    }
                }));
            }
            for (Thread t : threads) t.join();
            assertEquals(1, created.get(), name);
            assertEquals(3, refused.get(), name);
        }
        a.catalog().refresh();
        b.catalog().refresh();
        Set<Long> ids = new HashSet<>();
        for (TableDefinition t : a.catalog().all()) assertTrue(ids.add(t.id()), "one id per table");
        assertEquals(a.catalog().all().size(), b.catalog().all().size());
    }

    @Test
    void incrementsFromBothServersOnOneItemAreExact() throws Exception {
        TableDefinition table = TestEngine.createTable(a, "counter", false, null, null);
        TableDefinition onB = b.catalog().find("counter");
        Map<String, AttributeValue> key = item("pk", "c");
        List<Thread> writers = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        int perWriter = incrementsPerWriter();
        for (int w = 0; w < 6; w++) {
            Engine e = w % 2 == 0 ? a : b;
            TableDefinition t = w % 2 == 0 ? table : onB;
            writers.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < perWriter; i++) e.items().write(increment(t, key));
                } catch (Throwable x) {
                    failures.add(x);
                }
            }));
        }
        for (Thread t : writers) t.join();
        assertTrue(failures.isEmpty(), failures.toString());
        assertEquals(item("pk", "c", "n", 6 * perWriter), a.items().get(table, key, true, null).item());
    }

    private static ItemWrite increment(TableDefinition table, Map<String, AttributeValue> key) {
        return new ItemWrite(table, RowKeys.of(table, key), null, old -> {
            Map<String, AttributeValue> next = new LinkedHashMap<>(key);
            next.put("n", number(count(old) + 1));
            return next;
        }, false, ReturnValues.NONE, List.of());
    }

    private static long count(Map<String, AttributeValue> item) {
        return item == null ? 0 : ((AttributeValue.N) item.get("n")).value().bigDecimal().longValueExact();
    }

    private static AttributeValue number(long n) {
        return new AttributeValue.N(DynamoNumber.parse(Long.toString(n)));
    }

    @Test
    void queriesAndScansPageThroughWhatEitherServerWrote() {
        TableDefinition table = TestEngine.createTable(a, "items", true, null, List.of(TestEngine.localIndex("byLocal")));
        TableDefinition onB = b.catalog().find("items");
        for (int p = 0; p < 20; p++) {
            for (int s = 0; s < 10; s++) {
                Engine e = (p + s) % 2 == 0 ? a : b;
                e.items().write(ItemWrite.put(p % 2 == 0 ? table : onB, item("pk", "p" + p, "sk", s, "lsk", 100 - s),
                        null, ReturnValues.NONE, false, false));
            }
        }
        // A Query in pages of 3, forward and backward, on the table and on the local index.
        for (String index : new String[] {null, "byLocal"}) {
            for (boolean forward : new boolean[] {true, false}) {
                List<Map<String, AttributeValue>> read = new ArrayList<>();
                Map<String, AttributeValue> start = null;
                do {
                    Page page = b.items().query(onB, new QuerySpec(index, Map.of("pk", new KeyCondition(ComparisonOperator.EQ,
                            List.of(new AttributeValue.S("p7")))), null, false, null, null, start, 3, forward, true));
                    read.addAll(page.items());
                    start = page.lastEvaluatedKey();
                } while (start != null);
                assertEquals(10, read.size(), index + " " + forward);
                long first = ((AttributeValue.N) read.get(0).get("sk")).value().bigDecimal().longValue();
                boolean ascendingSk = forward == (index == null);
                assertEquals(ascendingSk ? 0 : 9, first, index + " " + forward);
            }
        }
        // A Scan in pages, whole and in parallel segments: every item exactly once.
        for (int total : new int[] {1, 4}) {
            Set<String> seen = new HashSet<>();
            for (int segment = 0; segment < total; segment++) {
                Map<String, AttributeValue> start = null;
                do {
                    Page page = (segment % 2 == 0 ? a : b).items().scan(table,
                            new ScanSpec(null, null, null, null, start, segment, total, 7, true));
                    for (Map<String, AttributeValue> i : page.items()) {
                        assertTrue(seen.add(i.get("pk") + "/" + i.get("sk")), "read twice: " + i);
                    }
                    start = page.lastEvaluatedKey();
                } while (start != null);
            }
            assertEquals(200, seen.size(), total + " segments");
        }
    }

    @Test
    void transfersFromBothServersKeepTheTotalAndAuditsSeeItWhole() throws Exception {
        TableDefinition table = TestEngine.createTable(a, "bank", false, null, null);
        TableDefinition onB = b.catalog().find("bank");
        int accounts = 20;
        for (int i = 0; i < accounts; i++) {
            a.items().write(ItemWrite.put(table, item("pk", "acct" + i, "n", 100), null, ReturnValues.NONE, false, false));
        }
        AtomicBoolean done = new AtomicBoolean();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger transfers = new AtomicInteger();
        AtomicInteger audits = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            Engine e = w % 2 == 0 ? a : b;
            TableDefinition t = w % 2 == 0 ? table : onB;
            long seed = w;
            threads.add(Thread.ofPlatform().start(() -> {
                Random random = new Random(seed);
                for (int i = 0; i < transfersPerWriter(); i++) {
                    int from = random.nextInt(accounts);
                    int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
                    int amount = 1 + random.nextInt(10);
                    try {
                        e.items().transactWrite(List.of(add(t, "acct" + from, -amount), add(t, "acct" + to, amount)), null);
                        transfers.incrementAndGet();
                    } catch (TransactionCanceledException conflict) {
                        // TransactionConflict: the caller may retry, as with DynamoDB.
                    } catch (Throwable x) {
                        failures.add(x.toString());
                    }
                }
            }));
        }
        List<Thread> auditors = new ArrayList<>();
        for (Engine e : List.of(a, b)) {
            TableDefinition t = e == a ? table : onB;
            auditors.add(Thread.ofPlatform().start(() -> {
                List<Items.Get> gets = new ArrayList<>();
                for (int i = 0; i < accounts; i++) gets.add(new Items.Get(t, item("pk", "acct" + i), null));
                while (!done.get()) {
                    try {
                        long total = 0;
                        for (Page p : e.items().transactGet(gets)) total += count(p.items().get(0));
                        if (total != 100L * accounts) failures.add("audit saw " + total);
                        audits.incrementAndGet();
                    } catch (TransactionCanceledException conflict) {
                        // a transfer in flight: DynamoDB cancels such a read too
                    } catch (Throwable x) {
                        failures.add(x.toString());
                    }
                }
            }));
        }
        for (Thread t : threads) t.join();
        done.set(true);
        for (Thread t : auditors) t.join();
        assertTrue(failures.isEmpty(), failures.toString());
        assertTrue(transfers.get() > 0, "some transfers committed");
        long total = 0;
        for (int i = 0; i < accounts; i++) total += count(b.items().get(onB, item("pk", "acct" + i), true, null).item());
        assertEquals(100L * accounts, total, "after " + transfers.get() + " transfers and " + audits.get() + " audits");
    }

    private static ItemWrite add(TableDefinition table, String account, long amount) {
        Map<String, AttributeValue> key = item("pk", account);
        return new ItemWrite(table, RowKeys.of(table, key), null, old -> {
            Map<String, AttributeValue> next = new LinkedHashMap<>(key);
            next.put("n", number(count(old) + amount));
            return next;
        }, false, ReturnValues.NONE, List.of());
    }

    /** One write of a writer: its server, the table as that server knows it, its random, the write's number. */
    @FunctionalInterface
    private interface Write {
        void run(Engine server, TableDefinition table, Random random, int i);
    }

    /** Four writers, two on each server, {@code perWriter} writes each; any failure fails the test. */
    private void fromBothServers(String tableName, int perWriter, Write write) throws InterruptedException {
        List<Thread> writers = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        for (int w = 0; w < 4; w++) {
            Engine e = w % 2 == 0 ? a : b;
            TableDefinition t = e.catalog().find(tableName);
            long seed = w;
            writers.add(Thread.ofPlatform().start(() -> {
                Random random = new Random(seed);
                try {
                    for (int i = 0; i < perWriter; i++) write.run(e, t, random, i);
                } catch (Throwable x) {
                    failures.add(x);
                }
            }));
        }
        for (Thread t : writers) t.join();
        assertTrue(failures.isEmpty(), failures.toString());
    }

    /** Writers per engine moving items between groups of the global index. */
    protected int indexMovesPerWriter() { return 40; }

    @Test
    void globalIndexesFollowEveryItemWhicheverServerMovedIt() throws Exception {
        TableDefinition table = TestEngine.createTable(a, "grouped", false, List.of(TestEngine.globalIndex("byGroup")), null);
        TableDefinition onB = b.catalog().find("grouped");
        int items = 4;
        fromBothServers("grouped", indexMovesPerWriter(), (e, t, random, i) -> {
            // Each write moves one item to another group (a new index key) or out of the index
            // (no gpk), from either server, the same items raced.
            String id = "k" + random.nextInt(items);
            int group = random.nextInt(4);
            Map<String, AttributeValue> written = group == 3 ? item("pk", id, "v", i)
                    : item("pk", id, "gpk", "g" + group, "gsk", i, "v", i);
            e.items().write(ItemWrite.put(t, written, null, ReturnValues.NONE, false, false));
        });
        // The index holds exactly each item's final entry, read from either server.
        Map<String, Map<String, AttributeValue>> expected = new LinkedHashMap<>();
        for (int i = 0; i < items; i++) {
            Map<String, AttributeValue> final_ = a.items().get(table, item("pk", "k" + i), true, null).item();
            if (final_ != null && final_.containsKey("gpk")) expected.put("k" + i, final_);
        }
        for (Engine e : List.of(a, b)) {
            Map<String, Map<String, AttributeValue>> indexed = new LinkedHashMap<>();
            for (int group = 0; group < 3; group++) {
                Page page = e.items().query(e == a ? table : onB, new QuerySpec("byGroup", Map.of("gpk", new KeyCondition(ComparisonOperator.EQ,
                        List.of(new AttributeValue.S("g" + group)))), null, false, null, null, null, 100, true, false));
                for (Map<String, AttributeValue> i : page.items()) {
                    String id = ((AttributeValue.S) i.get("pk")).value();
                    assertNull(indexed.put(id, i), "one entry per item: " + id);
                }
            }
            assertEquals(expected, indexed);
        }
    }

    /** Items of the table a global index is added to while both servers write. */
    protected int backfilledItems() { return 200; }

    @Test
    void aGlobalIndexAddedWhileBothServersWriteHoldsExactlyEachItemsEntryAndGoesWhenDeleted() throws Exception {
        TableDefinition table = TestEngine.createTable(a, "grown", false, null, null);
        int items = backfilledItems();
        for (int i = 0; i < items; i++) {
            a.items().write(ItemWrite.put(table, i % 5 == 4 ? item("pk", "k" + i, "v", i)
                    : item("pk", "k" + i, "gpk", "g" + i % 3, "gsk", i, "v", i), null, ReturnValues.NONE, false, false));
        }
        // Writers on both servers move items between groups (or out of the index) from before
        // the index exists until after it is ACTIVE; each write looks the table up, as a request does.
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            Engine e = w % 2 == 0 ? a : b;
            Random random = new Random(w);
            writers.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; !stop.get(); i++) {
                        String id = "k" + random.nextInt(items);
                        int group = random.nextInt(4);
                        e.items().write(ItemWrite.put(e.catalog().find("grown"), group == 3 ? item("pk", id, "v", i)
                                : item("pk", id, "gpk", "g" + group, "gsk", i, "v", i), null, ReturnValues.NONE, false, false));
                    }
                } catch (Throwable x) {
                    failures.add(x);
                }
            }));
        }
        Thread.sleep(300);
        a.tables().update(new UpdateTableSpec("grown",
                List.of(new AttributeDefinition("gpk", AttributeValue.Type.S), new AttributeDefinition("gsk", AttributeValue.Type.N)),
                null, null, null, List.of(new GlobalIndexUpdate(TestEngine.globalIndex("byGroup"), null, null)),
                null, null, null, null, null, null));
        awaitIndex("grown", IndexDefinition.IndexStatus.ACTIVE);
        Thread.sleep(300);
        stop.set(true);
        for (Thread t : writers) t.join();
        assertTrue(failures.isEmpty(), failures.toString());

        Map<String, Map<String, AttributeValue>> expected = new LinkedHashMap<>();
        for (int i = 0; i < items; i++) {
            Map<String, AttributeValue> final_ = a.items().get(table, item("pk", "k" + i), true, null).item();
            if (final_.containsKey("gpk")) expected.put("k" + i, final_);
        }
        for (Engine e : List.of(a, b)) {
            TableDefinition t = e.catalog().find("grown");
            Map<String, Map<String, AttributeValue>> indexed = new LinkedHashMap<>();
            for (int group = 0; group < 3; group++) {
                Map<String, AttributeValue> start = null;
                do {
                    Page page = e.items().query(t, new QuerySpec("byGroup", Map.of("gpk", new KeyCondition(ComparisonOperator.EQ,
                            List.of(new AttributeValue.S("g" + group)))), null, false, null, null, start, 1000, true, false));
                    for (Map<String, AttributeValue> i : page.items()) {
                        String id = ((AttributeValue.S) i.get("pk")).value();
                        Map<String, AttributeValue> was = indexed.put(id, i);
                        assertNull(was, "one entry per item: " + id + ": " + was + " and " + i + " (in g" + group
                                + "), the item " + e.items().get(t, item("pk", id), true, null).item());
                    }
                    start = page.lastEvaluatedKey();
                } while (start != null);
            }
            assertEquals(expected, indexed);
        }

        int indexId = a.catalog().find("grown").index("byGroup").id();
        b.tables().update(new UpdateTableSpec("grown", null, null, null, null,
                List.of(new GlobalIndexUpdate(null, null, "byGroup")), null, null, null, null, null, null));
        awaitIndex("grown", null);
        try (Cursor rows = store.scan(table.id(), indexId, 0, 0, null, CollectionStore.Consistency.STRONG)) {
            assertTrue(!rows.next(), "a deleted index's rows are gone");
        }
        assertTrue(a.items().get(table, item("pk", "k0"), true, null).item() != null, "the table's items stay");
    }

    /** Waits until both servers see the table's index "byGroup" in that status (null: gone). */
    private void awaitIndex(String tableName, IndexDefinition.IndexStatus status) throws InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        for (Engine e : List.of(a, b)) {
            while (true) {
                IndexDefinition index = e.catalog().find(tableName).index("byGroup");
                if (status == null ? index == null : index != null && index.status() == status) break;
                assertTrue(System.nanoTime() < deadline, "index byGroup still " + (index == null ? "absent" : index.status()));
                Thread.sleep(50);
            }
        }
    }

    @Test
    void itemCountsAndSizesFollowWhatBothServersWroteAfterAFewSeconds() throws Exception {
        TableDefinition table = TestEngine.createTable(a, "counted", false, List.of(TestEngine.globalIndex("byGroup")), null);
        int items = 12;
        fromBothServers("counted", 3, (e, t, random, i) -> {
            String id = "k" + random.nextInt(items);
            Map<String, AttributeValue> written = random.nextInt(3) == 0 ? item("pk", id, "v", "x".repeat(i * 10))
                    : item("pk", id, "gpk", "g" + random.nextInt(2), "gsk", i, "v", "x".repeat(i * 10));
            e.items().write(ItemWrite.put(t, written, null, ReturnValues.NONE, false, false));
        });
        a.items().write(ItemWrite.delete(table, item("pk", "k0"), null, ReturnValues.NONE, false));
        long count = 0;
        long bytes = 0;
        long entries = 0;
        long entryBytes = 0;
        for (int i = 0; i < items; i++) {
            Map<String, AttributeValue> stored = a.items().get(table, item("pk", "k" + i), true, null).item();
            if (stored == null) continue;
            count++;
            bytes += ItemSize.of(stored);
            if (stored.containsKey("gpk")) {
                entries++;
                entryBytes += ItemSize.of(stored); // the index projects ALL
            }
        }
        int indexId = table.index("byGroup").id();
        List<Long> expected = List.of(count, bytes, entries, entryBytes);
        long deadline = System.nanoTime() + 90_000_000_000L;
        for (Engine e : List.of(a, b)) {
            TableCounters counters = e.catalog().counters();
            while (true) {
                List<Long> counted = List.of(counters.itemCount(table.id()), counters.sizeBytes(table.id()),
                        counters.indexItemCount(table.id(), indexId), counters.indexSizeBytes(table.id(), indexId));
                if (counted.equals(expected)) break;
                assertTrue(System.nanoTime() < deadline, "counted " + counted + ", expected " + expected);
                Thread.sleep(200);
            }
        }
    }

    /** Updates by each of four writers, two per server, in the streams test. */
    protected int streamWritesPerWriter() { return 30; }

    @Test
    void streamRecordsOfEitherServerComeOncePerChangeInEachItemsOrder() throws Exception {
        TableDefinition table = TestEngine.createTable(a, "streamed", false, null, null);
        a.tables().update(new UpdateTableSpec("streamed", null, null, null,
                new TableSpecs.Stream(true, "NEW_AND_OLD_IMAGES"), null, null, null, null, null, null, null));
        // The other server follows within a second (SharedUpkeep); at once here.
        b.catalog().refresh();
        b.streams().refreshShared();
        int perWriter = streamWritesPerWriter();
        fromBothServers("streamed", perWriter, (e, t, random, i) -> {
            Map<String, AttributeValue> key = item("pk", "k" + random.nextInt(3));
            while (true) {
                try {
                    e.items().write(increment(t, key));
                    return;
                } catch (DynamoDbException x) {
                    // Four writers on three items: one may wait out another server's commit of its
                    // item and shard head (a few seconds at most) and answer TransactionConflict,
                    // having written nothing; a client tries again, as DynamoDB's guide says.
                    if (x.type() != ErrorType.TRANSACTION_CONFLICT) throw x;
                }
            }
        });

        // Every shard read from its start, from the server that did not enable the stream.
        String arn = b.streams().list("streamed", null, 10).streams().get(0).streamArn();
        Map<String, List<Streams.StreamRecord>> byItem = new LinkedHashMap<>();
        int records = 0;
        for (Streams.ShardDescription shard : b.streams().describe(arn, 100, null, null).shards()) {
            // Issued by one server, read on the other: their iterators' key is the storage's.
            String iterator = a.streams().shardIterator(arn, shard.shardId(), "TRIM_HORIZON", null);
            String last = null;
            while (iterator != null) {
                Streams.RecordsPage page = b.streams().records(b.streams().iterator(iterator), 7);
                for (Streams.StreamRecord r : page.records()) {
                    if (last != null) assertTrue(r.sequenceNumber().compareTo(last) > 0, "in order within a shard");
                    last = r.sequenceNumber();
                    byItem.computeIfAbsent(((AttributeValue.S) r.keys().get("pk")).value(), k -> new ArrayList<>()).add(r);
                    records++;
                }
                iterator = page.records().isEmpty() ? null : page.nextShardIterator();
            }
        }
        assertEquals(4 * perWriter, records, "one record per change");
        for (Map.Entry<String, List<Streams.StreamRecord>> e : byItem.entrySet()) {
            // Each item's records chain: each one's old image is the one before's new image.
            Map<String, AttributeValue> previous = null;
            for (Streams.StreamRecord r : e.getValue()) {
                assertEquals(previous, r.oldImage(), e.getKey());
                previous = r.newImage();
            }
            assertEquals(a.items().get(table, item("pk", e.getKey()), true, null).item(), previous, e.getKey());
        }
    }

    @Test
    void timeToLiveDeletesWhatExpiredWhicheverServerWroteIt() throws Exception {
        TableDefinition table = TestEngine.createTable(a, "expiring", false, null, null);
        TableDefinition onB = b.catalog().find("expiring");
        long now = System.currentTimeMillis() / 1000;
        // Written before Time to Live is enabled: found by the walk.
        a.items().write(ItemWrite.put(table, item("pk", "before", "expires", now - 60), null, ReturnValues.NONE, false, false));
        a.timeToLive().update("expiring", true, "expires");
        b.catalog().refresh();
        assertTrue(b.catalog().find("expiring").timeToLive().expiring(), "the other server sees it enabled");
        // Written from either server while it is enabling or enabled: kept by the writes.
        a.items().write(ItemWrite.put(table, item("pk", "fromA", "expires", now - 60), null, ReturnValues.NONE, false, false));
        b.items().write(ItemWrite.put(onB, item("pk", "fromB", "expires", now - 60), null, ReturnValues.NONE, false, false));
        b.items().write(ItemWrite.put(onB, item("pk", "later", "expires", now + 3600), null, ReturnValues.NONE, false, false));
        b.items().write(ItemWrite.put(onB, item("pk", "never"), null, ReturnValues.NONE, false, false));
        long deadline = System.currentTimeMillis() + 60_000;
        List<String> gone = List.of("before", "fromA", "fromB");
        while (gone.stream().anyMatch(id -> b.items().get(onB, item("pk", id), true, null).item() != null)) {
            assertTrue(System.currentTimeMillis() < deadline, "expired items deleted within a minute");
            Thread.sleep(200);
        }
        for (String kept : List.of("later", "never")) {
            assertNotNull(a.items().get(table, item("pk", kept), true, null).item(), kept);
        }
        assertEquals(TimeToLiveDescription.TimeToLiveStatus.ENABLED, a.catalog().find("expiring").timeToLive().status());
    }
}
