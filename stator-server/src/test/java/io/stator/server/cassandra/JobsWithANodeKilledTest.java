package io.stator.server.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stator.server.testing.Breakpoints;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.ExportedItems;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import io.stator.server.testing.TestBackend;
import io.stator.storage.cassandra.CassandraCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A backup, a restore, an export and an import, each with one Cassandra node of three killed
 * ({@code kill -9}) while it runs: the server (a {@code bin/stator} process, one per test) is
 * stopped by the debugger at one of the job's writes, the node killed, the server let go. Replication factor 3
 * keeps QUORUM (and Paxos) reachable with two nodes, so each job completes as it would with three
 * (the backup exactly the table as requested, the restored table exactly the backup, the export
 * exactly the table at its time, the import exactly its file), while a writer puts items through
 * the same server: every put acknowledged while the node was down is read back after the node is
 * started again. Needs a cluster the test run manages (skipped with
 * {@code STATOR_CASSANDRA_CONTACT_POINTS} set); in {@code -Pcassandra-all} for CI time (a node's
 * restart is 20 to 60 s on a loaded machine). The JVM's cluster is {@link CassandraCluster#shared},
 * closed when the JVM ends; the node is started again after each test.
 */
class JobsWithANodeKilledTest {

    private static final String SHARED_STORAGE = "io.stator.engine.cluster.SharedStorage";
    private static final String STORE = "io.stator.server.transfer.DirectoryObjectStore";
    private static final int ITEMS = 100;

    private static CassandraCluster cluster;
    private static ServersOnOneKeyspace keyspace;
    private static StatorProcess server;
    private static Path s3;

    @BeforeAll
    static void start() throws Exception {
        // Only in the on-cassandra execution: -Dit.test runs a class in both, and each JVM would
        // start a cluster of its own for it (the cluster is asked for here, not by the extension).
        assumeTrue(TestBackend.cassandra(), "runs in the on-cassandra execution");
        CassandraCluster shared = CassandraCluster.shared();
        assumeTrue(shared.managed(), "the test kills a node it started");
        cluster = shared;
        keyspace = new ServersOnOneKeyspace(shared, "stator_nodekill_");
        s3 = Files.createTempDirectory("stator-nodekill-s3-");
        // A server in this JVM first: it makes the keyspace's schema, which a cluster just started
        // may take longer to agree on than a child process is given to start.
        keyspace.start(keyspace.options());
    }

    /** A server of its own per test: its debug agent is attached to once. */
    @BeforeEach
    void server() throws Exception {
        server = keyspace.process(s3.resolveSibling(s3.getFileName() + ".err"),
                List.of("-Xmx256m", Breakpoints.JVM_OPTION), List.of("--s3-dir", s3.toString()));
    }

    @AfterEach
    void nodeBack() throws Exception {
        if (server != null) server.close();
        if (cluster != null && !cluster.isRunning(victim())) cluster.startNode(victim());
    }

    @AfterAll
    static void stop() throws Exception {
        if (keyspace != null) keyspace.close();
        if (s3 != null) StatorTestServer.deleteRecursively(s3);
    }

    private static int victim() {
        return cluster.size() - 1;
    }

    private static DynamoDbClient client() {
        return server.client();
    }

    /** Puts items into a table until stopped, through the server; the ids acknowledged. */
    private static final class Writer implements AutoCloseable {
        final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        final AtomicBoolean running = new AtomicBoolean(true);
        final String table;
        final Thread thread;

