package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static io.stator.server.testing.Tables.definition;
import static io.stator.server.testing.Tables.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Secondary index definitions in CreateTable, refused as DynamoDB refuses them (indexes notes §1,
 * dynamodb-errors notes §4.2), and described by CreateTable and DescribeTable as DynamoDB
 * describes them (indexes notes §7). A refused CreateTable creates nothing. Multi-attribute
 * global index keys are in {@link MultiAttributeIndexTest}.
 */
class IndexDefinitionsTest {

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final String ARN_PREFIX = "arn:aws:dynamodb:us-east-1:000000000000:table/";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static final Projection KEYS_ONLY = Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build();
    private static final Projection ALL = Projection.builder().projectionType(ProjectionType.ALL).build();

    private static Projection include(String... attributes) {
        return Projection.builder().projectionType(ProjectionType.INCLUDE).nonKeyAttributes(attributes).build();
    }

    private static GlobalSecondaryIndex gsi(String name, Projection projection, KeySchemaElement... key) {
        return GlobalSecondaryIndex.builder().indexName(name).keySchema(key).projection(projection).build();
    }

    private static LocalSecondaryIndex lsi(String name, Projection projection, KeySchemaElement... key) {
        return LocalSecondaryIndex.builder().indexName(name).keySchema(key).projection(projection).build();
    }

    private static KeySchemaElement hash(String name) {
        return key(name, KeyType.HASH);
    }

    private static KeySchemaElement range(String name) {
        return key(name, KeyType.RANGE);
    }

    private static AttributeDefinition str(String name) {
        return definition(name, ScalarAttributeType.S);
    }

    /** An on-demand table keyed by pk (S) and sk (S), with these definitions besides. */
    private static CreateTableRequest.Builder table(String name, AttributeDefinition... more) {
        List<AttributeDefinition> definitions = new ArrayList<>(List.of(str("pk"), str("sk")));
        definitions.addAll(List.of(more));
        return CreateTableRequest.builder().tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(definitions).keySchema(hash("pk"), range("sk"));
    }

    private static TableDescription create(CreateTableRequest.Builder request) {
        return server.client().createTable(request.build()).tableDescription();
    }

    private static TableDescription describe(String table) {
        return server.client().describeTable(b -> b.tableName(table)).table();
    }

