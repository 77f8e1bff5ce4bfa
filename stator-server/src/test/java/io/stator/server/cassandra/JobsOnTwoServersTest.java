package io.stator.server.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Breakpoints;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.storage.cassandra.CassandraCluster;
import io.stator.storage.cassandra.CassandraClusterExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BackupDescription;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A backup's copy and a restore on a cluster of two servers, the one running the job killed with
 * {@code kill -9} in the middle of it (stopped by the debugger at one of the job's commits, then
 * killed there): the other server takes the job's lease once it expired and runs the job again
 * from its record, as a restart does on one server. The backup ends AVAILABLE with exactly the
 * table as it was requested, though items were changed through both servers after the request;
 * the restored table is ACTIVE only with every item in.
 */
@ExtendWith(CassandraClusterExtension.class)
class JobsOnTwoServersTest {

    /** A short lease, so that the job moves within seconds of the kill. */
    private static final String LEASE = "3000";
    private static final String SHARED_STORAGE = "io.stator.engine.cluster.SharedStorage";
    private static final int ITEMS = 600;

    private ServersOnOneKeyspace keyspace;

    @TempDir
    Path dir;

    @BeforeEach
    void keyspace(CassandraCluster cluster) {
        this.keyspace = new ServersOnOneKeyspace(cluster, "stator_jobs_");
    }

    @AfterEach
    void close() throws Exception {
        keyspace.close();
        System.clearProperty("stator.jobLeaseMillis");
    }

    /** The server that will be killed: a child process with the debugger's agent. */
    private StatorProcess doomed() throws Exception {
        return keyspace.process(dir.resolve("doomed.err"),
                List.of("-Xmx256m", Breakpoints.JVM_OPTION, "-Dstator.jobLeaseMillis=" + LEASE));
    }

    /** The server that survives, in this JVM, with the same short lease. */
    private DynamoDbClient survivor() throws Exception {
        System.setProperty("stator.jobLeaseMillis", LEASE);
        return keyspace.serve(keyspace.options());
    }

    private static Map<String, AttributeValue> item(String id, int v) {
        return Map.of("id", AttributeValue.fromS(id), "v", AttributeValue.fromN(Integer.toString(v)));
    }

    /** The table's items, loaded 25 at a time. */
    private static void load(DynamoDbClient client, String table, int items) {
        for (int from = 0; from < items; from += 25) {
            List<WriteRequest> puts = IntStream.range(from, Math.min(items, from + 25))
                    .mapToObj(i -> WriteRequest.builder().putRequest(p -> p.item(item("k" + i, i))).build()).toList();
            Map<String, List<WriteRequest>> left = Map.of(table, puts);
            while (!left.isEmpty()) {
                Map<String, List<WriteRequest>> request = left;
                left = client.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
            }
        }
    }

