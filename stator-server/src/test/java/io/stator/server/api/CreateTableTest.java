package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertErrorMatches;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static io.stator.server.testing.Tables.definition;
import static io.stator.server.testing.Tables.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.SSEType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableClass;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.Tag;

class CreateTableTest {

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final String AWS_MANAGED_KEY_ARN = "arn:aws:kms:us-east-1:000000000000:key/[0-9a-f-]{36}";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static String newName() {
        return StatorTestServer.tableName();
    }

    private static TableDescription create(CreateTableRequest.Builder request) {
        return server.client().createTable(request.build()).tableDescription();
    }

    private static TableDescription describe(String table) {
        return server.client().describeTable(b -> b.tableName(table)).table();
    }

    private static void assertNotCreated(String table) {
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                () -> describe(table));
    }

    // ---- key schema -------------------------------------------------------------------------

    static Stream<Arguments> keyShapes() {
        List<Arguments> shapes = new ArrayList<>();
        for (ScalarAttributeType partition : List.of(ScalarAttributeType.S, ScalarAttributeType.N, ScalarAttributeType.B)) {
            shapes.add(Arguments.of(partition, null));
            for (ScalarAttributeType sort : List.of(ScalarAttributeType.S, ScalarAttributeType.N, ScalarAttributeType.B)) {
                shapes.add(Arguments.of(partition, sort));
            }
        }
        return shapes.stream();
    }

    private static AttributeValue valueOf(ScalarAttributeType type) {
        return switch (type) {
            case S -> AttributeValue.fromS("key");
            case N -> AttributeValue.fromN("42");
            case B -> AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {1, 2, 3}));
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    @ParameterizedTest(name = "partition {0}, sort {1}")
    @MethodSource("keyShapes")
    void createTableAcceptsEveryKeyShapeAndKeyType(ScalarAttributeType partitionType, ScalarAttributeType sortType) {
        String table = newName();
        CreateTableRequest.Builder request = Tables.onDemand(table);
        if (sortType == null) {
            request.attributeDefinitions(definition("pk", partitionType)).keySchema(key("pk", KeyType.HASH));
        } else {
            request.attributeDefinitions(definition("pk", partitionType), definition("sk", sortType))
                    .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE));
        }
        TableDescription created = create(request);

        assertEquals(request.build().keySchema(), created.keySchema());
        assertEquals(request.build().attributeDefinitions(), created.attributeDefinitions());
        assertEquals(created.keySchema(), describe(table).keySchema());
        Map<String, AttributeValue> itemKey = new HashMap<>(Map.of("pk", valueOf(partitionType)));
        if (sortType != null) itemKey.put("sk", valueOf(sortType));
        Map<String, AttributeValue> item = new HashMap<>(itemKey);
        item.put("other", AttributeValue.fromS("value"));
        server.client().putItem(b -> b.tableName(table).item(item));
        assertEquals(item, server.client().getItem(b -> b.tableName(table).key(itemKey)).item());
    }

    @Test
    void createTableRejectsThreeKeySchemaElements() {
        String table = newName();
        String element = "com\\.amazonaws\\.dynamodb\\.v20120810\\.KeySchemaElement@[0-9a-f]+";
        assertErrorMatches("ValidationException", "1 validation error detected: Value '\\[" + element + ", " + element
                        + ", " + element + "\\]' at 'keySchema' failed to satisfy constraint: Member must have length "
                        + "less than or equal to 2",
                () -> create(Tables.onDemand(table)
                        .attributeDefinitions(definition("a", ScalarAttributeType.S), definition("b", ScalarAttributeType.S),
                                definition("c", ScalarAttributeType.S))
                        .keySchema(key("a", KeyType.HASH), key("b", KeyType.RANGE), key("c", KeyType.RANGE))));
        assertNotCreated(table);
    }

    @Test
    void createTableRejectsEmptyKeySchema() {
        assertValidation("1 validation error detected: Value '[]' at 'keySchema' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 1",
                () -> create(Tables.onDemand(newName()).keySchema(List.of())));
    }

    @Test
    void createTableRequiresKeySchema() {
        assertValidation("1 validation error detected: Value null at 'keySchema' failed to satisfy constraint: "
                + "Member must not be null",
                () -> create(CreateTableRequest.builder().tableName(newName()).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(definition("pk", ScalarAttributeType.S))));
    }

    @Test
    void createTableRequiresAttributeDefinitions() {
        assertValidation("1 validation error detected: Value null at 'attributeDefinitions' failed to satisfy "
                + "constraint: Member must not be null",
                () -> create(CreateTableRequest.builder().tableName(newName()).billingMode(BillingMode.PAY_PER_REQUEST)
                        .keySchema(key("pk", KeyType.HASH))));
    }

    @Test
    void createTableReportsAnEmptyKeySchemaElementsMembers() {
        assertValidation("2 validation errors detected: Value null at 'keySchema.1.member.attributeName' failed to "
                + "satisfy constraint: Member must not be null; Value null at 'keySchema.1.member.keyType' failed to "
                + "satisfy constraint: Member must not be null",
                () -> create(Tables.onDemand(newName()).keySchema(b -> { })));
    }

    @Test
    void createTableReportsAnEmptyAttributeDefinitionsMembersTypeFirst() {
        assertValidation("2 validation errors detected: Value null at 'attributeDefinitions.1.member.attributeType' "
                + "failed to satisfy constraint: Member must not be null; Value null at "
                + "'attributeDefinitions.1.member.attributeName' failed to satisfy constraint: Member must not be null",
                () -> create(Tables.onDemand(newName()).attributeDefinitions(b -> { })));
    }

    @Test
    void createTableRejectsRangeKeyBeforeHashKey() {
        assertValidation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
                () -> create(Tables.onDemand(newName())
                        .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("sk", ScalarAttributeType.S))
                        .keySchema(key("sk", KeyType.RANGE), key("pk", KeyType.HASH))));
    }

    @Test
    void createTableRejectsRangeKeyAlone() {
        assertValidation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
                () -> create(Tables.onDemand(newName()).keySchema(key("pk", KeyType.RANGE))));
    }

    @Test
    void createTableRejectsTwoHashKeys() {
        assertValidation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
                () -> create(Tables.onDemand(newName())
                        .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("sk", ScalarAttributeType.S))
                        .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.HASH))));
    }

    @Test
    void createTableRejectsSameAttributeAsHashAndRangeKey() {
        assertValidation("Both the Hash Key and the Range Key element in the KeySchema have the same name",
                () -> create(Tables.onDemand(newName())
                        .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("sk", ScalarAttributeType.S))
                        .keySchema(key("pk", KeyType.HASH), key("pk", KeyType.RANGE))));
    }

    @Test
    void createTableRejectsKeyAttributeWithoutDefinition() {
        assertValidation(INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [pk], "
                + "AttributeDefinitions: [other]",
                () -> create(Tables.onDemand(newName()).attributeDefinitions(definition("other", ScalarAttributeType.S))));
    }

    @Test
    void createTableMatchesKeyAttributeNamesCaseSensitively() {
        assertValidation(INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [PK], "
                + "AttributeDefinitions: [pk]",
                () -> create(Tables.onDemand(newName()).keySchema(key("PK", KeyType.HASH))));
    }

    @Test
    void createTableRejectsMoreKeyElementsThanDefinitions() {
        assertValidation("Invalid KeySchema: Some index key attribute have no definition",
                () -> create(Tables.onDemand(newName()).keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))));
    }

    @Test
    void createTableRejectsEmptyAttributeDefinitions() {
        assertValidation("Invalid KeySchema: Some index key attribute have no definition",
                () -> create(Tables.onDemand(newName()).attributeDefinitions(List.of())));
    }

    @ParameterizedTest
    @EnumSource(value = ScalarAttributeType.class, names = {"S", "N"})
    void createTableRejectsDuplicateAttributeDefinition(ScalarAttributeType secondType) {
        assertValidation("Attribute Name is duplicated: pk",
                () -> create(Tables.onDemand(newName())
                        .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("pk", secondType))));
    }

    @Test
    void createTableRejectsAttributeDefinitionNotUsedAsKey() {
        String table = newName();
        assertValidation(INVALID + "Number of attributes in KeySchema does not exactly match number of attributes "
                + "defined in AttributeDefinitions",
                () -> create(Tables.onDemand(table)
                        .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("x", ScalarAttributeType.N))));
        assertNotCreated(table);
    }

    @Test
    void createTableRejectsUnknownAttributeType() {
        assertValidation("1 validation error detected: Value 'X' at 'attributeDefinitions.1.member.attributeType' "
                + "failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]",
                () -> create(Tables.onDemand(newName())
                        .attributeDefinitions(b -> b.attributeName("pk").attributeType("X"))));
    }

    @Test
    void createTableRejectsUnknownKeyType() {
        assertValidation("1 validation error detected: Value 'SORT' at 'keySchema.1.member.keyType' failed to "
                + "satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]",
                () -> create(Tables.onDemand(newName()).keySchema(b -> b.attributeName("pk").keyType("SORT"))));
    }

    @Test
    void createTableAcceptsKeyAttributeNameOf255Characters() {
        String name = "k".repeat(255);
        String table = newName();
        create(Tables.onDemand(table).attributeDefinitions(definition(name, ScalarAttributeType.S))
                .keySchema(key(name, KeyType.HASH)));
        assertEquals(name, describe(table).keySchema().get(0).attributeName());
    }

    @Test
    void createTableRejectsKeyAttributeNameOf256Characters() {
        String name = "k".repeat(256);
        assertValidation("2 validation errors detected: Value '" + name + "' at "
                + "'attributeDefinitions.1.member.attributeName' failed to satisfy constraint: Member must have length "
                + "less than or equal to 255; Value '" + name + "' at 'keySchema.1.member.attributeName' failed to "
                + "satisfy constraint: Member must have length less than or equal to 255",
                () -> create(Tables.onDemand(newName()).attributeDefinitions(definition(name, ScalarAttributeType.S))
                        .keySchema(key(name, KeyType.HASH))));
    }

    // ---- table name -------------------------------------------------------------------------

    @Test
    void createTableAcceptsNamesOfThreeAnd255Characters() {
        String shortest = "abc";
        String longest = (newName() + "x".repeat(255)).substring(0, 255);
        assertEquals(shortest, create(Tables.onDemand(shortest)).tableName());
        assertEquals(longest, create(Tables.onDemand(longest)).tableName());
        assertEquals(longest, describe(longest).tableName());
    }

    @Test
    void createTableAcceptsEveryCharacterOfTheNamePattern() {
        String table = "azAZ09_.-" + newName();
        assertEquals(table, create(Tables.onDemand(table)).tableName());
    }

    /**
     * CreateTable without a TableName has a text of its own, alone whatever else is missing
     * (dynalite's test/createTable.js, recorded against DynamoDB).
     */
    @Test
    void createTableWithoutTableNameSaysTheParameterIsRequired() {
        assertValidation("The parameter 'TableName' is required but was not present in the request",
                () -> server.client().createTable(b -> b.billingMode(BillingMode.PAY_PER_REQUEST)));
        assertValidation("The parameter 'TableName' is required but was not present in the request",
                () -> server.client().createTable(b -> b.keySchema(KeySchemaElement.builder().attributeName("pk")
                        .keyType(KeyType.HASH).build()).billingMode(BillingMode.PAY_PER_REQUEST)));
    }

    @Test
    void createTableRejectsNameOfTwoCharacters() {
        assertValidation("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 3",
                () -> create(Tables.onDemand("ab")));
    }

    @Test
    void createTableRejectsNameOf256Characters() {
        String name = "t".repeat(256);
        assertValidation("1 validation error detected: Value '" + name + "' at 'tableName' failed to satisfy "
                + "constraint: Member must have length less than or equal to 255",
                () -> create(Tables.onDemand(name)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc!", "with space", "a/b/c", "colon:name", "caf\u00e9", "tab\tle"})
    void createTableRejectsNameWithCharactersOutsideThePattern(String name) {
        assertValidation("1 validation error detected: Value '" + name + "' at 'tableName' failed to satisfy "
                + "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                () -> create(Tables.onDemand(name)));
    }

    @Test
    void createTableReportsLengthAndPatternOfAnEmptyName() {
        assertValidation("2 validation errors detected: Value '' at 'tableName' failed to satisfy constraint: Member "
                + "must have length greater than or equal to 3; Value '' at 'tableName' failed to satisfy constraint: "
                + "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                () -> create(Tables.onDemand("")));
    }

    @Test
    void createTableRejectsNameOfAnExistingTable() {
        String table = newName();
        create(Tables.onDemand(table));
        assertError("ResourceInUseException", "Table already exists: " + table,
                () -> create(Tables.provisioned(table, 1, 1)));
        assertEquals(BillingMode.PAY_PER_REQUEST, describe(table).billingModeSummary().billingMode());
    }

    // ---- the description of a new table ------------------------------------------------------

    @Test
    void createTableDescribesTheNewProvisionedTable() {
        RawResponses raw = new RawResponses();
        String table = newName();
        Instant before = Instant.now().minusSeconds(1);
        try (DynamoDbClient recorded = server.newClient(raw)) {
            TableDescription d = recorded.createTable(Tables.provisioned(table, 5, 7).build()).tableDescription();
            assertEquals(TableStatus.CREATING, d.tableStatus());
            assertEquals(table, d.tableName());
            assertEquals("arn:aws:dynamodb:us-east-1:000000000000:table/" + table, d.tableArn());
            assertTrue(d.tableId().matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"),
                    d.tableId());
            assertTrue(!d.creationDateTime().isBefore(before) && d.creationDateTime().isBefore(Instant.now().plusSeconds(1)));
            assertEquals(5L, d.provisionedThroughput().readCapacityUnits());
            assertEquals(7L, d.provisionedThroughput().writeCapacityUnits());
            assertEquals(0L, d.provisionedThroughput().numberOfDecreasesToday());
            assertEquals(0L, d.itemCount());
            assertEquals(0L, d.tableSizeBytes());
            assertFalse(d.deletionProtectionEnabled());
        }
        JsonNode description = raw.lastJson().field("TableDescription").orElseThrow();
        assertEquals(Set.of("AttributeDefinitions", "TableName", "KeySchema", "TableStatus", "CreationDateTime",
                "ProvisionedThroughput", "TableSizeBytes", "ItemCount", "TableArn", "TableId",
                "DeletionProtectionEnabled"), description.asObject().keySet());
        assertEquals(Set.of("NumberOfDecreasesToday", "ReadCapacityUnits", "WriteCapacityUnits"),
                description.field("ProvisionedThroughput").orElseThrow().asObject().keySet());
    }

    @Test
    void createTableDescribesTheNewOnDemandTableWithoutBillingDate() {
        RawResponses raw = new RawResponses();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            TableDescription d = recorded.createTable(Tables.onDemand(newName()).build()).tableDescription();
            assertEquals(BillingMode.PAY_PER_REQUEST, d.billingModeSummary().billingMode());
            assertNull(d.billingModeSummary().lastUpdateToPayPerRequestDateTime());
            assertEquals(0L, d.provisionedThroughput().readCapacityUnits());
            assertEquals(0L, d.provisionedThroughput().writeCapacityUnits());
        }
        JsonNode description = raw.lastJson().field("TableDescription").orElseThrow();
        assertFalse(description.field("WarmThroughput").isPresent(), "no WarmThroughput unless requested");
        assertEquals(Set.of("BillingMode"), description.field("BillingModeSummary").orElseThrow().asObject().keySet());
    }

    @Test
    void createTableDoesNotEchoTags() {
        RawResponses raw = new RawResponses();
        String table = newName();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            recorded.createTable(Tables.onDemand(table).tags(Tag.builder().key("team").value("db").build()).build());
        }
        assertFalse(raw.lastJson().field("TableDescription").orElseThrow().field("Tags").isPresent());
        assertEquals(List.of(Tag.builder().key("team").value("db").build()),
                server.client().listTagsOfResource(b -> b.resourceArn(describe(table).tableArn())).tags());
    }

    // ---- billing mode and provisioned throughput ---------------------------------------------

    @Test
    void createTableRejectsProvisionedThroughputWithPayPerRequest() {
        String table = newName();
        assertValidation(INVALID + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when "
                + "BillingMode is PAY_PER_REQUEST",
                () -> create(Tables.onDemand(table).provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L))));
        assertNotCreated(table);
    }

    @Test
    void createTableChecksBillingModeBeforeKeySchema() {
        assertValidation(INVALID + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when "
                + "BillingMode is PAY_PER_REQUEST",
                () -> create(Tables.onDemand(newName()).keySchema(key("pk", KeyType.RANGE))
                        .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L))));
    }

    @Test
    void createTableRequiresProvisionedThroughputWhenBillingModeIsProvisioned() {
        assertValidation(INVALID + "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode "
                + "is PROVISIONED",
                () -> create(Tables.onDemand(newName()).billingMode(BillingMode.PROVISIONED)));
    }

    @Test
    void createTableRequiresProvisionedThroughputWhenBillingModeIsOmitted() {
        assertValidation(INVALID + "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode "
                + "is PROVISIONED",
                () -> create(Tables.onDemand(newName()).billingMode((String) null)));
    }

    @Test
    void createTableTakesProvisionedAsTheDefaultBillingMode() {
        String table = newName();
        create(Tables.provisioned(table, 3, 4).billingMode((String) null));
        TableDescription d = describe(table);
        assertNull(d.billingModeSummary(), "a table never on demand has no BillingModeSummary");
        assertEquals(3L, d.provisionedThroughput().readCapacityUnits());
        assertEquals(4L, d.provisionedThroughput().writeCapacityUnits());
    }

    @Test
    void createTableRejectsUnknownBillingMode() {
        assertValidation("1 validation error detected: Value 'FREE' at 'billingMode' failed to satisfy constraint: "
                + "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
                () -> create(Tables.onDemand(newName()).billingMode("FREE")));
    }

    @Test
    void createTableAcceptsOneCapacityUnit() {
        String table = newName();
        create(Tables.provisioned(table, 1, 1));
        assertEquals(1L, describe(table).provisionedThroughput().readCapacityUnits());
    }

    @Test
    void createTableRejectsZeroCapacityUnitsWritesFirst() {
        assertValidation("2 validation errors detected: Value '0' at 'provisionedThroughput.writeCapacityUnits' "
                + "failed to satisfy constraint: Member must have value greater than or equal to 1; Value '0' at "
                + "'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have value "
                + "greater than or equal to 1",
                () -> create(Tables.provisioned(newName(), 0, 0)));
    }

    @Test
    void createTableRequiresBothCapacityUnits() {
        assertValidation("1 validation error detected: Value null at 'provisionedThroughput.writeCapacityUnits' "
                + "failed to satisfy constraint: Member must not be null",
                () -> create(Tables.provisioned(newName(), 1, 1).provisionedThroughput(t -> t.readCapacityUnits(4L))));
    }

    @Test
    void createTableAcceptsCapacityAtThePerTableQuota() {
        String table = newName();
        create(Tables.provisioned(table, 40_000, 40_000));
        assertEquals(40_000L, describe(table).provisionedThroughput().readCapacityUnits());
        assertEquals(40_000L, describe(table).provisionedThroughput().writeCapacityUnits());
    }

    @Test
    void createTableRejectsReadCapacityAboveThePerTableQuota() {
        String table = newName();
        assertError("LimitExceededException", "The requested ReadCapacityUnits, 40001, is above the per table "
                + "maximum for the account in us-east-1. Per table maximum: 40000",
                () -> create(Tables.provisioned(table, 40_001, 40_000)));
        assertNotCreated(table);
    }

    @Test
    void createTableRejectsWriteCapacityAboveThePerTableQuota() {
        assertError("LimitExceededException", "The requested WriteCapacityUnits, 40001, is above the per table "
                + "maximum for the account in us-east-1. Per table maximum: 40000",
                () -> create(Tables.provisioned(newName(), 1, 40_001)));
    }

    @Test
    void createTableTakesCapacityAtTheBoundAsAboveTheQuota() {
        assertError("LimitExceededException", "The requested ReadCapacityUnits, 1000000000000, is above the per "
                + "table maximum for the account in us-east-1. Per table maximum: 40000",
                () -> create(Tables.provisioned(newName(), 1_000_000_000_000L, 1)));
    }

    @Test
    void createTableRejectsCapacityOutOfBoundsReadsFirst() {
        assertValidation("Given value 1000000000001 for ReadCapacityUnits is out of bounds",
                () -> create(Tables.provisioned(newName(), 1_000_000_000_001L, 1_000_000_000_001L)));
        assertValidation("Given value 1000000000001 for WriteCapacityUnits is out of bounds",
                () -> create(Tables.provisioned(newName(), 1, 1_000_000_000_001L)));
    }

    // ---- streams ----------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(value = StreamViewType.class, names = "UNKNOWN_TO_SDK_VERSION", mode = EnumSource.Mode.EXCLUDE)
    void createTableEnablesAStreamOfEachViewType(StreamViewType viewType) {
        String table = newName();
        TableDescription created = create(Tables.onDemand(table)
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(viewType)));
        TableDescription d = describe(table);
        assertTrue(d.streamSpecification().streamEnabled());
        assertEquals(viewType, d.streamSpecification().streamViewType());
        assertTrue(d.latestStreamLabel().matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}"),
                d.latestStreamLabel());
        assertEquals(d.tableArn() + "/stream/" + d.latestStreamLabel(), d.latestStreamArn());
        assertEquals(d.latestStreamArn(), created.latestStreamArn());
    }

    @Test
    void createTableRequiresViewTypeForAnEnabledStream() {
        assertValidation(INVALID + "Table is being created with a stream enabled, UpdateViewType is required",
                () -> create(Tables.onDemand(newName()).streamSpecification(s -> s.streamEnabled(true))));
    }

    @Test
    void createTableRejectsViewTypeForADisabledStream() {
        assertValidation(INVALID + "Table is being created with a stream disabled, UpdateViewType should not be specified",
                () -> create(Tables.onDemand(newName())
                        .streamSpecification(s -> s.streamEnabled(false).streamViewType(StreamViewType.NEW_IMAGE))));
    }

    @Test
    void createTableAcceptsADisabledStreamAndShowsNone() {
        String table = newName();
        create(Tables.onDemand(table).streamSpecification(s -> s.streamEnabled(false)));
        TableDescription d = describe(table);
        assertNull(d.streamSpecification());
        assertNull(d.latestStreamArn());
        assertNull(d.latestStreamLabel());
    }

    @Test
    void createTableRequiresStreamEnabledInAStreamSpecification() {
        assertValidation("1 validation error detected: Value null at 'streamSpecification.streamEnabled' failed to "
                + "satisfy constraint: Member must not be null",
                () -> create(Tables.onDemand(newName())
                        .streamSpecification(s -> s.streamViewType(StreamViewType.KEYS_ONLY))));
    }

    @Test
    void createTableRejectsUnknownStreamViewType() {
        assertValidation("1 validation error detected: Value 'ALL' at 'streamSpecification.streamViewType' failed to "
                + "satisfy constraint: Member must satisfy enum value set: [OLD_IMAGE, KEYS_ONLY, NEW_AND_OLD_IMAGES, "
                + "NEW_IMAGE]",
                () -> create(Tables.onDemand(newName()).streamSpecification(s -> s.streamEnabled(true).streamViewType("ALL"))));
    }

    // ---- encryption -------------------------------------------------------------------------

    @Test
    void createTableWithSseEnabledUsesTheAwsManagedKey() {
        String enabled = newName();
        String kms = newName();
        create(Tables.onDemand(enabled).sseSpecification(s -> s.enabled(true)));
        create(Tables.onDemand(kms).sseSpecification(s -> s.sseType(SSEType.KMS)));
        var d = describe(enabled).sseDescription();
        assertEquals("ENABLED", d.statusAsString());
        assertEquals(SSEType.KMS, d.sseType());
        assertTrue(d.kmsMasterKeyArn().matches(AWS_MANAGED_KEY_ARN), d.kmsMasterKeyArn());
        assertEquals(d, describe(kms).sseDescription());
    }

    @Test
    void createTableWithAKmsKeyIdShowsTheKeysArn() {
        String byId = newName();
        String byArn = newName();
        String keyId = "1234abcd-12ab-34cd-56ef-1234567890ab";
        String keyArn = "arn:aws:kms:us-east-1:000000000000:key/" + keyId;
        create(Tables.onDemand(byId).sseSpecification(s -> s.enabled(true).sseType(SSEType.KMS).kmsMasterKeyId(keyId)));
        create(Tables.onDemand(byArn).sseSpecification(s -> s.enabled(true).sseType(SSEType.KMS).kmsMasterKeyId(keyArn)));
        assertEquals(keyArn, describe(byId).sseDescription().kmsMasterKeyArn());
        assertEquals(keyArn, describe(byArn).sseDescription().kmsMasterKeyArn());
    }

    @Test
    void createTableWithDefaultEncryptionShowsNoSseDescription() {
        String empty = newName();
        String disabled = newName();
        create(Tables.onDemand(empty).sseSpecification(s -> { }));
        create(Tables.onDemand(disabled).sseSpecification(s -> s.enabled(false)));
        assertNull(describe(empty).sseDescription());
        assertNull(describe(disabled).sseDescription());
    }

    @Test
    void createTableRejectsInconsistentSseSpecifications() {
        assertValidation(INVALID + "SSEType can not be specified if Enabled is false",
                () -> create(Tables.onDemand(newName()).sseSpecification(s -> s.enabled(false).sseType(SSEType.KMS))));
        assertValidation(INVALID + "KMSMasterKeyId can not be specified if Enabled is false",
                () -> create(Tables.onDemand(newName()).sseSpecification(s -> s.enabled(false).kmsMasterKeyId("k"))));
        assertValidation(INVALID + "SSEType AES256 is not supported",
                () -> create(Tables.onDemand(newName()).sseSpecification(s -> s.enabled(true).sseType(SSEType.AES256))));
        assertValidation(INVALID + "SSEType KMS is required if KMSMasterKeyId is specified",
                () -> create(Tables.onDemand(newName()).sseSpecification(s -> s.enabled(true).kmsMasterKeyId("k"))));
    }

    @Test
    void createTableAcceptsKmsKeyIdOfOneCharacter() {
        String table = newName();
        create(Tables.onDemand(table).sseSpecification(s -> s.enabled(true).sseType(SSEType.KMS).kmsMasterKeyId("k")));
        assertEquals("arn:aws:kms:us-east-1:000000000000:key/k", describe(table).sseDescription().kmsMasterKeyArn());
    }

    @Test
    void createTableRejectsEmptyKmsKeyId() {
        assertValidation("1 validation error detected: Value '' at 'sSESpecification.kMSMasterKeyId' failed to "
                + "satisfy constraint: Member must have length greater than or equal to 1",
                () -> create(Tables.onDemand(newName())
                        .sseSpecification(s -> s.enabled(true).sseType(SSEType.KMS).kmsMasterKeyId(""))));
    }

    @Test
    void createTableRejectsUnknownSseType() {
        assertValidation("1 validation error detected: Value 'XTS' at 'sSESpecification.sSEType' failed to satisfy "
                + "constraint: Member must satisfy enum value set: [AES256, KMS]",
                () -> create(Tables.onDemand(newName()).sseSpecification(s -> s.sseType("XTS"))));
    }

    // ---- table class, deletion protection, tags ---------------------------------------------

    @Test
    void createTableWithInfrequentAccessClassShowsTableClassSummary() {
        String table = newName();
        create(Tables.onDemand(table).tableClass(TableClass.STANDARD_INFREQUENT_ACCESS));
        var summary = describe(table).tableClassSummary();
        assertEquals(TableClass.STANDARD_INFREQUENT_ACCESS, summary.tableClass());
        assertNull(summary.lastUpdateDateTime());
    }

    @Test
    void createTableWithStandardClassShowsNoTableClassSummary() {
        String table = newName();
        create(Tables.onDemand(table).tableClass(TableClass.STANDARD));
        assertNull(describe(table).tableClassSummary());
    }

    @Test
    void createTableRejectsUnknownTableClass() {
        assertValidation("Invalid table-class parameter provided. Please try again with a valid table-class value: "
                + "[STANDARD, STANDARD_INFREQUENT_ACCESS].",
                () -> create(Tables.onDemand(newName()).tableClass("GLACIER")));
    }

    @Test
    void createTableWithDeletionProtectionShowsIt() {
        String table = newName();
        assertTrue(create(Tables.onDemand(table).deletionProtectionEnabled(true)).deletionProtectionEnabled());
        assertTrue(describe(table).deletionProtectionEnabled());
    }

    private static List<Tag> tags(int count) {
        List<Tag> tags = new ArrayList<>();
        for (int i = 0; i < count; i++) tags.add(Tag.builder().key("key" + i).value("value" + i).build());
        return tags;
    }

    @Test
    void createTableAcceptsFiftyTags() {
        String table = newName();
        TableDescription d = create(Tables.onDemand(table).tags(tags(50)));
        assertEquals(tags(50), server.client().listTagsOfResource(b -> b.resourceArn(d.tableArn())).tags());
    }

    @Test
    void createTableRejectsFiftyOneTags() {
        String table = newName();
        assertValidation("Number of Tags exceed the current limit for the provided ResourceArn",
                () -> create(Tables.onDemand(table).tags(tags(51))));
        assertNotCreated(table);
    }

    @Test
    void createTableChecksTagsAsTagResourceDoes() {
        assertValidation("Tag Key cannot be prefixed with aws:, Key: aws:owner",
                () -> create(Tables.onDemand(newName()).tags(Tag.builder().key("aws:owner").value("me").build())));
        assertValidation("The Tag Key provided is invalid, Key: null",
                () -> create(Tables.onDemand(newName()).tags(Tag.builder().build())));
        assertValidation("The Tag Value provided is invalid, Value: " + "v".repeat(257),
                () -> create(Tables.onDemand(newName()).tags(Tag.builder().key("k").value("v".repeat(257)).build())));
        assertValidation("Duplicate Tag Keys provided as input: Duplicate Tag Key found k",
                () -> create(Tables.onDemand(newName()).tags(Tag.builder().key("k").value("1").build(),
                        Tag.builder().key("k").value("2").build())));
    }

    // ---- on-demand and warm throughput ------------------------------------------------------

    @Test
    void createTableSetsOnDemandMaximums() {
        String table = newName();
        create(Tables.onDemand(table).onDemandThroughput(t -> t.maxReadRequestUnits(100L).maxWriteRequestUnits(200L)));
        var onDemand = describe(table).onDemandThroughput();
        assertEquals(100L, onDemand.maxReadRequestUnits());
        assertEquals(200L, onDemand.maxWriteRequestUnits());
    }

    @Test
    void createTableShowsOnlyTheOnDemandMaximumsSet() {
        String table = newName();
        create(Tables.onDemand(table).onDemandThroughput(t -> t.maxReadRequestUnits(100L)));
        RawResponses raw = new RawResponses();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            recorded.describeTable(b -> b.tableName(table));
        }
        JsonNode onDemand = raw.lastJson().field("Table").orElseThrow().field("OnDemandThroughput").orElseThrow();
        assertEquals("100", onDemand.field("MaxReadRequestUnits").orElseThrow().asNumber());
        assertEquals(Set.of("MaxReadRequestUnits"), onDemand.asObject().keySet());
    }

    @Test
    void createTableTakesEmptyOnDemandThroughputAsNotGiven() {
        String table = newName();
        create(Tables.onDemand(table).onDemandThroughput(t -> { }));
        assertNull(describe(table).onDemandThroughput());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, -2})
    void createTableRejectsOnDemandMaximumBelowOne(long value) {
        assertValidation(INVALID + "Requested MaxReadRequestUnits for OnDemandThroughput for table is outside of valid range",
                () -> create(Tables.onDemand(newName())
                        .onDemandThroughput(t -> t.maxReadRequestUnits(value).maxWriteRequestUnits(value))));
        assertValidation(INVALID + "Requested MaxWriteRequestUnits for OnDemandThroughput for table is outside of valid range",
                () -> create(Tables.onDemand(newName()).onDemandThroughput(t -> t.maxWriteRequestUnits(value))));
    }

    @Test
    void createTableAcceptsOnDemandMaximumsOfOne() {
        String table = newName();
        create(Tables.onDemand(table).onDemandThroughput(t -> t.maxReadRequestUnits(1L).maxWriteRequestUnits(1L)));
        assertEquals(1L, describe(table).onDemandThroughput().maxReadRequestUnits());
    }

    @Test
    void createTableAcceptsOnDemandMaximumsAtThePerTableQuota() {
        String table = newName();
        create(Tables.onDemand(table).onDemandThroughput(t -> t.maxReadRequestUnits(40_000L).maxWriteRequestUnits(40_000L)));
        assertEquals(40_000L, describe(table).onDemandThroughput().maxWriteRequestUnits());
    }

    @Test
    void createTableRejectsOnDemandMaximumsAboveThePerTableQuota() {
        assertError("LimitExceededException", "Subscriber limit exceeded: Requested MaxReadRequestUnits for "
                + "OnDemandThroughput for table exceeds TableMaxReadCapacityUnits of the account in region us-east-1",
                () -> create(Tables.onDemand(newName()).onDemandThroughput(t -> t.maxReadRequestUnits(40_001L))));
        assertError("LimitExceededException", "Subscriber limit exceeded: Requested MaxWriteRequestUnits for "
                + "OnDemandThroughput for table exceeds TableMaxWriteCapacityUnits of the account in region us-east-1",
                () -> create(Tables.onDemand(newName()).onDemandThroughput(t -> t.maxWriteRequestUnits(40_001L))));
    }

    @Test
    void createTableRejectsOnDemandThroughputForAProvisionedTable() {
        assertValidation(INVALID + "MaxReadRequestUnits for OnDemandThroughput cannot be specified when the table "
                + "BillingMode is PROVISIONED",
                () -> create(Tables.provisioned(newName(), 1, 1).onDemandThroughput(t -> t.maxReadRequestUnits(10L))));
        assertValidation(INVALID + "MaxWriteRequestUnits for OnDemandThroughput cannot be specified when the table "
                + "BillingMode is PROVISIONED",
                () -> create(Tables.provisioned(newName(), 1, 1).onDemandThroughput(t -> t.maxWriteRequestUnits(10L))));
    }

    @Test
    void createTableWithWarmThroughputEchoesItAsUpdating() {
        String table = newName();
        TableDescription created = create(Tables.onDemand(table)
                .warmThroughput(w -> w.readUnitsPerSecond(12_000L).writeUnitsPerSecond(4_000L)));
        assertEquals(12_000L, created.warmThroughput().readUnitsPerSecond());
        assertEquals(4_000L, created.warmThroughput().writeUnitsPerSecond());
        assertEquals("UPDATING", created.warmThroughput().statusAsString());
        assertEquals("ACTIVE", describe(table).warmThroughput().statusAsString());
    }

    @Test
    void createTableFillsAPartialWarmThroughputFromTheBaseline() {
        String table = newName();
        create(Tables.onDemand(table).warmThroughput(w -> w.readUnitsPerSecond(12_001L)));
        var warm = describe(table).warmThroughput();
        assertEquals(12_001L, warm.readUnitsPerSecond());
        assertEquals(4_000L, warm.writeUnitsPerSecond());
    }

    @Test
    void createTableRejectsWarmThroughputBelowTheOnDemandInitialThroughput() {
        String see = " See: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html"
                + "#on-demand-capacity-mode-initial";
        assertValidation(INVALID + "Requested ReadUnitsPerSecond for WarmThroughput for table is lower than initial "
                + "throughput for OnDemand." + see,
                () -> create(Tables.onDemand(newName()).warmThroughput(w -> w.readUnitsPerSecond(11_999L))));
        assertValidation(INVALID + "Requested WriteUnitsPerSecond for WarmThroughput for table is lower than initial "
                + "throughput for OnDemand." + see,
                () -> create(Tables.onDemand(newName()).warmThroughput(w -> w.writeUnitsPerSecond(3_999L))));
    }

    @Test
    void createTableRejectsWarmThroughputBelowTheProvisionedThroughput() {
        assertValidation(INVALID + "Requested ReadUnitsPerSecond for WarmThroughput for table is lower than "
                + "ReadCapacityUnits of ProvisionedThroughput",
                () -> create(Tables.provisioned(newName(), 10, 10).warmThroughput(w -> w.readUnitsPerSecond(9L).writeUnitsPerSecond(9L))));
        assertValidation(INVALID + "Requested WriteUnitsPerSecond for WarmThroughput for table is lower than "
                + "WriteCapacityUnits of ProvisionedThroughput",
                () -> create(Tables.provisioned(newName(), 10, 10).warmThroughput(w -> w.writeUnitsPerSecond(9L))));
        String table = newName();
        create(Tables.provisioned(table, 10, 10).warmThroughput(w -> w.readUnitsPerSecond(10L).writeUnitsPerSecond(10L)));
        assertEquals(10L, describe(table).warmThroughput().readUnitsPerSecond());
    }

    // ---- ResourcePolicy (GetResourcePolicyTest follows it further) --------------------------

    @Test
    void createTableChecksItsResourcePolicyAsPutResourcePolicyDoes() {
        String name = newName();
        assertValidation(INVALID + "Invalid policy document: This policy contains invalid Json",
                () -> create(Tables.onDemand(name).resourcePolicy("{")));
        assertValidation(INVALID + "Invalid policy document: Could not parse the policy: Statement is empty!",
                () -> create(Tables.onDemand(name).resourcePolicy("{\"Version\": \"2012-10-17\", \"Statement\": []}")));
        String arn = "arn:aws:dynamodb:us-east-1:000000000000:table/" + name;
        create(Tables.onDemand(name).resourcePolicy("{\"Statement\": {\"Effect\": \"Deny\", \"Principal\": \"*\", "
                + "\"Action\": \"dynamodb:DeleteTable\", \"Resource\": \"" + arn + "\"}}"));
        assertEquals("{\"Version\":\"2008-10-17\",\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":\"*\","
                + "\"Action\":\"dynamodb:DeleteTable\",\"Resource\":\"" + arn + "\"}]}",
                server.client().getResourcePolicy(b -> b.resourceArn(arn)).policy());
    }

    @Test
    void createTableSurvivesRestart() {
        String table = newName();
        TableDescription created = create(Tables.provisioned(table, 2, 3).tableClass(TableClass.STANDARD_INFREQUENT_ACCESS)
                .deletionProtectionEnabled(true));
        server.restart();
        TableDescription d = describe(table);
        assertEquals(created.tableId(), d.tableId());
        assertEquals(created.creationDateTime(), d.creationDateTime());
        assertEquals(TableClass.STANDARD_INFREQUENT_ACCESS, d.tableClassSummary().tableClass());
        assertTrue(d.deletionProtectionEnabled());
    }
}
