package io.stator.server.api;

import static io.stator.server.testing.AwsCli.requireOnPath;
import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.AwsCli;
import io.stator.server.testing.CommandProcess;
import io.stator.server.testing.CommandProcess.Result;
import io.stator.server.testing.RawDynamoDb;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalTableNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ListGlobalTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.ReplicaSettingsUpdate;
import software.amazon.awssdk.services.dynamodb.model.ReplicaUpdate;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The six operations of global tables version 2017.11.29 (Legacy), as DynamoDB answers them today
 * (docs/dynamodb/global-tables.md, section 2): CreateGlobalTable, and UpdateGlobalTable adding a
 * replica, are a ValidationException recommending version 2019.11.21; UpdateGlobalTable removing
 * one, DescribeGlobalTable, DescribeGlobalTableSettings and UpdateGlobalTableSettings are
 * GlobalTableNotFoundException for every name, an existing table's included; ListGlobalTables lists
 * none. Nothing changes. The service model's constraints come first, with DynamoDB's texts: a
 * GlobalTableName is a table name (3 to 255 characters of [a-zA-Z0-9_.-]), ListGlobalTables' Limit
 * at least 1, UpdateGlobalTableSettings' lists 1 to 50 replicas and 1 to 20 indexes.
 */
class LegacyGlobalTablesTest {

    private static final String NOT_SUPPORTED = "One or more parameter values were invalid: DynamoDB global tables"
            + " version 2017.11.29 is not supported. We recommend using DynamoDB global tables version 2019.11.21,"
            + " instead of version 2017.11.29 (Legacy).";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    @TempDir
    Path dir;

    private static DynamoDbClient client() {
        return server.client();
    }

    private static String notFound(String name) {
        return "Global table not found: Global table with name: '" + name + "' does not exist.";
    }

    private static String settingsNotFound(String name) {
        return "Global table with name: '" + name + "' does not exist.";
    }

    /** A regional table with the stream version 2017.11.29 asked its replicas for. */
    private static String streamedTable() {
        String table = StatorTestServer.tableName();
        client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        return table;
    }

    // ---- what each operation answers -----------------------------------------------------------

    @Test
    void createGlobalTableIsRefusedAsUnsupportedAndChangesNothing() {
        String table = streamedTable();
        TableDescription before = client().describeTable(b -> b.tableName(table)).table();
        for (List<String> regions : List.of(List.of("us-east-1"), List.of("us-east-1", "us-west-2"), List.of("us-west-2"))) {
            assertValidation(NOT_SUPPORTED, () -> client().createGlobalTable(b -> b.globalTableName(table)
                    .replicationGroup(regions.stream().map(r -> software.amazon.awssdk.services.dynamodb.model.Replica
                            .builder().regionName(r).build()).toList())));
        }
        // A name no table has is refused the same way: the version is refused before any table is looked up.
        assertValidation(NOT_SUPPORTED, () -> client().createGlobalTable(b -> b.globalTableName("no-such-table")
                .replicationGroup(r -> r.regionName("us-east-1"))));
        TableDescription after = client().describeTable(b -> b.tableName(table)).table();
        assertEquals(before, after);
        assertNull(after.globalTableVersion());
        assertFalse(after.hasReplicas());
        assertTrue(client().listGlobalTables().globalTables().isEmpty());
        assertError("GlobalTableNotFoundException", notFound(table),
                () -> client().describeGlobalTable(b -> b.globalTableName(table)));
    }

    @Test
    void createGlobalTableWithoutReplicasIsInvalid() {
        assertValidation("One or more parameter values were invalid: Global table must have atleast one replica",
                () -> client().createGlobalTable(b -> b.globalTableName("no-replicas").replicationGroup(List.of())));
    }

    @Test
    void updateGlobalTableAddingAReplicaIsUnsupportedAndRemovingOneFindsNoGlobalTable() {
        String table = streamedTable();
        TableDescription before = describe(table);
        assertValidation(NOT_SUPPORTED, () -> client().updateGlobalTable(b -> b.globalTableName(table)
                .replicaUpdates(u -> u.create(c -> c.regionName("us-east-2")))));
        // Adding is refused before the global table is looked up, removals beside it or not.
        assertValidation(NOT_SUPPORTED, () -> client().updateGlobalTable(b -> b.globalTableName("no-such-table")
                .replicaUpdates(u -> u.delete(d -> d.regionName("us-west-2")), u -> u.create(c -> c.regionName("us-east-2")))));
        AwsServiceException e = assertError("GlobalTableNotFoundException", notFound(table),
                () -> client().updateGlobalTable(b -> b.globalTableName(table)
                        .replicaUpdates(u -> u.delete(d -> d.regionName("us-west-2")))));
        assertInstanceOf(GlobalTableNotFoundException.class, e);
        assertEquals(before, describe(table));
    }

