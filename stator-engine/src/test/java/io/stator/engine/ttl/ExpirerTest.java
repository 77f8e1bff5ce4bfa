package io.stator.engine.ttl;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.Engine;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.capacity.Usage;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TimeToLiveDescription.TimeToLiveStatus;
import io.stator.engine.testing.MovableClock;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.storage.Cursor;
import io.stator.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The expirer inside the engine, on RocksDB in a temporary directory, with a clock the test
 * moves: rows are hints checked against the item, deletions are not admitted by the capacity
 * meter, and how many expiries a second it deletes (a measured figure, bounded generously).
 */
class ExpirerTest {

    private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");

    @TempDir
    Path directory;

    private final MovableClock clock = new MovableClock(T0);
    private final AtomicInteger writesAdmitted = new AtomicInteger();
    private TestEngine test;
    private Engine engine;

    @BeforeEach
    void open() {
        CapacityMeter meter = new CapacityMeter(new CapacityMeter.Admission() {
            @Override
            public ThroughputExceededException refusal(TableDefinition table, Usage.Write usage,
                                                       ConsumedCapacity consumed) {
                writesAdmitted.incrementAndGet();
                return null;
            }
        });
        test = TestEngine.open(directory, meter, clock);
        engine = test.engine();
    }

    @AfterEach
    void close() {
        test.close();
    }

    private TableDefinition tableWithTimeToLive(String name) throws InterruptedException {
        test.createTable(name, false, null, null);
        engine.timeToLive().update(name, true, "exp");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (engine.timeToLive().describe(name).status() != TimeToLiveStatus.ENABLED) {
            assertTrue(System.nanoTime() < deadline, "ENABLED in time");
            Thread.sleep(2);
        }
        return engine.tables().require(name);
    }

    private void put(TableDefinition table, String pk, long expirySeconds) {
        engine.items().write(ItemWrite.put(table, item("pk", pk, "exp", expirySeconds), null, ReturnValues.NONE,
                false, false));
    }

    private int rows(long tableId) {
        int n = 0;
        try (Cursor c = test.storage().range(null, Keyspaces.EXPIRIES, ExpiryIndex.tableStart(tableId),
                ExpiryIndex.tableStart(tableId + 1), false)) {
            while (c.next()) n++;
        }
        return n;
    }

    private void awaitRound() throws InterruptedException {
        assertTrue(engine.timeToLive().expirer().awaitRound(10_000));
    }

    @Test
    void aRowThatNoLongerMatchesItsItemIsDroppedAndTheItemKept() throws InterruptedException {
        TableDefinition table = tableWithTimeToLive("t");
        put(table, "a", T0.getEpochSecond() + 3600);
        assertEquals(1, rows(table.id()));
        // A row as a write racing a backfill could leave: due long ago, for a value the item no
        // longer has.
        byte[] rowKey = RowKeys.of(table, item("pk", "a"));
        byte[] stale = ByteBuffer.allocate(16 + rowKey.length).putLong(table.id())
                .putLong(T0.toEpochMilli() - 60_000).put(rowKey).array();
        try (WriteBatch batch = test.storage().newBatch()) {
            batch.put(Keyspaces.EXPIRIES, stale, Long.toString(T0.getEpochSecond() - 60).getBytes(StandardCharsets.UTF_8));
            test.storage().commit(batch);
        }
        assertEquals(2, rows(table.id()));
        awaitRound();
        assertNotNull(test.storage().get(Keyspaces.ITEMS, rowKey), "the item has another expiry now");
        assertNull(test.storage().get(Keyspaces.EXPIRIES, stale), "the stale row is gone");
        assertEquals(1, rows(table.id()));
    }

    @Test
    void deletionsAreNotAdmittedByTheCapacityMeter() throws InterruptedException {
        TableDefinition table = tableWithTimeToLive("t");
        for (int i = 0; i < 10; i++) put(table, "p" + i, T0.getEpochSecond() + 1);
        int clientWrites = writesAdmitted.get();
        clock.advance(Duration.ofSeconds(2));
        awaitRound();
        assertEquals(0, engine.catalog().counters().itemCount(table.id()));
        assertEquals(0, rows(table.id()));
        assertEquals(clientWrites, writesAdmitted.get());
    }

    @Test
    void aWriteOfATableWithoutTimeToLiveStagesNoRow() throws InterruptedException {
        tableWithTimeToLive("with");
        test.createTable("without", false, null, null);
        TableDefinition without = engine.tables().require("without");
        put(without, "a", T0.getEpochSecond() - 10);
        assertEquals(0, rows(without.id()));
        clock.advance(Duration.ofSeconds(1));
        awaitRound();
        assertEquals(1, engine.catalog().counters().itemCount(without.id()));
    }

    /**
     * The expirer's pace: 20,000 items of one table expire at once; how long until all are gone.
     * DynamoDB's own pace is no promise ("typically within a few days"); the issue asks for at
     * least 10,000 a second on a developer's machine. The bound here is loose (a loaded two-core
     * CI machine); the figure is printed.
     */
    @Test
    void theExpirerKeepsUpWithManyExpiriesASecond() throws InterruptedException {
        TableDefinition table = tableWithTimeToLive("t");
        int n = 20_000;
        long expiry = T0.getEpochSecond() + 1;
        for (int i = 0; i < n; i++) put(table, "p" + i, expiry);
        assertEquals(n, rows(table.id()));
        long started = System.nanoTime();
        clock.advance(Duration.ofSeconds(2));
        engine.timeToLive().expirer().wake();
        long deadline = started + Duration.ofSeconds(120).toNanos();
        while (engine.catalog().counters().itemCount(table.id()) > 0) {
            assertTrue(System.nanoTime() < deadline, "all expired within 120 s");
            Thread.sleep(5);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("Time to Live: %d expiries in %.2f s: %.0f a second%n", n, seconds, n / seconds);
        assertEquals(0, rows(table.id()));
    }
}
