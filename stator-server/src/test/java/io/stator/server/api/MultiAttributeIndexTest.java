package io.stator.server.api;

import static io.stator.server.testing.Attrs.b;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertErrorMatches;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static io.stator.server.testing.Tables.definition;
import static io.stator.server.testing.Tables.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Global secondary indexes with multi-attribute keys (up to four partition-key and four
 * sort-key attributes, each with its own type): their definitions, the rules of a Query on them
 * (indexes notes §2.3, texts recorded from DynamoDB where known), their order (sort-key
 * attributes left to right, each compared by its type), sparse entries and paging.
 *
 * <p>The shared table is keyed by pk; its index byTenant has the partition key tenant (S) +
 * shardNo (N) and the sort key yr (N), code (B), label (S). (SHARD, YEAR and NAME are
 * reserved words.)
 */
class MultiAttributeIndexTest {

    private static final String INVALID = "One or more parameter values were invalid: ";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static final String TABLE = StatorTestServer.tableName();
    private static final String INDEX = "byTenant";
    private static final Set<String> INDEX_KEY = Set.of("tenant", "shardNo", "yr", "code", "label");

    /** The items of the partition (t1, 1), in the index's order. */
    private static final List<Map<String, AttributeValue>> PARTITION = new ArrayList<>();

    private static final List<String> YEARS = List.of("10", "-1", "2.5", "-10.25");
    private static final List<int[]> CODES = List.of(new int[] {0xff}, new int[] {0x00}, new int[] {0x80, 0x01},
            new int[] {0x7f});
    // By UTF-8 bytes U+FFFD (EF BF BD) comes before U+1F600 (F0 9F 98 80); by Java's UTF-16
    // compareTo it comes after.
    private static final List<String> NAMES = List.of("z", "a", "\u00e9", "\uD83D\uDE00", "\uFFFD");

