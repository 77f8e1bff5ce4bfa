package io.stator.engine;

import static io.stator.engine.testing.TestEngine.globalIndex;
import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.engine.backup.Backup;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.IndexDefinition.IndexStatus;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableRestores;
import io.stator.engine.table.TableSpecs.GlobalIndexUpdate;
import io.stator.engine.table.UpdateTableSpec;
import io.stator.engine.testing.FaultyStorage;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.WriteResult;
import io.stator.storage.StorageFaultException;
import io.stator.storage.rocksdb.RocksStorage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the engine does when the storage cannot write (a {@code StorageFaultException}): a batch
 * write hands back the writes the fault stopped, as DynamoDB hands back those an internal failure
 * stopped; the background work (index propagation, backfills) waits the fault out without
 * filling the log, and finishes once it is over.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class EngineFaultsTest {

    @TempDir
    Path directory;

    private TestEngine test;
    private Engine engine;

    @BeforeEach
    void open() {
        test = TestEngine.open(directory);
        engine = test.engine();
    }

    @AfterEach
    void close() {
        test.faults().heal();
        test.close(); // closing twice does nothing
    }

    @Test
    void batchWriteHandsBackTheWritesAFaultStoppedUnlessItStoppedThemAll() {
        TableDefinition table = test.createTable("orders", false, null, null);
        test.faults().fail(thread -> true, 1); // the first write goes through, then the disk is full

        List<WriteResult> results = engine.items().batchWrite(List.of(put(table, "a"), put(table, "b"), put(table, "c")));

        assertNotNull(results.get(0));
        assertNull(results.get(1));
        assertNull(results.get(2));
        assertNotNull(stored(table, "a"));
        assertNull(stored(table, "b"));
        assertNull(stored(table, "c"));

        // Nothing written at all: the request fails, as a single write would.
        assertThrows(StorageFaultException.class, () -> engine.items().batchWrite(List.of(put(table, "b"), put(table, "c"))));
        assertNull(stored(table, "b"));
    }

    @Test
    void indexPropagationWaitsOutAFaultQuietlyAndCatchesUp() throws Exception {
        TableDefinition table = test.createTable("orders", false, List.of(globalIndex("by-group")), null);
        test.faults().fail(thread -> thread.getName().equals("stator-index-propagator"), 0);
        String log = capturingStandardError(() -> {
            for (int i = 0; i < 20; i++) {
                engine.items().write(ItemWrite.put(table, item("pk", "k" + i, "gpk", "g", "gsk", i), null,
                        ReturnValues.NONE, false, false));
            }
            await("the propagator met the fault", () -> test.faults().refused() > 0);
            int before = test.faults().refused();
            Thread.sleep(2_000); // it keeps meeting it, but not in a busy loop
            int retries = test.faults().refused() - before;
            assertTrue(retries <= 4, "retried " + retries + " times in 2 s");
        });
        assertEquals("", log, "the storage reports its faults; the propagator adds nothing");

        test.faults().heal();
        test.awaitGlobalIndexes();
        IndexDefinition index = engine.catalog().find("orders").index("by-group");
        assertEquals(20, engine.catalog().counters().indexItemCount(table.id(), index.id()));
    }

    @Test
    void backfillInterruptedByAFaultFinishesOnceItIsOver() throws Exception {
        TableDefinition table = test.createTable("orders", false, null, null);
        for (int i = 0; i < 20; i++) {
            engine.items().write(ItemWrite.put(table, item("pk", "k" + i, "gpk", "g", "gsk", i), null,
                    ReturnValues.NONE, false, false));
        }
        test.faults().fail(thread -> thread.getName().equals("stator-index-builds"), 0);
        String log = capturingStandardError(() -> {
            engine.tables().update(new UpdateTableSpec("orders",
                    List.of(new AttributeDefinition("gpk", AttributeValue.Type.S),
                            new AttributeDefinition("gsk", AttributeValue.Type.N)),
                    null, null, null, List.of(new GlobalIndexUpdate(globalIndex("by-group"), null, null)),
                    null, null, null, null, null, null));
            await("the backfill met the fault", () -> test.faults().refused() > 0);
            Thread.sleep(1_500);
        });
        assertEquals("", log, "the storage reports its faults; the backfill adds nothing");
        assertEquals(IndexStatus.CREATING, engine.catalog().find("orders").index("by-group").status());

        test.faults().heal();
        await("the backfill finished", () -> engine.catalog().find("orders").index("by-group").status() == IndexStatus.ACTIVE);
        test.awaitGlobalIndexes();
        IndexDefinition index = engine.catalog().find("orders").index("by-group");
        assertEquals(20, engine.catalog().counters().indexItemCount(table.id(), index.id()));
    }

    /**
     * An engine opens on a storage that refuses every write (a server started on a full disk), and
     * the backup work a fault stopped, before and across that restart, is finished once writes
     * are taken again, without a restart: the restore starts over, the half-copied backup is
     * deleted.
     */
    @Test
    void opensWhileTheStorageRefusesWritesAndFinishesTheBackupWorkOnceItCan() throws Exception {
        TableDefinition table = test.createTable("orders", false, null, null);
        for (int i = 0; i < 20; i++) {
            engine.items().write(put(table, "k" + i));
        }
        Backup available = engine.backups().create("orders", "before");
        engine.backups().awaitIdle();
        assertEquals(Backup.Status.AVAILABLE, engine.backups().describe(available.arn()).status());

        // The backups' thread meets a fault: the copy stops, the restore stops.
        test.faults().fail(thread -> thread.getName().equals("stator-backups"), 0);
        Backup halfCopied = engine.backups().create("orders", "stopped");
        engine.restores().fromBackup(available.arn(), "restored", new TableRestores.Overrides(null, null, null, null, null, null));
        await("the backup work met the fault", () -> test.faults().refused() >= 3);
        assertEquals(Backup.Status.CREATING, engine.backups().describe(halfCopied.arn()).status());
        test.close();

        try (RocksStorage storage = RocksStorage.open(directory, Keyspaces.ALL)) {
            FaultyStorage faults = new FaultyStorage(storage);
            faults.fail();
            Engine restarted = new Engine(faults, TestEngine.config(Clock.systemUTC()));
            try {
                assertEquals(20, restarted.catalog().counters().itemCount(table.id()));
                await("the restarted engine's backup work met the fault", () -> faults.refused() >= 2);
                faults.heal();
                await("the restored table filled", () -> !restarted.catalog().find("restored").restoring());
                TableDefinition restored = restarted.catalog().find("restored");
                assertEquals(20, restarted.catalog().counters().itemCount(restored.id()));
                // Acknowledged, so finished, never dropped: copied again from the start once it can.
                await("the half-copied backup finished", () ->
                        restarted.backups().describe(halfCopied.arn()).status() == Backup.Status.AVAILABLE);
                assertEquals(20, restarted.backups().describe(halfCopied.arn()).itemCount());
            } finally {
                restarted.close();
            }
        }
    }

    private static ItemWrite put(TableDefinition table, String pk) {
        return ItemWrite.put(table, item("pk", pk), null, ReturnValues.NONE, false, false);
    }

    private byte[] stored(TableDefinition table, String pk) {
        Map<String, AttributeValue> key = item("pk", pk);
        return test.storage().get(Keyspaces.ITEMS, RowKeys.of(table, key));
    }

    private interface Body {
        void run() throws Exception;
    }

    /** What the body's threads (and any other) printed on standard error while it ran. */
    private static String capturingStandardError(Body body) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) fail("not within 30 s: " + what);
            Thread.sleep(10);
        }
    }
}
