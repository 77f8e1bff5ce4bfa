package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static io.stator.server.testing.Tables.definition;
import static io.stator.server.testing.Tables.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.SSEType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableClass;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.Tag;

class DescribeTableTest {

    private static final String ARN_PREFIX = "arn:aws:dynamodb:us-east-1:000000000000:table/";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static TableDescription describe(String table) {
        return server.client().describeTable(b -> b.tableName(table)).table();
    }

    /** DescribeTable's "Table" member as sent. */
    private static JsonNode describeRaw(String table) {
        RawResponses raw = new RawResponses();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            recorded.describeTable(b -> b.tableName(table));
        }
        return raw.lastJson().field("Table").orElseThrow();
    }

    private static Map<String, JsonNode> member(JsonNode node, String name) {
        return node.field(name).orElseThrow(() -> new AssertionError("no " + name)).asObject();
    }

    private static String number(JsonNode node, String name) {
        return node.field(name).orElseThrow(() -> new AssertionError("no " + name)).asNumber();
    }

    private static CreateTableRequest.Builder withSortKey(CreateTableRequest.Builder request) {
        return request.attributeDefinitions(definition("sk", ScalarAttributeType.N), definition("pk", ScalarAttributeType.S))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE));
    }

    @Test
    void describeTableShowsAProvisionedTableInFull() {
        String table = StatorTestServer.tableName();
        TableDescription created = server.client().createTable(withSortKey(Tables.provisioned(table, 5, 7)).build()).tableDescription();
        JsonNode t = describeRaw(table);

        assertEquals(Set.of("AttributeDefinitions", "TableName", "KeySchema", "TableStatus", "CreationDateTime",
                "ProvisionedThroughput", "TableSizeBytes", "ItemCount", "TableArn", "TableId",
                "DeletionProtectionEnabled", "WarmThroughput"), t.asObject().keySet());
        TableDescription d = describe(table);
        assertEquals(List.of(definition("pk", ScalarAttributeType.S), definition("sk", ScalarAttributeType.N)),
                d.attributeDefinitions());
        assertEquals(List.of(key("pk", KeyType.HASH), key("sk", KeyType.RANGE)), d.keySchema());
        assertEquals(table, d.tableName());
        assertEquals(TableStatus.ACTIVE, d.tableStatus());
        assertEquals(created.creationDateTime(), d.creationDateTime());
        assertEquals(Set.of("NumberOfDecreasesToday", "ReadCapacityUnits", "WriteCapacityUnits"),
                member(t, "ProvisionedThroughput").keySet());
        assertEquals(5L, d.provisionedThroughput().readCapacityUnits());
        assertEquals(7L, d.provisionedThroughput().writeCapacityUnits());
        assertEquals(0L, d.provisionedThroughput().numberOfDecreasesToday());
        assertEquals(0L, d.tableSizeBytes());
        assertEquals(0L, d.itemCount());
        assertEquals(ARN_PREFIX + table, d.tableArn());
        assertEquals(created.tableId(), d.tableId());
        assertFalse(d.deletionProtectionEnabled());
        assertEquals(5L, d.warmThroughput().readUnitsPerSecond());
        assertEquals(7L, d.warmThroughput().writeUnitsPerSecond());
        assertEquals("ACTIVE", d.warmThroughput().statusAsString());
    }

    @Test
    void describeTableShowsAnOnDemandTableInFull() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        JsonNode t = describeRaw(table);

        assertEquals(Set.of("AttributeDefinitions", "TableName", "KeySchema", "TableStatus", "CreationDateTime",
                "ProvisionedThroughput", "TableSizeBytes", "ItemCount", "TableArn", "TableId", "BillingModeSummary",
                "DeletionProtectionEnabled", "WarmThroughput"), t.asObject().keySet());
        TableDescription d = describe(table);
        assertEquals(BillingMode.PAY_PER_REQUEST, d.billingModeSummary().billingMode());
        // DynamoDB dates an on-demand table's billing mode from its creation.
        assertEquals(number(t, "CreationDateTime"),
                member(t, "BillingModeSummary").get("LastUpdateToPayPerRequestDateTime").asNumber());
        assertEquals(0L, d.provisionedThroughput().readCapacityUnits());
        assertEquals(0L, d.provisionedThroughput().writeCapacityUnits());
        assertEquals(12_000L, d.warmThroughput().readUnitsPerSecond());
        assertEquals(4_000L, d.warmThroughput().writeUnitsPerSecond());
        assertEquals("ACTIVE", d.warmThroughput().statusAsString());
    }

    @Test
    void describeTableShowsEverySettingButTags() {
        String table = StatorTestServer.tableName();
        String keyArn = "arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab";
        server.client().createTable(Tables.onDemand(table)
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES))
                .sseSpecification(s -> s.enabled(true).sseType(SSEType.KMS).kmsMasterKeyId(keyArn))
                .tableClass(TableClass.STANDARD_INFREQUENT_ACCESS)
                .deletionProtectionEnabled(true)
                .onDemandThroughput(o -> o.maxReadRequestUnits(10L).maxWriteRequestUnits(20L))
                .warmThroughput(w -> w.readUnitsPerSecond(13_000L).writeUnitsPerSecond(5_000L))
                .tags(Tag.builder().key("team").value("db").build())
                .build());
        JsonNode t = describeRaw(table);

        assertEquals(Set.of("AttributeDefinitions", "TableName", "KeySchema", "TableStatus", "CreationDateTime",
                "ProvisionedThroughput", "TableSizeBytes", "ItemCount", "TableArn", "TableId", "BillingModeSummary",
                "StreamSpecification", "LatestStreamLabel", "LatestStreamArn", "SSEDescription", "TableClassSummary",
                "DeletionProtectionEnabled", "OnDemandThroughput", "WarmThroughput"), t.asObject().keySet());
        TableDescription d = describe(table);
        assertTrue(d.streamSpecification().streamEnabled());
        assertEquals(StreamViewType.NEW_AND_OLD_IMAGES, d.streamSpecification().streamViewType());
        assertEquals(ARN_PREFIX + table + "/stream/" + d.latestStreamLabel(), d.latestStreamArn());
        assertEquals("ENABLED", d.sseDescription().statusAsString());
        assertEquals(SSEType.KMS, d.sseDescription().sseType());
        assertEquals(keyArn, d.sseDescription().kmsMasterKeyArn());
        assertEquals(Set.of("TableClass"), member(t, "TableClassSummary").keySet());
        assertEquals(TableClass.STANDARD_INFREQUENT_ACCESS, d.tableClassSummary().tableClass());
        assertTrue(d.deletionProtectionEnabled());
        assertEquals(10L, d.onDemandThroughput().maxReadRequestUnits());
        assertEquals(20L, d.onDemandThroughput().maxWriteRequestUnits());
        assertEquals(13_000L, d.warmThroughput().readUnitsPerSecond());
        assertEquals(5_000L, d.warmThroughput().writeUnitsPerSecond());
    }

    @Test
    void describeTableSortsAttributeDefinitionsByName() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table)
                .attributeDefinitions(definition("z", ScalarAttributeType.S), definition("a", ScalarAttributeType.B))
                .keySchema(key("z", KeyType.HASH), key("a", KeyType.RANGE)).build());
        assertEquals(List.of(definition("a", ScalarAttributeType.B), definition("z", ScalarAttributeType.S)),
                describe(table).attributeDefinitions());
        assertEquals(List.of(key("z", KeyType.HASH), key("a", KeyType.RANGE)), describe(table).keySchema());
    }

    @Test
    void describeTableSaysActiveRightAfterCreateTableSaysCreating() {
        String table = StatorTestServer.tableName();
        assertEquals(TableStatus.CREATING, server.client().createTable(Tables.onDemand(table).build()).tableDescription().tableStatus());
        assertEquals(TableStatus.ACTIVE, describe(table).tableStatus());
    }

    @Test
    void describeTableShowsTheSameTableAfterRestart() {
        String table = StatorTestServer.tableName();
        server.client().createTable(withSortKey(Tables.onDemand(table))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY))
                .sseSpecification(s -> s.enabled(true))
                .onDemandThroughput(o -> o.maxReadRequestUnits(10L))
                .build());
        JsonNode before = describeRaw(table);
        server.restart();
        assertEquals(before, describeRaw(table));
    }

    @Test
    void describeTableRejectsAMissingTable() {
        String table = StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                () -> describe(table));
    }

    @Test
    void describeTableDoesNotTakeATableIdForItsName() {
        String table = StatorTestServer.tableName();
        String tableId = server.client().createTable(Tables.onDemand(table).build()).tableDescription().tableId();
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + tableId + " not found",
                () -> describe(tableId));
    }

    @Test
    void describeTableChecksTheNameBeforeLookingItUp() {
        assertValidation("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 3", () -> describe("ab"));
        String tooLong = "t".repeat(256);
        assertValidation("1 validation error detected: Value '" + tooLong + "' at 'tableName' failed to satisfy "
                + "constraint: Member must have length less than or equal to 255", () -> describe(tooLong));
        assertValidation("1 validation error detected: Value 'a b' at 'tableName' failed to satisfy constraint: "
                + "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+", () -> describe("a b"));
    }

    @Test
    void describeTableRequiresTableName() {
        assertValidation("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: "
                + "Member must not be null", () -> server.client().describeTable(b -> { }));
    }

    @Test
    void describeTableLooksUpNamesOfThreeAnd255Characters() {
        for (String table : List.of("xyz", "n".repeat(255))) {
            assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                    () -> describe(table));
        }
    }

    // ---- the table's ARN as its name ---------------------------------------------------------

    @Test
    void describeTableAcceptsTheTableArn() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        TableDescription byArn = describe(ARN_PREFIX + table);
        assertEquals(table, byArn.tableName());
        assertEquals(describe(table), byArn);
    }

    @Test
    void describeTableRejectsTheArnOfAMissingTable() {
        String arn = ARN_PREFIX + StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + arn + " not found",
                () -> describe(arn));
    }

    @Test
    void describeTableAcceptsAnArnOf1024CharactersAndRejectsOneOf1025() {
        String arn = (ARN_PREFIX + "n".repeat(1024)).substring(0, 1024);
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + arn + " not found",
                () -> describe(arn));
        String tooLong = arn + "n";
        assertValidation("1 validation error detected: Value '" + tooLong + "' at 'tableName' failed to satisfy "
                + "constraint: Member must have length less than or equal to 1024", () -> describe(tooLong));
    }

    @Test
    void describeTableRejectsAnArnOfAnotherRegion() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        String arn = "arn:aws:dynamodb:eu-west-1:000000000000:table/" + table;
        assertValidation("1 validation error detected: Invalid AWS region in '" + arn + "'", () -> describe(arn));
    }

    @Test
    void describeTableRejectsAnArnOfAnotherAccount() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        assertError("AccessDeniedException", "Access is denied",
                () -> describe("arn:aws:dynamodb:us-east-1:123456789012:table/" + table));
    }

    @Test
    void describeTableRejectsIndexAndStreamArns() {
        String table = StatorTestServer.tableName();
        TableDescription d = server.client().createTable(Tables.onDemand(table)
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY)).build())
                .tableDescription();
        for (String arn : List.of(d.tableArn() + "/index/gsi", d.latestStreamArn())) {
            assertValidation("1 validation error detected: Invalid resource type in '" + arn + "'", () -> describe(arn));
        }
    }

    @Test
    void describeTableShowsTimesAsEpochSecondsWithMilliseconds() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        BigDecimal created = new BigDecimal(number(describeRaw(table), "CreationDateTime"));
        assertTrue(created.scale() <= 3 && created.compareTo(BigDecimal.valueOf(1_600_000_000L)) > 0, created.toString());
    }
}