    @BeforeAll
    static void createAndFillTheTable() {
        server.client().createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("tenant", ScalarAttributeType.S),
                        definition("shardNo", ScalarAttributeType.N), definition("yr", ScalarAttributeType.N),
                        definition("code", ScalarAttributeType.B), definition("label", ScalarAttributeType.S))
                .keySchema(key("pk", KeyType.HASH))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName(INDEX)
                        .keySchema(hash("tenant"), hash("shardNo"), range("yr"), range("code"), range("label"))
                        .projection(p -> p.projectionType(ProjectionType.ALL)).build()));
        int id = 0;
        for (String year : YEARS) {
            for (int[] code : CODES) {
                for (String name : NAMES) {
                    PARTITION.add(put(item("pk", s("item" + id++), "tenant", s("t1"), "shardNo", n("1"), "yr", n(year),
                            "code", b(code), "label", s(name))));
                }
            }
        }
        PARTITION.sort(INDEX_ORDER);
        // Other partitions, and items missing a key attribute (in no partition at all).
        put(item("pk", s("other1"), "tenant", s("t1"), "shardNo", n("2"), "yr", n("1"), "code", b(1), "label", s("a")));
        put(item("pk", s("other2"), "tenant", s("t2"), "shardNo", n("1"), "yr", n("1"), "code", b(1), "label", s("a")));
        put(item("pk", s("sparse1"), "tenant", s("t1"), "yr", n("1"), "code", b(1), "label", s("a")));
        put(item("pk", s("sparse2"), "tenant", s("t1"), "shardNo", n("1"), "yr", n("1"), "code", b(1)));
        Eventually.until("the index holds every entry", () -> queryPartition(b -> { }).count(),
                count -> count == PARTITION.size());
        Eventually.until("the index holds the other partitions", () -> server.client()
                .scan(b -> b.tableName(TABLE).indexName(INDEX)).count(), count -> count == PARTITION.size() + 2);
    }

    private static Map<String, AttributeValue> put(Map<String, AttributeValue> item) {
        server.client().putItem(b -> b.tableName(TABLE).item(item));
        return item;
    }

    private static KeySchemaElement hash(String name) {
        return key(name, KeyType.HASH);
    }

    private static KeySchemaElement range(String name) {
        return key(name, KeyType.RANGE);
    }

    private static int compareUnsigned(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /** year as a number, then code by unsigned bytes, then name by UTF-8 bytes. */
    private static final Comparator<Map<String, AttributeValue>> INDEX_ORDER =
            Comparator.<Map<String, AttributeValue>, BigDecimal>comparing(i -> new BigDecimal(i.get("yr").n()))
                    .thenComparing((x, y) -> compareUnsigned(x.get("code").b().asByteArray(), y.get("code").b().asByteArray()))
                    .thenComparing((x, y) -> compareUnsigned(x.get("label").s().getBytes(StandardCharsets.UTF_8),
                            y.get("label").s().getBytes(StandardCharsets.UTF_8)));

    private static Map<String, AttributeValue> values(Object... namesAndValues) {
        return item(namesAndValues);
    }

    /** A Query of the partition (t1, 1) with more key conditions ("" for none) and :values. */
    private static QueryRequest.Builder partitionQuery(QueryRequest.Builder b, String more, Object... moreValues) {
        Map<String, AttributeValue> values = values(":t", s("t1"), ":s", n("1"));
        values.putAll(values(moreValues));
        return b.tableName(TABLE).indexName(INDEX)
                .keyConditionExpression("tenant = :t AND shardNo = :s" + (more.isEmpty() ? "" : " AND " + more))
                .expressionAttributeValues(values);
    }

    private static QueryResponse queryPartition(java.util.function.Consumer<QueryRequest.Builder> request) {
        return server.client().query(b -> request.accept(partitionQuery(b, "")));
    }

    private static List<Map<String, AttributeValue>> query(String more, Object... moreValues) {
        return server.client().query(b -> partitionQuery(b, more, moreValues)).items();
    }

    private static List<Map<String, AttributeValue>> expected(Predicate<Map<String, AttributeValue>> which) {
        return PARTITION.stream().filter(which).toList();
    }

    /** The first byte of a string's UTF-8 form, unsigned. */
    private static int utf8(AttributeValue name) {
        return name.s().getBytes(StandardCharsets.UTF_8)[0] & 0xff;
    }

    private static BigDecimal year(Map<String, AttributeValue> item) {
        return new BigDecimal(item.get("yr").n());
    }

    private static void assertRefused(String message, String keyCondition, Object... values) {
        assertValidation(message, () -> server.client().query(b -> b.tableName(TABLE).indexName(INDEX)
                .keyConditionExpression(keyCondition).expressionAttributeValues(values(values))));
    }

    // ---- definitions --------------------------------------------------------------------------

    private static CreateTableRequest.Builder table(String name, KeySchemaElement... indexKey) {
        Set<String> names = new HashSet<>();
        for (KeySchemaElement k : indexKey) names.add(k.attributeName());
        List<software.amazon.awssdk.services.dynamodb.model.AttributeDefinition> definitions = new ArrayList<>();
        definitions.add(definition("pk", ScalarAttributeType.S));
        for (String a : names.stream().sorted().toList()) definitions.add(definition(a, ScalarAttributeType.S));
        return CreateTableRequest.builder().tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(definitions).keySchema(hash("pk"))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("multi").keySchema(indexKey)
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build());
    }

    private static void assertCreateRefused(String message, CreateTableRequest.Builder request) {
        String table = request.build().tableName();
        assertValidation(message, () -> server.client().createTable(request.build()));
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                () -> server.client().describeTable(b -> b.tableName(table)));
    }

    @Test
    void createTableAcceptsFourPartitionAndFourSortAttributesOfMixedTypesAndDescribesThemInOrder() {
        String table = StatorTestServer.tableName();
        List<KeySchemaElement> key = List.of(hash("h1"), hash("h2"), hash("h3"), hash("h4"),
                range("r1"), range("r2"), range("r3"), range("r4"));
        TableDescription created = server.client().createTable(b -> b.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("h4", ScalarAttributeType.S),
                        definition("h1", ScalarAttributeType.S), definition("h2", ScalarAttributeType.N),
                        definition("h3", ScalarAttributeType.B), definition("r4", ScalarAttributeType.N),
                        definition("r1", ScalarAttributeType.N), definition("r2", ScalarAttributeType.S),
                        definition("r3", ScalarAttributeType.B))
                .keySchema(hash("pk"))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("wide").keySchema(key)
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build())).tableDescription();
        assertEquals(key, created.globalSecondaryIndexes().get(0).keySchema());
        TableDescription described = server.client().describeTable(b -> b.tableName(table)).table();
        assertEquals(key, described.globalSecondaryIndexes().get(0).keySchema());
        assertEquals(List.of("h1", "h2", "h3", "h4", "pk", "r1", "r2", "r3", "r4"),
                described.attributeDefinitions().stream().map(d -> d.attributeName()).toList());
        assertEquals(ScalarAttributeType.B, described.attributeDefinitions().get(2).attributeType());
    }

    @Test
    void createTableAcceptsAGlobalIndexOfTwoPartitionAttributesOnly() {
        // Once refused ("The second KeySchemaElement is not a RANGE key type"); now two HASH
        // attributes make one partition key (indexes notes §1.2, ACK DDB-TABLE-123).
        String table = StatorTestServer.tableName();
        server.client().createTable(table(table, hash("a"), hash("b")).build());
        assertEquals(List.of(hash("a"), hash("b")),
                server.client().describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().get(0).keySchema());
    }

    @Test
    void createTableRefusesAFifthPartitionOrSortAttribute() {
        assertCreateRefused(INVALID + "The KeySchema exceeds the maximum allowed number of HASH key attributes",
                table(StatorTestServer.tableName(), hash("a"), hash("b"), hash("c"), hash("d"), hash("e")));
        assertCreateRefused(INVALID + "The KeySchema exceeds the maximum allowed number of RANGE key attributes",
                table(StatorTestServer.tableName(), hash("a"), range("b"), range("c"), range("d"), range("e"), range("f")));
    }

    @Test
    void createTableRefusesAPartitionAttributeAfterASortAttribute() {
        assertCreateRefused(INVALID + "All HASH key attributes must precede RANGE key attributes in the KeySchema",
                table(StatorTestServer.tableName(), hash("a"), range("b"), hash("c")));
    }

    @Test
    void createTableRefusesOneAttributeTwiceInAKey() {
        assertCreateRefused("The KeySchema contains multiple key attributes with the same name",
                table(StatorTestServer.tableName(), hash("a"), hash("b"), range("a")));
        assertCreateRefused("Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
                table(StatorTestServer.tableName(), range("a"), range("b")));
    }

    @Test
    void createTableRefusesAMultiAttributeLocalIndexKey() {
        // Local indexes keep one partition and one sort attribute (indexes notes §2.1). The
        // text for an LSI is not recorded (§1.1: UNKNOWN); Stator words it as the model's length
        // constraint on the table's KeySchema (see CreateTableTest).
        String table = StatorTestServer.tableName();
        String element = "com\\.amazonaws\\.dynamodb\\.v20120810\\.KeySchemaElement@[0-9a-f]+";
        assertErrorMatches("ValidationException", "1 validation error detected: Value '\\[" + element + ", " + element
                        + ", " + element + "\\]' at 'localSecondaryIndexes.1.member.keySchema' failed to satisfy "
                        + "constraint: Member must have length less than or equal to 2",
                () -> server.client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("sk", ScalarAttributeType.S),
                                definition("a", ScalarAttributeType.S), definition("b", ScalarAttributeType.S))
                        .keySchema(hash("pk"), range("sk"))
                        .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("local")
                                .keySchema(hash("pk"), range("a"), range("b"))
                                .projection(p -> p.projectionType(ProjectionType.ALL)).build())));
    }

    // ---- queries ------------------------------------------------------------------------------

    @Test
    void aQueryNeedsEqualityOnEveryPartitionAttributeAndReturnsItsPartitionInOrder() {
        assertEquals(PARTITION, queryPartition(b -> { }).items());
        assertEquals(PARTITION.reversed(), queryPartition(b -> b.scanIndexForward(false)).items());
        assertEquals(List.of("other1"), server.client().query(b -> b.tableName(TABLE).indexName(INDEX)
                .keyConditionExpression("tenant = :t AND shardNo = :s").expressionAttributeValues(values(":t", s("t1"),
                        ":s", n("2")))).items().stream().map(i -> i.get("pk").s()).toList());
    }

    @Test
    void aQueryNamesTheKeyAttributesInAnyOrder() {
        // "the clauses can be written in any order" (indexes notes §2.3, recorded from DynamoDB).
        BigDecimal y = new BigDecimal("2.5");
        assertEquals(expected(i -> year(i).compareTo(y) == 0), server.client().query(b -> b.tableName(TABLE)
                .indexName(INDEX).keyConditionExpression("yr = :y AND shardNo = :s AND tenant = :t")
                .expressionAttributeValues(values(":t", s("t1"), ":s", n("1"), ":y", n("2.5")))).items());
    }

    @Test
    void aConditionOnTheFirstSortAttributeNarrowsByNumber() {
        assertEquals(expected(i -> year(i).compareTo(new BigDecimal("-1")) > 0), query("yr > :y", ":y", n("-1")));
        assertEquals(expected(i -> year(i).compareTo(new BigDecimal("-1")) >= 0), query("yr >= :y", ":y", n("-1")));
        assertEquals(expected(i -> year(i).compareTo(new BigDecimal("2.5")) < 0), query("yr < :y", ":y", n("2.5")));
        assertEquals(expected(i -> year(i).compareTo(new BigDecimal("2.5")) <= 0), query("yr <= :y", ":y", n("2.5")));
        assertEquals(expected(i -> year(i).compareTo(new BigDecimal("-1")) >= 0 && year(i).compareTo(BigDecimal.TEN) <= 0),
                query("yr BETWEEN :a AND :b", ":a", n("-1"), ":b", n("10")));
    }

    @Test
    void equalityOnLeadingSortAttributesAndAConditionOnTheNextNarrowByEach() {
        Predicate<Map<String, AttributeValue>> year10 = i -> year(i).compareTo(BigDecimal.TEN) == 0;
        assertEquals(expected(year10.and(i -> compareUnsigned(i.get("code").b().asByteArray(), new byte[] {0x7f}) >= 0
                        && compareUnsigned(i.get("code").b().asByteArray(), new byte[] {(byte) 0x80, 0x01}) <= 0)),
                query("yr = :y AND code BETWEEN :lo AND :hi", ":y", n("10"), ":lo", b(0x7f), ":hi", b(0x80, 0x01)));
        assertEquals(expected(year10.and(i -> compareUnsigned(i.get("code").b().asByteArray(), new byte[] {(byte) 0x80}) < 0)),
                query("yr = :y AND code < :c", ":y", n("10"), ":c", b(0x80)));
        // begins_with on a binary sort attribute matches byte prefixes: 0x80 0x01 begins with 0x80.
        assertEquals(expected(year10.and(i -> i.get("code").b().asByteArray()[0] == (byte) 0x80)),
                query("yr = :y AND begins_with(code, :c)", ":y", n("10"), ":c", b(0x80)));
        // A zero byte is escaped in the stored key; begins_with still matches it as a byte.
        assertEquals(expected(year10.and(i -> i.get("code").b().asByteArray()[0] == 0)),
                query("yr = :y AND begins_with(code, :c)", ":y", n("10"), ":c", b(0x00)));
        Predicate<Map<String, AttributeValue>> year10code00 = year10.and(i -> i.get("code").equals(b(0x00)));
        assertEquals(expected(year10code00), query("yr = :y AND code = :c", ":y", n("10"), ":c", b(0x00)));
        assertEquals(expected(year10code00.and(i -> utf8(i.get("label")) >= 'b' && utf8(i.get("label")) <= 'z')),
                query("yr = :y AND code = :c AND label BETWEEN :b AND :z", ":y", n("10"), ":c", b(0x00), ":b", s("b"),
                        ":z", s("z")));
        assertEquals(expected(year10code00.and(i -> i.get("label").s().equals("\u00e9"))),
                query("yr = :y AND code = :c AND begins_with(label, :p)", ":y", n("10"), ":c", b(0x00), ":p", s("\u00e9")));
        // Every sort attribute by equality: one entry.
        assertEquals(1, query("yr = :y AND code = :c AND label = :n", ":y", n("-10.25"), ":c", b(0xff), ":n", s("z")).size());
        // The reverse of a narrowed query.
        assertEquals(expected(year10code00).reversed(), server.client().query(b -> partitionQuery(b,
                "yr = :y AND code = :c", ":y", n("10"), ":c", b(0x00)).scanIndexForward(false)).items());
    }

    @Test
    void aSortAttributeBeforeTheLastOneNamedNeedsEquality() {
        String message = "RANGE key attributes %s must have equality conditions specified in the query because a "
                + "condition is present on key attribute %s";
        // The three cases recorded from DynamoDB (indexes notes §2.3): a gap, a range condition
        // before a later attribute, the first sort attribute skipped.
        assertRefused(message.formatted("code", "label"), "tenant = :t AND shardNo = :s AND yr = :y AND label = :n",
                ":t", s("t1"), ":s", n("1"), ":y", n("1"), ":n", s("a"));
        assertRefused(message.formatted("yr", "code"), "tenant = :t AND shardNo = :s AND yr > :y AND code = :c",
                ":t", s("t1"), ":s", n("1"), ":y", n("1"), ":c", b(1));
        assertRefused(message.formatted("yr", "code"), "tenant = :t AND shardNo = :s AND code = :c",
                ":t", s("t1"), ":s", n("1"), ":c", b(1));
        assertRefused(message.formatted("yr", "label"), "tenant = :t AND shardNo = :s AND label = :n",
                ":t", s("t1"), ":s", n("1"), ":n", s("a"));
    }

    @Test
    void aQueryMissingAPartitionAttributeIsRefused() {
        // DynamoDB's text is not recorded (indexes notes §2.3: UNKNOWN); Stator uses the
        // single-attribute text, naming the attribute missed, as moto does.
        assertRefused("Query condition missed key schema element: shardNo", "tenant = :t", ":t", s("t1"));
        assertRefused("Query condition missed key schema element: tenant", "shardNo = :s AND yr = :y",
                ":s", n("1"), ":y", n("1"));
        assertRefused("Query condition missed key schema element: shardNo", "tenant = :t AND yr = :y",
                ":t", s("t1"), ":y", n("1"));
    }

    @Test
    void aQueryWithAnythingButEqualityOnAPartitionAttributeIsRefused() {
        // Text not recorded (indexes notes §2.3: UNKNOWN); Stator's is the single-attribute one.
        assertRefused("Query key condition not supported", "tenant = :t AND shardNo > :s", ":t", s("t1"), ":s", n("1"));
        assertRefused("Query key condition not supported", "begins_with(tenant, :t) AND shardNo = :s",
                ":t", s("t"), ":s", n("1"));
        assertRefused("Query key condition not supported", "tenant = :t AND shardNo BETWEEN :a AND :b",
                ":t", s("t1"), ":a", n("1"), ":b", n("2"));
    }

    @Test
    void aQueryWithAConditionOnAnAttributeOutsideTheKeyIsRefused() {
        // Stator reports it as DynamoDB does on single-attribute keys (query-scan notes §1.4): the
        // first key attribute without a condition is "missed".
        assertRefused("Query condition missed key schema element: yr", "tenant = :t AND shardNo = :s AND pk = :p",
                ":t", s("t1"), ":s", n("1"), ":p", s("item1"));
    }

    @Test
    void aQueryValueOfTheWrongTypeIsRefused() {
        assertRefused(INVALID + "Condition parameter type does not match schema type", "tenant = :t AND shardNo = :s",
                ":t", s("t1"), ":s", s("1"));
        assertRefused(INVALID + "Condition parameter type does not match schema type",
                "tenant = :t AND shardNo = :s AND yr = :y AND code > :c", ":t", s("t1"), ":s", n("1"), ":y", n("1"),
                ":c", s("x"));
    }

    @Test
    void legacyKeyConditionsNamingEveryAttributeAreAccepted() {
        // Recorded from DynamoDB for one partition and two sort attributes (indexes notes §2.3,
        // moto's aws_verified test); with several partition attributes it is UNKNOWN, and
        // Stator applies the same rules as to KeyConditionExpression.
        Map<String, Condition> conditions = new LinkedHashMap<>();
        conditions.put("tenant", eq(s("t1")));
        conditions.put("shardNo", eq(n("1")));
        conditions.put("yr", eq(n("-1")));
        conditions.put("code", Condition.builder().comparisonOperator(ComparisonOperator.GT).attributeValueList(b(0x7f)).build());
        assertEquals(expected(i -> year(i).compareTo(new BigDecimal("-1")) == 0
                        && compareUnsigned(i.get("code").b().asByteArray(), new byte[] {0x7f}) > 0),
                server.client().query(b -> b.tableName(TABLE).indexName(INDEX).keyConditions(conditions)).items());
    }

    private static Condition eq(AttributeValue value) {
        return Condition.builder().comparisonOperator(ComparisonOperator.EQ).attributeValueList(value).build();
    }

    @Test
    void aQueryCannotFilterOnAnyIndexKeyAttributeButMayOnTheTableKey() {
        String message = "Filter Expression can only contain non-primary key attributes: Primary key attribute: ";
        for (String attribute : List.of("shardNo", "code", "label")) {
            assertValidation(message + attribute, () -> server.client().query(b -> partitionQuery(b, "")
                    .filterExpression("attribute_exists(" + attribute + ")")));
        }
        assertEquals(expected(i -> i.get("pk").s().compareTo("item5") < 0), server.client().query(b -> partitionQuery(b,
                "", ":p", s("item5")).filterExpression("pk < :p")).items());
    }

    @Test
    void aQueryCannotReadTheIndexConsistently() {
        assertValidation("Consistent reads are not supported on global secondary indexes",
                () -> queryPartition(b -> b.consistentRead(true)));
    }

    // ---- paging -------------------------------------------------------------------------------

    @Test
    void lastEvaluatedKeyHoldsEveryIndexKeyAttributeAndTheTableKey() {
        QueryResponse page = queryPartition(b -> b.limit(3));
        assertEquals(Set.of("pk", "tenant", "shardNo", "yr", "code", "label"), page.lastEvaluatedKey().keySet());
        Map<String, AttributeValue> third = PARTITION.get(2);
        for (String k : page.lastEvaluatedKey().keySet()) assertEquals(third.get(k), page.lastEvaluatedKey().get(k));
        ScanResponse scanned = server.client().scan(b -> b.tableName(TABLE).indexName(INDEX).limit(1));
        assertEquals(Set.of("pk", "tenant", "shardNo", "yr", "code", "label"), scanned.lastEvaluatedKey().keySet());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 80})
    void pagesOfAQueryFollowEachOtherInOrder(int limit) {
        for (boolean forward : List.of(true, false)) {
            List<Map<String, AttributeValue>> all = new ArrayList<>();
            Map<String, AttributeValue> start = null;
            int pages = 0;
            do {
                Map<String, AttributeValue> from = start;
                QueryResponse page = queryPartition(b -> b.limit(limit).scanIndexForward(forward).exclusiveStartKey(from));
                all.addAll(page.items());
                start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
                pages++;
            } while (start != null && pages <= PARTITION.size() + 1);
            assertEquals(forward ? PARTITION : PARTITION.reversed(), all);
        }
    }

    @Test
    void aQueryStartsAfterAStartKeyWithinANarrowedRange() {
        List<Map<String, AttributeValue>> year10 = expected(i -> year(i).compareTo(BigDecimal.TEN) == 0);
        Map<String, AttributeValue> start = new LinkedHashMap<>();
        for (String k : List.of("pk", "tenant", "shardNo", "yr", "code", "label")) start.put(k, year10.get(4).get(k));
        assertEquals(year10.subList(5, year10.size()), server.client().query(b -> partitionQuery(b, "yr = :y", ":y", n("10"))
                .exclusiveStartKey(start)).items());
        assertEquals(year10.subList(0, 4).reversed(), server.client().query(b -> partitionQuery(b, "yr = :y", ":y", n("10"))
                .exclusiveStartKey(start).scanIndexForward(false)).items());
    }

    @Test
    void aStartKeyMissingAnIndexKeyAttributeIsRefused() {
        // The text for a multi-attribute key is not recorded (indexes notes §2.4: UNKNOWN);
        // Stator uses the one DynamoDB gives for any start key without the right attributes.
        Map<String, AttributeValue> start = new LinkedHashMap<>();
        for (String k : List.of("pk", "tenant", "shardNo", "yr", "code")) start.put(k, PARTITION.get(0).get(k));
        assertValidation("The provided starting key is invalid", () -> queryPartition(b -> b.exclusiveStartKey(start)));
        assertValidation("The provided starting key is invalid",
                () -> server.client().scan(b -> b.tableName(TABLE).indexName(INDEX).exclusiveStartKey(start)));
    }

    @Test
    void aParallelScanOfTheIndexReadsEveryEntryOnce() {
        List<Map<String, AttributeValue>> all = new ArrayList<>();
        for (int segment = 0; segment < 4; segment++) {
            int seg = segment;
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> from = start;
                ScanResponse page = server.client().scan(b -> b.tableName(TABLE).indexName(INDEX).segment(seg)
                        .totalSegments(4).limit(10).exclusiveStartKey(from));
                all.addAll(page.items());
                start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
            } while (start != null);
        }
        assertEquals(PARTITION.size() + 2, all.size());
        assertEquals(PARTITION.size() + 2, new HashSet<>(all).size());
        assertTrue(all.containsAll(PARTITION));
    }

    // ---- sparse entries -----------------------------------------------------------------------

    @Test
    void anItemIsInTheIndexOnlyWhileItHasEveryKeyAttribute() {
        Map<String, AttributeValue> key = values("pk", s("coming-and-going"));
        put(item("pk", s("coming-and-going"), "tenant", s("t9"), "shardNo", n("9"), "yr", n("1"), "code", b(1)));
        Predicate<String> inIndex = name -> server.client().query(b -> b.tableName(TABLE).indexName(INDEX)
                        .keyConditionExpression("tenant = :t AND shardNo = :s")
                        .expressionAttributeValues(values(":t", s("t9"), ":s", n("9")))).items().stream()
                .anyMatch(i -> i.get("pk").equals(key.get("pk")) && i.get("label") != null && i.get("label").s().equals(name));
        assertEquals(0, server.client().query(b -> b.tableName(TABLE).indexName(INDEX)
                .keyConditionExpression("tenant = :t AND shardNo = :s")
                .expressionAttributeValues(values(":t", s("t9"), ":s", n("9")))).count(), "no label, no entry");

        server.client().updateItem(b -> b.tableName(TABLE).key(key).updateExpression("SET label = :n").expressionAttributeValues(values(":n", s("x"))));
        Eventually.until("the entry appears once label is set", () -> inIndex.test("x"), in -> in);

        server.client().updateItem(b -> b.tableName(TABLE).key(key).updateExpression("REMOVE shardNo"));
        Eventually.until("the entry goes once shardNo is removed", () -> server.client().scan(b -> b.tableName(TABLE)
                        .indexName(INDEX).filterExpression("pk = :p").expressionAttributeValues(values(":p", key.get("pk"))))
                .count(), count -> count == 0);
        assertEquals(1, server.client().scan(b -> b.tableName(TABLE).filterExpression("pk = :p")
                .expressionAttributeValues(values(":p", key.get("pk")))).count(), "the item itself stays");
    }
}
