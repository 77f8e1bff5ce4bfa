package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertErrorMatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestBackend;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsStatus;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryDescription;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryStatus;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Point-in-time recovery through the SDK, on a test clock: a workload of puts, updates, deletes,
 * batches and transactions at known times, each step one second apart, and restores to a dozen
 * points that each give exactly the reference model's table at that time (transactions whole or
 * absent); the window as DescribeContinuousBackups shows it (earliest at enabling, then the
 * recovery period; latest five minutes behind now, never before the earliest); the history folded into the base as the window
 * moves, restores still exact; disabling; and the errors.
 */
class PointInTimeRecoveryTest {

    private static final TestClock CLOCK = new TestClock();
    private static final Instant START = Instant.parse("2031-03-01T00:00:00Z");
    private static StatorTestServer server;

    @BeforeAll
    static void start() {
        CLOCK.set(START);
        server = StatorTestServer.start(o -> o.withClock(CLOCK));
    }

    @AfterAll
    static void stop() {
        server.close();
        CLOCK.useSystemTime();
    }

    private static DynamoDbClient client() {
        return server.client();
    }

    private static void awaitBackgroundWork() throws InterruptedException {
        server.engine().backups().awaitIdle();
    }

    private static Map<String, AttributeValue> key(int i) {
        return Map.of("pk", AttributeValue.fromS("k" + i));
    }

    private static Map<String, AttributeValue> item(int i, int version) {
        return Map.of("pk", AttributeValue.fromS("k" + i), "g", AttributeValue.fromS("g" + (i % 3)),
                "v", AttributeValue.fromN(Integer.toString(version)));
    }

    private static PointInTimeRecoveryDescription describe(String table) {
        ContinuousBackupsDescription d = client().describeContinuousBackups(b -> b.tableName(table))
                .continuousBackupsDescription();
        assertEquals(ContinuousBackupsStatus.ENABLED, d.continuousBackupsStatus());
        return d.pointInTimeRecoveryDescription();
    }

    private static Set<Map<String, AttributeValue>> scanAll(String table) {
        return client().scanPaginator(b -> b.tableName(table)).items().stream().collect(Collectors.toSet());
    }

    private static TableDescription restore(String source, Instant at) {
        String target = StatorTestServer.tableName();
        client().restoreTableToPointInTime(b -> b.sourceTableName(source).targetTableName(target).restoreDateTime(at));
        return Eventually.until(target + " ACTIVE", Duration.ofSeconds(60),
                () -> client().describeTable(b -> b.tableName(target)).table(), t -> t.tableStatus() == TableStatus.ACTIVE);
    }