    private static TableDescription describe(String table) {
        return client().describeTable(b -> b.tableName(table)).table();
    }

    @Test
    void updateGlobalTableWithoutAnUpdateIsInvalid() {
        assertValidation("One or more parameter values were invalid",
                () -> client().updateGlobalTable(b -> b.globalTableName("gt-empty").replicaUpdates(List.of())));
        assertValidation("One or more parameter values were invalid",
                () -> client().updateGlobalTable(b -> b.globalTableName("gt-empty")
                        .replicaUpdates(ReplicaUpdate.builder().build())));
    }

    @Test
    void describeGlobalTableFindsNoneWhetherOrNotATableHasTheName() {
        String table = streamedTable();
        for (String name : List.of(table, "no-such-table")) {
            AwsServiceException e = assertError("GlobalTableNotFoundException", notFound(name),
                    () -> client().describeGlobalTable(b -> b.globalTableName(name)));
            assertInstanceOf(GlobalTableNotFoundException.class, e);
        }
        RawDynamoDb.Reply raw = new RawDynamoDb(server.endpoint()).call("DescribeGlobalTable",
                "{\"GlobalTableName\": \"" + table + "\"}");
        assertEquals(400, raw.status());
        assertEquals("com.amazonaws.dynamodb.v20120810#GlobalTableNotFoundException", raw.type());
    }

    @Test
    void theSettingsOperationsFindNoGlobalTable() {
        String table = streamedTable();
        TableDescription before = describe(table);
        for (String name : List.of(table, "no-such-table")) {
            assertError("GlobalTableNotFoundException", settingsNotFound(name),
                    () -> client().describeGlobalTableSettings(b -> b.globalTableName(name)));
            assertError("GlobalTableNotFoundException", settingsNotFound(name),
                    () -> client().updateGlobalTableSettings(b -> b.globalTableName(name)
                            .globalTableBillingMode(BillingMode.PROVISIONED).globalTableProvisionedWriteCapacityUnits(5L)));
            assertError("GlobalTableNotFoundException", settingsNotFound(name),
                    () -> client().updateGlobalTableSettings(b -> b.globalTableName(name)
                            .replicaSettingsUpdate(r -> r.regionName("us-east-1").replicaProvisionedReadCapacityUnits(5L))));
            assertError("GlobalTableNotFoundException", settingsNotFound(name),
                    () -> client().updateGlobalTableSettings(b -> b.globalTableName(name)));
        }
        assertEquals(before, describe(table));
    }

    @Test
    void listGlobalTablesListsNone() {
        streamedTable();
        ListGlobalTablesResponse all = client().listGlobalTables();
        assertTrue(all.hasGlobalTables(), "an empty list on the wire, not an absent one");
        assertEquals(List.of(), all.globalTables());
        assertNull(all.lastEvaluatedGlobalTableName());
        assertEquals(List.of(), client().listGlobalTables(b -> b.regionName("us-east-1").limit(1)
                .exclusiveStartGlobalTableName("abc")).globalTables());
        assertEquals(List.of(), client().listGlobalTables(b -> b.regionName("us-west-2").limit(Integer.MAX_VALUE)).globalTables());
        RawDynamoDb.Reply raw = new RawDynamoDb(server.endpoint()).call("ListGlobalTables", "{}");
        assertEquals(200, raw.status());
        assertEquals("{\"GlobalTables\":[]}", raw.body());
    }

    // ---- the model's constraints, at each limit and one past it --------------------------------

    /** An operation that takes a GlobalTableName, with the rest of a valid request, and its answer to a valid name. */
    private record ByName(Consumer<String> call, String errorCode, java.util.function.UnaryOperator<String> message) {}

