package io.stator.server;

import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Breakpoints;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.ExportedItems;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.Tables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * ExportTableToPointInTime killed with {@code kill -9} at the points where it writes (the commits
 * of its description, the objects it puts into the directory standing for S3: {@link #WHERE}),
 * stopped there through the server's debugger ({@link Breakpoints}). After each restart the export ends COMPLETED with exactly the table's
 * items at its export time (though the table changed before and right after the restart, racing
 * the export's second run), its manifests' counts the data files' and its {@code data/}
 * directory nothing but the files its manifest lists; or FAILED; or, killed before its first
 * commit, it was never acknowledged and is not listed. It is never left IN_PROGRESS. (Imports
 * and backups killed mid-job: {@link JobCrashTest}; a restore cut short: {@link BackupCrashTest}.)
 */
class ExportCrashTest {

    private static final String BUCKET = "exports";
    private static final int ITEMS = 300;
    private static final String COMMIT = "io.stator.storage.rocksdb.RocksStorage";
    private static final String STORE = "io.stator.server.transfer.DirectoryObjectStore";
    private static final String TABLE = "exported";
    private static final String PUT = "io.stator.server.transfer.DirectoryObjectStore.put from "
            + "io.stator.engine.transfer.Exports.write";
    /**
     * The export's eight writes: its description kept IN_PROGRESS (1), {@code _started} (2), the
     * data file (3), the files manifest (4) and its checksum (5), the summary manifest (6) and its
     * checksum (7), its description kept COMPLETED (8). Killed at five of them, one restart each
     * (a server's start is most of the test's time): before it was acknowledged; with the items
     * read and none written; with the data file written and no manifest; with the files manifest
     * and no summary; with every file written and the end not kept.
     */
    private static final Map<Integer, String> WHERE = Map.of(
            1, "io.stator.storage.rocksdb.RocksStorage.commit from io.stator.engine.transfer.Exports.start",
            3, PUT, 4, PUT, 6, PUT,
            8, "io.stator.storage.rocksdb.RocksStorage.commit from io.stator.engine.transfer.Exports.run");
    private static final int[] POINTS = {1, 3, 4, 6, 8};

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void anExportKilledAtItsWritesEndsCompletedWithTheTableAtItsTimeOrFailed() throws Exception {
        Path data = tmp.resolve("data");
        Path s3 = data.resolve("s3"); // the server's default --s3-dir
        Path stderr = tmp.resolve("stator-stderr.txt");
        StatorProcess server = start(data, stderr);
        try {
            String tableArn = createTable(server.client());
            for (int point : POINTS) {
                String prefix = "cut-" + point;
                DynamoDbClient client = server.client();
                change(client, point);
                Set<Map<String, AttributeValue>> atExportTime = scanAll(client);
                CompletableFuture<ExportDescription> answered;
                // Set after the changes: every commit stops at them until the wait below lets it go.
                try (Breakpoints debugger = server.breakpoints().on(COMMIT, "commit").on(STORE, "put")) {
                    answered = CompletableFuture.supplyAsync(() -> client.exportTableToPointInTime(
                            b -> b.tableArn(tableArn).s3Bucket(BUCKET).s3Prefix(prefix)).exportDescription());
                    Breakpoints.Hit hit = debugger.await(h -> h.within("io.stator.engine.transfer.Exports"), point, true,
                            Duration.ofSeconds(60));
                    assertNotNull(hit, "the export's write " + point + server.stderrText());
                    String where = hit.stack().get(0) + " from " + hit.stack().stream()
                            .filter(f -> f.startsWith("io.stator.engine.transfer.Exports")).findFirst().orElse("?");
                    assertEquals(WHERE.get(point), where);
                    server.kill();
                    System.out.println("ExportCrashTest: export killed at its write " + point + ", in " + where);
                }
                ExportDescription acknowledged = answered.handle((d, e) -> d).get();
                server.close();
                server = start(data, stderr);
                // Written while the restarted server runs the export again: after its time, so not in it.
                change(server.client(), -point);
                checkEnded(server.client(), s3, prefix, acknowledged, atExportTime, server);
            }
        } finally {
            server.close();
        }
    }

    /** A server on {@code data} with the debugger's agent: one process per kill. */
    private static StatorProcess start(Path data, Path stderr) throws Exception {
        return StatorProcess.start(data, stderr, List.of("-Xmx256m", Breakpoints.JVM_OPTION));
    }

    /** The table, loaded, with point-in-time recovery on and its history's base ready; its ARN. */
    private static String createTable(DynamoDbClient client) {
        client.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH)));
        for (int i = 0; i < ITEMS; i += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (int j = i; j < Math.min(i + 25, ITEMS); j++) {
                Map<String, AttributeValue> item = Map.of("pk", s("k" + j), "v", n(j));
                batch.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
            }
            assertTrue(client.batchWriteItem(b -> b.requestItems(Map.of(TABLE, batch))).unprocessedItems().isEmpty());
        }
        client.updateContinuousBackups(b -> b.tableName(TABLE)
                .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
        String arn = client.describeTable(b -> b.tableName(TABLE)).table().tableArn();
        // Exports need the history's base, copied in the background after UpdateContinuousBackups.
        ExportedItems.exportOnceRecoveryIsReady(client, arn, BUCKET, "first", Duration.ofSeconds(60));
        return arn;
    }

    /** Changes that make each round's table its own, in one batch: items changed, one deleted, one added. */
    private static void change(DynamoDbClient client, int round) {
        String deleted = "k" + (Math.abs(round) * 11 % ITEMS);
        List<WriteRequest> writes = new ArrayList<>();
        for (int i = Math.abs(round) % 7; i < ITEMS; i += 29) {
            Map<String, AttributeValue> item = Map.of("pk", s("k" + i), "v", n(round));
            if (!item.get("pk").s().equals(deleted)) writes.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
        }
        writes.add(WriteRequest.builder().deleteRequest(d -> d.key(Map.of("pk", s(deleted)))).build());
        writes.add(WriteRequest.builder().putRequest(p -> p.item(Map.of("pk", s("round" + round), "v", n(round))))
                .build());
        Map<String, List<WriteRequest>> left = Map.of(TABLE, writes);
        while (!left.isEmpty()) {
            Map<String, List<WriteRequest>> request = left;
            left = client.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
        }
    }

    /**
     * The export into {@code prefix} ended: COMPLETED with exactly {@code atExportTime}, or
     * FAILED; absent only when it was never acknowledged. {@code acknowledged} is
     * ExportTableToPointInTime's answer, null when the kill came first.
     */
    private static void checkEnded(DynamoDbClient client, Path s3, String prefix, ExportDescription acknowledged,
                                   Set<Map<String, AttributeValue>> atExportTime, StatorProcess server) throws Exception {
        List<ExportDescription> exports = client.listExports(b -> b.maxResults(25)).exportSummaries().stream()
                .map(summary -> client.describeExport(b -> b.exportArn(summary.exportArn())).exportDescription())
                .filter(d -> prefix.equals(d.s3Prefix())).toList();
        if (exports.isEmpty()) {
            assertNull(acknowledged, "an acknowledged export is listed" + server.stderrText());
            return;
        }
        assertEquals(1, exports.size(), exports.toString());
        if (acknowledged != null) assertEquals(acknowledged.exportArn(), exports.get(0).exportArn());
        String arn = exports.get(0).exportArn();
        ExportDescription ended = Eventually.until("the export has ended", Duration.ofSeconds(60),
                () -> client.describeExport(b -> b.exportArn(arn)).exportDescription(),
                d -> d.exportStatus() != ExportStatus.IN_PROGRESS);
        if (ended.exportStatus() == ExportStatus.COMPLETED) {
            Set<Map<String, AttributeValue>> exported = ExportedItems.of(s3, BUCKET, ended);
            assertEquals(atExportTime.size(), exported.size(), ended.toString());
            assertTrue(atExportTime.equals(exported), "the export holds the table as it was at its time");
        } else {
            assertEquals(ExportStatus.FAILED, ended.exportStatus(), ended.toString());
            assertNotNull(ended.failureCode(), ended.toString());
        }
    }

    private static Set<Map<String, AttributeValue>> scanAll(DynamoDbClient client) {
        return client.scanPaginator(b -> b.tableName(TABLE).consistentRead(true)).items().stream()
                .collect(Collectors.toSet());
    }
}
