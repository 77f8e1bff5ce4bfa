package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertErrorMatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import io.stator.server.testing.CommandProcess;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.ExportedItems;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestBackend;
import io.stator.server.testing.TestClock;
import io.stator.server.transfer.ItemFormats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportFormat;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ExportType;
import software.amazon.awssdk.services.dynamodb.model.ExportViewType;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ImportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;
import software.amazon.awssdk.services.dynamodb.model.InputCompressionType;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableCreationParameters;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Exports and imports through the SDK: a full export of a table with every attribute type, in
 * DYNAMODB_JSON (read back by a Python script that knows only DynamoDB's documented export
 * format) and in ION, each imported into a new table that then holds the same items; an
 * incremental export's changes with their old and new images; imports of files with bad lines
 * (the good lines in, the bad ones counted), of CSV compressed with ZSTD; and the errors.
 */
class ExportImportTest {

    private static final TestClock CLOCK = new TestClock();
    private static final Instant START = Instant.parse("2031-05-01T00:00:00Z");
    private static Path s3;
    private static StatorTestServer server;

    @BeforeAll
    static void start() throws IOException {
        CLOCK.set(START);
        s3 = Files.createTempDirectory("stator-s3-test-");
        server = StatorTestServer.start(o -> o.withClock(CLOCK).withS3Directory(s3));
    }

    @AfterAll
    static void stop() {
        server.close();
        CLOCK.useSystemTime();
        StatorTestServer.deleteRecursively(s3);
    }

    private static DynamoDbClient client() {
        return server.client();
    }