    @Test
    void restoresToAnyPointGiveTheTableAsItWasThen() throws Exception {
        CLOCK.set(START);
        String table = StatorTestServer.tableName();
        client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                .keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byG")
                        .keySchema(KeySchemaElement.builder().attributeName("g").keyType(KeyType.HASH).build())
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build()));
        assertEquals(PointInTimeRecoveryStatus.DISABLED, describe(table).pointInTimeRecoveryStatus());
        assertNull(describe(table).earliestRestorableDateTime());

        Map<Integer, Map<String, AttributeValue>> model = new TreeMap<>();
        for (int i = 0; i < 10; i++) {
            Map<String, AttributeValue> item = item(i, 0);
            client().putItem(b -> b.tableName(table).item(item));
            model.put(i, item);
        }
        PointInTimeRecoveryDescription enabled = client().updateContinuousBackups(b -> b.tableName(table)
                .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true).recoveryPeriodInDays(1)))
                .continuousBackupsDescription().pointInTimeRecoveryDescription();
        assertEquals(PointInTimeRecoveryStatus.ENABLED, enabled.pointInTimeRecoveryStatus());
        assertEquals(1, enabled.recoveryPeriodInDays());
        assertEquals(START, enabled.earliestRestorableDateTime());
        // Five minutes behind now, and never before the earliest: until then it shows the earliest,
        // and a restore is refused (issue 38: it showed START - 5 minutes).
        assertEquals(START, enabled.latestRestorableDateTime());
        awaitBackgroundWork(); // the base is copied as of START
        assertError("InvalidRestoreTimeException", "An invalid restore time was specified. RestoreDateTime must be "
                + "between EarliestRestorableDateTime and LatestRestorableDateTime.",
                () -> client().restoreTableToPointInTime(b -> b.sourceTableName(table)
                        .targetTableName(StatorTestServer.tableName()).useLatestRestorableTime(true)));

        // One step a second: the model after step s is the table at START + s seconds.
        List<Set<Map<String, AttributeValue>>> states = new ArrayList<>();
        states.add(Set.copyOf(model.values()));
        Random random = new Random(16);
        int steps = 40;
        for (int s = 1; s <= steps; s++) {
            CLOCK.advance(Duration.ofSeconds(1));
            int i = random.nextInt(14);
            int j = (i + 1 + random.nextInt(13)) % 14;
            int version = s;
            switch (random.nextInt(5)) {
                case 0 -> {
                    client().putItem(b -> b.tableName(table).item(item(i, version)));
                    model.put(i, item(i, version));
                }
                case 1 -> {
                    client().deleteItem(b -> b.tableName(table).key(key(i)));
                    model.remove(i);
                }
                case 2 -> {
                    client().updateItem(b -> b.tableName(table).key(key(i)).updateExpression("SET v = :v, g = :g")
                            .expressionAttributeValues(Map.of(":v", AttributeValue.fromN(Integer.toString(version)),
                                    ":g", AttributeValue.fromS("g" + (i % 3)))));
                    model.put(i, item(i, version));
                }
                case 3 -> {
                    // A transaction: both or neither at any restore time.
                    client().transactWriteItems(b -> b.transactItems(
                            TransactWriteItem.builder().put(p -> p.tableName(table).item(item(i, version))).build(),
                            TransactWriteItem.builder().delete(d -> d.tableName(table).key(key(j))).build()));
                    model.put(i, item(i, version));
                    model.remove(j);
                }
                default -> {
                    client().batchWriteItem(b -> b.requestItems(Map.of(table, List.of(
                            software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
                                    .putRequest(p -> p.item(item(i, version))).build(),
                            software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
                                    .putRequest(p -> p.item(item(j, version))).build()))));
                    model.put(i, item(i, version));
                    model.put(j, item(j, version));
                }
            }
            states.add(Set.copyOf(model.values()));
        }
        CLOCK.advance(Duration.ofMinutes(10));
        PointInTimeRecoveryDescription window = describe(table);
        assertEquals(START, window.earliestRestorableDateTime());
        assertEquals(CLOCK.instant().minus(Duration.ofMinutes(5)), window.latestRestorableDateTime());

        // A dozen points: the earliest, steps, and times between steps (the table as at the step before).
        int[] points = {0, 1, 2, 5, 9, 13, 17, 22, 28, 33, 37, 40};
        TableDescription restored = null;
        for (int p : points) {
            Instant at = START.plusSeconds(p).plusMillis(p % 2 == 0 ? 0 : 500);
            restored = restore(table, at);
            assertEquals(at, restored.restoreSummary().restoreDateTime());
            assertNull(restored.restoreSummary().sourceBackupArn());
            assertEquals(states.get(p), scanAll(restored.tableName()), "restored to step " + p);
            // Shared storage counts a table's items again about ten seconds after writes (README).
            if (!TestBackend.cassandra()) {
                assertEquals(states.get(p).size(), restored.itemCount().intValue(), "ItemCount at step " + p);
            }
        }
        String last = restored.tableName();
        Eventually.until("ItemCount of " + last, Duration.ofSeconds(60),
                () -> client().describeTable(b -> b.tableName(last)).table().itemCount().intValue(),
                n -> n == states.get(40).size());
        // The latest restorable time: after the last step.
        String latest = StatorTestServer.tableName();
        client().restoreTableToPointInTime(b -> b.sourceTableName(table).targetTableName(latest)
                .useLatestRestorableTime(true));
        Eventually.until(latest + " ACTIVE", Duration.ofSeconds(60),
                () -> client().describeTable(b -> b.tableName(latest)).table().tableStatus(), TableStatus.ACTIVE::equals);
        assertEquals(states.get(steps), scanAll(latest));

        // Outside the window.
        String nowhere = StatorTestServer.tableName();
        String invalid = "An invalid restore time was specified. RestoreDateTime must be between "
                + "EarliestRestorableDateTime and LatestRestorableDateTime.";
        assertError("InvalidRestoreTimeException", invalid, () -> client().restoreTableToPointInTime(b ->
                b.sourceTableName(table).targetTableName(nowhere).restoreDateTime(START.minusSeconds(1))));
        assertError("InvalidRestoreTimeException", invalid, () -> client().restoreTableToPointInTime(b ->
                b.sourceTableName(table).targetTableName(nowhere).restoreDateTime(CLOCK.instant())));

        // A day later the window has moved: the changes older than it are folded into the base,
        // and a restore at its start is still the table as it was then.
        CLOCK.advance(Duration.ofDays(1));
        client().putItem(b -> b.tableName(table).item(item(99, 99)));
        Instant afterPut = CLOCK.instant();
        CLOCK.advance(Duration.ofMinutes(6));
        server.engine().recovery().trimNow();
        PointInTimeRecoveryDescription moved = describe(table);
        assertEquals(CLOCK.instant().minus(Duration.ofDays(1)), moved.earliestRestorableDateTime());
        assertEquals(states.get(steps), scanAll(restore(table, moved.earliestRestorableDateTime()).tableName()));
        Map<Integer, Map<String, AttributeValue>> withLast = new HashMap<>(model);
        withLast.put(99, item(99, 99));
        assertEquals(Set.copyOf(withLast.values()), scanAll(restore(table, afterPut).tableName()));

        // Disabled: no window, no restore.
        PointInTimeRecoveryDescription disabled = client().updateContinuousBackups(b -> b.tableName(table)
                .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(false)))
                .continuousBackupsDescription().pointInTimeRecoveryDescription();
        assertEquals(PointInTimeRecoveryStatus.DISABLED, disabled.pointInTimeRecoveryStatus());
        assertNull(disabled.earliestRestorableDateTime());
        assertError("PointInTimeRecoveryUnavailableException",
                "Point in time recovery is not enabled for table '" + table + "'",
                () -> client().restoreTableToPointInTime(b -> b.sourceTableName(table).targetTableName(nowhere)
                        .useLatestRestorableTime(true)));
    }

    @Test
    void errorsAreDynamoDbs() {
        String missing = StatorTestServer.tableName();
        assertError("TableNotFoundException", "Table not found: " + missing,
                () -> client().describeContinuousBackups(b -> b.tableName(missing)));
        assertError("TableNotFoundException", "Table not found: " + missing,
                () -> client().updateContinuousBackups(b -> b.tableName(missing)
                        .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true))));
        assertError("SourceTableNotFoundException", "Source table not found: " + missing,
                () -> client().restoreTableToPointInTime(b -> b.sourceTableName(missing)
                        .targetTableName(StatorTestServer.tableName()).useLatestRestorableTime(true)));
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        // RecoveryPeriodInDays: 1 to 35 (service model); 35 when not given.
        assertErrorMatches("ValidationException", ".*recoveryPeriodInDays.*",
                () -> client().updateContinuousBackups(b -> b.tableName(table)
                        .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true).recoveryPeriodInDays(36))));
        assertErrorMatches("ValidationException", ".*recoveryPeriodInDays.*",
                () -> client().updateContinuousBackups(b -> b.tableName(table)
                        .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true).recoveryPeriodInDays(0))));
        assertEquals(35, client().updateContinuousBackups(b -> b.tableName(table)
                        .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)))
                .continuousBackupsDescription().pointInTimeRecoveryDescription().recoveryPeriodInDays());
        assertError("TableAlreadyExistsException", "Table already exists: " + table,
                () -> client().restoreTableToPointInTime(b -> b.sourceTableName(table).targetTableName(table)
                        .useLatestRestorableTime(true)));
        assertErrorMatches("ValidationException", "Exactly one of RestoreDateTime and UseLatestRestorableTime.*",
                () -> client().restoreTableToPointInTime(b -> b.sourceTableName(table)
                        .targetTableName(StatorTestServer.tableName())));
    }
}
