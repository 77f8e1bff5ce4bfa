package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.SSEType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableClass;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;

class UpdateTableTest {

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final String NOTHING_TO_UPDATE = "At least one of ProvisionedThroughput, BillingMode, "
            + "UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, "
            + "MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, "
            + "OnDemandThroughput, WarmThroughput or TableClass is required";
    private static final String DECREASE_LIMIT = "Subscriber limit exceeded: Provisioned throughput decreases are "
            + "limited within a given UTC day. After the first 4 decreases, each subsequent decrease in the same UTC "
            + "day can be performed at most once every 3600 seconds. Number of decreases today: ";

    private static final TestClock CLOCK = new TestClock();

    @RegisterExtension
    static final SharedServer server = new SharedServer(options -> options.withClock(CLOCK));

    @AfterEach
    void followSystemTime() {
        CLOCK.useSystemTime();
    }

    private static String onDemandTable() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        return table;
    }

    private static String provisionedTable(long read, long write) {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.provisioned(table, read, write).build());
        return table;
    }

    private static TableDescription update(String table, Consumer<UpdateTableRequest.Builder> change) {
        return server.client().updateTable(b -> change.accept(b.tableName(table))).tableDescription();
    }

    /** The TableDescription of UpdateTable's response as sent. */
    private static JsonNode updateRaw(String table, Consumer<UpdateTableRequest.Builder> change) {
        RawResponses raw = new RawResponses();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            recorded.updateTable(b -> change.accept(b.tableName(table)));
        }
        return raw.lastJson().field("TableDescription").orElseThrow();
    }

    private static TableDescription describe(String table) {
        return server.client().describeTable(b -> b.tableName(table)).table();
    }

    private static void restart() {
        server.restart();
    }

    private static void setThroughput(String table, long read, long write) {
        update(table, b -> b.provisionedThroughput(t -> t.readCapacityUnits(read).writeCapacityUnits(write)));
    }

    // ---- what there is to update ------------------------------------------------------------

    @Test
    void updateTableRequiresSomethingToUpdate() {
        String table = onDemandTable();
        assertValidation(NOTHING_TO_UPDATE, () -> update(table, b -> { }));
    }

    @Test
    void updateTableDoesNotTakeAttributeDefinitionsAloneAsAnUpdate() {
        String table = onDemandTable();
        assertValidation(NOTHING_TO_UPDATE,
                () -> update(table, b -> b.attributeDefinitions(Tables.definition("pk", ScalarAttributeType.N))));
    }

    @Test
    void updateTableTakesAnEmptyIndexUpdateListAsNothing() {
        String table = onDemandTable();
        assertValidation(NOTHING_TO_UPDATE, () -> update(table, b -> b.globalSecondaryIndexUpdates(List.of())));
    }

    @Test
    void updateTableDropsAnEmptyWarmThroughputBesideAnotherChange() {
        String table = onDemandTable();
        update(table, b -> b.tableClass(TableClass.STANDARD_INFREQUENT_ACCESS).warmThroughput(w -> { }));
        assertEquals(TableClass.STANDARD_INFREQUENT_ACCESS, describe(table).tableClassSummary().tableClass());
        assertEquals(12_000L, describe(table).warmThroughput().readUnitsPerSecond());
    }

    @Test
    void updateTableRejectsAMissingTable() {
        String table = StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                () -> update(table, b -> b.deletionProtectionEnabled(true)));
    }

    @Test
    void updateTableChecksTheRequestBeforeLookingUpTheTable() {
        assertValidation("1 validation error detected: Value '0' at 'provisionedThroughput.writeCapacityUnits' "
                + "failed to satisfy constraint: Member must have value greater than or equal to 1",
                () -> update(StatorTestServer.tableName(),
                        b -> b.provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(0L))));
    }

    @Test
    void updateTableAcceptsTheTableArn() {
        String table = onDemandTable();
        TableDescription d = update(describe(table).tableArn(), b -> b.deletionProtectionEnabled(true));
        assertEquals(table, d.tableName());
        assertTrue(describe(table).deletionProtectionEnabled());
    }

    @Test
    void aServerWithoutPeerRegionsRefusesReplicaUpdatesSayingWhy() {
        String table = onDemandTable();
        assertValidation("Region eu-west-1 is not supported. The latest version of global tables are only supported in "
                + "the following regions: []. This Stator has no peer regions: start it with --replica-peers.",
                () -> update(table, b -> b.replicaUpdates(u -> u.create(c -> c.regionName("eu-west-1")))));
        assertFalse(describe(table).hasReplicas());
    }

    // ---- provisioned throughput -------------------------------------------------------------

    @Test
    void updateTableRaisesThroughputAndAnswersWithTheOldUnits() {
        String table = provisionedTable(5, 5);
        Instant before = Instant.now().minusSeconds(1);
        TableDescription response = update(table, b -> b.provisionedThroughput(t -> t.readCapacityUnits(10L).writeCapacityUnits(20L)));
        assertEquals(TableStatus.UPDATING, response.tableStatus());
        assertEquals(5L, response.provisionedThroughput().readCapacityUnits());
        assertEquals(5L, response.provisionedThroughput().writeCapacityUnits());
        assertTrue(response.provisionedThroughput().lastIncreaseDateTime().isAfter(before));
        assertNull(response.provisionedThroughput().lastDecreaseDateTime());

        TableDescription d = describe(table);
        assertEquals(TableStatus.ACTIVE, d.tableStatus());
        assertEquals(10L, d.provisionedThroughput().readCapacityUnits());
        assertEquals(20L, d.provisionedThroughput().writeCapacityUnits());
        assertEquals(response.provisionedThroughput().lastIncreaseDateTime(), d.provisionedThroughput().lastIncreaseDateTime());
        restart();
        assertEquals(d, describe(table));
    }

    @Test
    void updateTableLowersThroughputAndCountsTheDecrease() {
        String table = provisionedTable(10, 10);
        TableDescription response = update(table, b -> b.provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L)));
        assertEquals(10L, response.provisionedThroughput().readCapacityUnits());
        assertEquals(0L, response.provisionedThroughput().numberOfDecreasesToday());
        assertNotNull(response.provisionedThroughput().lastDecreaseDateTime());

        TableDescription d = describe(table);
        assertEquals(5L, d.provisionedThroughput().readCapacityUnits());
        assertEquals(1L, d.provisionedThroughput().numberOfDecreasesToday());
        assertEquals(response.provisionedThroughput().lastDecreaseDateTime(), d.provisionedThroughput().lastDecreaseDateTime());
        assertNull(d.provisionedThroughput().lastIncreaseDateTime());
    }

    @Test
    void updateTableRejectsUnchangedThroughput() {
        String table = provisionedTable(10, 5);
        String unchanged = "The provisioned throughput for the table will not change. The requested value equals the "
                + "current value. Current ReadCapacityUnits provisioned for the table: 10. Requested ReadCapacityUnits: "
                + "10. Current WriteCapacityUnits provisioned for the table: 5. Requested WriteCapacityUnits: 5. Refer "
                + "to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.";
        assertValidation(unchanged, () -> setThroughput(table, 10, 5));
        assertValidation(unchanged, () -> update(table, b -> b.billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(t -> t.readCapacityUnits(10L).writeCapacityUnits(5L))));
    }

    @Test
    void updateTableRequiresThroughputWithProvisionedBillingMode() {
        String table = provisionedTable(1, 1);
        assertValidation(INVALID + "ProvisionedThroughput must be specified when BillingMode is PROVISIONED",
                () -> update(table, b -> b.billingMode(BillingMode.PROVISIONED)));
    }

    @Test
    void updateTableRejectsThroughputForAnOnDemandTable() {
        String table = onDemandTable();
        assertValidation(INVALID + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode "
                + "is PAY_PER_REQUEST", () -> setThroughput(table, 1, 1));
        String provisioned = provisionedTable(1, 1);
        assertValidation(INVALID + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode "
                + "is PAY_PER_REQUEST", () -> update(provisioned, b -> b.billingMode(BillingMode.PAY_PER_REQUEST)
                .provisionedThroughput(t -> t.readCapacityUnits(2L).writeCapacityUnits(2L))));
        assertNull(describe(provisioned).billingModeSummary(), "nothing applied");
    }

    @Test
    void updateTableAcceptsThroughputAtThePerTableQuota() {
        String table = provisionedTable(1, 1);
        setThroughput(table, 40_000, 40_000);
        assertEquals(40_000L, describe(table).provisionedThroughput().writeCapacityUnits());
    }

    @Test
    void updateTableRejectsThroughputAboveThePerTableQuota() {
        String table = provisionedTable(1, 1);
        assertError("LimitExceededException", "The requested ReadCapacityUnits, 40001, is above the per table maximum "
                + "for the account in us-east-1. Per table maximum: 40000", () -> setThroughput(table, 40_001, 1));
        assertError("LimitExceededException", "The requested WriteCapacityUnits, 40001, is above the per table maximum "
                + "for the account in us-east-1. Per table maximum: 40000", () -> setThroughput(table, 1, 40_001));
        assertEquals(1L, describe(table).provisionedThroughput().readCapacityUnits());
    }

    @Test
    void updateTableRejectsThroughputOutOfBounds() {
        String table = provisionedTable(1, 1);
        assertValidation("Given value 1000000000001 for ReadCapacityUnits is out of bounds",
                () -> setThroughput(table, 1_000_000_000_001L, 1));
        assertValidation("Given value 1000000000001 for WriteCapacityUnits is out of bounds",
                () -> setThroughput(table, 1, 1_000_000_000_001L));
    }

    @Test
    void updateTableAllowsFourDecreasesADayThenOneAnHour() {
        String table = provisionedTable(100, 100);
        Instant start = Instant.parse("2030-03-04T10:00:00Z");
        CLOCK.set(start);
        for (int i = 1; i <= 4; i++) {
            setThroughput(table, 100 - i, 100);
            CLOCK.advance(Duration.ofSeconds(1));
        }
        assertEquals(4L, describe(table).provisionedThroughput().numberOfDecreasesToday());
        assertError("LimitExceededException", DECREASE_LIMIT + "4. Last decrease at Monday, March 4, 2030 at 10:00:03 AM "
                + "Coordinated Universal Time. Next decrease can be made at Monday, March 4, 2030 at 11:00:03 AM "
                + "Coordinated Universal Time", () -> setThroughput(table, 95, 100));
        // Lowering one dimension while raising the other is a decrease too; raising both is not.
        assertError("LimitExceededException", DECREASE_LIMIT + "4. Last decrease at Monday, March 4, 2030 at 10:00:03 AM "
                + "Coordinated Universal Time. Next decrease can be made at Monday, March 4, 2030 at 11:00:03 AM "
                + "Coordinated Universal Time", () -> setThroughput(table, 95, 101));
        setThroughput(table, 97, 101);

        CLOCK.set(start.plusSeconds(3 + 3599));
        assertError("LimitExceededException", DECREASE_LIMIT + "4. Last decrease at Monday, March 4, 2030 at 10:00:03 AM "
                + "Coordinated Universal Time. Next decrease can be made at Monday, March 4, 2030 at 11:00:03 AM "
                + "Coordinated Universal Time", () -> setThroughput(table, 95, 101));
        CLOCK.advance(Duration.ofSeconds(1));
        setThroughput(table, 95, 101);
        assertEquals(5L, describe(table).provisionedThroughput().numberOfDecreasesToday());
        assertError("LimitExceededException", DECREASE_LIMIT + "5. Last decrease at Monday, March 4, 2030 at 11:00:03 AM "
                + "Coordinated Universal Time. Next decrease can be made at Monday, March 4, 2030 at 12:00:03 PM "
                + "Coordinated Universal Time", () -> setThroughput(table, 94, 101));

        CLOCK.set(Instant.parse("2030-03-05T00:00:00Z"));
        setThroughput(table, 94, 101);
        assertEquals(1L, describe(table).provisionedThroughput().numberOfDecreasesToday());
    }

    @Test
    void aGlobalIndexCountsItsOwnDecreasesUnderTheSameLimit() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.provisioned(table, 100, 100)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S), Tables.definition("g", ScalarAttributeType.S))
                .globalSecondaryIndexes(g -> g.indexName("gsi").keySchema(Tables.key("g", KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                        .provisionedThroughput(t -> t.readCapacityUnits(100L).writeCapacityUnits(100L))).build());
        CLOCK.set(Instant.parse("2030-03-04T10:00:00Z"));
        for (int i = 1; i <= 4; i++) {
            long units = 100 - i;
            server.client().updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(u -> u.update(x -> x.indexName("gsi")
                    .provisionedThroughput(t -> t.readCapacityUnits(units).writeCapacityUnits(100L)))));
        }
        assertError("LimitExceededException", DECREASE_LIMIT + "4. Last decrease at Monday, March 4, 2030 at 10:00:00 AM "
                + "Coordinated Universal Time. Next decrease can be made at Monday, March 4, 2030 at 11:00:00 AM "
                + "Coordinated Universal Time", () -> server.client().updateTable(b -> b.tableName(table)
                        .globalSecondaryIndexUpdates(u -> u.update(x -> x.indexName("gsi")
                                .provisionedThroughput(t -> t.readCapacityUnits(50L).writeCapacityUnits(100L))))));
        // The table's own decreases are counted apart.
        setThroughput(table, 99, 100);
        assertEquals(1L, describe(table).provisionedThroughput().numberOfDecreasesToday());
    }

    @Test
    void updateTableAllowsTheNextDecreaseAtMidnightWhenThatComesFirst() {
        String table = provisionedTable(100, 100);
        CLOCK.set(Instant.parse("2030-03-04T23:30:00Z"));
        for (int i = 1; i <= 4; i++) setThroughput(table, 100 - i, 100);
        assertError("LimitExceededException", DECREASE_LIMIT + "4. Last decrease at Monday, March 4, 2030 at 11:30:00 PM "
                + "Coordinated Universal Time. Next decrease can be made at Tuesday, March 5, 2030 at 12:00:00 AM "
                + "Coordinated Universal Time", () -> setThroughput(table, 95, 100));
    }

    // ---- billing mode -----------------------------------------------------------------------

    @Test
    void updateTableSwitchesToOnDemand() {
        String table = provisionedTable(5, 5);
        JsonNode response = updateRaw(table, b -> b.billingMode(BillingMode.PAY_PER_REQUEST));
        assertEquals("UPDATING", response.field("TableStatus").orElseThrow().asString());
        assertEquals(Set.of("BillingMode"), response.field("BillingModeSummary").orElseThrow().asObject().keySet());

        TableDescription d = describe(table);
        assertEquals(BillingMode.PAY_PER_REQUEST, d.billingModeSummary().billingMode());
        assertNotNull(d.billingModeSummary().lastUpdateToPayPerRequestDateTime());
        assertEquals(0L, d.provisionedThroughput().readCapacityUnits());
        assertEquals(0L, d.provisionedThroughput().writeCapacityUnits());
        assertEquals(12_000L, d.warmThroughput().readUnitsPerSecond());
        restart();
        assertEquals(d, describe(table));
    }

    @Test
    void updateTableSwitchesToProvisionedWithThroughput() {
        String table = onDemandTable();
        Instant onDemandSince = describe(table).billingModeSummary().lastUpdateToPayPerRequestDateTime();
        TableDescription response = update(table, b -> b.billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(t -> t.readCapacityUnits(3L).writeCapacityUnits(4L)));
        assertEquals(BillingMode.PROVISIONED, response.billingModeSummary().billingMode());
        assertNull(response.billingModeSummary().lastUpdateToPayPerRequestDateTime());
        assertEquals(3L, response.provisionedThroughput().readCapacityUnits());

        TableDescription d = describe(table);
        assertEquals(BillingMode.PROVISIONED, d.billingModeSummary().billingMode());
        assertEquals(onDemandSince, d.billingModeSummary().lastUpdateToPayPerRequestDateTime());
        assertEquals(3L, d.provisionedThroughput().readCapacityUnits());
        assertEquals(4L, d.provisionedThroughput().writeCapacityUnits());
        assertEquals(12_000L, d.warmThroughput().readUnitsPerSecond(), "warm throughput is kept");
    }

    @Test
    void updateTableAcceptsTheCurrentOnDemandBillingModeAsANoOp() {
        String table = onDemandTable();
        TableDescription before = describe(table);
        assertEquals(TableStatus.UPDATING, update(table, b -> b.billingMode(BillingMode.PAY_PER_REQUEST)).tableStatus());
        assertEquals(before, describe(table));
    }

    // ---- streams ----------------------------------------------------------------------------

    @Test
    void updateTableEnablesAndDisablesAStream() {
        String table = onDemandTable();
        TableDescription enabled = update(table, b -> b.streamSpecification(s -> s.streamEnabled(true)
                .streamViewType(StreamViewType.NEW_IMAGE)));
        assertEquals(TableStatus.UPDATING, enabled.tableStatus());
        TableDescription d = describe(table);
        assertEquals(StreamViewType.NEW_IMAGE, d.streamSpecification().streamViewType());
        assertEquals(d.tableArn() + "/stream/" + d.latestStreamLabel(), d.latestStreamArn());

        update(table, b -> b.streamSpecification(s -> s.streamEnabled(false)));
        TableDescription disabled = describe(table);
        assertNull(disabled.streamSpecification());
        assertEquals(d.latestStreamArn(), disabled.latestStreamArn(), "the last stream's ARN stays");
        restart();
        assertEquals(disabled, describe(table));
    }

    @Test
    void updateTableGivesAReEnabledStreamANewLabel() {
        String table = onDemandTable();
        CLOCK.set(Instant.parse("2030-03-04T10:00:00Z"));
        update(table, b -> b.streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY)));
        assertEquals("2030-03-04T10:00:00.000", describe(table).latestStreamLabel());
        update(table, b -> b.streamSpecification(s -> s.streamEnabled(false)));
        CLOCK.advance(Duration.ofMillis(1500));
        update(table, b -> b.streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.OLD_IMAGE)));
        assertEquals("2030-03-04T10:00:01.500", describe(table).latestStreamLabel());
    }

    @Test
    void updateTableRejectsEnablingAnEnabledStream() {
        String table = onDemandTable();
        update(table, b -> b.streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)));
        for (StreamViewType viewType : new StreamViewType[] {StreamViewType.NEW_IMAGE, StreamViewType.OLD_IMAGE}) {
            assertValidation("Table already has an enabled stream: TableName: " + table,
                    () -> update(table, b -> b.streamSpecification(s -> s.streamEnabled(true).streamViewType(viewType))));
        }
    }

    @Test
    void updateTableRejectsDisablingWithoutAStream() {
        String table = onDemandTable();
        assertValidation("Table has no stream to disable: TableName: " + table,
                () -> update(table, b -> b.streamSpecification(s -> s.streamEnabled(false))));
    }

    @Test
    void updateTableRequiresViewTypeToEnableAStream() {
        String table = onDemandTable();
        assertValidation(INVALID + "If stream is being enabled then UpdateViewType is required",
                () -> update(table, b -> b.streamSpecification(s -> s.streamEnabled(true))));
    }

    @Test
    void updateTableRejectsViewTypeToDisableAStream() {
        String table = onDemandTable();
        update(table, b -> b.streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)));
        assertValidation(INVALID + "If stream is being disabled, then UpdateViewType must not be specified",
                () -> update(table, b -> b.streamSpecification(s -> s.streamEnabled(false).streamViewType(StreamViewType.NEW_IMAGE))));
    }

    @Test
    void updateTableRejectsAStreamChangeWithThroughput() {
        String table = provisionedTable(1, 1);
        String message = INVALID + "You cannot modify stream status while updating table IOPS";
        assertValidation(message, () -> update(table, b -> b.provisionedThroughput(t -> t.readCapacityUnits(2L).writeCapacityUnits(2L))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE))));
        String onDemand = onDemandTable();
        assertValidation(message, () -> update(onDemand, b -> b.billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(t -> t.readCapacityUnits(2L).writeCapacityUnits(2L))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE))));
        assertNull(describe(table).streamSpecification(), "nothing applied");
    }

    @Test
    void updateTableSwitchesToOnDemandAndEnablesAStreamTogether() {
        String table = provisionedTable(1, 1);
        update(table, b -> b.billingMode(BillingMode.PAY_PER_REQUEST)
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY)));
        TableDescription d = describe(table);
        assertEquals(BillingMode.PAY_PER_REQUEST, d.billingModeSummary().billingMode());
        assertEquals(StreamViewType.KEYS_ONLY, d.streamSpecification().streamViewType());
    }

    // ---- encryption, table class, deletion protection ---------------------------------------

    @Test
    void updateTableSwitchesEncryptionToKmsAndBack() {
        String table = onDemandTable();
        JsonNode response = updateRaw(table, b -> b.sseSpecification(s -> s.enabled(true)));
        assertEquals("ACTIVE", response.field("TableStatus").orElseThrow().asString());
        assertEquals("UPDATING", response.field("SSEDescription").orElseThrow().field("Status").orElseThrow().asString());
        assertEquals(Set.of("Status"), response.field("SSEDescription").orElseThrow().asObject().keySet());
        var sse = describe(table).sseDescription();
        assertEquals("ENABLED", sse.statusAsString());
        assertEquals(SSEType.KMS, sse.sseType());

        update(table, b -> b.sseSpecification(s -> s.enabled(false)));
        assertNull(describe(table).sseDescription());
    }

    @Test
    void updateTableRejectsEncryptionThatIsAlreadyTheDefault() {
        String table = onDemandTable();
        assertValidation(INVALID + "Table is already encrypted by default",
                () -> update(table, b -> b.sseSpecification(s -> s.enabled(false))));
        assertValidation(INVALID + "Table is already encrypted by default",
                () -> update(table, b -> b.sseSpecification(s -> { })));
    }

    @Test
    void updateTableRejectsTheCurrentKmsKeyByArnButNotByKeyId() {
        String table = onDemandTable();
        String keyId = "1234abcd-12ab-34cd-56ef-1234567890ab";
        String keyArn = "arn:aws:kms:us-east-1:000000000000:key/" + keyId;
        update(table, b -> b.sseSpecification(s -> s.enabled(true).sseType(SSEType.KMS).kmsMasterKeyId(keyId)));
        assertValidation(INVALID + "Table is already encrypted with given KMSMasterKeyId. Use KMSMasterKeyId parameter "
                + "if you want to change Master Key",
                () -> update(table, b -> b.sseSpecification(s -> s.enabled(true).sseType(SSEType.KMS).kmsMasterKeyId(keyArn))));
        update(table, b -> b.sseSpecification(s -> s.enabled(true).sseType(SSEType.KMS).kmsMasterKeyId(keyId)));
        assertEquals(keyArn, describe(table).sseDescription().kmsMasterKeyArn());
    }

    @Test
    void updateTableChangesTheTableClassAndAnswersWithTheOldOne() {
        String table = onDemandTable();
        Instant before = Instant.now().minusSeconds(1);
        TableDescription response = update(table, b -> b.tableClass(TableClass.STANDARD_INFREQUENT_ACCESS));
        assertEquals(TableStatus.UPDATING, response.tableStatus());
        assertNull(response.tableClassSummary());
        var summary = describe(table).tableClassSummary();
        assertEquals(TableClass.STANDARD_INFREQUENT_ACCESS, summary.tableClass());
        assertTrue(summary.lastUpdateDateTime().isAfter(before));

        update(table, b -> b.tableClass(TableClass.STANDARD));
        assertEquals(TableClass.STANDARD, describe(table).tableClassSummary().tableClass());
        restart();
        assertEquals(TableClass.STANDARD, describe(table).tableClassSummary().tableClass());
    }

    @Test
    void updateTableTakesTheCurrentTableClassAsANoOp() {
        String table = onDemandTable();
        assertEquals(TableStatus.UPDATING, update(table, b -> b.tableClass(TableClass.STANDARD)).tableStatus());
        assertNull(describe(table).tableClassSummary());
    }

    @Test
    void updateTableRejectsUnknownTableClass() {
        String table = onDemandTable();
        assertValidation("Invalid table-class parameter provided. Please try again with a valid table-class value: "
                + "[STANDARD, STANDARD_INFREQUENT_ACCESS].", () -> update(table, b -> b.tableClass("COLD")));
    }

    @Test
    void updateTableTurnsDeletionProtectionOnWhileActive() {
        String table = onDemandTable();
        TableDescription response = update(table, b -> b.deletionProtectionEnabled(true));
        assertEquals(TableStatus.ACTIVE, response.tableStatus());
        assertTrue(response.deletionProtectionEnabled());
        restart();
        assertTrue(describe(table).deletionProtectionEnabled());
        update(table, b -> b.deletionProtectionEnabled(false));
        assertFalse(describe(table).deletionProtectionEnabled());
    }

    // ---- one kind of change a request -------------------------------------------------------

    @Test
    void updateTableTakesEncryptionAloneBeforeDeletionProtection() {
        String table = onDemandTable();
        assertValidation(INVALID + "Server-Side Encryption modification must be the only operation in the request",
                () -> update(table, b -> b.sseSpecification(s -> s.enabled(true)).deletionProtectionEnabled(true)));
        assertFalse(describe(table).deletionProtectionEnabled(), "nothing applied");
    }

    @Test
    void updateTableTakesDeletionProtectionAlone() {
        String table = onDemandTable();
        String message = INVALID + "DeletionProtection modification must be the only operation in the request";
        assertValidation(message, () -> update(table, b -> b.deletionProtectionEnabled(true)
                .tableClass(TableClass.STANDARD_INFREQUENT_ACCESS)));
        assertValidation(message, () -> update(table, b -> b.deletionProtectionEnabled(true)
                .billingMode(BillingMode.PAY_PER_REQUEST)));
        assertNull(describe(table).tableClassSummary(), "nothing applied");
    }

    @Test
    void updateTableTakesTableClassAlone() {
        String table = onDemandTable();
        assertValidation(INVALID + "TableClass modification must be the only operation in the request",
                () -> update(table, b -> b.tableClass(TableClass.STANDARD_INFREQUENT_ACCESS)
                        .warmThroughput(w -> w.readUnitsPerSecond(13_000L))));
    }

    @Test
    void updateTableCombinesOnDemandThroughputOnlyWithBillingMode() {
        String table = onDemandTable();
        assertValidation(INVALID + "OnDemandThroughput can only be combined with BillingMode in an UpdateTable request",
                () -> update(table, b -> b.onDemandThroughput(o -> o.maxReadRequestUnits(10L))
                        .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY))));
        assertValidation(INVALID + "OnDemandThroughput can only be combined with BillingMode in an UpdateTable request",
                () -> update(table, b -> b.onDemandThroughput(o -> o.maxReadRequestUnits(10L))
                        .warmThroughput(w -> w.readUnitsPerSecond(13_000L))));
        String provisioned = provisionedTable(1, 1);
        update(provisioned, b -> b.billingMode(BillingMode.PAY_PER_REQUEST).onDemandThroughput(o -> o.maxReadRequestUnits(10L)));
        assertEquals(10L, describe(provisioned).onDemandThroughput().maxReadRequestUnits());
    }

    @Test
    void updateTableTakesWarmThroughputAlone() {
        String table = onDemandTable();
        assertValidation(INVALID + "WarmThroughput must be the only operation in the request",
                () -> update(table, b -> b.warmThroughput(w -> w.readUnitsPerSecond(13_000L))
                        .billingMode(BillingMode.PAY_PER_REQUEST)));
    }

    // ---- on-demand throughput ---------------------------------------------------------------

    @Test
    void updateTableSetsMergesAndClearsOnDemandMaximums() {
        String table = onDemandTable();
        TableDescription response = update(table, b -> b.onDemandThroughput(o -> o.maxReadRequestUnits(100L).maxWriteRequestUnits(200L)));
        assertEquals(TableStatus.ACTIVE, response.tableStatus());
        assertEquals(200L, describe(table).onDemandThroughput().maxWriteRequestUnits());

        update(table, b -> b.onDemandThroughput(o -> o.maxWriteRequestUnits(300L)));
        assertEquals(100L, describe(table).onDemandThroughput().maxReadRequestUnits());
        assertEquals(300L, describe(table).onDemandThroughput().maxWriteRequestUnits());

        JsonNode cleared = updateRaw(table, b -> b.onDemandThroughput(o -> o.maxReadRequestUnits(-1L)));
        assertEquals("-1", cleared.field("OnDemandThroughput").orElseThrow().field("MaxReadRequestUnits").orElseThrow().asNumber());
        assertNull(describe(table).onDemandThroughput().maxReadRequestUnits());
        assertEquals(300L, describe(table).onDemandThroughput().maxWriteRequestUnits());

        update(table, b -> b.onDemandThroughput(o -> o.maxWriteRequestUnits(-1L)));
        assertNull(describe(table).onDemandThroughput());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -2})
    void updateTableRejectsOnDemandMaximumsOutOfRange(long value) {
        String table = onDemandTable();
        assertValidation(INVALID + "Requested MaxReadRequestUnits for OnDemandThroughput for table is outside of valid range",
                () -> update(table, b -> b.onDemandThroughput(o -> o.maxReadRequestUnits(value).maxWriteRequestUnits(value))));
    }

    @Test
    void updateTableRejectsOnDemandMaximumsAboveThePerTableQuota() {
        String table = onDemandTable();
        update(table, b -> b.onDemandThroughput(o -> o.maxReadRequestUnits(40_000L)));
        assertError("LimitExceededException", "Subscriber limit exceeded: Requested MaxWriteRequestUnits for "
                + "OnDemandThroughput for table exceeds TableMaxWriteCapacityUnits of the account in region us-east-1",
                () -> update(table, b -> b.onDemandThroughput(o -> o.maxWriteRequestUnits(40_001L))));
    }

    @Test
    void updateTableRejectsOnDemandThroughputForAProvisionedTable() {
        String table = provisionedTable(1, 1);
        assertValidation(INVALID + "MaxReadRequestUnits for OnDemandThroughput cannot be specified when the table "
                + "BillingMode is PROVISIONED", () -> update(table, b -> b.onDemandThroughput(o -> o.maxReadRequestUnits(10L))));
    }

    // ---- warm throughput --------------------------------------------------------------------

    @Test
    void updateTableRaisesWarmThroughputAndAnswersWithTheOldValuesUpdating() {
        String table = onDemandTable();
        TableDescription response = update(table, b -> b.warmThroughput(w -> w.readUnitsPerSecond(13_000L).writeUnitsPerSecond(5_000L)));
        assertEquals(TableStatus.ACTIVE, response.tableStatus());
        assertEquals(12_000L, response.warmThroughput().readUnitsPerSecond());
        assertEquals(4_000L, response.warmThroughput().writeUnitsPerSecond());
        assertEquals("UPDATING", response.warmThroughput().statusAsString());

        var warm = describe(table).warmThroughput();
        assertEquals(13_000L, warm.readUnitsPerSecond());
        assertEquals(5_000L, warm.writeUnitsPerSecond());
        assertEquals("ACTIVE", warm.statusAsString());
        restart();
        assertEquals(warm, describe(table).warmThroughput());
    }

    @Test
    void updateTableAcceptsEqualAndPartialWarmThroughput() {
        String table = onDemandTable();
        update(table, b -> b.warmThroughput(w -> w.readUnitsPerSecond(12_000L).writeUnitsPerSecond(4_000L)));
        update(table, b -> b.warmThroughput(w -> w.writeUnitsPerSecond(4_001L)));
        var warm = describe(table).warmThroughput();
        assertEquals(12_000L, warm.readUnitsPerSecond());
        assertEquals(4_001L, warm.writeUnitsPerSecond());
    }

    @Test
    void updateTableRejectsLoweringWarmThroughput() {
        String table = onDemandTable();
        assertValidation(INVALID + "Requested ReadUnitsPerSecond for WarmThroughput for table is lower than current "
                + "WarmThroughput, decreasing WarmThroughput is not supported",
                () -> update(table, b -> b.warmThroughput(w -> w.readUnitsPerSecond(11_999L).writeUnitsPerSecond(3_999L))));
        assertValidation(INVALID + "Requested WriteUnitsPerSecond for WarmThroughput for table is lower than current "
                + "WarmThroughput, decreasing WarmThroughput is not supported",
                () -> update(table, b -> b.warmThroughput(w -> w.writeUnitsPerSecond(0L))));
    }

    @Test
    void updateTableKeepsWarmThroughputAtTheHighestProvisionedThroughput() {
        String table = provisionedTable(5, 5);
        setThroughput(table, 10, 8);
        assertEquals(10L, describe(table).warmThroughput().readUnitsPerSecond());
        setThroughput(table, 2, 2);
        var warm = describe(table).warmThroughput();
        assertEquals(10L, warm.readUnitsPerSecond());
        assertEquals(8L, warm.writeUnitsPerSecond());
        setThroughput(table, 20, 2);
        assertEquals(20L, describe(table).warmThroughput().readUnitsPerSecond());
        assertEquals(8L, describe(table).warmThroughput().writeUnitsPerSecond());
    }

    @Test
    void updateTableKeepsOnDemandWarmThroughputAfterSwitchingBack() {
        String table = provisionedTable(5, 5);
        update(table, b -> b.billingMode(BillingMode.PAY_PER_REQUEST));
        update(table, b -> b.billingMode(BillingMode.PROVISIONED).provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L)));
        var warm = describe(table).warmThroughput();
        assertEquals(12_000L, warm.readUnitsPerSecond());
        assertEquals(4_000L, warm.writeUnitsPerSecond());
    }

    // ---- persistence ------------------------------------------------------------------------

    @Test
    void updateTableChangesSurviveRestart() {
        String table = provisionedTable(5, 5);
        update(table, b -> b.billingMode(BillingMode.PAY_PER_REQUEST));
        update(table, b -> b.streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        update(table, b -> b.sseSpecification(s -> s.enabled(true)));
        update(table, b -> b.tableClass(TableClass.STANDARD_INFREQUENT_ACCESS));
        update(table, b -> b.onDemandThroughput(o -> o.maxReadRequestUnits(50L)));
        update(table, b -> b.warmThroughput(w -> w.readUnitsPerSecond(20_000L)));
        update(table, b -> b.deletionProtectionEnabled(true));
        TableDescription before = describe(table);
        restart();
        TableDescription after = describe(table);
        assertEquals(before, after);
        assertEquals(BillingMode.PAY_PER_REQUEST, after.billingModeSummary().billingMode());
        assertEquals(StreamViewType.NEW_AND_OLD_IMAGES, after.streamSpecification().streamViewType());
        assertEquals(SSEType.KMS, after.sseDescription().sseType());
        assertEquals(TableClass.STANDARD_INFREQUENT_ACCESS, after.tableClassSummary().tableClass());
        assertEquals(50L, after.onDemandThroughput().maxReadRequestUnits());
        assertEquals(20_000L, after.warmThroughput().readUnitsPerSecond());
        assertTrue(after.deletionProtectionEnabled());
    }
}
