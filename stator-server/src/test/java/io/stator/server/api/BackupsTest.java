package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertErrorMatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BackupDescription;
import software.amazon.awssdk.services.dynamodb.model.BackupDetails;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.BackupSummary;
import software.amazon.awssdk.services.dynamodb.model.BackupType;
import software.amazon.awssdk.services.dynamodb.model.BackupTypeFilter;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListBackupsResponse;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * On-demand backups through the SDK: CreateBackup (CREATING, then AVAILABLE, consistent as of the
 * request while writes go on), DescribeBackup, ListBackups (table, time range, type, paging),
 * DeleteBackup, and RestoreTableFromBackup into a new table (CREATING with its RestoreSummary,
 * then ACTIVE with every item, its indexes rebuilt and its counters exact), with overrides, and
 * the errors DynamoDB gives (messages as moto's exceptions.py records them).
 */
class BackupsTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static DynamoDbClient client() {
        return server.client();
    }

    /** A table keyed by pk and sk, with a global index on g and a local index on l. */
    private static void createIndexedTable(String table) {
        client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.N),
                        attribute("g", ScalarAttributeType.S), attribute("l", ScalarAttributeType.S))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byG")
                        .keySchema(key("g", KeyType.HASH), key("sk", KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("byL")
                        .keySchema(key("pk", KeyType.HASH), key("l", KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()).build()));
    }

    /** An item of every attribute type. */
    private static Map<String, AttributeValue> item(int i) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", AttributeValue.fromS("p" + i % 7));
        item.put("sk", AttributeValue.fromN(Integer.toString(i)));
        item.put("g", AttributeValue.fromS("g" + i % 3));
        if (i % 2 == 0) item.put("l", AttributeValue.fromS("l" + i));
        item.put("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {(byte) i, 1, 2})));
        item.put("bool", AttributeValue.fromBool(i % 3 == 0));
        item.put("nul", AttributeValue.fromNul(true));
        item.put("ss", AttributeValue.fromSs(List.of("a" + i, "b")));
        item.put("ns", AttributeValue.fromNs(List.of("1", "2.5", Integer.toString(1000 + i))));
        item.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] {1}))));
        item.put("m", AttributeValue.fromM(Map.of("x", AttributeValue.fromL(List.of(AttributeValue.fromN("1"),
                AttributeValue.fromS("y"))))));
        item.put("n", AttributeValue.fromN("-1.5e" + (i % 10)));
        return item;
    }

    private static BackupDescription awaitAvailable(String arn) {
        return Eventually.until(arn + " AVAILABLE", Duration.ofSeconds(60),
                () -> client().describeBackup(b -> b.backupArn(arn)).backupDescription(),
                d -> d.backupDetails().backupStatus() == BackupStatus.AVAILABLE);
    }

    /**
     * The table once its ItemCount is {@code items}: at once on one server; on shared storage the
     * counters are counted again about ten seconds after writes (DynamoDB refreshes them about
     * every six hours).
     */
    private static TableDescription counted(String table, long items) {
        return Eventually.until(table + " counted", Duration.ofSeconds(60),
                () -> client().describeTable(b -> b.tableName(table)).table(), t -> t.itemCount() == items);
    }

    private static TableDescription awaitActive(String table) {
        return Eventually.until(table + " ACTIVE", Duration.ofSeconds(60),
                () -> client().describeTable(b -> b.tableName(table)).table(),
                t -> t.tableStatus() == TableStatus.ACTIVE);
    }

    private static Set<Map<String, AttributeValue>> scanAll(String table) {
        return client().scanPaginator(b -> b.tableName(table)).items().stream().collect(Collectors.toSet());
    }

    @Test
    void aBackupIsTheTableAsItWasAndRestoresIntoANewTableWithItsIndexes() {
        String table = StatorTestServer.tableName();
        createIndexedTable(table);
        List<Map<String, AttributeValue>> written = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Map<String, AttributeValue> item = item(i);
            client().putItem(b -> b.tableName(table).item(item));
            written.add(item);
        }
        TableDescription source = counted(table, 300);
        // As the table stores them (numbers in DynamoDB's normal form).
        Set<Map<String, AttributeValue>> backedUp = scanAll(table);
        assertEquals(300, backedUp.size());

        BackupDetails details = client().createBackup(b -> b.tableName(table).backupName("before-change"))
                .backupDetails();
        assertEquals(BackupStatus.CREATING, details.backupStatus());
        assertEquals(BackupType.USER, details.backupType());
        assertEquals("before-change", details.backupName());
        assertTrue(details.backupArn().matches(
                "arn:aws:dynamodb:[a-z0-9-]+:\\d{12}:table/" + table + "/backup/\\d{14}-[0-9a-f]{8}"), details.backupArn());
        assertNotNull(details.backupCreationDateTime());
        // Writes after the request are not in the backup.
        client().putItem(b -> b.tableName(table).item(item(1000)));
        client().deleteItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("p0"),
                "sk", AttributeValue.fromN("0"))));

        BackupDescription described = awaitAvailable(details.backupArn());
        // On shared storage TableSizeBytes is a recount (TableCounters.recount) after the writes:
        // once counted, the same sum of the items' sizes as one server's counters and the backup.
        assertEquals(source.tableSizeBytes(), described.backupDetails().backupSizeBytes());
        assertTrue(described.backupDetails().backupSizeBytes() > 0);
        assertEquals(table, described.sourceTableDetails().tableName());
        assertEquals(source.tableId(), described.sourceTableDetails().tableId());
        assertEquals(source.tableArn(), described.sourceTableDetails().tableArn());
        assertEquals(300L, described.sourceTableDetails().itemCount());
        assertEquals(source.tableSizeBytes(), described.sourceTableDetails().tableSizeBytes());
        assertEquals(source.keySchema(), described.sourceTableDetails().keySchema());
        assertEquals(software.amazon.awssdk.services.dynamodb.model.BillingMode.PAY_PER_REQUEST,
                described.sourceTableDetails().billingMode());
        assertEquals("byG", described.sourceTableFeatureDetails().globalSecondaryIndexes().get(0).indexName());
        assertEquals("byL", described.sourceTableFeatureDetails().localSecondaryIndexes().get(0).indexName());

        // The backup outlives its table.
        client().deleteTable(b -> b.tableName(table));
        assertEquals(BackupStatus.AVAILABLE,
                client().describeBackup(b -> b.backupArn(details.backupArn())).backupDescription().backupDetails()
                        .backupStatus());

        String restored = StatorTestServer.tableName();
        TableDescription restoring = client().restoreTableFromBackup(b -> b.backupArn(details.backupArn())
                .targetTableName(restored)).tableDescription();
        assertEquals(restored, restoring.tableName());
        assertEquals(details.backupArn(), restoring.restoreSummary().sourceBackupArn());
        assertEquals(source.tableArn(), restoring.restoreSummary().sourceTableArn());
        assertNotNull(restoring.restoreSummary().restoreDateTime());
        assertFalse(awaitActive(restored).restoreSummary().restoreInProgress());
        TableDescription active = counted(restored, 300);
        assertEquals(300L, active.itemCount());
        assertEquals(source.tableSizeBytes(), active.tableSizeBytes());
        assertEquals(Set.of("byG"), active.globalSecondaryIndexes().stream().map(i -> i.indexName())
                .collect(Collectors.toSet()));
        assertTrue(backedUp.equals(scanAll(restored)), "the restored table's items are not the backup's");

        // The indexes are rebuilt: the local one at once, the global one eventually.
        int localEntries = client().query(b -> b.tableName(restored).indexName("byL")
                .keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", AttributeValue.fromS("p1"))))
                .count();
        assertEquals((int) written.stream().filter(i -> i.get("pk").s().equals("p1") && i.containsKey("l")).count(),
                localEntries);
        long inG0 = written.stream().filter(i -> i.get("g").s().equals("g0")).count();
        Eventually.until("byG entries", () -> client().queryPaginator(b -> b.tableName(restored).indexName("byG")
                .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", AttributeValue.fromS("g0"))))
                .items().stream().count(), n -> n == inG0);

        // The restored table is an ordinary table: writable, and not the backup's.
        client().putItem(b -> b.tableName(restored).item(item(5000)));
        assertEquals(301, scanAll(restored).size());
        assertEquals(300L, client().describeBackup(b -> b.backupArn(details.backupArn())).backupDescription()
                .sourceTableDetails().itemCount());

        BackupDescription deleted = client().deleteBackup(b -> b.backupArn(details.backupArn())).backupDescription();
        assertEquals(BackupStatus.DELETED, deleted.backupDetails().backupStatus());
        assertError("BackupNotFoundException", "Backup not found: " + details.backupArn(),
                () -> client().describeBackup(b -> b.backupArn(details.backupArn())));
    }

    @Test
    void overridesChangeBillingAndDropIndexes() {
        String table = StatorTestServer.tableName();
        createIndexedTable(table);
        for (int i = 0; i < 20; i++) {
            Map<String, AttributeValue> item = item(i);
            client().putItem(b -> b.tableName(table).item(item));
        }
        String arn = client().createBackup(b -> b.tableName(table).backupName("bk1")).backupDetails().backupArn();
        awaitAvailable(arn);

        String provisioned = StatorTestServer.tableName();
        client().restoreTableFromBackup(b -> b.backupArn(arn).targetTableName(provisioned)
                .billingModeOverride(BillingMode.PROVISIONED)
                .provisionedThroughputOverride(p -> p.readCapacityUnits(7L).writeCapacityUnits(3L))
                .globalSecondaryIndexOverride(List.of()));
        TableDescription t = awaitActive(provisioned);
        assertEquals(7L, t.provisionedThroughput().readCapacityUnits());
        assertEquals(3L, t.provisionedThroughput().writeCapacityUnits());
        assertTrue(t.globalSecondaryIndexes().isEmpty());
        assertEquals(1, t.localSecondaryIndexes().size());
        assertEquals(20L, counted(provisioned, 20).itemCount());

        // What CreateTable refuses, a restore refuses: provisioned billing needs throughput.
        String refused = StatorTestServer.tableName();
        assertErrorMatches("ValidationException", ".*ReadCapacityUnits and WriteCapacityUnits must both be specified.*",
                () -> client().restoreTableFromBackup(b -> b.backupArn(arn).targetTableName(refused)
                        .billingModeOverride(BillingMode.PROVISIONED).globalSecondaryIndexOverride(List.of())));
        assertErrorMatches("ValidationException", ".*names index nope, which the backup does not have.*",
                () -> client().restoreTableFromBackup(b -> b.backupArn(arn).targetTableName(refused)
                        .globalSecondaryIndexOverride(GlobalSecondaryIndex.builder().indexName("nope")
                                .keySchema(key("g", KeyType.HASH))
                                .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build())));
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + refused + " not found",
                () -> client().describeTable(b -> b.tableName(refused)));
    }

    @Test
    void listBackupsFiltersAndPages() {
        String table = StatorTestServer.tableName();
        String other = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        StatorTestServer.createTable(client(), other);
        Instant before = Instant.now().minusSeconds(1);
        List<String> arns = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = i;
            arns.add(client().createBackup(b -> b.tableName(table).backupName("mine-" + n)).backupDetails().backupArn());
        }
        String otherArn = client().createBackup(b -> b.tableName(other).backupName("theirs")).backupDetails().backupArn();
        arns.forEach(BackupsTest::awaitAvailable);
        awaitAvailable(otherArn);

        List<BackupSummary> mine = client().listBackups(b -> b.tableName(table)).backupSummaries();
        assertEquals(arns, mine.stream().map(BackupSummary::backupArn).toList());
        BackupSummary first = mine.get(0);
        assertEquals(table, first.tableName());
        assertEquals("mine-0", first.backupName());
        assertEquals(BackupStatus.AVAILABLE, first.backupStatus());
        assertEquals(BackupType.USER, first.backupType());
        assertEquals(0L, first.backupSizeBytes());

        // One at a time, from LastEvaluatedBackupArn.
        List<String> paged = new ArrayList<>();
        String start = null;
        do {
            String from = start;
            ListBackupsResponse page = client().listBackups(b -> b.tableName(table).limit(1).exclusiveStartBackupArn(from));
            page.backupSummaries().forEach(s -> paged.add(s.backupArn()));
            start = page.lastEvaluatedBackupArn();
        } while (start != null);
        assertEquals(arns, paged);

        List<String> all = client().listBackups(b -> b.timeRangeLowerBound(before)).backupSummaries().stream()
                .map(BackupSummary::backupArn).toList();
        assertTrue(all.containsAll(arns) && all.contains(otherArn), all.toString());
        assertTrue(client().listBackups(b -> b.tableName(table).timeRangeUpperBound(before)).backupSummaries().isEmpty());
        assertTrue(client().listBackups(b -> b.tableName(table).backupType(BackupTypeFilter.SYSTEM))
                .backupSummaries().isEmpty());
        assertEquals(3, client().listBackups(b -> b.tableName(table).backupType(BackupTypeFilter.ALL))
                .backupSummaries().size());
    }

    @Test
    void errorsAreDynamoDbs() {
        String missing = StatorTestServer.tableName();
        assertError("TableNotFoundException", "Table not found: " + missing,
                () -> client().createBackup(b -> b.tableName(missing).backupName("bkp")));
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        String arn = client().createBackup(b -> b.tableName(table).backupName("bkp")).backupDetails().backupArn();
        awaitAvailable(arn);

        String unknown = arn.substring(0, arn.length() - 8) + "00000000";
        assertError("BackupNotFoundException", "Backup not found: " + unknown,
                () -> client().describeBackup(b -> b.backupArn(unknown)));
        assertError("BackupNotFoundException", "Backup not found: " + unknown,
                () -> client().deleteBackup(b -> b.backupArn(unknown)));
        assertError("BackupNotFoundException", "Backup not found: " + unknown,
                () -> client().restoreTableFromBackup(b -> b.backupArn(unknown).targetTableName(StatorTestServer.tableName())));
        assertError("TableAlreadyExistsException", "Table already exists: " + table,
                () -> client().restoreTableFromBackup(b -> b.backupArn(arn).targetTableName(table)));
        // The service model's constraints: a name of 3 to 255 of [a-zA-Z0-9_.-], a Limit of 1 to 100.
        assertErrorMatches("ValidationException", ".*backupName.*",
                () -> client().createBackup(b -> b.tableName(table).backupName("no spaces")));
        assertErrorMatches("ValidationException", ".*limit.*",
                () -> client().listBackups(b -> b.limit(0)));
        assertErrorMatches("ValidationException", ".*limit.*",
                () -> client().listBackups(b -> b.limit(101)));
        assertNull(client().listBackups(b -> b.limit(100).tableName(table)).lastEvaluatedBackupArn());
        // BackupName: 3 to 255 characters, at the edges and one past them.
        assertErrorMatches("ValidationException", ".*backupName.*",
                () -> client().createBackup(b -> b.tableName(table).backupName("ab")));
        assertErrorMatches("ValidationException", ".*backupName.*",
                () -> client().createBackup(b -> b.tableName(table).backupName("n".repeat(256))));
        awaitAvailable(client().createBackup(b -> b.tableName(table).backupName("n".repeat(255))).backupDetails()
                .backupArn());
        assertNull(client().listBackups(b -> b.tableName(table)).lastEvaluatedBackupArn());
    }

    private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

}