    private static Set<Map<String, AttributeValue>> scan(DynamoDbClient client, String table) {
        return client.scanPaginator(b -> b.tableName(table).consistentRead(true)).items().stream()
                .collect(Collectors.toSet());
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aBackupWhoseServerIsKilledMidCopyIsFinishedByTheOtherAsRequested() throws Exception {
        StatorProcess doomed = doomed();
        DynamoDbClient survivor = survivor();
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(doomed.client(), table);
        load(survivor, table, ITEMS);
        Set<Map<String, AttributeValue>> asRequested = scan(survivor, table);
        assertEquals(ITEMS, asRequested.size());

        CompletableFuture<String> requested;
        try (Breakpoints debugger = doomed.breakpoints().on(SHARED_STORAGE, "commit")) {
            // On threads of their own: the debugger lets the requests' commits go while it waits.
            requested = CompletableFuture.supplyAsync(() -> doomed.client().createBackup(
                    b -> b.tableName(table).backupName("mid-copy")).backupDetails().backupArn());
            // Changed after the request through the server that took it (it knows at once); a
            // change cut short by the kill is out of the backup too (its image came first).
            requested.thenRunAsync(() -> {
                try {
                    doomed.client().putItem(b -> b.tableName(table).item(item("k1", -1)));
                    doomed.client().deleteItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS("k2"))));
                    doomed.client().putItem(b -> b.tableName(table).item(item("new-doomed", 1)));
                } catch (RuntimeException killed) {
                    // the server is gone
                }
            });
            // The copy's second commit: its first 512 items are in, the rest not.
            Breakpoints.Hit hit = debugger.await(h -> h.within("io.stator.engine.backup.Backups.copy"), 2, true,
                    Duration.ofSeconds(60));
            assertNotNull(hit, "the copy reached its second commit" + doomed.stderrText());
            doomed.kill();
        }
        String arn = requested.get(); // answered before the copy began
        // Changed through the survivor, which has read the backup being created by now.
        survivor.putItem(b -> b.tableName(table).item(item("k3", -3)));
        survivor.deleteItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS("k4"))));
        survivor.putItem(b -> b.tableName(table).item(item("new-survivor", 1)));

        BackupDescription done = Eventually.until(arn + " AVAILABLE", Duration.ofSeconds(90),
                () -> survivor.describeBackup(b -> b.backupArn(arn)).backupDescription(),
                d -> d.backupDetails().backupStatus() == BackupStatus.AVAILABLE);
        assertTrue(done.backupDetails().backupSizeBytes() > 0);

        String restored = StatorTestServer.tableName();
        survivor.restoreTableFromBackup(b -> b.backupArn(arn).targetTableName(restored));
        Eventually.until(restored + " ACTIVE", Duration.ofSeconds(90),
                () -> survivor.describeTable(b -> b.tableName(restored)).table(),
                t -> t.tableStatus() == TableStatus.ACTIVE);
        Set<Map<String, AttributeValue>> backedUp = scan(survivor, restored);
        assertEquals(asRequested.size(), backedUp.size());
        assertTrue(asRequested.equals(backedUp), "the backup is the table as it was requested");
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aRestoreWhoseServerIsKilledMidFillIsFinishedByTheOther() throws Exception {
        StatorProcess doomed = doomed();
        DynamoDbClient survivor = survivor();
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(survivor, table);
        int items = 200;
        load(survivor, table, items);
        Set<Map<String, AttributeValue>> source = scan(survivor, table);
        String arn = survivor.createBackup(b -> b.tableName(table).backupName("to-restore")).backupDetails().backupArn();
        Eventually.until(arn + " AVAILABLE", Duration.ofSeconds(60),
                () -> survivor.describeBackup(b -> b.backupArn(arn)).backupDescription(),
                d -> d.backupDetails().backupStatus() == BackupStatus.AVAILABLE);

        String restored = StatorTestServer.tableName();
        try (Breakpoints debugger = doomed.breakpoints().on(SHARED_STORAGE, "commit")) {
            CompletableFuture.runAsync(() -> doomed.client().restoreTableFromBackup(
                    b -> b.backupArn(arn).targetTableName(restored)));
            // Half-way: a restore commits each item as its own write.
            Breakpoints.Hit hit = debugger.await(h -> h.within("io.stator.engine.backup.Restores.fill"), items / 2, true,
                    Duration.ofSeconds(60));
            assertNotNull(hit, "the restore reached its middle" + doomed.stderrText());
            doomed.kill();
        }
        // Never ACTIVE half-filled: CREATING until every item is in.
        TableDescription active = Eventually.until(restored + " ACTIVE", Duration.ofSeconds(90), () -> {
            TableDescription t = survivor.describeTable(b -> b.tableName(restored)).table();
            if (t.tableStatus() == TableStatus.ACTIVE) assertEquals(source, scan(survivor, restored), "ACTIVE half-filled");
            return t;
        }, t -> t.tableStatus() == TableStatus.ACTIVE);
        assertEquals(restored, active.tableName());
        assertEquals(source, scan(survivor, restored));
    }
}
