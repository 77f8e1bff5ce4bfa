package io.stator.server;

import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.testing.Breakpoints;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.Tables;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
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
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ImportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportSummary;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Long jobs killed with {@code kill -9} at exact points, found through the server's debugger
 * ({@link Breakpoints}): each commit an operation makes, in turn, so that every crash between two
 * of them is tried, not only those a random instant happens to hit. After each restart the job
 * ends as DynamoDB ends it:
 * <ul>
 *   <li>an import killed at any of its commits ends COMPLETED with exactly its files' items, or
 *       FAILED with no table; a table being imported always has its import listed; the name is
 *       usable again (a probe of an earlier Stator found a kill 0.1 s after ImportTable left the
 *       table CREATING for good, with no import to finish it: its table and its record were two
 *       commits);</li>
 *   <li>a backup acknowledged by CreateBackup and killed mid-copy ends AVAILABLE after the
 *       restart, never deleted (the same probe found it deleted), and holds the table exactly as
 *       it was requested, though items were written, deleted and added before the kill; its table
 *       could not be deleted meanwhile.</li>
 * </ul>
 */
class JobCrashTest {

    private static final String BUCKET = "imports";
    private static final String PREFIX = "crash/";
    private static final int IMPORTED = 2;
    private static final String COMMIT = "io.stator.storage.rocksdb.RocksStorage";

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void anImportKilledAtAnyOfItsCommitsEndsCompletedOrFailedWithNoTable() throws Exception {
        for (int commit = 1; ; commit++) {
            Path data = tmp.resolve("import-" + commit);
            Path stderr = tmp.resolve("stator-stderr-" + commit + ".txt");
            writeImportFiles(data);
            String table = "imported";
            CompletableFuture<ImportTableDescription> answered;
            try (StatorProcess server = StatorProcess.start(data, stderr, List.of("-Xmx256m", Breakpoints.JVM_OPTION));
                 Breakpoints debugger = server.breakpoints().on(COMMIT, "commit")) {
                answered = CompletableFuture.supplyAsync(() -> startImport(server.client(), table));
                Breakpoints.Hit hit = debugger.await(h -> h.within("io.stator.engine.transfer.Imports"), commit, true,
                        Duration.ofSeconds(30));
                if (hit == null) {
                    // The import ended before a commit of that number: every one of them was tried.
                    assertTrue(commit > 3, "an import commits its table, its items and its end: only " + (commit - 1)
                            + " commits seen" + server.stderrText());
                    System.out.println("JobCrashTest: an import killed at each of its " + (commit - 1)
                            + " commits ended COMPLETED or FAILED with no table every time");
                    return;
                }
                server.kill();
                System.out.println("JobCrashTest: import killed at its commit " + commit + ", in "
                        + hit.stack().stream().filter(f -> f.startsWith("io.stator.engine.transfer.Imports")).findFirst()
                        .orElse("?"));
            }
            ImportTableDescription acknowledged = answered.handle((d, e) -> d).get();
            try (StatorProcess server = StatorProcess.start(data, stderr)) {
                checkImportEnded(server.client(), table, acknowledged, server);
            }
        }
    }

