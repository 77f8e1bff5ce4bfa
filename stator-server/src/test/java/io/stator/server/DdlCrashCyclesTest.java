package io.stator.server;

import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.IndexContents;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.BackupSummary;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ExportSummary;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.ImportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportSummary;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Nothing a table operation acknowledged is lost or left stuck, cycle after cycle of {@code kill -9}
 * at random instants while the long jobs run. Each cycle a server in its own JVM is sent, at once,
 * CreateTable, DeleteTable, UpdateTable (a global index added, backfilled over thousands of items,
 * or deleted), CreateBackup, RestoreTableFromBackup, RestoreTableToPointInTime, ImportTable (from
 * files, and from a bucket that does not exist) and ExportTableToPointInTime, and is SIGKILLed
 * somewhere in the middle; then it is started again on the same directory and checked:
 * <ul>
 *   <li>no table stuck: every table listed reaches ACTIVE, its indexes ACTIVE (and exact), within a
 *       generous bound; an acknowledged CreateTable's table is there, an acknowledged
 *       DeleteTable's gone;</li>
 *   <li>no acknowledged backup dropped: every backup listed, and every one CreateBackup answered,
 *       ends AVAILABLE, and restores exactly;</li>
 *   <li>every restore's table ends ACTIVE holding exactly the source's items (the source is never
 *       written after the start, so a backup of it, and it at any time, is known);</li>
 *   <li>every import ends COMPLETED with exactly its files' items (one from files that exist runs
 *       to the end), or FAILED with no table, after which the name takes a new table;</li>
 *   <li>every export ends COMPLETED with the source's item count, or FAILED.</li>
 * </ul>
 * The tables and the point-in-time history are made first by a server in this JVM whose clock runs
 * ten minutes behind, so that RestoreTableToPointInTime's latest restorable time (five minutes ago)
 * is already within the history when the cycles begin.
 * {@code ./mvnw verify} runs a few cycles; the profile {@code crash-cycles} runs 100
 * ({@code -Dstator.crashCycles=N} for any other number).
 */
class DdlCrashCyclesTest {

    private static final String SOURCE = "source";
    private static final String INDEXED = "indexed";
    private static final int SOURCE_ITEMS = 400;
    private static final int INDEXED_ITEMS = 3_000;
    private static final int IMPORTED_ITEMS = 1_000;
    private static final String IMPORTS = "imports";
    private static final String EXPORTS = "exports";
    private static final Duration BOUND = Duration.ofSeconds(120);

    @TempDir
    Path tmp;

    private Set<Map<String, AttributeValue>> sourceItems;
    /** Backups seen AVAILABLE: what the restores start from. */
    private final List<String> availableBackups = new ArrayList<>();
    private final Set<String> endedImports = new HashSet<>();
    private final Set<String> endedExports = new HashSet<>();
    private String lastCreated;

    /** What one cycle's operations were answered, by kind: each must be found done after the restart. */
    private static final class Acknowledged {
        final Set<String> created = ConcurrentHashMap.newKeySet();
        final Set<String> deleted = ConcurrentHashMap.newKeySet();
        final Set<String> backups = ConcurrentHashMap.newKeySet();
        final Set<String> restored = ConcurrentHashMap.newKeySet();
        final Set<String> imports = ConcurrentHashMap.newKeySet();
        final Set<String> exports = ConcurrentHashMap.newKeySet();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.MINUTES)
    void noTableOperationIsLostOrLeftStuckWhateverTheKill() throws Exception {
        int cycles = Integer.getInteger("stator.crashCycles", 3);
        Path data = tmp.resolve("data");
        Path stderr = tmp.resolve("stator-stderr.txt");
        long seed = Long.getLong("stator.seed", System.nanoTime());
        Random random = new Random(seed);
        long start = System.nanoTime();
        prepare(data);
        Acknowledged acknowledged = new Acknowledged();
        int[] answered = new int[1];
        for (int cycle = 0; cycle < cycles; cycle++) {
            if (cycle > 0 && random.nextInt(4) == 0) {
                // Killed again while it finishes what the last kill cut short: recovery is recovered from.
                try (StatorProcess server = StatorProcess.start(data, stderr)) {
                    Thread.sleep(random.nextInt(300));
                    server.kill();
                }
            }
            try (StatorProcess server = StatorProcess.start(data, stderr)) {
                check(server, acknowledged, "after kill " + cycle + " (seed " + seed + ")");
                acknowledged = new Acknowledged();
                answered[0] += runUntilKilled(server, cycle, acknowledged, random);
            }
        }
        int resumed;
        try (StatorProcess server = StatorProcess.start(data, stderr)) {
            check(server, acknowledged, "after the last kill (seed " + seed + ")");
            resumed = server.stderrText().split("when the server stopped", -1).length - 1;
        }
        System.out.printf("DdlCrashCyclesTest: %d kill -9 cycles, %d table operations answered, %d jobs found cut "
                + "short and finished at a restart, every one done, no table stuck; %.0f s%n", cycles, answered[0],
                resumed, (System.nanoTime() - start) / 1e9);
    }

