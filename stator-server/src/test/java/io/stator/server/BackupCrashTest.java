package io.stator.server;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.IndexContents;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A server killed with {@code kill -9} in the middle of a restore (and of a backup's copy) leaves
 * no half-restored table that looks complete: after the restart the table is CREATING, item
 * operations do not find it, and the restore starts over until every item is in; only then is it
 * ACTIVE, with exactly the backup's items, its global index and its counters. A backup whose copy
 * was cut short is copied again and ends AVAILABLE (JobCrashTest checks its content).
 */
class BackupCrashTest {

    private static final int ITEMS = 30_000;

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aRestoreCutShortStartsOverAndAHalfCopiedBackupIsFinished() throws Exception {
        Path data = tmp.resolve("data");
        Path stderr = tmp.resolve("stator-stderr.txt");
        String table = StatorTestServer.tableName();
        String restored = StatorTestServer.tableName();
        Set<Map<String, AttributeValue>> expected;
        String secondBackup;
        try (StatorProcess first = StatorProcess.start(data, stderr)) {
            DynamoDbClient client = first.client();
            client.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                            Tables.definition("g", ScalarAttributeType.S))
                    .keySchema(Tables.key("pk", KeyType.HASH))
                    .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("by-g")
                            .keySchema(Tables.key("g", KeyType.HASH))
                            .projection(p -> p.projectionType(ProjectionType.ALL)).build()));
            for (int i = 0; i < ITEMS; i += 25) {
                List<WriteRequest> batch = new ArrayList<>();
                for (int j = i; j < i + 25; j++) {
                    Map<String, AttributeValue> item = item("pk", s("k" + j), "g", s("g" + (j % 11)), "n", n(j));
                    batch.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
                }
                assertTrue(client.batchWriteItem(b -> b.requestItems(Map.of(table, batch))).unprocessedItems().isEmpty());
            }
            expected = scanAll(client, table);
            String backup = client.createBackup(b -> b.tableName(table).backupName("full")).backupDetails().backupArn();
            Eventually.until("AVAILABLE", Duration.ofSeconds(60),
                    () -> client.describeBackup(b -> b.backupArn(backup)).backupDescription().backupDetails().backupStatus(),
                    BackupStatus.AVAILABLE::equals);

            client.restoreTableFromBackup(b -> b.backupArn(backup).targetTableName(restored));
            TableDescription midway = Eventually.until("the restore has begun", Duration.ofSeconds(60),
                    () -> client.describeTable(b -> b.tableName(restored)).table(),
                    t -> t.itemCount() > 0 || t.tableStatus() == TableStatus.ACTIVE);
            secondBackup = client.createBackup(b -> b.tableName(table).backupName("cut-short")).backupDetails().backupArn();
            first.kill();
            System.out.println("BackupCrashTest: killed with " + midway.itemCount() + " of " + ITEMS
                    + " items restored, table " + midway.tableStatus());
            assertEquals(TableStatus.CREATING, midway.tableStatus(), "killed after the restore had finished: "
                    + "nothing was tested (the restore was faster than expected)");
        }
        try (StatorProcess second = StatorProcess.start(data, stderr)) {
            DynamoDbClient client = second.client();
            TableDescription after = client.describeTable(b -> b.tableName(restored)).table();
            if (after.tableStatus() == TableStatus.CREATING) {
                assertTrue(after.restoreSummary().restoreInProgress());
                assertThrows(ResourceNotFoundException.class,
                        () -> client.getItem(b -> b.tableName(restored).key(Map.of("pk", s("k0")))));
                // The backup being restored from cannot be deleted meanwhile.
                assertThrows(software.amazon.awssdk.services.dynamodb.model.BackupInUseException.class,
                        () -> client.deleteBackup(b -> b.backupArn(after.restoreSummary().sourceBackupArn())));
            }
            TableDescription active = Eventually.until("ACTIVE", Duration.ofSeconds(90),
                    () -> client.describeTable(b -> b.tableName(restored)).table(),
                    t -> t.tableStatus() == TableStatus.ACTIVE);
            assertEquals(ITEMS, active.itemCount());
            assertTrue(expected.equals(scanAll(client, restored)), "the restored items are not the backup's"
                    + second.stderrText());
            IndexContents.awaitIndexesMatch(client, restored, Duration.ofSeconds(60));
            IndexContents.assertCounts(client, restored);

            // The backup whose copy the kill cut short (it waited behind the restore): acknowledged,
            // so finished after the restart, never deleted.
            var details = Eventually.until("the cut-short backup AVAILABLE", Duration.ofSeconds(90),
                    () -> client.describeBackup(b -> b.backupArn(secondBackup)).backupDescription(),
                    d -> d.backupDetails().backupStatus() == BackupStatus.AVAILABLE);
            assertEquals(ITEMS, details.sourceTableDetails().itemCount());
            assertTrue(details.backupDetails().backupSizeBytes() > 0, details.toString());
        }
    }

    private static Set<Map<String, AttributeValue>> scanAll(DynamoDbClient client, String table) {
        return client.scanPaginator(b -> b.tableName(table).consistentRead(true)).items().stream()
                .collect(Collectors.toSet());
    }
}