    private static final Map<String, ByName> BY_NAME = Map.of(
            "CreateGlobalTable", new ByName(n -> client().createGlobalTable(b -> b.globalTableName(n)
                    .replicationGroup(r -> r.regionName("us-east-1"))), "ValidationException", n -> NOT_SUPPORTED),
            "UpdateGlobalTable", new ByName(n -> client().updateGlobalTable(b -> b.globalTableName(n)
                    .replicaUpdates(u -> u.delete(d -> d.regionName("us-west-2")))), "GlobalTableNotFoundException",
                    LegacyGlobalTablesTest::notFound),
            "DescribeGlobalTable", new ByName(n -> client().describeGlobalTable(b -> b.globalTableName(n)),
                    "GlobalTableNotFoundException", LegacyGlobalTablesTest::notFound),
            "DescribeGlobalTableSettings", new ByName(n -> client().describeGlobalTableSettings(b -> b.globalTableName(n)),
                    "GlobalTableNotFoundException", LegacyGlobalTablesTest::settingsNotFound),
            "UpdateGlobalTableSettings", new ByName(n -> client().updateGlobalTableSettings(b -> b.globalTableName(n)
                    .globalTableBillingMode(BillingMode.PAY_PER_REQUEST)), "GlobalTableNotFoundException",
                    LegacyGlobalTablesTest::settingsNotFound));

    @ParameterizedTest
    @ValueSource(strings = {"CreateGlobalTable", "UpdateGlobalTable", "DescribeGlobalTable", "DescribeGlobalTableSettings",
            "UpdateGlobalTableSettings"})
    void aGlobalTableNameOfThreeTo255CharactersIsAcceptedAndOthersRefused(String action) {
        ByName op = BY_NAME.get(action);
        for (String name : List.of("g3_", "g".repeat(255), "A-z.0_9")) {
            assertError(op.errorCode(), op.message().apply(name), () -> op.call().accept(name));
        }
        assertValidation("1 validation error detected: Value 'gt' at 'globalTableName' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 3", () -> op.call().accept("gt"));
        String tooLong = "g".repeat(256);
        assertValidation("1 validation error detected: Value '" + tooLong + "' at 'globalTableName' failed to satisfy "
                + "constraint: Member must have length less than or equal to 255", () -> op.call().accept(tooLong));
        assertValidation("1 validation error detected: Value 'a;b' at 'globalTableName' failed to satisfy constraint: "
                + "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+", () -> op.call().accept("a;b"));
        RawDynamoDb.Reply missing = new RawDynamoDb(server.endpoint()).call(action, "{}");
        assertEquals(400, missing.status());
        assertEquals("com.amazon.coral.validate#ValidationException", missing.type());
        assertTrue(missing.message().contains("Value null at 'globalTableName' failed to satisfy constraint: "
                + "Member must not be null"), missing.message());
    }

    @Test
    void theRequiredListsMustBeGiven() {
        RawDynamoDb raw = new RawDynamoDb(server.endpoint());
        RawDynamoDb.Reply create = raw.call("CreateGlobalTable", "{\"GlobalTableName\": \"gt-req\"}");
        assertEquals("1 validation error detected: Value null at 'replicationGroup' failed to satisfy constraint: "
                + "Member must not be null", create.message());
        RawDynamoDb.Reply update = raw.call("UpdateGlobalTable", "{\"GlobalTableName\": \"gt-req\"}");
        assertEquals("1 validation error detected: Value null at 'replicaUpdates' failed to satisfy constraint: "
                + "Member must not be null", update.message());
        RawDynamoDb.Reply noRegion = raw.call("UpdateGlobalTable",
                "{\"GlobalTableName\": \"gt-req\", \"ReplicaUpdates\": [{\"Delete\": {}}]}");
        assertEquals("1 validation error detected: Value null at 'replicaUpdates.1.member.delete.regionName' failed to "
                + "satisfy constraint: Member must not be null", noRegion.message());
    }

    @Test
    void listGlobalTablesTakesALimitOfOneAndRefusesZero() {
        assertEquals(List.of(), client().listGlobalTables(b -> b.limit(1)).globalTables());
        assertValidation("1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
                + "Member must have value greater than or equal to 1", () -> client().listGlobalTables(b -> b.limit(0)));
        assertValidation("1 validation error detected: Value 'ab' at 'exclusiveStartGlobalTableName' failed to satisfy "
                + "constraint: Member must have length greater than or equal to 3",
                () -> client().listGlobalTables(b -> b.exclusiveStartGlobalTableName("ab")));
    }