    /**
     * The source (with a global index and point-in-time recovery), the table UpdateTable indexes,
     * and the files imports read, written by a server whose clock is ten minutes behind.
     */
    private void prepare(Path data) throws Exception {
        Path files = data.resolve("s3").resolve(IMPORTS).resolve("items");
        Files.createDirectories(files);
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < IMPORTED_ITEMS; i++) {
            lines.append("{\"Item\":{\"pk\":{\"S\":\"i").append(i).append("\"},\"g\":{\"S\":\"g").append(i % 7)
                    .append("\"}}}\n");
        }
        Files.writeString(files.resolve("part-0.json"), lines.toString(), StandardCharsets.UTF_8);
        Clock behind = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-10));
        try (StatorServer server = StatorServer.start(ServerOptions.defaults(data).withPort(0).withClock(behind)
                .withThroughput(StatorTestServer.REPORT_ONLY));
             DynamoDbClient client = StatorTestServer.newClient(java.net.URI.create(server.endpoint()),
                     io.stator.engine.EngineConfig.DEFAULT_REGION, StatorTestServer.ACCESS_KEY,
                     StatorTestServer.SECRET_KEY)) {
            client.createTable(b -> b.tableName(SOURCE).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                            Tables.definition("g", ScalarAttributeType.S))
                    .keySchema(Tables.key("pk", KeyType.HASH))
                    .globalSecondaryIndexes(g -> g.indexName("by-g").keySchema(Tables.key("g", KeyType.HASH))
                            .projection(p -> p.projectionType(ProjectionType.ALL))));
            load(client, SOURCE, SOURCE_ITEMS, i -> Map.of("pk", s("s" + i), "g", s("g" + i % 5), "v", n(i)));
            client.updateContinuousBackups(b -> b.tableName(SOURCE)
                    .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
            client.createTable(b -> b.tableName(INDEXED).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S))
                    .keySchema(Tables.key("pk", KeyType.HASH)));
            load(client, INDEXED, INDEXED_ITEMS, i -> Map.of("pk", s("x" + i), "g", s("g" + i % 13), "v", n(i)));
            sourceItems = scanAll(client, SOURCE);
            server.engine().backups().awaitIdle(); // the point-in-time base is copied
        }
    }

    private static void load(DynamoDbClient client, String table, int items,
                             java.util.function.IntFunction<Map<String, AttributeValue>> item) {
        for (int i = 0; i < items; i += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (int j = i; j < Math.min(i + 25, items); j++) {
                Map<String, AttributeValue> it = item.apply(j);
                batch.add(WriteRequest.builder().putRequest(p -> p.item(it)).build());
            }
            assertTrue(client.batchWriteItem(b -> b.requestItems(Map.of(table, batch))).unprocessedItems().isEmpty());
        }
    }

    // ---- one cycle ---------------------------------------------------------------------------------

    /** Sends every operation at once, kills the server at a random instant; returns how many were answered. */
    private int runUntilKilled(StatorProcess server, int cycle, Acknowledged ack, Random random) throws Exception {
        DynamoDbClient client = server.client();
        String tableArn = client.describeTable(b -> b.tableName(SOURCE)).table().tableArn();
        List<GlobalSecondaryIndexDescription> indexes = client.describeTable(b -> b.tableName(INDEXED)).table()
                .globalSecondaryIndexes();
        String prefix = "c" + cycle + "-";
        Map<String, Consumer<DynamoDbClient>> operations = new java.util.LinkedHashMap<>();
        operations.put("CreateTable", c -> {
            c.createTable(b -> b.tableName(prefix + "created").billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S))
                    .keySchema(Tables.key("pk", KeyType.HASH)));
            ack.created.add(prefix + "created");
        });
        if (lastCreated != null && !tableNames(client).contains(lastCreated)) {
            lastCreated = null; // deleted by a DeleteTable the kill cut short of its answer
        }
        String previous = lastCreated;
        if (previous != null) {
            operations.put("DeleteTable", c -> {
                c.deleteTable(b -> b.tableName(previous));
                ack.deleted.add(previous);
            });
        }
        operations.put("UpdateTable", c -> {
            if (indexes == null || indexes.isEmpty()) {
                c.updateTable(b -> b.tableName(INDEXED).attributeDefinitions(Tables.definition("g", ScalarAttributeType.S))
                        .globalSecondaryIndexUpdates(u -> u.create(g -> g.indexName(prefix + "gsi")
                                .keySchema(Tables.key("g", KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))));
            } else {
                c.updateTable(b -> b.tableName(INDEXED).globalSecondaryIndexUpdates(
                        u -> u.delete(d -> d.indexName(indexes.get(0).indexName()))));
            }
        });
        operations.put("CreateBackup", c -> ack.backups.add(c.createBackup(b -> b.tableName(SOURCE)
                .backupName(prefix + "backup")).backupDetails().backupArn()));
        if (!availableBackups.isEmpty()) {
            String from = availableBackups.get(random.nextInt(availableBackups.size()));
            operations.put("RestoreTableFromBackup", c -> {
                c.restoreTableFromBackup(b -> b.backupArn(from).targetTableName(prefix + "restored"));
                ack.restored.add(prefix + "restored");
            });
        }
        operations.put("RestoreTableToPointInTime", c -> {
            c.restoreTableToPointInTime(b -> b.sourceTableName(SOURCE).useLatestRestorableTime(true)
                    .targetTableName(prefix + "pitr"));
            ack.restored.add(prefix + "pitr");
        });
        operations.put("ImportTable", c -> ack.imports.add(importTable(c, IMPORTS, prefix + "imported").importArn()));
        if (random.nextBoolean()) {
            operations.put("ImportTable (no bucket)",
                    c -> ack.imports.add(importTable(c, "no-such-bucket", prefix + "failed").importArn()));
        }
        operations.put("ExportTableToPointInTime", c -> ack.exports.add(c.exportTableToPointInTime(
                b -> b.tableArn(tableArn).s3Bucket(EXPORTS).s3Prefix(prefix)).exportDescription().exportArn()));

        AtomicBoolean killed = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicInteger answered = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (Map.Entry<String, Consumer<DynamoDbClient>> op : operations.entrySet()) {
            threads.add(new Thread(() -> {
                try {
                    op.getValue().accept(client);
                    answered.incrementAndGet();
                } catch (Throwable t) {
                    if (!killed.get()) failure.compareAndSet(null, new AssertionError(op.getKey() + " failed", t));
                }
            }, op.getKey()));
        }
        threads.forEach(Thread::start);
        Thread.sleep(50 + random.nextInt(1_200));
        killed.set(true);
        int exit = server.kill();
        for (Thread t : threads) t.join(TimeUnit.SECONDS.toMillis(60));
        if (failure.get() != null) throw new AssertionError("before the kill" + server.stderrText(), failure.get());
        assertNotEquals(0, exit, "the server must have been killed, not have exited");
        if (ack.created.contains(prefix + "created")) lastCreated = prefix + "created";
        else if (previous != null && ack.deleted.contains(previous)) lastCreated = null;
        System.out.println("DdlCrashCyclesTest: cycle " + cycle + ", " + answered.get() + " of " + operations.size()
                + " operations answered before the kill");
        return answered.get();
    }

    private static ImportTableDescription importTable(DynamoDbClient client, String bucket, String table) {
        return client.importTable(b -> b.s3BucketSource(s -> s.s3Bucket(bucket).s3KeyPrefix("items/"))
                .inputFormat(InputFormat.DYNAMODB_JSON)
                .tableCreationParameters(t -> t.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S))
                        .keySchema(Tables.key("pk", KeyType.HASH)))).importTableDescription();
    }

    // ---- after each restart ------------------------------------------------------------------------

    private void check(StatorProcess server, Acknowledged ack, String when) {
        DynamoDbClient client = server.client();
        try {
            Set<String> tables = tableNames(client);
            for (String table : tables) awaitActive(client, table);
            for (String created : ack.created) {
                assertTrue(tables.contains(created) || ack.deleted.contains(created), "created " + created + " is gone");
            }
            for (String deleted : ack.deleted) assertTrue(!tables.contains(deleted), "deleted " + deleted + " is back");
            checkBackups(client, ack);
            for (String restored : ack.restored) assertTrue(tables.contains(restored), "restored " + restored + " is gone");
            for (String table : tables) {
                if (!table.endsWith("-restored") && !table.endsWith("-pitr")) continue;
                assertEquals(sourceItems, scanAll(client, table), "restored " + table + " is not its source");
                IndexContents.awaitIndexesMatch(client, table, BOUND);
                client.deleteTable(b -> b.tableName(table));
            }
            checkImports(client, ack, server);
            checkExports(client, ack);
            IndexContents.awaitIndexesMatch(client, INDEXED, BOUND);
            assertEquals(sourceItems, scanAll(client, SOURCE), "the source changed");
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(when + ": " + e.getMessage() + server.stderrText(), e);
        }
    }

    /** ACTIVE, and every global index ACTIVE (its backfill done or its deletion over), within the bound. */
    private static void awaitActive(DynamoDbClient client, String table) {
        Eventually.until(table + " ACTIVE with its indexes", BOUND, () -> client.describeTable(b -> b.tableName(table))
                .table(), DdlCrashCyclesTest::settled);
    }

    private static boolean settled(TableDescription t) {
        if (t.tableStatus() != TableStatus.ACTIVE) return false;
        for (GlobalSecondaryIndexDescription g : t.globalSecondaryIndexes()) {
            if (g.indexStatus() != IndexStatus.ACTIVE) return false;
        }
        return true;
    }

    private void checkBackups(DynamoDbClient client, Acknowledged ack) {
        List<BackupSummary> listed = new ArrayList<>();
        String after = null;
        do {
            String start = after;
            var page = client.listBackups(b -> b.exclusiveStartBackupArn(start));
            listed.addAll(page.backupSummaries());
            after = page.lastEvaluatedBackupArn();
        } while (after != null);
        Set<String> arns = listed.stream().map(BackupSummary::backupArn).collect(Collectors.toSet());
        for (String backup : ack.backups) assertTrue(arns.contains(backup), "acknowledged backup " + backup + " dropped");
        for (String arn : arns) {
            Eventually.until("backup " + arn + " AVAILABLE", BOUND, () -> client.describeBackup(b -> b.backupArn(arn))
                    .backupDescription().backupDetails().backupStatus(), BackupStatus.AVAILABLE::equals);
            if (!availableBackups.contains(arn)) availableBackups.add(arn);
        }
        // Restores of each of them check its content; a few are kept, the others deleted.
        while (availableBackups.size() > 3) {
            String oldest = availableBackups.remove(0);
            client.deleteBackup(b -> b.backupArn(oldest));
        }
    }

    private void checkImports(DynamoDbClient client, Acknowledged ack, StatorProcess server) {
        List<ImportSummary> listed = client.listImportsPaginator(b -> { }).stream()
                .flatMap(page -> page.importSummaryList().stream()).toList();
        Set<String> arns = listed.stream().map(ImportSummary::importArn).collect(Collectors.toSet());
        for (String arn : ack.imports) assertTrue(arns.contains(arn), "acknowledged import " + arn + " is not listed");
        for (String arn : arns) {
            if (endedImports.contains(arn)) continue;
            ImportTableDescription ended = Eventually.until("import " + arn + " ended", BOUND,
                    () -> client.describeImport(b -> b.importArn(arn)).importTableDescription(),
                    d -> d.importStatus() != ImportStatus.IN_PROGRESS);
            boolean files = IMPORTS.equals(ended.s3BucketSource().s3Bucket());
            assertEquals(files ? ImportStatus.COMPLETED : ImportStatus.FAILED, ended.importStatus(), ended.toString());
            JobCrashTest.checkEndedImport(client, ended, IMPORTED_ITEMS, server);
            String table = ended.tableArn().substring(ended.tableArn().lastIndexOf('/') + 1);
            if (!files) {
                // The name a FAILED import leaves is usable at once.
                client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S))
                        .keySchema(Tables.key("pk", KeyType.HASH)));
            }
            client.deleteTable(b -> b.tableName(table));
            endedImports.add(arn);
        }
    }

    private void checkExports(DynamoDbClient client, Acknowledged ack) {
        List<ExportSummary> listed = client.listExportsPaginator(b -> { }).stream()
                .flatMap(page -> page.exportSummaries().stream()).toList();
        Set<String> arns = listed.stream().map(ExportSummary::exportArn).collect(Collectors.toSet());
        for (String arn : ack.exports) assertTrue(arns.contains(arn), "acknowledged export " + arn + " is not listed");
        for (String arn : arns) {
            if (endedExports.contains(arn)) continue;
            ExportDescription ended = Eventually.until("export " + arn + " ended", BOUND,
                    () -> client.describeExport(b -> b.exportArn(arn)).exportDescription(),
                    d -> d.exportStatus() != ExportStatus.IN_PROGRESS);
            assertEquals(ExportStatus.COMPLETED, ended.exportStatus(), ended.toString());
            assertEquals(SOURCE_ITEMS, ended.itemCount(), ended.toString());
            endedExports.add(arn);
        }
    }

    private static Set<String> tableNames(DynamoDbClient client) {
        return client.listTablesPaginator(b -> { }).tableNames().stream().collect(Collectors.toSet());
    }

    private static Set<Map<String, AttributeValue>> scanAll(DynamoDbClient client, String table) {
        return client.scanPaginator(b -> b.tableName(table).consistentRead(true)).items().stream()
                .collect(Collectors.toSet());
    }
}