    /** One object of {@link #IMPORTED} items, in DynamoDB JSON, under the server's default S3 directory. */
    private static void writeImportFiles(Path data) throws Exception {
        Path dir = data.resolve("s3").resolve(BUCKET).resolve(PREFIX);
        Files.createDirectories(dir);
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < IMPORTED; i++) {
            lines.append("{\"Item\":{\"pk\":{\"S\":\"k").append(i).append("\"},\"v\":{\"N\":\"").append(i)
                    .append("\"}}}\n");
        }
        Files.writeString(dir.resolve("items.json"), lines.toString(), StandardCharsets.UTF_8);
    }

    private static ImportTableDescription startImport(DynamoDbClient client, String table) {
        return client.importTable(b -> b.s3BucketSource(s -> s.s3Bucket(BUCKET).s3KeyPrefix(PREFIX))
                .inputFormat(InputFormat.DYNAMODB_JSON)
                .tableCreationParameters(t -> t.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S))
                        .keySchema(Tables.key("pk", KeyType.HASH)))).importTableDescription();
    }

    /**
     * The import ended as DynamoDB ends one, the table with it; then the name takes a new import.
     * {@code acknowledged} is ImportTable's answer, null when the kill came first.
     */
    private static void checkImportEnded(DynamoDbClient client, String table, ImportTableDescription acknowledged,
                                         StatorProcess server) {
        List<ImportSummary> imports = client.listImports(b -> { }).importSummaryList();
        if (acknowledged != null) {
            assertTrue(imports.stream().anyMatch(i -> i.importArn().equals(acknowledged.importArn())),
                    "an acknowledged import is listed" + server.stderrText());
        }
        if (imports.isEmpty()) {
            // Killed before ImportTable committed anything: no import, and no table either.
            assertThrows(ResourceNotFoundException.class, () -> client.describeTable(b -> b.tableName(table)),
                    "a table being imported has its import listed" + server.stderrText());
        } else {
            assertEquals(1, imports.size(), imports.toString());
            ImportTableDescription ended = Eventually.until("the import has ended", Duration.ofSeconds(60),
                    () -> client.describeImport(b -> b.importArn(imports.get(0).importArn())).importTableDescription(),
                    d -> d.importStatus() != ImportStatus.IN_PROGRESS);
            checkEndedImport(client, ended, IMPORTED, server);
        }
        // The name is free again, or holds the import's table: either way it takes a new import.
        try {
            client.deleteTable(b -> b.tableName(table));
        } catch (ResourceNotFoundException absent) {
            // FAILED, or never begun: nothing to delete.
        }
        ImportTableDescription again = startImport(client, table);
        ImportTableDescription done = Eventually.until("the second import has ended", Duration.ofSeconds(60),
                () -> client.describeImport(b -> b.importArn(again.importArn())).importTableDescription(),
                d -> d.importStatus() != ImportStatus.IN_PROGRESS);
        assertEquals(ImportStatus.COMPLETED, done.importStatus(), done.toString());
    }

    /**
     * An import that ended: COMPLETED with its table ACTIVE and exactly {@code items} items in it,
     * or FAILED with no table left.
     */
    static void checkEndedImport(DynamoDbClient client, ImportTableDescription ended, int items, StatorProcess server) {
        String table = ended.tableArn().substring(ended.tableArn().lastIndexOf('/') + 1);
        if (ended.importStatus() == ImportStatus.COMPLETED) {
            assertEquals(TableStatus.ACTIVE, client.describeTable(b -> b.tableName(table)).table().tableStatus());
            assertEquals(items, ended.importedItemCount(), ended.toString());
            assertEquals(items, client.scanPaginator(b -> b.tableName(table).consistentRead(true)).items().stream().count());
        } else {
            assertEquals(ImportStatus.FAILED, ended.importStatus(), ended.toString());
            assertNotNull(ended.failureCode(), ended.toString());
            assertThrows(ResourceNotFoundException.class, () -> client.describeTable(b -> b.tableName(table)),
                    "a FAILED import leaves no table" + server.stderrText());
        }
    }

    private static final int BACKED_UP = 1_300; // three of the copy's commits (512 rows each)

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aBackupKilledMidCopyIsFinishedAfterTheRestartAsItWasRequested() throws Exception {
        Path data = tmp.resolve("backup");
        Path stderr = tmp.resolve("stator-stderr-backup.txt");
        String table = "backed-up";
        Set<Map<String, AttributeValue>> asRequested;
        String backupArn;
        RuntimeException deletion = null;
        try (StatorProcess server = StatorProcess.start(data, stderr, List.of("-Xmx256m", Breakpoints.JVM_OPTION))) {
            DynamoDbClient client = server.client();
            client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S))
                    .keySchema(Tables.key("pk", KeyType.HASH)));
            for (int i = 0; i < BACKED_UP; i += 25) {
                List<WriteRequest> batch = new ArrayList<>();
                for (int j = i; j < Math.min(i + 25, BACKED_UP); j++) {
                    Map<String, AttributeValue> item = Map.of("pk", s(key(j)), "v", n(j));
                    batch.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
                }
                assertTrue(client.batchWriteItem(b -> b.requestItems(Map.of(table, batch))).unprocessedItems().isEmpty());
            }
            asRequested = scanAll(client, table);
            try (Breakpoints debugger = server.breakpoints().on(COMMIT, "commit")) {
                // Its commits stop at the breakpoints too, let through by the wait below.
                CompletableFuture<String> created = CompletableFuture.supplyAsync(() -> client.createBackup(
                        b -> b.tableName(table).backupName("cut-short")).backupDetails().backupArn());
                // The copy stopped at its second commit: 512 items copied, the rest not.
                assertNotNull(debugger.await(h -> h.within("io.stator.engine.backup.Backups.copy"), 2, false,
                        Duration.ofSeconds(60)), "the backup's copy did not run" + server.stderrText());
                backupArn = created.get(60, TimeUnit.SECONDS);
                assertEquals(BackupStatus.CREATING, client.describeBackup(b -> b.backupArn(backupArn))
                        .backupDescription().backupDetails().backupStatus());
                writeAfterTheRequest(client, table);
                // DynamoDB: "While a backup is in progress, you can't ... delete the source table of the
                // backup" (asserted last, after the backup's own outcome).
                try {
                    client.deleteTable(b -> b.tableName(table));
                } catch (RuntimeException refused) {
                    deletion = refused;
                }
                server.kill();
            }
        }
        try (StatorProcess server = StatorProcess.start(data, stderr)) {
            DynamoDbClient client = server.client();
            var details = Eventually.until("AVAILABLE", Duration.ofSeconds(60),
                    () -> client.describeBackup(b -> b.backupArn(backupArn)).backupDescription().backupDetails(),
                    d -> d.backupStatus() == BackupStatus.AVAILABLE);
            assertTrue(server.stderrText().contains("copying it again"), server.stderrText());
            String restored = "restored";
            client.restoreTableFromBackup(b -> b.backupArn(backupArn).targetTableName(restored));
            Eventually.until("the restore is ACTIVE", Duration.ofSeconds(60),
                    () -> client.describeTable(b -> b.tableName(restored)).table().tableStatus(), TableStatus.ACTIVE::equals);
            Set<Map<String, AttributeValue>> backedUp = scanAll(client, restored);
            if (!backedUp.equals(asRequested)) {
                fail("the backup is not the table as it was requested: " + difference(asRequested, backedUp));
            }
            assertEquals(BACKED_UP, backedUp.size());
            assertTrue(details.backupSizeBytes() > 0, details.toString());
            assertInstanceOf(ResourceInUseException.class, deletion, "the table was deleted while being backed up");
            // Its table can be deleted now.
            client.deleteTable(b -> b.tableName(table));
        }
    }

    /** Changes, deletions and new items after CreateBackup's answer: none of them may be in the backup. */
    private static void writeAfterTheRequest(DynamoDbClient client, String table) {
        for (int j = 0; j < BACKED_UP; j += 97) {
            int i = j;
            client.putItem(b -> b.tableName(table).item(Map.of("pk", s(key(i)), "v", n(-i), "changed", s("yes"))));
        }
        for (int j = 5; j < BACKED_UP; j += 101) {
            int i = j;
            client.deleteItem(b -> b.tableName(table).key(Map.of("pk", s(key(i)))));
        }
        for (int j = 0; j < 20; j++) {
            int i = j;
            client.putItem(b -> b.tableName(table).item(Map.of("pk", s("new-" + i), "v", n(i))));
        }
        // A transaction over items the copy has passed and items it has not.
        client.transactWriteItems(b -> b.transactItems(
                TransactWriteItem.builder().update(u -> u.tableName(table).key(Map.of("pk", s(key(1))))
                        .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", n(-1)))).build(),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(Map.of("pk", s(key(BACKED_UP - 2))))
                        .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", n(-2)))).build()));
    }

    private static String key(int i) {
        return String.format("k%05d", i);
    }

    private static Set<Map<String, AttributeValue>> scanAll(DynamoDbClient client, String table) {
        return client.scanPaginator(b -> b.tableName(table).consistentRead(true)).items().stream()
                .collect(Collectors.toSet());
    }

    private static String difference(Set<Map<String, AttributeValue>> expected, Set<Map<String, AttributeValue>> actual) {
        Set<Map<String, AttributeValue>> missing = new HashSet<>(expected);
        missing.removeAll(actual);
        Set<Map<String, AttributeValue>> extra = new HashSet<>(actual);
        extra.removeAll(expected);
        return missing.size() + " missing (" + missing.stream().limit(3).toList() + "), " + extra.size()
                + " not requested (" + extra.stream().limit(3).toList() + ")";
    }
}