    /** CreateTable is refused with exactly this ValidationException, and creates no table. */
    private static void assertRefused(String message, CreateTableRequest.Builder request) {
        String table = request.build().tableName();
        assertValidation(message, () -> create(request));
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                () -> describe(table));
    }

    private static String newName() {
        return StatorTestServer.tableName();
    }

    // ---- attribute definitions ----------------------------------------------------------------

    @Test
    void createTableRefusesAnIndexKeyAttributeWithoutDefinition() {
        // DynamoDB lists the index's keys and the definitions; the order inside the brackets is
        // not pinned down by its recordings (dynalite's suite accepts either), Stator keeps the
        // order they were given in.
        assertRefused(INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [g, gs], "
                        + "AttributeDefinitions: [pk, sk, g]",
                table(newName(), str("g")).globalSecondaryIndexes(gsi("byG", ALL, hash("g"), range("gs"))));
        assertRefused(INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [pk, ls], "
                        + "AttributeDefinitions: [pk, sk]",
                table(newName()).localSecondaryIndexes(lsi("byLs", ALL, hash("pk"), range("ls"))));
    }

    @Test
    void createTableRefusesADefinitionNoKeyUsesBeforeAnyOtherIndexError() {
        // With indexes, the definitions must be exactly the keys' attributes; DynamoDB checks
        // this before the indexes themselves (indexes notes §1.2, ACK DDB-TABLE-127), so the
        // duplicate index name here goes unreported. The order of "keys used" is Stator's.
        assertRefused(INVALID + "Some AttributeDefinitions are not used. AttributeDefinitions: [pk, sk, g, unused], "
                        + "keys used: [pk, sk, g]",
                table(newName(), str("g"), str("unused")).globalSecondaryIndexes(
                        gsi("twin", ALL, hash("g")), gsi("twin", KEYS_ONLY, hash("g"))));
    }

    @Test
    void createTableRefusesOneAttributeDefinedTwiceForTwoIndexes() {
        assertRefused("Attribute Name is duplicated: x", table(newName(), str("x"), definition("x", ScalarAttributeType.N))
                .globalSecondaryIndexes(gsi("asString", ALL, hash("x")), gsi("asNumber", ALL, hash("x"))));
    }

    // ---- names --------------------------------------------------------------------------------

    @Test
    void createTableRefusesTwoIndexesOfOneName() {
        String message = INVALID + "Duplicate index name: idx";
        assertRefused(message, table(newName(), str("g")).globalSecondaryIndexes(
                gsi("idx", ALL, hash("g")), gsi("idx", ALL, hash("g"))));
        assertRefused(message, table(newName(), str("ls")).localSecondaryIndexes(
                lsi("idx", ALL, hash("pk"), range("ls")), lsi("idx", KEYS_ONLY, hash("pk"), range("ls"))));
        assertRefused(message, table(newName(), str("ls"), str("g"))
                .localSecondaryIndexes(lsi("idx", ALL, hash("pk"), range("ls")))
                .globalSecondaryIndexes(gsi("idx", ALL, hash("g"))));
    }

    @Test
    void createTableChecksIndexNamesAgainstTheNameConstraints() {
        assertRefused("1 validation error detected: Value 'ab' at 'globalSecondaryIndexes.1.member.indexName' failed to "
                        + "satisfy constraint: Member must have length greater than or equal to 3",
                table(newName(), str("g")).globalSecondaryIndexes(gsi("ab", ALL, hash("g"))));
        assertRefused("1 validation error detected: Value 'h;x' at 'localSecondaryIndexes.1.member.indexName' failed "
                        + "to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                table(newName(), str("ls")).localSecondaryIndexes(lsi("h;x", ALL, hash("pk"), range("ls"))));
        String tooLong = "i".repeat(256);
        assertRefused("1 validation error detected: Value '" + tooLong + "' at 'globalSecondaryIndexes.2.member.indexName' "
                        + "failed to satisfy constraint: Member must have length less than or equal to 255",
                table(newName(), str("g")).globalSecondaryIndexes(gsi("fine", ALL, hash("g")), gsi(tooLong, ALL, hash("g"))));
    }

    @Test
    void createTableAcceptsIndexNamesOfThreeAnd255CharactersAndTheTablesOwnName() {
        String table = newName();
        String longest = "A-z.0_".repeat(42) + "xyz";
        create(table(table, str("g"), str("ls"))
                .globalSecondaryIndexes(gsi("abc", ALL, hash("g")), gsi(longest, ALL, hash("g")))
                .localSecondaryIndexes(lsi(table, ALL, hash("pk"), range("ls"))));
        TableDescription d = describe(table);
        assertEquals(List.of("abc", longest), d.globalSecondaryIndexes().stream().map(GlobalSecondaryIndexDescription::indexName).toList());
        assertEquals(table, d.localSecondaryIndexes().get(0).indexName());
    }

    // ---- how many -----------------------------------------------------------------------------

    private static List<GlobalSecondaryIndex> globalIndexes(int count, Projection projection) {
        return IntStream.range(0, count).mapToObj(i -> gsi("gsi" + i, projection, hash("g"))).toList();
    }

    private static List<LocalSecondaryIndex> localIndexes(int count, Projection projection) {
        return IntStream.range(0, count).mapToObj(i -> lsi("lsi" + i, projection, hash("pk"), range("ls"))).toList();
    }

    @Test
    void createTableAcceptsTwentyGlobalIndexesAndRefusesTwentyOne() {
        String table = newName();
        create(table(table, str("g")).globalSecondaryIndexes(globalIndexes(20, KEYS_ONLY)));
        assertEquals(20, describe(table).globalSecondaryIndexes().size());
        assertRefused(INVALID + "GlobalSecondaryIndex count exceeds the per-table limit of 20",
                table(newName(), str("g")).globalSecondaryIndexes(globalIndexes(21, KEYS_ONLY)));
    }

    @Test
    void createTableAcceptsFiveLocalIndexesAndRefusesSix() {
        String table = newName();
        create(table(table, str("ls")).localSecondaryIndexes(localIndexes(5, ALL)));
        assertEquals(5, describe(table).localSecondaryIndexes().size());
        assertRefused(INVALID + "Number of LocalSecondaryIndexes exceeds per-table limit of 5",
                table(newName(), str("ls")).localSecondaryIndexes(localIndexes(6, ALL)));
    }

    private static String[] attributes(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).toArray(String[]::new);
    }

    @Test
    void createTableAcceptsOneHundredProjectedAttributesInAllIndexesAndRefusesOneHundredAndOne() {
        // 20 per index at most; the same name in two indexes counts twice (Projection's API
        // documentation). ALL projections do not count.
        List<GlobalSecondaryIndex> hundred = new ArrayList<>();
        for (int i = 0; i < 5; i++) hundred.add(gsi("gsi" + i, include(attributes("a", 20)), hash("g")));
        hundred.add(gsi("all", ALL, hash("g")));
        String table = newName();
        create(table(table, str("g")).globalSecondaryIndexes(hundred));
        assertEquals(6, describe(table).globalSecondaryIndexes().size());
        // The text of this refusal is not recorded from DynamoDB (indexes notes §1.2: UNKNOWN);
        // Stator uses the only candidate found.
        assertRefused("Number of projected attributes in all indexes exceeds limit of 100",
                table(newName(), str("g"), str("ls")).globalSecondaryIndexes(hundred)
                        .localSecondaryIndexes(lsi("one", include("b"), hash("pk"), range("ls"))));
    }

    @Test
    void createTableRefusesMoreThanTwentyProjectedAttributesInOneIndex() {
        String[] twentyOne = attributes("a", 21);
        assertRefused("1 validation error detected: Value '[" + String.join(", ", twentyOne) + "]' at "
                        + "'globalSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to satisfy constraint: "
                        + "Member must have length less than or equal to 20",
                table(newName(), str("g")).globalSecondaryIndexes(gsi("wide", include(twentyOne), hash("g"))));
    }

    @Test
    void createTableRefusesEmptyIndexLists() {
        assertRefused(INVALID + "List of GlobalSecondaryIndexes is empty",
                table(newName()).globalSecondaryIndexes(List.of()));
        assertRefused(INVALID + "List of LocalSecondaryIndexes is empty",
                table(newName()).localSecondaryIndexes(List.of()));
    }

    // ---- local index keys ---------------------------------------------------------------------

    @Test
    void createTableRefusesALocalIndexOnATableWithoutSortKey() {
        assertRefused(INVALID + "Table KeySchema does not have a range key, which is required when specifying a "
                        + "LocalSecondaryIndex",
                CreateTableRequest.builder().tableName(newName()).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(str("pk"), str("ls")).keySchema(hash("pk"))
                        .localSecondaryIndexes(lsi("byLs", ALL, hash("pk"), range("ls"))));
    }

    @Test
    void createTableRefusesALocalIndexWithoutSortKey() {
        assertRefused(INVALID + "Index KeySchema does not have a range key for index: byPk",
                table(newName()).localSecondaryIndexes(lsi("byPk", ALL, hash("pk"))));
    }

    @Test
    void createTableRefusesALocalIndexWithAnotherPartitionKey() {
        assertRefused(INVALID + "Index KeySchema does not have the same leading hash key as table KeySchema for index: "
                        + "byG. index hash key: g, table hash key: pk",
                table(newName(), str("g"), str("ls")).localSecondaryIndexes(lsi("byG", ALL, hash("g"), range("ls"))));
    }

    @Test
    void createTableRefusesLocalIndexKeysInTheWrongShape() {
        assertRefused("Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
                table(newName(), str("ls")).localSecondaryIndexes(lsi("byLs", ALL, range("ls"), hash("pk"))));
        assertRefused("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
                table(newName(), str("ls")).localSecondaryIndexes(lsi("byLs", ALL, hash("pk"), hash("ls"))));
        assertRefused("Both the Hash Key and the Range Key element in the KeySchema have the same name",
                table(newName()).localSecondaryIndexes(lsi("byPk", ALL, hash("pk"), range("pk"))));
    }

    @Test
    void createTableAcceptsIndexesKeyedLikeTheTable() {
        // A local index identical to the table key, global ones equal to it or reversing it
        // (indexes notes §1.4, recorded from DynamoDB).
        String table = newName();
        create(table(table)
                .localSecondaryIndexes(lsi("sameLocal", KEYS_ONLY, hash("pk"), range("sk")))
                .globalSecondaryIndexes(gsi("sameGlobal", KEYS_ONLY, hash("pk"), range("sk")),
                        gsi("reversed", ALL, hash("sk"), range("pk")), gsi("bySk", KEYS_ONLY, hash("sk"))));
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("a"), "sk", s("b"), "x", n("1"))));
        assertEquals(List.of(item("pk", s("a"), "sk", s("b"))), server.client().query(b -> b.tableName(table)
                .indexName("sameLocal").keyConditionExpression("pk = :a").expressionAttributeValues(item(":a", s("a"))))
                .items());
        Eventually.until("the reversed index holds the item", () -> server.client().query(b -> b.tableName(table)
                        .indexName("reversed").keyConditionExpression("sk = :b").expressionAttributeValues(item(":b", s("b"))))
                .items(), items -> items.equals(List.of(item("pk", s("a"), "sk", s("b"), "x", n("1")))));
    }

    // ---- global index keys and throughput -----------------------------------------------------

    @Test
    void createTableRefusesGlobalIndexKeysInTheWrongShape() {
        assertRefused("Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
                table(newName(), str("g")).globalSecondaryIndexes(gsi("byG", ALL, range("g"))));
        assertRefused("Both the Hash Key and the Range Key element in the KeySchema have the same name",
                table(newName(), str("g")).globalSecondaryIndexes(gsi("byG", ALL, hash("g"), range("g"))));
    }

    @Test
    void createTableRefusesThroughputForAGlobalIndexOfAnOnDemandTable() {
        assertRefused(INVALID + "ProvisionedThroughput should not be specified for index: byG when BillingMode is "
                        + "PAY_PER_REQUEST",
                table(newName(), str("g")).globalSecondaryIndexes(gsi("byG", ALL, hash("g")).toBuilder()
                        .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L)).build()));
    }

    @Test
    void createTableRequiresThroughputForAGlobalIndexOfAProvisionedTable() {
        assertRefused(INVALID + "ProvisionedThroughput is not specified for index: byG",
                table(newName(), str("g")).billingMode(BillingMode.PROVISIONED)
                        .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L))
                        .globalSecondaryIndexes(gsi("byG", ALL, hash("g"))));
    }

    // ---- projections --------------------------------------------------------------------------

    @Test
    void createTableRefusesIncludeWithoutNonKeyAttributes() {
        assertRefused(INVALID + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified",
                table(newName(), str("g")).globalSecondaryIndexes(gsi("byG",
                        Projection.builder().projectionType(ProjectionType.INCLUDE).build(), hash("g"))));
    }

    @Test
    void createTableRefusesNonKeyAttributesWithAllOrKeysOnly() {
        assertRefused(INVALID + "ProjectionType is ALL, but NonKeyAttributes is specified",
                table(newName(), str("g")).globalSecondaryIndexes(gsi("byG",
                        Projection.builder().projectionType(ProjectionType.ALL).nonKeyAttributes("x").build(), hash("g"))));
        assertRefused(INVALID + "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified",
                table(newName(), str("ls")).localSecondaryIndexes(lsi("byLs",
                        Projection.builder().projectionType(ProjectionType.KEYS_ONLY).nonKeyAttributes("x").build(),
                        hash("pk"), range("ls"))));
    }

    @Test
    void createTableRefusesAProjectionWithoutType() {
        assertRefused(INVALID + "Unknown ProjectionType: null", table(newName(), str("g"))
                .globalSecondaryIndexes(gsi("byG", Projection.builder().build(), hash("g"))));
        assertRefused(INVALID + "Unknown ProjectionType: null", table(newName(), str("g"))
                .globalSecondaryIndexes(gsi("byG", Projection.builder().nonKeyAttributes("x").build(), hash("g"))));
    }

    @Test
    void createTableRefusesAnUnknownProjectionType() {
        assertRefused("1 validation error detected: Value 'all' at 'globalSecondaryIndexes.1.member.projection."
                        + "projectionType' failed to satisfy constraint: Member must satisfy enum value set: "
                        + "[ALL, INCLUDE, KEYS_ONLY]",
                table(newName(), str("g")).globalSecondaryIndexes(gsi("byG",
                        Projection.builder().projectionType("all").build(), hash("g"))));
    }

    @Test
    void createTableRefusesAnIndexWithoutProjection() {
        assertRefused("1 validation error detected: Value null at 'globalSecondaryIndexes.1.member.projection' failed to "
                        + "satisfy constraint: Member must not be null",
                table(newName(), str("g")).globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byG")
                        .keySchema(hash("g")).build()));
    }

    @Test
    void createTableRefusesEmptyAndDuplicatedNonKeyAttributes() {
        assertRefused("1 validation error detected: Value '[]' at 'localSecondaryIndexes.1.member.projection."
                        + "nonKeyAttributes' failed to satisfy constraint: Member must have length greater than or equal to 1",
                table(newName(), str("ls")).localSecondaryIndexes(lsi("byLs",
                        Projection.builder().projectionType(ProjectionType.INCLUDE).nonKeyAttributes(List.of()).build(),
                        hash("pk"), range("ls"))));
        // DynamoDB's recordings show "Duplicate element in NonKeyAttributes: x" beside the usual
        // prefix without quoting both together (indexes notes §1.2); Stator prefixes it.
        assertRefused(INVALID + "Duplicate element in NonKeyAttributes: x", table(newName(), str("g"))
                .globalSecondaryIndexes(gsi("byG", include("x", "y", "x"), hash("g"))));
    }

    @Test
    void createTableAcceptsKeyAttributesAmongNonKeyAttributes() {
        // Keys are always projected; naming them is allowed and changes nothing (indexes notes §1.2).
        String table = newName();
        create(table(table, str("g")).globalSecondaryIndexes(gsi("byG", include("g", "pk", "x"), hash("g"))));
        assertEquals(ProjectionType.INCLUDE, describe(table).globalSecondaryIndexes().get(0).projection().projectionType());
    }

    // ---- descriptions -------------------------------------------------------------------------

    private static CreateTableRequest.Builder describedTable(String table) {
        return table(table, str("g"), definition("gs", ScalarAttributeType.N), str("ls"))
                .localSecondaryIndexes(lsi("byLs", include("zeta", "alpha", "mid"), hash("pk"), range("ls")))
                .globalSecondaryIndexes(gsi("zFirst", include("b", "a"), hash("g"), range("gs")),
                        gsi("aSecond", KEYS_ONLY, hash("gs")));
    }

    @Test
    void createTableDescribesIndexesAsCreating() {
        RawResponses raw = new RawResponses();
        String table = newName();
        TableDescription d;
        try (DynamoDbClient recorded = server.newClient(raw)) {
            d = recorded.createTable(describedTable(table).build()).tableDescription();
        }
        JsonNode json = raw.lastJson().field("TableDescription").orElseThrow();
        JsonNode global = json.field("GlobalSecondaryIndexes").orElseThrow().asArray().get(0);
        // Outside the CreateTable response a global index also shows its WarmThroughput.
        assertEquals(Set.of("IndexName", "KeySchema", "Projection", "IndexStatus", "ProvisionedThroughput",
                "IndexSizeBytes", "ItemCount", "IndexArn"), global.asObject().keySet());
        assertEquals(Set.of("IndexName", "KeySchema", "Projection", "IndexSizeBytes", "ItemCount", "IndexArn"),
                json.field("LocalSecondaryIndexes").orElseThrow().asArray().get(0).asObject().keySet());
        for (GlobalSecondaryIndexDescription g : d.globalSecondaryIndexes()) {
            assertEquals(IndexStatus.CREATING, g.indexStatus());
            assertEquals(0L, g.itemCount());
            assertEquals(0L, g.indexSizeBytes());
        }
    }

    @Test
    void describeTableDescribesGlobalIndexes() {
        RawResponses raw = new RawResponses();
        String table = newName();
        create(describedTable(table));
        TableDescription d;
        try (DynamoDbClient recorded = server.newClient(raw)) {
            d = recorded.describeTable(b -> b.tableName(table)).table();
        }
        // In the order given; NonKeyAttributes sorted by name (indexes notes §7.1, ACK DDB-TABLE-125).
        assertEquals(List.of("zFirst", "aSecond"),
                d.globalSecondaryIndexes().stream().map(GlobalSecondaryIndexDescription::indexName).toList());
        GlobalSecondaryIndexDescription first = d.globalSecondaryIndexes().get(0);
        assertEquals(List.of(hash("g"), range("gs")), first.keySchema());
        assertEquals(include("a", "b"), first.projection());
        assertEquals(IndexStatus.ACTIVE, first.indexStatus());
        assertEquals(ARN_PREFIX + table + "/index/zFirst", first.indexArn());
        assertEquals(0L, first.itemCount());
        assertEquals(0L, first.indexSizeBytes());
        assertEquals(0L, first.provisionedThroughput().readCapacityUnits());
        assertEquals(0L, first.provisionedThroughput().writeCapacityUnits());
        assertEquals(0L, first.provisionedThroughput().numberOfDecreasesToday());
        assertEquals(12_000L, first.warmThroughput().readUnitsPerSecond());
        assertEquals(4_000L, first.warmThroughput().writeUnitsPerSecond());
        assertEquals("ACTIVE", first.warmThroughput().statusAsString());
        assertNull(first.backfilling(), "no Backfilling for an index CreateTable made");
        GlobalSecondaryIndexDescription second = d.globalSecondaryIndexes().get(1);
        assertEquals(List.of(hash("gs")), second.keySchema());
        assertEquals(KEYS_ONLY, second.projection());

        JsonNode json = raw.lastJson().field("Table").orElseThrow().field("GlobalSecondaryIndexes").orElseThrow()
                .asArray().get(0);
        assertEquals(Set.of("IndexName", "KeySchema", "Projection", "IndexStatus", "ProvisionedThroughput",
                "IndexSizeBytes", "ItemCount", "IndexArn", "WarmThroughput"), json.asObject().keySet());
        assertEquals(Set.of("NumberOfDecreasesToday", "ReadCapacityUnits", "WriteCapacityUnits"),
                json.field("ProvisionedThroughput").orElseThrow().asObject().keySet());
        assertFalse(raw.lastJson().field("Table").orElseThrow().field("GlobalSecondaryIndexes").orElseThrow()
                .asArray().get(1).field("Projection").orElseThrow().field("NonKeyAttributes").isPresent());
    }

    @Test
    void describeTableDescribesLocalIndexesWithoutStatusOrThroughput() {
        RawResponses raw = new RawResponses();
        String table = newName();
        create(describedTable(table));
        TableDescription d;
        try (DynamoDbClient recorded = server.newClient(raw)) {
            d = recorded.describeTable(b -> b.tableName(table)).table();
        }
        LocalSecondaryIndexDescription local = d.localSecondaryIndexes().get(0);
        assertEquals("byLs", local.indexName());
        assertEquals(List.of(hash("pk"), range("ls")), local.keySchema());
        assertEquals(include("alpha", "mid", "zeta"), local.projection());
        assertEquals(ARN_PREFIX + table + "/index/byLs", local.indexArn());
        assertEquals(0L, local.itemCount());
        assertEquals(0L, local.indexSizeBytes());
        assertEquals(Set.of("IndexName", "KeySchema", "Projection", "IndexSizeBytes", "ItemCount", "IndexArn"),
                raw.lastJson().field("Table").orElseThrow().field("LocalSecondaryIndexes").orElseThrow()
                        .asArray().get(0).asObject().keySet());
        // The definitions come back sorted by name.
        assertEquals(List.of("g", "gs", "ls", "pk", "sk"),
                d.attributeDefinitions().stream().map(AttributeDefinition::attributeName).toList());
    }

    @Test
    void describeTableShowsTheThroughputOfAGlobalIndexOfAProvisionedTable() {
        String table = newName();
        create(table(table, str("g")).billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L))
                .globalSecondaryIndexes(gsi("byG", ALL, hash("g")).toBuilder()
                        .provisionedThroughput(t -> t.readCapacityUnits(3L).writeCapacityUnits(7L)).build()));
        GlobalSecondaryIndexDescription g = describe(table).globalSecondaryIndexes().get(0);
        assertEquals(3L, g.provisionedThroughput().readCapacityUnits());
        assertEquals(7L, g.provisionedThroughput().writeCapacityUnits());
        assertEquals(0L, g.provisionedThroughput().numberOfDecreasesToday());
        // A provisioned index's warm throughput mirrors its provisioned units (indexes notes §7.1).
        assertEquals(3L, g.warmThroughput().readUnitsPerSecond());
        assertEquals(7L, g.warmThroughput().writeUnitsPerSecond());
    }

    @Test
    void describeTableCountsIndexEntries() {
        // DynamoDB refreshes these counts about every six hours (DescribeTable's API
        // documentation); Stator keeps them exact, global ones once the entries have arrived.
        String table = newName();
        create(describedTable(table));
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("1"), "sk", s("1"), "ls", s("a"), "g", s("x"),
                "gs", n("1"), "alpha", s("kept"), "other", s("dropped"))));
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("1"), "sk", s("2"), "gs", n("2"))));
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("2"), "sk", s("1"))));
        LocalSecondaryIndexDescription local = describe(table).localSecondaryIndexes().get(0);
        assertEquals(1L, local.itemCount());
        assertEquals(true, local.indexSizeBytes() > 0);
        TableDescription d = Eventually.until("both global indexes counted", () -> describe(table),
                t -> t.globalSecondaryIndexes().get(0).itemCount() == 1 && t.globalSecondaryIndexes().get(1).itemCount() == 2);
        assertEquals(true, d.globalSecondaryIndexes().get(0).indexSizeBytes() > 0);
        assertEquals(3L, d.itemCount());
    }

    @Test
    void indexDefinitionsSurviveARestart() {
        String table = newName();
        create(describedTable(table));
        TableDescription before = describe(table);
        server.restart();
        TableDescription after = describe(table);
        assertEquals(before.globalSecondaryIndexes(), after.globalSecondaryIndexes());
        assertEquals(before.localSecondaryIndexes(), after.localSecondaryIndexes());
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("1"), "sk", s("1"), "ls", s("a"))));
        assertEquals(1, server.client().query(b -> b.tableName(table).indexName("byLs").keyConditionExpression("pk = :p")
                .expressionAttributeValues(Map.of(":p", s("1")))).count());
    }
}