    @Test
    void updateGlobalTableSettingsTakesItsListsAndUnitsAtTheirLimits() {
        String name = "gt-settings";
        List<ReplicaSettingsUpdate> fifty = new ArrayList<>();
        for (int i = 0; i < 51; i++) fifty.add(ReplicaSettingsUpdate.builder().regionName("region-" + i).build());
        assertError("GlobalTableNotFoundException", settingsNotFound(name),
                () -> client().updateGlobalTableSettings(b -> b.globalTableName(name).replicaSettingsUpdate(fifty.subList(0, 50))));
        assertValidationAt("replicaSettingsUpdate", "Member must have length less than or equal to 50",
                () -> client().updateGlobalTableSettings(b -> b.globalTableName(name).replicaSettingsUpdate(fifty)));
        assertValidationAt("replicaSettingsUpdate", "Member must have length greater than or equal to 1",
                () -> client().updateGlobalTableSettings(b -> b.globalTableName(name).replicaSettingsUpdate(List.of())));

        List<software.amazon.awssdk.services.dynamodb.model.GlobalTableGlobalSecondaryIndexSettingsUpdate> indexes =
                IntStream.range(0, 21).mapToObj(i -> software.amazon.awssdk.services.dynamodb.model
                        .GlobalTableGlobalSecondaryIndexSettingsUpdate.builder().indexName("index-" + i)
                        .provisionedWriteCapacityUnits(1L).build()).toList();
        assertError("GlobalTableNotFoundException", settingsNotFound(name),
                () -> client().updateGlobalTableSettings(b -> b.globalTableName(name)
                        .globalTableGlobalSecondaryIndexSettingsUpdate(indexes.subList(0, 20))));
        assertValidationAt("globalTableGlobalSecondaryIndexSettingsUpdate", "Member must have length less than or equal to 20",
                () -> client().updateGlobalTableSettings(b -> b.globalTableName(name)
                        .globalTableGlobalSecondaryIndexSettingsUpdate(indexes)));

        assertError("GlobalTableNotFoundException", settingsNotFound(name),
                () -> client().updateGlobalTableSettings(b -> b.globalTableName(name).globalTableProvisionedWriteCapacityUnits(1L)));
        assertValidation("1 validation error detected: Value '0' at 'globalTableProvisionedWriteCapacityUnits' failed to "
                + "satisfy constraint: Member must have value greater than or equal to 1",
                () -> client().updateGlobalTableSettings(b -> b.globalTableName(name).globalTableProvisionedWriteCapacityUnits(0L)));
        assertValidation("1 validation error detected: Value 'FREE' at 'globalTableBillingMode' failed to satisfy "
                + "constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
                () -> client().updateGlobalTableSettings(b -> b.globalTableName(name).globalTableBillingMode("FREE")));
    }

    /** A ValidationException about the member at {@code path}, saying {@code constraint}. */
    private static void assertValidationAt(String path, String constraint, org.junit.jupiter.api.function.Executable call) {
        AwsServiceException e = org.junit.jupiter.api.Assertions.assertThrows(AwsServiceException.class, call);
        assertEquals("ValidationException", e.awsErrorDetails().errorCode(), e.getMessage());
        String message = e.awsErrorDetails().errorMessage();
        assertTrue(message.startsWith("1 validation error detected: Value '") && message.contains("' at '" + path
                + "' failed to satisfy constraint: " + constraint), message);
    }

    // ---- permissions ---------------------------------------------------------------------------------