        Writer(String table) {
            this.table = table;
            this.thread = Thread.ofPlatform().start(() -> {
                for (int i = 0; running.get(); i++) {
                    String id = "during-" + i;
                    try {
                        client().putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS(id))));
                        acknowledged.add(id);
                    } catch (SdkException notAcknowledged) {
                        // a 500 or a timeout while the node went down: the client may retry it
                    }
                    Eventually.sleep(50);
                }
            });
        }

        /** Stops writing; then, with the node back, checks that every acknowledged put is there. */
        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join();
        }

        void check() {
            assertFalse(acknowledged.isEmpty(), "no put was acknowledged while the node was down");
            for (String id : acknowledged) {
                assertNotNull(client().getItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS(id)))
                        .consistentRead(true)).item(), "acknowledged put " + id);
            }
        }
    }

    /**
     * Runs {@code request} with the server stopped at the {@code nth} call of {@code method} of
     * {@code className} made within {@code within}; kills the node there and lets the server go.
     */
    private static <T> T killingTheNodeAt(String className, String method, String within, int nth,
                                          java.util.function.Supplier<T> request) throws Exception {
        try (Breakpoints debugger = server.breakpoints().on(className, method)) {
            var answered = java.util.concurrent.CompletableFuture.supplyAsync(request);
            // Only the job's thread stays stopped: the server answers meanwhile (a client waits 30 s at most).
            Breakpoints.Hit hit = debugger.await(h -> h.within(within), nth, false, Duration.ofSeconds(60));
            assertNotNull(hit, "the job reached its write " + nth + server.stderrText());
            cluster.killNode(victim());
            debugger.release();
            return answered.get(60, TimeUnit.SECONDS);
        }
    }

    private static String table(int items) {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        for (int from = 0; from < items; from += 25) {
            List<WriteRequest> puts = IntStream.range(from, Math.min(items, from + 25))
                    .mapToObj(i -> WriteRequest.builder().putRequest(p -> p.item(item(i))).build()).toList();
            Map<String, List<WriteRequest>> left = Map.of(table, puts);
            while (!left.isEmpty()) {
                Map<String, List<WriteRequest>> request = left;
                left = client().batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
            }
        }
        return table;
    }

    private static Map<String, AttributeValue> item(int i) {
        return Map.of("id", AttributeValue.fromS("k" + i), "v", AttributeValue.fromN(Integer.toString(i)));
    }

    private static Set<Map<String, AttributeValue>> scan(String table) {
        return client().scanPaginator(b -> b.tableName(table).consistentRead(true)).items().stream()
                .collect(Collectors.toSet());
    }

    private static String backupOf(String table) {
        return client().createBackup(b -> b.tableName(table).backupName("node-killed")).backupDetails().backupArn();
    }

    private static void awaitAvailable(String backupArn) {
        Eventually.until(backupArn + " AVAILABLE", Duration.ofSeconds(90),
                () -> client().describeBackup(b -> b.backupArn(backupArn)).backupDescription().backupDetails(),
                d -> d.backupStatus() == BackupStatus.AVAILABLE);
    }

    /** Restores the backup and waits for the table; its items. */
    private static Set<Map<String, AttributeValue>> restored(String backupArn) {
        String restored = StatorTestServer.tableName();
        client().restoreTableFromBackup(b -> b.backupArn(backupArn).targetTableName(restored));
        awaitActive(restored);
        return scan(restored);
    }

    private static void awaitActive(String table) {
        Eventually.until(table + " ACTIVE", Duration.ofSeconds(90),
                () -> client().describeTable(b -> b.tableName(table)).table().tableStatus(), TableStatus.ACTIVE::equals);
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aBackupCompletesAsRequestedWithANodeKilledDuringIt() throws Exception {
        String table = table(ITEMS);
        Set<Map<String, AttributeValue>> asRequested = scan(table);
        String arn;
        // Into a table of their own: the writer starts before the request, the backup's table stays as scanned.
        try (Writer writer = new Writer(table(0))) {
            // Killed at the copy's first commit (after CreateBackup's answer and the copy's walk).
            arn = killingTheNodeAt(SHARED_STORAGE, "commit", "io.stator.engine.backup.Backups.copy", 1,
                    () -> backupOf(table));
            awaitAvailable(arn);
            writer.close();
            cluster.startNode(victim());
            writer.check();
        }
        assertEquals(asRequested, restored(arn), "the backup is the table as it was requested");
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aRestoreCompletesWithANodeKilledMidFill() throws Exception {
        String table = table(ITEMS);
        Set<Map<String, AttributeValue>> source = scan(table);
        String arn = backupOf(table);
        awaitAvailable(arn);
        String restored = StatorTestServer.tableName();
        try (Writer writer = new Writer(table)) {
            // Half-way through the fill: a restore commits each item as its own write.
            killingTheNodeAt(SHARED_STORAGE, "commit", "io.stator.engine.backup.Restores.fill", ITEMS / 2,
                    () -> client().restoreTableFromBackup(b -> b.backupArn(arn).targetTableName(restored)));
            awaitActive(restored);
            writer.close();
            cluster.startNode(victim());
            writer.check();
        }
        assertEquals(source, scan(restored), "the restored table is the backup");
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void anExportCompletesWithTheTableAtItsTimeWithANodeKilledDuringIt() throws Exception {
        String table = table(ITEMS);
        client().updateContinuousBackups(b -> b.tableName(table)
                .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
        String tableArn = client().describeTable(b -> b.tableName(table)).table().tableArn();
        ExportedItems.exportOnceRecoveryIsReady(client(), tableArn, "exports", "first", Duration.ofSeconds(90));
        Set<Map<String, AttributeValue>> atExportTime = scan(table);
        ExportDescription ended;
        try (Writer writer = new Writer(table(0))) { // a table of their own, as the backup's
            // Killed at its first object (_started): the table's history is read on two nodes.
            String arn = killingTheNodeAt(STORE, "put", "io.stator.engine.transfer.Exports", 1,
                    () -> client().exportTableToPointInTime(b -> b.tableArn(tableArn).s3Bucket("exports")
                            .s3Prefix("node-killed")).exportDescription().exportArn());
            ended = Eventually.until(arn + " ended", Duration.ofSeconds(90),
                    () -> client().describeExport(b -> b.exportArn(arn)).exportDescription(),
                    d -> d.exportStatus() != ExportStatus.IN_PROGRESS);
            writer.close();
            cluster.startNode(victim());
            writer.check();
        }
        assertEquals(ExportStatus.COMPLETED, ended.exportStatus(), ended.toString());
        assertEquals(atExportTime, ExportedItems.of(s3, "exports", ended), "the export is the table at its time");
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void anImportCompletesWithANodeKilledMidFill() throws Exception {
        Path files = Files.createDirectories(s3.resolve("imports").resolve("node-killed"));
        Files.writeString(files.resolve("items.json"), IntStream.range(0, ITEMS)
                .mapToObj(i -> "{\"Item\":{\"id\":{\"S\":\"k" + i + "\"},\"v\":{\"N\":\"" + i + "\"}}}\n")
                .collect(Collectors.joining()), StandardCharsets.UTF_8);
        String writes = table(0);
        String table = StatorTestServer.tableName();
        ImportTableDescription ended;
        try (Writer writer = new Writer(writes)) {
            // Half-way through the fill: an import puts each item through the write pipeline.
            String arn = killingTheNodeAt(SHARED_STORAGE, "commit", "io.stator.engine.transfer", ITEMS / 2,
                    () -> client().importTable(b -> b.s3BucketSource(s -> s.s3Bucket("imports")
                                    .s3KeyPrefix("node-killed/")).inputFormat(InputFormat.DYNAMODB_JSON)
                            .tableCreationParameters(t -> t.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                                    .attributeDefinitions(Tables.definition("id", ScalarAttributeType.S))
                                    .keySchema(Tables.key("id", KeyType.HASH)))).importTableDescription().importArn());
            ended = Eventually.until(arn + " ended", Duration.ofSeconds(90),
                    () -> client().describeImport(b -> b.importArn(arn)).importTableDescription(),
                    d -> d.importStatus() != ImportStatus.IN_PROGRESS);
            writer.close();
            cluster.startNode(victim());
            writer.check();
        }
        assertEquals(ImportStatus.COMPLETED, ended.importStatus(), ended.toString());
        assertEquals(ITEMS, ended.importedItemCount());
        assertEquals(TableStatus.ACTIVE, client().describeTable(b -> b.tableName(table)).table().tableStatus());
        assertEquals(IntStream.range(0, ITEMS).mapToObj(JobsWithANodeKilledTest::item).collect(Collectors.toSet()),
                scan(table));
    }
}