    private static void createTable(String table) {
        client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.N),
                        attribute("g", ScalarAttributeType.S))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(byG()));
    }

    private static GlobalSecondaryIndex byG() {
        return GlobalSecondaryIndex.builder().indexName("byG").keySchema(key("g", KeyType.HASH))
                .projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()).build();
    }

    private static TableCreationParameters sameTable(String name) {
        return TableCreationParameters.builder().tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.N),
                        attribute("g", ScalarAttributeType.S))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE)).globalSecondaryIndexes(byG()).build();
    }

    /** An item with one attribute of each type beside its keys, cycling through them. */
    private static Map<String, AttributeValue> item(int i) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", AttributeValue.fromS("p" + i % 1000));
        item.put("sk", AttributeValue.fromN(Integer.toString(i)));
        if (i % 3 == 0) item.put("g", AttributeValue.fromS("g" + i % 17));
        switch (i % 10) {
            case 0 -> item.put("v", AttributeValue.fromS("text " + i));
            case 1 -> item.put("v", AttributeValue.fromN("-" + i + ".25e-3"));
            case 2 -> item.put("v", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {(byte) i, 0, -1})));
            case 3 -> item.put("v", AttributeValue.fromBool(i % 2 == 0));
            case 4 -> item.put("v", AttributeValue.fromNul(true));
            case 5 -> item.put("v", AttributeValue.fromSs(List.of("a", "b" + i)));
            case 6 -> item.put("v", AttributeValue.fromNs(List.of("1", "12345678901234567890.5", "9" + i)));
            case 7 -> item.put("v", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] {1, (byte) i}))));
            case 8 -> item.put("v", AttributeValue.fromL(List.of(AttributeValue.fromS("x"), AttributeValue.fromN("2"),
                    AttributeValue.fromM(Map.of("deep", AttributeValue.fromBool(true))))));
            default -> item.put("v", AttributeValue.fromM(Map.of("s", AttributeValue.fromS("y"), "empty",
                    AttributeValue.fromM(Map.of()), "l", AttributeValue.fromL(List.of()))));
        }
        return item;
    }

    private static void load(String table, int items) {
        List<WriteRequest> batch = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item(i)).build()).build());
            if (batch.size() == 25 || i == items - 1) {
                List<WriteRequest> requests = List.copyOf(batch);
                assertTrue(client().batchWriteItem(b -> b.requestItems(Map.of(table, requests))).unprocessedItems().isEmpty());
                batch.clear();
            }
        }
    }

    private static Set<Map<String, AttributeValue>> scanAll(String table) {
        return client().scanPaginator(b -> b.tableName(table)).items().stream().collect(Collectors.toSet());
    }

    private static void enableRecovery(String table) throws Exception {
        client().updateContinuousBackups(b -> b.tableName(table)
                .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
        server.engine().backups().awaitIdle();
    }

    private static ExportDescription export(String table, String bucket, String prefix, ExportFormat format) throws Exception {
        String arn = client().describeTable(b -> b.tableName(table)).table().tableArn();
        ExportDescription started = client().exportTableToPointInTime(b -> b.tableArn(arn).s3Bucket(bucket).s3Prefix(prefix)
                .exportFormat(format)).exportDescription();
        assertEquals(ExportStatus.IN_PROGRESS, started.exportStatus());
        server.transfers().awaitIdle();
        ExportDescription done = client().describeExport(b -> b.exportArn(started.exportArn())).exportDescription();
        assertEquals(ExportStatus.COMPLETED, done.exportStatus(), done.toString());
        return done;
    }

    private static ImportTableDescription importInto(String table, String bucket, String prefix, InputFormat format,
                                                     InputCompressionType compression) throws Exception {
        ImportTableDescription started = client().importTable(b -> b.s3BucketSource(s -> s.s3Bucket(bucket).s3KeyPrefix(prefix))
                .inputFormat(format).inputCompressionType(compression).tableCreationParameters(sameTable(table)))
                .importTableDescription();
        assertEquals(ImportStatus.IN_PROGRESS, started.importStatus());
        server.transfers().awaitIdle();
        return client().describeImport(b -> b.importArn(started.importArn())).importTableDescription();
    }

    private static String dataPrefix(ExportDescription export) {
        return export.exportManifest().replace("manifest-summary.json", "data/");
    }

    @Test
    void anExportReimportedGivesBackTheSameItems() throws Exception {
        CLOCK.set(START);
        String table = StatorTestServer.tableName();
        createTable(table);
        // On Cassandra every write is a lightweight transaction: fewer items, as many formats.
        int items = TestBackend.cassandra() ? 200 : 100_000;
        load(table, items);
        enableRecovery(table);
        Set<Map<String, AttributeValue>> expected = scanAll(table);
        assertEquals(items, expected.size());
        // Shared storage counts a table's items again about ten seconds after writes (README).
        long tableSize = Eventually.until("TableSizeBytes of " + table, Duration.ofSeconds(60),
                () -> client().describeTable(b -> b.tableName(table)).table().tableSizeBytes(), n -> n > 0);

        long started = System.nanoTime();
        ExportDescription json = export(table, "exports", "daily/json", ExportFormat.DYNAMODB_JSON);
        System.out.printf("ExportImportTest: full export of %,d items in %d ms%n", items,
                (System.nanoTime() - started) / 1_000_000);
        assertEquals(items, json.itemCount());
        assertEquals(tableSize, json.billedSizeBytes());
        assertTrue(json.exportManifest().startsWith("daily/json/AWSDynamoDB/"), json.exportManifest());
        // Exactly 100,000 items (on RocksDB): one full data file, no empty second one.
        assertEquals(1, Files.readAllLines(s3.resolve("exports").resolve(json.exportManifest()
                .replace("manifest-summary.json", "manifest-files.json"))).size());
        assertTrue(Files.exists(s3.resolve("exports").resolve(json.exportManifest().replace("manifest-summary.json", "_started"))));

        // A reader that knows only DynamoDB's documented format.
        Path script = Path.of("src/test/resources/io/stator/server/api/read-export.py").toAbsolutePath();
        CommandProcess.Result read = CommandProcess.run(List.of("python3", script.toString(), s3.toString(), "exports",
                json.exportManifest()), s3, Map.of(), Duration.ofMinutes(2));
        assertEquals(0, read.exit(), read.stderr());
        Set<Map<String, AttributeValue>> readBack = new HashSet<>();
        for (String line : read.stdout().split("\n")) {
            if (!line.isBlank()) readBack.add(ExportedItems.sdk(ItemFormats.readJsonItem(line)));
        }
        assertEquals(items, readBack.size());
        assertTrue(expected.equals(readBack), "the Python reader's items are not the table's");

        String fromJson = StatorTestServer.tableName();
        started = System.nanoTime();
        ImportTableDescription imported = importInto(fromJson, "exports", dataPrefix(json), InputFormat.DYNAMODB_JSON,
                InputCompressionType.GZIP);
        System.out.printf("ExportImportTest: import of %,d items in %d ms%n", items, (System.nanoTime() - started) / 1_000_000);
        assertEquals(ImportStatus.COMPLETED, imported.importStatus(), imported.toString());
        assertEquals(items, imported.importedItemCount());
        assertEquals(items, imported.processedItemCount());
        assertEquals(0, imported.errorCount());
        assertEquals(TableStatus.ACTIVE, client().describeTable(b -> b.tableName(fromJson)).table().tableStatus());
        assertTrue(expected.equals(scanAll(fromJson)), "the JSON import's items are not the table's");

        ExportDescription ion = export(table, "exports", "daily/ion", ExportFormat.ION);
        assertEquals(ExportFormat.ION, ion.exportFormat());
        String fromIon = StatorTestServer.tableName();
        ImportTableDescription ionImport = importInto(fromIon, "exports", dataPrefix(ion), InputFormat.ION,
                InputCompressionType.GZIP);
        assertEquals(ImportStatus.COMPLETED, ionImport.importStatus(), ionImport.toString());
        assertTrue(expected.equals(scanAll(fromIon)), "the ION import's items are not the table's");

        assertTrue(client().listExports(b -> b.tableArn(json.tableArn())).exportSummaries().stream()
                .anyMatch(s -> s.exportArn().equals(json.exportArn()) && s.exportType() == ExportType.FULL_EXPORT));
        assertTrue(client().listImports(b -> b.pageSize(25)).importSummaryList().stream()
                .anyMatch(s -> s.importArn().equals(ionImport.importArn())));
    }

    @Test
    void anIncrementalExportHasEachChangedItemOnceWithItsImages() throws Exception {
        CLOCK.set(START.plus(Duration.ofDays(1)));
        String table = StatorTestServer.tableName();
        createTable(table);
        client().putItem(b -> b.tableName(table).item(Map.of("pk", AttributeValue.fromS("kept"), "sk",
                AttributeValue.fromN("1"), "v", AttributeValue.fromS("before"))));
        client().putItem(b -> b.tableName(table).item(Map.of("pk", AttributeValue.fromS("gone"), "sk",
                AttributeValue.fromN("1"))));
        enableRecovery(table);
        Instant from = CLOCK.instant().plus(Duration.ofMinutes(1));
        CLOCK.set(from);
        client().updateItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("kept"), "sk",
                AttributeValue.fromN("1"))).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("after"))));
        client().deleteItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("gone"), "sk",
                AttributeValue.fromN("1"))));
        client().putItem(b -> b.tableName(table).item(Map.of("pk", AttributeValue.fromS("new"), "sk",
                AttributeValue.fromN("1"))));
        Instant to = from.plus(Duration.ofMinutes(20));
        CLOCK.set(to.plus(Duration.ofMinutes(1)));
        client().putItem(b -> b.tableName(table).item(Map.of("pk", AttributeValue.fromS("later"), "sk",
                AttributeValue.fromN("1"))));
        String arn = client().describeTable(b -> b.tableName(table)).table().tableArn();

        assertErrorMatches("InvalidExportTimeException", "Difference between export period from time and export period to "
                + "time is less than 15 minutes", () -> client().exportTableToPointInTime(b -> b.tableArn(arn).s3Bucket("inc")
                .exportType(ExportType.INCREMENTAL_EXPORT).incrementalExportSpecification(s -> s.exportFromTime(from)
                        .exportToTime(from.plus(Duration.ofMinutes(5))))));
        assertErrorMatches("InvalidExportTimeException", ".*more than 24 hours", () -> client().exportTableToPointInTime(b ->
                b.tableArn(arn).s3Bucket("inc").exportType(ExportType.INCREMENTAL_EXPORT).incrementalExportSpecification(s ->
                        s.exportFromTime(from).exportToTime(from.plus(Duration.ofHours(24)).plusSeconds(1)))));
        // Exactly 15 minutes is a period (the export is checked, then left to run).
        assertEquals(ExportStatus.IN_PROGRESS, client().exportTableToPointInTime(b -> b.tableArn(arn).s3Bucket("inc")
                .exportType(ExportType.INCREMENTAL_EXPORT).incrementalExportSpecification(s -> s.exportFromTime(from)
                        .exportToTime(from.plus(Duration.ofMinutes(15))))).exportDescription().exportStatus());
        ExportDescription started = client().exportTableToPointInTime(b -> b.tableArn(arn).s3Bucket("inc")
                .exportType(ExportType.INCREMENTAL_EXPORT).incrementalExportSpecification(s -> s.exportFromTime(from)
                        .exportToTime(to).exportViewType(ExportViewType.NEW_AND_OLD_IMAGES))).exportDescription();
        server.transfers().awaitIdle();
        ExportDescription done = client().describeExport(b -> b.exportArn(started.exportArn())).exportDescription();
        assertEquals(ExportStatus.COMPLETED, done.exportStatus(), done.toString());
        assertEquals(3L, done.itemCount());
        assertNull(done.exportTime());
        assertEquals(ExportViewType.NEW_AND_OLD_IMAGES, done.incrementalExportSpecification().exportViewType());

        Path summary = s3.resolve("inc").resolve(done.exportManifest());
        String summaryText = Files.readString(summary);
        assertTrue(summaryText.contains("\"exportType\":\"INCREMENTAL_EXPORT\""), summaryText);
        Map<String, String> lines = new HashMap<>();
        for (String manifestLine : Files.readAllLines(summary.resolveSibling("manifest-files.json"))) {
            String key = manifestLine.replaceAll(".*\"dataFileS3Key\":\"([^\"]+)\".*", "$1");
            assertTrue(key.startsWith("AWSDynamoDB/data/"), key);
            try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(s3.resolve("inc").resolve(key)))) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    if (!line.isBlank()) lines.put(line.replaceAll("^.*?\"Keys\":\\{.*?\"pk\":\\{\"S\":\"([a-z]+)\".*$", "$1"), line);
                }
            }
        }
        assertEquals(Set.of("kept", "gone", "new"), lines.keySet());
        assertTrue(lines.get("kept").contains("\"NewImage\"") && lines.get("kept").contains("\"after\"")
                && lines.get("kept").contains("\"OldImage\"") && lines.get("kept").contains("\"before\""), lines.get("kept"));
        assertTrue(!lines.get("gone").contains("NewImage") && lines.get("gone").contains("OldImage"), lines.get("gone"));
        assertTrue(lines.get("new").contains("NewImage") && !lines.get("new").contains("OldImage"), lines.get("new"));
        assertTrue(lines.get("kept").contains("\"WriteTimestampMicros\":{\"N\":\"" + from.toEpochMilli() * 1000 + "\"}"),
                lines.get("kept"));
    }

    @Test
    void badLinesAreCountedAndSkippedNotFatal() throws Exception {
        // Ten lines, the sixth not an item: five in, one error, the rest of that object skipped
        // (DynamoDB measured: processed 6, imported 5, errors 1).
        StringBuilder first = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            first.append(i == 5 ? "this is not json" : ItemFormats.json(Map.of("pk",
                    new io.stator.core.model.AttributeValue.S("a" + i), "sk",
                    new io.stator.core.model.AttributeValue.N(io.stator.core.model.DynamoNumber.of(i))))).append('\n');
        }
        // An object whose second item has no sort key, and a third with one of the wrong type.
        String second = "{\"Item\":{\"pk\":{\"S\":\"b0\"},\"sk\":{\"N\":\"0\"}}}\n\n"
                + "{\"Item\":{\"pk\":{\"S\":\"b1\"}}}\n"
                + "{\"Item\":{\"pk\":{\"S\":\"b2\"},\"sk\":{\"S\":\"x\"}}}\n";
        Path dir = s3.resolve("imports").resolve("bad");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("1.json"), first.toString());
        Files.writeString(dir.resolve("2.json"), second);
        String table = StatorTestServer.tableName();
        ImportTableDescription done = importInto(table, "imports", "bad/", InputFormat.DYNAMODB_JSON,
                InputCompressionType.NONE);
        assertEquals(ImportStatus.FAILED, done.importStatus());
        assertEquals("ItemValidationError", done.failureCode());
        assertEquals(8L, done.processedItemCount());
        assertEquals(6L, done.importedItemCount());
        assertEquals(2L, done.errorCount());
        assertEquals(TableStatus.ACTIVE, client().describeTable(b -> b.tableName(table)).table().tableStatus());
        assertEquals(6, scanAll(table).size());

        // An item of exactly 400 KB is imported, one a byte larger is an error (each in its own object:
        // an error skips the rest of its object). Size: "pk" + "a", "sk" + 1 (a number of one digit is
        // 2 bytes), "v" + the string.
        Path sizes = Files.createDirectories(s3.resolve("imports").resolve("sizes"));
        int atLimit = 409_600 - (2 + 1) - (2 + 2) - 1;
        Files.writeString(sizes.resolve("a.json"), "{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\""
                + "x".repeat(atLimit) + "\"}}}\n");
        Files.writeString(sizes.resolve("b.json"), "{\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\""
                + "x".repeat(atLimit + 1) + "\"}}}\n");
        String sizeTable = StatorTestServer.tableName();
        ImportTableDescription sized = importInto(sizeTable, "imports", "sizes/", InputFormat.DYNAMODB_JSON,
                InputCompressionType.NONE);
        assertEquals(2L, sized.processedItemCount());
        assertEquals(1L, sized.importedItemCount());
        assertEquals(1L, sized.errorCount());
        assertEquals(Set.of("a"), scanAll(sizeTable).stream().map(i -> i.get("pk").s()).collect(Collectors.toSet()));

        // CSV compressed with ZSTD: the key columns typed as their definitions say, the rest strings,
        // an empty column left out.
        String csv = "pk,sk,g,name\nc1,1,,first\nc2,2.5,gg,\"with \"\"quotes\"\", and a comma\"\n";
        Path csvDir = s3.resolve("imports").resolve("csv");
        Files.createDirectories(csvDir);
        Files.write(csvDir.resolve("rows.csv.zst"), Zstd.compress(csv.getBytes(StandardCharsets.UTF_8)));
        String csvTable = StatorTestServer.tableName();
        ImportTableDescription csvDone = importInto(csvTable, "imports", "csv/", InputFormat.CSV, InputCompressionType.ZSTD);
        assertEquals(ImportStatus.COMPLETED, csvDone.importStatus(), csvDone.toString());
        assertEquals(Set.of(
                Map.of("pk", AttributeValue.fromS("c1"), "sk", AttributeValue.fromN("1"), "name", AttributeValue.fromS("first")),
                Map.of("pk", AttributeValue.fromS("c2"), "sk", AttributeValue.fromN("2.5"), "g", AttributeValue.fromS("gg"),
                        "name", AttributeValue.fromS("with \"quotes\", and a comma"))), scanAll(csvTable));
    }

    @Test
    void anImportCutShortByARestartStartsOverAndCompletes() throws Exception {
        int items = TestBackend.cassandra() ? 300 : 60_000;
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < items; i++) {
            lines.append("{\"Item\":{\"pk\":{\"S\":\"r").append(i).append("\"},\"sk\":{\"N\":\"").append(i)
                    .append("\"}}}\n");
        }
        Path dir = Files.createDirectories(s3.resolve("imports").resolve("restart"));
        Files.writeString(dir.resolve("all.json"), lines);
        String table = StatorTestServer.tableName();
        String arn = client().importTable(b -> b.s3BucketSource(s -> s.s3Bucket("imports").s3KeyPrefix("restart/"))
                .inputFormat(InputFormat.DYNAMODB_JSON).tableCreationParameters(sameTable(table)))
                .importTableDescription().importArn();
        Thread.sleep(300);
        server.restart();
        // Never shown done before it is: CREATING (item operations find no table), or done whole.
        ImportTableDescription after = client().describeImport(b -> b.importArn(arn)).importTableDescription();
        if (after.importStatus() == ImportStatus.IN_PROGRESS) {
            assertEquals(TableStatus.CREATING, client().describeTable(b -> b.tableName(table)).table().tableStatus());
            assertErrorMatches("ResourceNotFoundException", ".*", () -> client().getItem(b -> b.tableName(table)
                    .key(Map.of("pk", AttributeValue.fromS("r0"), "sk", AttributeValue.fromN("0")))));
        }
        server.transfers().awaitIdle();
        ImportTableDescription done = client().describeImport(b -> b.importArn(arn)).importTableDescription();
        assertEquals(ImportStatus.COMPLETED, done.importStatus(), done.toString());
        assertEquals(items, done.importedItemCount());
        assertEquals(items, done.processedItemCount());
        Eventually.until("ItemCount of " + table, Duration.ofSeconds(60),
                () -> client().describeTable(b -> b.tableName(table)).table().itemCount(), n -> n == items);
        System.out.println("ExportImportTest: the import was " + after.importStatus() + " after the restart");
    }

    @Test
    void errorsAreDynamoDbs() throws Exception {
        String table = StatorTestServer.tableName();
        createTable(table);
        String arn = client().describeTable(b -> b.tableName(table)).table().tableArn();
        assertError("PointInTimeRecoveryUnavailableException", "Point in time recovery is not enabled for table '" + table + "'",
                () -> client().exportTableToPointInTime(b -> b.tableArn(arn).s3Bucket("bkt")));
        assertError("TableNotFoundException", "Table not found: " + arn + "x",
                () -> client().exportTableToPointInTime(b -> b.tableArn(arn + "x").s3Bucket("bkt")));
        assertError("ValidationException", "One or more parameter values were invalid: tableArn is not a valid ARN",
                () -> client().exportTableToPointInTime(b -> b.tableArn(table).s3Bucket("bkt")));
        String missingExport = arn + "/export/01234567890123-abcdef12";
        assertError("ExportNotFoundException", "Export not found: Export not found: " + missingExport,
                () -> client().describeExport(b -> b.exportArn(missingExport)));
        String missingImport = arn + "/import/01234567890123-abcdef12";
        assertError("ImportNotFoundException", "Import not found: " + missingImport,
                () -> client().describeImport(b -> b.importArn(missingImport)));
        assertError("ResourceInUseException", "Table already exists: " + table,
                () -> client().importTable(b -> b.s3BucketSource(s -> s.s3Bucket("bkt")).inputFormat(InputFormat.CSV)
                        .tableCreationParameters(sameTable(table))));
        assertError("ValidationException", "Invalid Request: Unsupported InputFormatOptions for the given input format: "
                + "DYNAMODB_JSON.", () -> client().importTable(b -> b.s3BucketSource(s -> s.s3Bucket("bkt"))
                .inputFormat(InputFormat.DYNAMODB_JSON).inputFormatOptions(o -> o.csv(c -> c.delimiter(";")))
                .tableCreationParameters(sameTable(StatorTestServer.tableName()))));

        // A bucket that does not exist: the import FAILS and leaves no table, as on S3.
        String orphan = StatorTestServer.tableName();
        String missingBucket = client().importTable(b -> b.s3BucketSource(s -> s.s3Bucket("no-such-bucket"))
                .inputFormat(InputFormat.DYNAMODB_JSON).tableCreationParameters(sameTable(orphan)))
                .importTableDescription().importArn();
        server.transfers().awaitIdle();
        ImportTableDescription failed = client().describeImport(b -> b.importArn(missingBucket)).importTableDescription();
        assertEquals(ImportStatus.FAILED, failed.importStatus());
        assertEquals("S3NoSuchBucket", failed.failureCode());
        assertErrorMatches("ResourceNotFoundException", ".*", () -> client().describeTable(b -> b.tableName(orphan)));

        // ListExports' MaxResults and ListImports' PageSize: 1 to 25.
        assertEquals(0, client().listExports(b -> b.tableArn(arn).maxResults(25)).exportSummaries().size());
        assertErrorMatches("ValidationException", ".*maxResults.*", () -> client().listExports(b -> b.maxResults(26)));
        assertErrorMatches("ValidationException", ".*pageSize.*", () -> client().listImports(b -> b.pageSize(26)));

        enableRecovery(table);
        String token = "same-token";
        String first = client().exportTableToPointInTime(b -> b.tableArn(arn).s3Bucket("bkt").clientToken(token))
                .exportDescription().exportArn();
        assertEquals(first, client().exportTableToPointInTime(b -> b.tableArn(arn).s3Bucket("bkt").clientToken(token))
                .exportDescription().exportArn());
        assertError("ExportConflictException", "Export conflict: Duplicate request detected with conflicting parameters",
                () -> client().exportTableToPointInTime(b -> b.tableArn(arn).s3Bucket("other").clientToken(token)));
        assertError("InvalidExportTimeException", "Export Time is invalid", () -> client().exportTableToPointInTime(b ->
                b.tableArn(arn).s3Bucket("bkt").exportTime(CLOCK.instant().plus(Duration.ofHours(1)))));
        server.transfers().awaitIdle();
    }

    private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