    /**
     * With --policies each operation is authorized on the global table's ARN (no region), and those
     * that change one also on its replica tables: the Developer Guide's example policy ("Allow the
     * CreateGlobalTable action for a specific global table name with replicas allowed in certain
     * Regions only") lets CreateGlobalTable through to DynamoDB's answer for those regions only.
     */
    @Test
    void theOperationsAreAuthorizedOnTheGlobalTableAndItsReplicaTables() throws Exception {
        String account = "000000000000";
        String policies = "{\"" + StatorTestServer.ACCESS_KEY + "\": {\"Version\": \"2012-10-17\", \"Statement\":"
                + " {\"Effect\": \"Allow\", \"Action\": \"dynamodb:*\", \"Resource\": \"*\"}},"
                + " \"AKIDGT\": {\"UserName\": \"gt\", \"Policies\": {\"Version\": \"2012-10-17\", \"Statement\": ["
                + "{\"Effect\": \"Allow\", \"Action\": \"dynamodb:CreateGlobalTable\", \"Resource\": ["
                + "\"arn:aws:dynamodb::" + account + ":global-table/Customers\","
                + " \"arn:aws:dynamodb:us-east-1:" + account + ":table/Customers\","
                + " \"arn:aws:dynamodb:us-west-1:" + account + ":table/Customers\"]},"
                + "{\"Effect\": \"Allow\", \"Action\": [\"dynamodb:DescribeGlobalTable\", \"dynamodb:ListGlobalTables\"],"
                + " \"Resource\": \"arn:aws:dynamodb::" + account + ":global-table/Customers\"}]}}}";
        java.nio.file.Files.writeString(dir.resolve("credentials.txt"), StatorTestServer.ACCESS_KEY + " "
                + StatorTestServer.SECRET_KEY + "\nAKIDGT secret-GT\n");
        java.nio.file.Files.writeString(dir.resolve("policies.json"), policies);
        try (StatorTestServer secured = StatorTestServer.start(o -> o.withCredentials(dir.resolve("credentials.txt"))
                .withPolicies(dir.resolve("policies.json")));
             DynamoDbClient gt = secured.newClient("AKIDGT", "secret-GT")) {
            assertValidation(NOT_SUPPORTED, () -> gt.createGlobalTable(b -> b.globalTableName("Customers")
                    .replicationGroup(r -> r.regionName("us-east-1"), r -> r.regionName("us-west-1"))));
            assertError("AccessDeniedException", "User: arn:aws:iam::" + account + ":user/gt is not authorized to perform:"
                    + " dynamodb:CreateGlobalTable on resource: arn:aws:dynamodb:eu-west-1:" + account + ":table/Customers"
                    + " because no identity-based policy allows the dynamodb:CreateGlobalTable action",
                    () -> gt.createGlobalTable(b -> b.globalTableName("Customers")
                            .replicationGroup(r -> r.regionName("us-east-1"), r -> r.regionName("eu-west-1"))));
            assertError("AccessDeniedException", "User: arn:aws:iam::" + account + ":user/gt is not authorized to perform:"
                    + " dynamodb:CreateGlobalTable on resource: arn:aws:dynamodb::" + account + ":global-table/Orders"
                    + " because no identity-based policy allows the dynamodb:CreateGlobalTable action",
                    () -> gt.createGlobalTable(b -> b.globalTableName("Orders").replicationGroup(r -> r.regionName("us-east-1"))));
            assertError("GlobalTableNotFoundException", notFound("Customers"),
                    () -> gt.describeGlobalTable(b -> b.globalTableName("Customers")));
            assertError("AccessDeniedException", "User: arn:aws:iam::" + account + ":user/gt is not authorized to perform:"
                    + " dynamodb:DescribeGlobalTableSettings on resource: arn:aws:dynamodb::" + account
                    + ":global-table/Customers because no identity-based policy allows the"
                    + " dynamodb:DescribeGlobalTableSettings action",
                    () -> gt.describeGlobalTableSettings(b -> b.globalTableName("Customers")));
            // ListGlobalTables names no resource: only "*" allows it.
            assertError("AccessDeniedException", "User: arn:aws:iam::" + account + ":user/gt is not authorized to perform:"
                    + " dynamodb:ListGlobalTables on resource: * because no identity-based policy allows the"
                    + " dynamodb:ListGlobalTables action", () -> gt.listGlobalTables());
        }
    }

    // ---- the AWS CLI -------------------------------------------------------------------------------

    @Test
    void theAwsCliSeesTheSameAnswers() throws Exception {
        String aws = requireOnPath("aws", "install the AWS CLI");
        Map<String, String> environment = AwsCli.environment(dir);
        Result list = cli(aws, environment, "list-global-tables");
        assertEquals(0, list.exit(), list.stderr());
        assertEquals("{\"GlobalTables\":[]}", list.stdout().replaceAll("\\s", ""));
        Result describe = cli(aws, environment, "describe-global-table", "--global-table-name", "cli-gt");
        assertNotEquals(0, describe.exit());
        assertTrue(describe.stderr().contains("(GlobalTableNotFoundException) when calling the DescribeGlobalTable "
                + "operation: " + notFound("cli-gt")), describe.stderr());
        Result create = cli(aws, environment, "create-global-table", "--global-table-name", "cli-gt",
                "--replication-group", "RegionName=us-east-1");
        assertNotEquals(0, create.exit());
        assertTrue(create.stderr().contains("(ValidationException) when calling the CreateGlobalTable operation: "
                + NOT_SUPPORTED), create.stderr());
    }

    private Result cli(String aws, Map<String, String> environment, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(aws, "dynamodb"));
        command.addAll(List.of(arguments));
        command.addAll(List.of("--endpoint-url", server.endpoint().toString(), "--output", "json"));
        return CommandProcess.run(command, dir, environment, Duration.ofSeconds(120));
    }
}
