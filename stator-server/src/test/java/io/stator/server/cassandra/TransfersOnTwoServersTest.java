package io.stator.server.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Breakpoints;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.ExportedItems;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import io.stator.storage.cassandra.CassandraCluster;
import io.stator.storage.cassandra.CassandraClusterExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * An import and an export on a cluster of two servers sharing one S3 directory, the server running
 * the job killed with {@code kill -9} in the middle of it (stopped by the debugger at one of the
 * job's writes, then killed there): the other server takes the job's lease once it expired and
 * runs the job again from its record. The import ends COMPLETED with exactly its file's items and
 * its table ACTIVE (or FAILED with no table), never ACTIVE half-filled; the export ends COMPLETED
 * with exactly the table's items at its time and nothing but its manifest's files in its data
 * directory (or FAILED). Neither is left IN_PROGRESS. (Backups and restores: JobsOnTwoServersTest.)
 */
@ExtendWith(CassandraClusterExtension.class)
class TransfersOnTwoServersTest {

    /** A short lease, so that the job moves within seconds of the kill. */
    private static final String LEASE = "3000";
    private static final String SHARED_STORAGE = "io.stator.engine.cluster.SharedStorage";
    private static final String STORE = "io.stator.server.transfer.DirectoryObjectStore";
    private static final int ITEMS = 60;

    private ServersOnOneKeyspace keyspace;

    @TempDir
    Path dir;

    @BeforeEach
    void keyspace(CassandraCluster cluster) {
        this.keyspace = new ServersOnOneKeyspace(cluster, "stator_transfers_");
    }

    @AfterEach
    void close() throws Exception {
        keyspace.close();
        System.clearProperty("stator.jobLeaseMillis");
    }

    private Path s3() {
        return dir.resolve("s3");
    }

    /** The server that will be killed: a child process with the debugger's agent, on the shared S3 directory. */
    private StatorProcess doomed() throws Exception {
        return keyspace.process(dir.resolve("doomed.err"),
                List.of("-Xmx256m", Breakpoints.JVM_OPTION, "-Dstator.jobLeaseMillis=" + LEASE),
                List.of("--s3-dir", s3().toString()));
    }

    /** The server that survives, in this JVM, with the same short lease and S3 directory. */
    private DynamoDbClient survivor() throws Exception {
        System.setProperty("stator.jobLeaseMillis", LEASE);
        return keyspace.serve(keyspace.options().withS3Directory(s3()));
    }

    private static Map<String, AttributeValue> item(int i) {
        return Map.of("id", AttributeValue.fromS("k" + i), "v", AttributeValue.fromN(Integer.toString(i)));
    }

    private static Set<Map<String, AttributeValue>> scan(DynamoDbClient client, String table) {
        return client.scanPaginator(b -> b.tableName(table).consistentRead(true)).items().stream()
                .collect(Collectors.toSet());
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void anImportWhoseServerIsKilledMidFillIsFinishedByTheOther() throws Exception {
        Path files = Files.createDirectories(s3().resolve("imports").resolve("two"));
        Files.writeString(files.resolve("items.json"), IntStream.range(0, ITEMS)
                .mapToObj(i -> "{\"Item\":{\"id\":{\"S\":\"k" + i + "\"},\"v\":{\"N\":\"" + i + "\"}}}\n")
                .collect(Collectors.joining()), StandardCharsets.UTF_8);
        Set<Map<String, AttributeValue>> expected = IntStream.range(0, ITEMS).mapToObj(TransfersOnTwoServersTest::item)
                .collect(Collectors.toSet());
        StatorProcess doomed = doomed();
        DynamoDbClient survivor = survivor();
        String table = StatorTestServer.tableName();

        CompletableFuture<ImportTableDescription> answered;
        try (Breakpoints debugger = doomed.breakpoints().on(SHARED_STORAGE, "commit")) {
            answered = CompletableFuture.supplyAsync(() -> doomed.client().importTable(b -> b
                    .s3BucketSource(s -> s.s3Bucket("imports").s3KeyPrefix("two/"))
                    .inputFormat(InputFormat.DYNAMODB_JSON)
                    .tableCreationParameters(t -> t.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                            .attributeDefinitions(Tables.definition("id", ScalarAttributeType.S))
                            .keySchema(Tables.key("id", KeyType.HASH)))).importTableDescription());
            // Half-way through the fill: an import puts each item through the write pipeline.
            Breakpoints.Hit hit = debugger.await(h -> h.within("io.stator.engine.transfer"), ITEMS / 2, true,
                    Duration.ofSeconds(60));
            assertNotNull(hit, "the import reached its middle" + doomed.stderrText());
            doomed.kill();
        }
        // Answered once its table was created; if the answer was cut short, the import is listed all the same.
        ImportTableDescription acknowledged = answered.handle((d, e) -> d).get();
        String arn = acknowledged != null ? acknowledged.importArn() : survivor.listImports(b -> { })
                .importSummaryList().stream().filter(i -> i.tableArn().endsWith("/" + table)).findFirst()
                .orElseThrow().importArn();

        // Never ACTIVE half-filled: CREATING until every item is in.
        ImportTableDescription ended = Eventually.until(arn + " ended", Duration.ofSeconds(90), () -> {
            ImportTableDescription d = survivor.describeImport(b -> b.importArn(arn)).importTableDescription();
            if (d.importStatus() == ImportStatus.COMPLETED) assertEquals(expected, scan(survivor, table));
            return d;
        }, d -> d.importStatus() != ImportStatus.IN_PROGRESS);
        if (ended.importStatus() == ImportStatus.COMPLETED) {
            assertEquals(ITEMS, ended.importedItemCount(), ended.toString());
            assertEquals(TableStatus.ACTIVE, survivor.describeTable(b -> b.tableName(table)).table().tableStatus());
            assertEquals(expected, scan(survivor, table));
        } else {
            assertEquals(ImportStatus.FAILED, ended.importStatus(), ended.toString());
            assertNotNull(ended.failureCode(), ended.toString());
            assertThrows(ResourceNotFoundException.class, () -> survivor.describeTable(b -> b.tableName(table)),
                    "a FAILED import leaves no table");
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void anExportWhoseServerIsKilledMidWriteIsFinishedByTheOther() throws Exception {
        StatorProcess doomed = doomed();
        DynamoDbClient survivor = survivor();
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(survivor, table);
        List<WriteRequest> puts = IntStream.range(0, 25)
                .mapToObj(i -> WriteRequest.builder().putRequest(p -> p.item(item(i))).build()).toList();
        assertTrue(survivor.batchWriteItem(b -> b.requestItems(Map.of(table, puts))).unprocessedItems().isEmpty());
        survivor.updateContinuousBackups(b -> b.tableName(table)
                .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
        String tableArn = survivor.describeTable(b -> b.tableName(table)).table().tableArn();
        // The history's base is copied in the background: exports are refused until it is ready.
        ExportedItems.exportOnceRecoveryIsReady(survivor, tableArn, "exports", "first", Duration.ofSeconds(90));
        survivor.putItem(b -> b.tableName(table).item(item(-1)));
        survivor.deleteItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS("k3"))));
        Set<Map<String, AttributeValue>> atExportTime = scan(survivor, table);

        CompletableFuture<ExportDescription> answered;
        try (Breakpoints debugger = doomed.breakpoints().on(STORE, "put")) {
            answered = CompletableFuture.supplyAsync(() -> doomed.client().exportTableToPointInTime(
                    b -> b.tableArn(tableArn).s3Bucket("exports").s3Prefix("cut")).exportDescription());
            // Its third object, the files manifest: the data file is written, the manifests not.
            Breakpoints.Hit hit = debugger.await(h -> h.within("io.stator.engine.transfer.Exports"), 3, true,
                    Duration.ofSeconds(60));
            assertNotNull(hit, "the export reached its manifest" + doomed.stderrText());
            doomed.kill();
        }
        // Answered IN_PROGRESS once kept; if the answer was cut short, the export is listed all the same.
        ExportDescription acknowledged = answered.handle((d, e) -> d).get();
        String arn = acknowledged != null ? acknowledged.exportArn() : survivor.listExports(b -> b.tableArn(tableArn))
                .exportSummaries().stream().map(e -> e.exportArn())
                .filter(a -> "cut".equals(survivor.describeExport(b -> b.exportArn(a)).exportDescription().s3Prefix()))
                .findFirst().orElseThrow();
        // Written after the export's time, through the survivor: not in it.
        survivor.putItem(b -> b.tableName(table).item(item(-2)));
        survivor.deleteItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS("k4"))));

        ExportDescription ended = Eventually.until(arn + " ended", Duration.ofSeconds(90),
                () -> survivor.describeExport(b -> b.exportArn(arn)).exportDescription(),
                d -> d.exportStatus() != ExportStatus.IN_PROGRESS);
        assertEquals(ExportStatus.COMPLETED, ended.exportStatus(), ended.toString());
        Set<Map<String, AttributeValue>> exported = ExportedItems.of(s3(), "exports", ended);
        assertEquals(atExportTime.size(), exported.size());
        assertTrue(atExportTime.equals(exported), "the export holds the table as it was at its time");
    }
}
