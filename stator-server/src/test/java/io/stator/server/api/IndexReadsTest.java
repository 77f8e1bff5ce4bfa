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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Query and Scan with IndexName, on global and local secondary indexes of each projection type:
 * which index is read and how, what comes back (Select, projections, fetches from the table for
 * local indexes), filters on keys, paging (LastEvaluatedKey, ExclusiveStartKey, ties, parallel
 * segments) and the capacity billed. One table with three global and three local indexes, filled
 * once, serves the reads; tests that need particular items make their own table.
 */
class IndexReadsTest {

    private static final String INVALID = "One or more parameter values were invalid: ";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    /** The shared table: pk (S) and sk (N), the global indexes on g (S) and gs (N), the local ones on ls (N). */
    private static final String TABLE = StatorTestServer.tableName();
    private static final List<Map<String, AttributeValue>> ITEMS = new ArrayList<>();

    private static final Set<String> GLOBAL_KEY = Set.of("g", "gs");
    private static final Set<String> LOCAL_KEY = Set.of("ls");

    @BeforeAll
    static void createAndFillTheTable() {
        server.client().createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("sk", ScalarAttributeType.N),
                        definition("g", ScalarAttributeType.S), definition("gs", ScalarAttributeType.N),
                        definition("ls", ScalarAttributeType.N))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .localSecondaryIndexes(
                        local("lsiKeys", Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()),
                        local("lsiInclude", include("amount")),
                        local("lsiAll", Projection.builder().projectionType(ProjectionType.ALL).build()))
                .globalSecondaryIndexes(
                        global("gsiKeys", true, Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()),
                        global("gsiInclude", true, include("amount")),
                        global("gsiAll", true, Projection.builder().projectionType(ProjectionType.ALL).build()),
                        global("gsiHash", false, Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())));
        // Partitions p0, p1, p2; g0 and g1 hold 14 and 13 entries with only four gs values (many
        // ties); some items lack g (in no global index), ls (in no local one) or amount.
        for (int i = 0; i < 30; i++) {
            Map<String, AttributeValue> item = new LinkedHashMap<>();
            item.put("pk", s("p" + i % 3));
            item.put("sk", n(Integer.toString(i)));
            if (i % 10 != 9) item.put("g", s("g" + i % 2));
            item.put("gs", n(Integer.toString(i % 4)));
            if (i % 8 != 7) item.put("ls", n(Integer.toString(i * 7 % 10)));
            if (i % 5 != 4) item.put("amount", n(Integer.toString(i * 10)));
            item.put("note", s("note" + i));
            ITEMS.add(item);
            server.client().putItem(b -> b.tableName(TABLE).item(item));
        }
        // Global entries follow the table asynchronously: wait until every index has them all.
        for (String index : List.of("gsiKeys", "gsiInclude", "gsiAll", "gsiHash")) {
            int expected = entries(index.equals("gsiHash") ? Set.of("g") : GLOBAL_KEY).size();
            Eventually.until(index + " holds " + expected + " entries",
                    () -> server.client().scan(b -> b.tableName(TABLE).indexName(index).select(Select.COUNT)).count(),
                    count -> count == expected);
        }
    }

    private static LocalSecondaryIndex local(String name, Projection projection) {
        return LocalSecondaryIndex.builder().indexName(name)
                .keySchema(key("pk", KeyType.HASH), key("ls", KeyType.RANGE)).projection(projection).build();
    }

    private static GlobalSecondaryIndex global(String name, boolean withSortKey, Projection projection) {
        GlobalSecondaryIndex.Builder b = GlobalSecondaryIndex.builder().indexName(name).projection(projection);
        return withSortKey ? b.keySchema(key("g", KeyType.HASH), key("gs", KeyType.RANGE)).build()
                : b.keySchema(key("g", KeyType.HASH)).build();
    }

    private static Projection include(String... attributes) {
        return Projection.builder().projectionType(ProjectionType.INCLUDE).nonKeyAttributes(attributes).build();
    }

    // ---- the model the results are checked against ---------------------------------------------

    /** The items that have every one of these index key attributes. */
    private static List<Map<String, AttributeValue>> entries(Set<String> indexKey) {
        return ITEMS.stream().filter(i -> i.keySet().containsAll(indexKey)).toList();
    }

    /** The items with these attribute values. */
    private static List<Map<String, AttributeValue>> itemsWith(Set<String> indexKey, String name, AttributeValue value) {
        return entries(indexKey).stream().filter(i -> value.equals(i.get(name))).toList();
    }

    /** The item cut down to the table key, the index key and {@code nonKey} (those it has). */
    private static Map<String, AttributeValue> projected(Map<String, AttributeValue> item, Set<String> indexKey,
                                                         String... nonKey) {
        Set<String> keep = new HashSet<>(Set.of("pk", "sk"));
        keep.addAll(indexKey);
        keep.addAll(List.of(nonKey));
        Map<String, AttributeValue> out = new HashMap<>();
        item.forEach((name, value) -> {
            if (keep.contains(name)) out.put(name, value);
        });
        return out;
    }

    private static Set<Map<String, AttributeValue>> asSet(List<Map<String, AttributeValue>> items) {
        Set<Map<String, AttributeValue>> set = new HashSet<>(items);
        assertEquals(items.size(), set.size(), "no item twice");
        return set;
    }

    private static BigDecimal number(Map<String, AttributeValue> item, String name) {
        return new BigDecimal(item.get(name).n());
    }

    /** The items are in order of the number attribute {@code name} (ascending or descending); ties in any order. */
    private static void assertOrderedBy(String name, boolean ascending, List<Map<String, AttributeValue>> items) {
        Comparator<BigDecimal> order = ascending ? Comparator.naturalOrder() : Comparator.reverseOrder();
        for (int i = 1; i < items.size(); i++) {
            assertTrue(order.compare(number(items.get(i - 1), name), number(items.get(i), name)) <= 0,
                    () -> "not ordered by " + name + ": " + items);
        }
    }

    private static Map<String, AttributeValue> values(Object... namesAndValues) {
        return item(namesAndValues);
    }

    private static QueryResponse query(Consumer<QueryRequest.Builder> request) {
        return server.client().query(b -> request.accept(b.tableName(TABLE)));
    }

    private static ScanResponse scan(Consumer<ScanRequest.Builder> request) {
        return server.client().scan(b -> request.accept(b.tableName(TABLE)));
    }

    /** Query on a global index with the hash key g, for one g value. */
    private static Consumer<QueryRequest.Builder> globalQuery(String index, String g) {
        return b -> b.indexName(index).keyConditionExpression("g = :g").expressionAttributeValues(values(":g", s(g)));
    }

    /** Query on a local index, for one table partition. */
    private static Consumer<QueryRequest.Builder> localQuery(String index, String pk) {
        return b -> b.indexName(index).keyConditionExpression("pk = :p").expressionAttributeValues(values(":p", s(pk)));
    }

    /** Every page of a query, following LastEvaluatedKey; each page is checked to hold at most {@code limit} items. */
    private static List<Map<String, AttributeValue>> allPages(Consumer<QueryRequest.Builder> request, int limit) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = query(b -> {
                request.accept(b);
                b.limit(limit).exclusiveStartKey(from);
            });
            assertTrue(page.count() <= limit);
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    private static List<Map<String, AttributeValue>> allScanPages(Consumer<ScanRequest.Builder> request, Integer limit) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page = scan(b -> {
                request.accept(b);
                b.limit(limit).exclusiveStartKey(from);
            });
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    // ---- which index ------------------------------------------------------------------------

    @Test
    void queryAndScanRejectAnUnknownIndex() {
        String message = "The table does not have the specified index: nope";
        assertValidation(message, () -> query(globalQuery("nope", "g0")));
        assertValidation(message, () -> scan(b -> b.indexName("nope")));
    }

    @Test
    void queryAndScanOfAMissingTableWithIndexNameSayTheTableIsNotFound() {
        String missing = StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found",
                () -> server.client().query(b -> b.tableName(missing).indexName("gsiAll")
                        .keyConditionExpression("g = :g").expressionAttributeValues(values(":g", s("g0")))));
        assertError("ResourceNotFoundException", "Requested resource not found",
                () -> server.client().scan(b -> b.tableName(missing).indexName("gsiAll")));
    }

    @Test
    void indexNamesAreCaseSensitive() {
        assertValidation("The table does not have the specified index: GSIALL",
                () -> query(globalQuery("GSIALL", "g0")));
    }

    // ---- consistency --------------------------------------------------------------------------

    @Test
    void queryAndScanRefuseConsistentReadsOnAGlobalIndex() {
        String message = "Consistent reads are not supported on global secondary indexes";
        assertValidation(message, () -> query(b -> globalQuery("gsiAll", "g0").accept(b.consistentRead(true))));
        assertValidation(message, () -> scan(b -> b.indexName("gsiKeys").consistentRead(true)));
        // Asking for eventual consistency explicitly is fine.
        assertEquals(itemsWith(GLOBAL_KEY, "g", s("g0")).size(),
                query(b -> globalQuery("gsiAll", "g0").accept(b.consistentRead(false))).count());
    }

    @Test
    void queryAndScanReadALocalIndexConsistentlyAndBillItAsAStrongRead() {
        QueryResponse strong = query(b -> localQuery("lsiAll", "p0").accept(b.consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)));
        assertEquals(asSet(itemsWith(LOCAL_KEY, "pk", s("p0"))), asSet(strong.items()));
        assertEquals(1.0, strong.consumedCapacity().localSecondaryIndexes().get("lsiAll").capacityUnits());
        QueryResponse eventual = query(b -> localQuery("lsiAll", "p0").accept(b
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)));
        assertEquals(0.5, eventual.consumedCapacity().localSecondaryIndexes().get("lsiAll").capacityUnits());
        assertEquals(entries(LOCAL_KEY).size(), scan(b -> b.indexName("lsiKeys").consistentRead(true)).count());
    }

    // ---- what comes back: Select and projections ---------------------------------------------

    @Test
    void aQueryOnAnIndexReturnsWhatTheIndexProjectsByDefault() {
        List<Map<String, AttributeValue>> g0 = itemsWith(GLOBAL_KEY, "g", s("g0"));
        assertEquals(asSet(g0.stream().map(i -> projected(i, GLOBAL_KEY)).toList()),
                asSet(query(globalQuery("gsiKeys", "g0")).items()));
        assertEquals(asSet(g0.stream().map(i -> projected(i, GLOBAL_KEY, "amount")).toList()),
                asSet(query(globalQuery("gsiInclude", "g0")).items()));
        assertEquals(asSet(g0), asSet(query(globalQuery("gsiAll", "g0")).items()));

        List<Map<String, AttributeValue>> p1 = itemsWith(LOCAL_KEY, "pk", s("p1"));
        assertEquals(asSet(p1.stream().map(i -> projected(i, LOCAL_KEY)).toList()),
                asSet(query(localQuery("lsiKeys", "p1")).items()));
        assertEquals(asSet(p1.stream().map(i -> projected(i, LOCAL_KEY, "amount")).toList()),
                asSet(query(localQuery("lsiInclude", "p1")).items()));
        assertEquals(asSet(p1), asSet(query(localQuery("lsiAll", "p1")).items()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gsiKeys", "gsiInclude", "gsiAll", "lsiKeys", "lsiInclude", "lsiAll"})
    void allProjectedAttributesIsTheDefaultSelectOnAnIndex(String index) {
        Consumer<QueryRequest.Builder> q = index.startsWith("gsi") ? globalQuery(index, "g1") : localQuery(index, "p2");
        QueryResponse byDefault = query(q);
        QueryResponse projectedOnly = query(b -> q.accept(b.select(Select.ALL_PROJECTED_ATTRIBUTES)));
        assertTrue(byDefault.count() > 0);
        assertEquals(asSet(byDefault.items()), asSet(projectedOnly.items()));
    }

    @Test
    void aScanOfAnIndexReturnsItsEntriesAsProjected() {
        assertEquals(asSet(entries(GLOBAL_KEY).stream().map(i -> projected(i, GLOBAL_KEY, "amount")).toList()),
                asSet(scan(b -> b.indexName("gsiInclude")).items()));
        assertEquals(asSet(entries(Set.of("g")).stream().map(i -> projected(i, Set.of("g"))).toList()),
                asSet(scan(b -> b.indexName("gsiHash")).items()));
        assertEquals(asSet(entries(LOCAL_KEY).stream().map(i -> projected(i, LOCAL_KEY)).toList()),
                asSet(scan(b -> b.indexName("lsiKeys")).items()));
    }

    @Test
    void allProjectedAttributesIsRefusedWithoutAnIndex() {
        // Query words the Select errors inside "1 validation error detected: ", Scan does not
        // (query-scan notes §1.2, recorded from DynamoDB).
        assertValidation("1 validation error detected: ALL_PROJECTED_ATTRIBUTES can be used only when Querying "
                        + "using an IndexName",
                () -> query(b -> b.keyConditionExpression("pk = :p").expressionAttributeValues(values(":p", s("p0")))
                        .select(Select.ALL_PROJECTED_ATTRIBUTES)));
        assertValidation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
                () -> scan(b -> b.select(Select.ALL_PROJECTED_ATTRIBUTES)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gsiKeys", "gsiInclude"})
    void allAttributesIsRefusedOnAGlobalIndexThatDoesNotProjectAll(String index) {
        String message = INVALID + "Select type ALL_ATTRIBUTES is not supported for global secondary index " + index
                + " because its projection type is not ALL";
        assertValidation(message, () -> query(b -> globalQuery(index, "g0").accept(b.select(Select.ALL_ATTRIBUTES))));
        assertValidation(message, () -> scan(b -> b.indexName(index).select(Select.ALL_ATTRIBUTES)));
    }

    @Test
    void allAttributesOnAGlobalIndexProjectingAllReturnsWholeItems() {
        assertEquals(asSet(itemsWith(GLOBAL_KEY, "g", s("g1"))),
                asSet(query(b -> globalQuery("gsiAll", "g1").accept(b.select(Select.ALL_ATTRIBUTES))).items()));
        assertEquals(asSet(entries(GLOBAL_KEY)), asSet(scan(b -> b.indexName("gsiAll").select(Select.ALL_ATTRIBUTES)).items()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"lsiKeys", "lsiInclude"})
    void allAttributesOnALocalIndexFetchesWholeItemsFromTheTable(String index) {
        QueryResponse response = query(b -> localQuery(index, "p0").accept(b.select(Select.ALL_ATTRIBUTES)));
        assertEquals(asSet(itemsWith(LOCAL_KEY, "pk", s("p0"))), asSet(response.items()));
        assertOrderedBy("ls", true, response.items());
        assertEquals(asSet(entries(LOCAL_KEY)), asSet(scan(b -> b.indexName(index).select(Select.ALL_ATTRIBUTES)).items()));
    }

    @Test
    void projectingAnAttributeAGlobalIndexDoesNotProjectIsRefused() {
        // The text is recorded from DynamoDB for PartiQL on an index; for Query and Scan it is
        // DynamoDB's as far as known (indexes notes §5), the list format "[a, b]" likewise.
        assertValidation(INVALID + "Global secondary index gsiKeys does not project [note]",
                () -> query(b -> globalQuery("gsiKeys", "g0").accept(b.projectionExpression("pk, note"))));
        assertValidation(INVALID + "Global secondary index gsiInclude does not project [note, ls]",
                () -> scan(b -> b.indexName("gsiInclude").projectionExpression("amount, note, ls, sk")));
        assertValidation(INVALID + "Global secondary index gsiKeys does not project [amount]",
                () -> query(b -> b.indexName("gsiKeys").attributesToGet("g", "amount")
                        .keyConditions(Map.of("g", Condition.builder().comparisonOperator(ComparisonOperator.EQ)
                                .attributeValueList(s("g0")).build()))));
    }

    @Test
    void projectingAttributesAGlobalIndexProjectsReturnsThem() {
        List<Map<String, AttributeValue>> expected = new ArrayList<>();
        for (Map<String, AttributeValue> i : itemsWith(GLOBAL_KEY, "g", s("g0"))) {
            expected.add(i.containsKey("amount") ? item("sk", i.get("sk"), "amount", i.get("amount")) : item("sk", i.get("sk")));
        }
        assertEquals(asSet(expected), asSet(query(b -> globalQuery("gsiInclude", "g0")
                .accept(b.projectionExpression("sk, amount"))).items()));
    }

    @Test
    void projectingAnAttributeALocalIndexDoesNotProjectFetchesItFromTheTable() {
        QueryResponse response = query(b -> localQuery("lsiKeys", "p0").accept(b.projectionExpression("sk, note")
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)));
        List<Map<String, AttributeValue>> expected = itemsWith(LOCAL_KEY, "pk", s("p0")).stream()
                .map(i -> item("sk", i.get("sk"), "note", i.get("note"))).toList();
        assertEquals(asSet(expected), asSet(response.items()));
        assertTrue(response.consumedCapacity().table().capacityUnits() > 0, "the fetches are billed to the table");
    }

    @Test
    void aLocalIndexFilteringOnAnAttributeItDoesNotProjectStillReturnsOnlyWhatItProjects() {
        // The filter reads each item from the table; the result is still what Select asks for:
        // by default ALL_PROJECTED_ATTRIBUTES, "all attributes that have been projected into the
        // index" (Select's API documentation).
        Map<String, AttributeValue> target = itemsWith(LOCAL_KEY, "pk", s("p0")).get(2);
        QueryResponse response = query(b -> b.indexName("lsiKeys").keyConditionExpression("pk = :p")
                .filterExpression("note = :n").expressionAttributeValues(values(":p", s("p0"), ":n", target.get("note"))));
        assertEquals(List.of(projected(target, LOCAL_KEY)), response.items());
        ScanResponse scanned = scan(b -> b.indexName("lsiInclude").filterExpression("note = :n")
                .expressionAttributeValues(values(":n", target.get("note"))));
        assertEquals(List.of(projected(target, LOCAL_KEY, "amount")), scanned.items());
        // ALL_ATTRIBUTES with the same filter returns the whole item.
        assertEquals(List.of(target), query(b -> b.indexName("lsiKeys").keyConditionExpression("pk = :p")
                .filterExpression("note = :n").select(Select.ALL_ATTRIBUTES)
                .expressionAttributeValues(values(":p", s("p0"), ":n", target.get("note")))).items());
    }

    @Test
    void countOnAnIndexCountsItsEntries() {
        QueryResponse counted = query(b -> globalQuery("gsiKeys", "g1").accept(b.select(Select.COUNT)));
        assertFalse(counted.hasItems(), "COUNT returns no Items");
        assertEquals(itemsWith(GLOBAL_KEY, "g", s("g1")).size(), counted.count());
        assertEquals(counted.count(), counted.scannedCount());
        QueryResponse filtered = query(b -> b.indexName("lsiKeys").keyConditionExpression("pk = :p")
                .select(Select.COUNT).filterExpression("sk > :ten").expressionAttributeValues(values(":p", s("p1"), ":ten", n("10"))));
        List<Map<String, AttributeValue>> p1 = itemsWith(LOCAL_KEY, "pk", s("p1"));
        assertEquals(p1.size(), filtered.scannedCount());
        assertEquals((int) p1.stream().filter(i -> number(i, "sk").intValue() > 10).count(), filtered.count());
        assertEquals(entries(Set.of("g")).size(), scan(b -> b.indexName("gsiHash").select(Select.COUNT)).count());
    }

    // ---- filters on keys ----------------------------------------------------------------------

    @Test
    void aQueryOnAnIndexCannotFilterOnTheIndexKey() {
        String message = "Filter Expression can only contain non-primary key attributes: Primary key attribute: ";
        assertValidation(message + "gs", () -> query(b -> b.indexName("gsiAll").keyConditionExpression("g = :g")
                .filterExpression("gs > :z").expressionAttributeValues(values(":g", s("g0"), ":z", n("0")))));
        assertValidation(message + "g", () -> query(b -> b.indexName("gsiHash").keyConditionExpression("g = :g")
                .filterExpression("attribute_exists(g)").expressionAttributeValues(values(":g", s("g0")))));
        assertValidation(message + "ls", () -> query(b -> b.indexName("lsiAll").keyConditionExpression("pk = :p")
                .filterExpression("ls < :z").expressionAttributeValues(values(":p", s("p0"), ":z", n("5")))));
        // A local index's partition key is the table's.
        assertValidation(message + "pk", () -> query(b -> b.indexName("lsiAll").keyConditionExpression("pk = :p")
                .filterExpression("begins_with(pk, :p)").expressionAttributeValues(values(":p", s("p0")))));
        assertValidation("QueryFilter can only contain non-primary key attributes: Primary key attribute: gs",
                () -> query(b -> b.indexName("gsiAll")
                        .keyConditions(Map.of("g", Condition.builder().comparisonOperator(ComparisonOperator.EQ)
                                .attributeValueList(s("g0")).build()))
                        .queryFilter(Map.of("gs", Condition.builder().comparisonOperator(ComparisonOperator.GT)
                                .attributeValueList(n("1")).build()))));
    }

    @Test
    void aQueryOnAnIndexMayFilterOnATableKeyThatIsNotAnIndexKey() {
        // The table key of a global index query is an ordinary attribute there (scylladb's
        // test_gsi_composite_filter_on_base_table_key_allowed, written against DynamoDB).
        QueryResponse global = query(b -> b.indexName("gsiAll").keyConditionExpression("g = :g")
                .filterExpression("sk > :ten AND pk = :p")
                .expressionAttributeValues(values(":g", s("g0"), ":ten", n("10"), ":p", s("p1"))));
        assertEquals(asSet(itemsWith(GLOBAL_KEY, "g", s("g0")).stream()
                        .filter(i -> number(i, "sk").intValue() > 10 && i.get("pk").equals(s("p1"))).toList()),
                asSet(global.items()));
        assertEquals(itemsWith(GLOBAL_KEY, "g", s("g0")).size(), global.scannedCount());
        QueryResponse local = query(b -> b.indexName("lsiAll").keyConditionExpression("pk = :p")
                .filterExpression("sk < :ten").expressionAttributeValues(values(":p", s("p2"), ":ten", n("10"))));
        assertEquals(asSet(itemsWith(LOCAL_KEY, "pk", s("p2")).stream()
                .filter(i -> number(i, "sk").intValue() < 10).toList()), asSet(local.items()));
    }

    @Test
    void aScanOfAnIndexMayFilterOnItsKey() {
        ScanResponse response = scan(b -> b.indexName("gsiAll").filterExpression("gs = :one AND g = :g")
                .expressionAttributeValues(values(":one", n("1"), ":g", s("g1"))));
        assertEquals(asSet(itemsWith(GLOBAL_KEY, "g", s("g1")).stream().filter(i -> number(i, "gs").intValue() == 1)
                .toList()), asSet(response.items()));
        assertEquals(entries(GLOBAL_KEY).size(), response.scannedCount());
    }

    // ---- order --------------------------------------------------------------------------------

    @Test
    void aQueryOnAGlobalIndexIsInIndexSortKeyOrderAndScanIndexForwardReversesIt() {
        List<Map<String, AttributeValue>> forward = query(globalQuery("gsiAll", "g0")).items();
        assertEquals(asSet(itemsWith(GLOBAL_KEY, "g", s("g0"))), asSet(forward));
        assertOrderedBy("gs", true, forward);
        List<Map<String, AttributeValue>> backward = query(b -> globalQuery("gsiAll", "g0").accept(b.scanIndexForward(false)))
                .items();
        assertEquals(asSet(forward), asSet(backward));
        assertOrderedBy("gs", false, backward);
        // Entries with the same index key come in the same order each time, and reversed backwards.
        assertEquals(forward, backward.reversed());
    }

    @Test
    void aQueryOnALocalIndexIsInItsSortKeyOrderAndScanIndexForwardReversesIt() {
        List<Map<String, AttributeValue>> expected = new ArrayList<>(itemsWith(LOCAL_KEY, "pk", s("p0")));
        expected.sort(Comparator.comparing(i -> number(i, "ls")));
        assertEquals(expected, query(localQuery("lsiAll", "p0")).items());
        assertEquals(expected.reversed(), query(b -> localQuery("lsiAll", "p0").accept(b.scanIndexForward(false))).items());
    }

    @Test
    void aSortKeyConditionNarrowsAQueryOnAnIndex() {
        QueryResponse global = query(b -> b.indexName("gsiKeys").keyConditionExpression("g = :g AND gs BETWEEN :a AND :b")
                .expressionAttributeValues(values(":g", s("g1"), ":a", n("1"), ":b", n("2"))));
        assertEquals(asSet(itemsWith(GLOBAL_KEY, "g", s("g1")).stream()
                        .filter(i -> number(i, "gs").intValue() >= 1 && number(i, "gs").intValue() <= 2)
                        .map(i -> projected(i, GLOBAL_KEY)).toList()),
                asSet(global.items()));
        QueryResponse local = query(b -> b.indexName("lsiKeys").keyConditionExpression("pk = :p AND ls >= :five")
                .expressionAttributeValues(values(":p", s("p1"), ":five", n("5"))).scanIndexForward(false));
        List<Map<String, AttributeValue>> expected = new ArrayList<>(itemsWith(LOCAL_KEY, "pk", s("p1")).stream()
                .filter(i -> number(i, "ls").intValue() >= 5).map(i -> projected(i, LOCAL_KEY)).toList());
        expected.sort(Comparator.comparing((Map<String, AttributeValue> i) -> number(i, "ls")).reversed());
        assertEquals(expected, local.items());
    }

    // ---- paging -------------------------------------------------------------------------------

    @Test
    void lastEvaluatedKeyOnAnIndexHoldsTheTableKeyAndTheIndexKey() {
        assertEquals(Set.of("pk", "sk", "g", "gs"),
                query(b -> globalQuery("gsiKeys", "g0").accept(b.limit(1))).lastEvaluatedKey().keySet());
        assertEquals(Set.of("pk", "sk", "g"),
                query(b -> globalQuery("gsiHash", "g0").accept(b.limit(2))).lastEvaluatedKey().keySet());
        assertEquals(Set.of("pk", "sk", "ls"),
                query(b -> localQuery("lsiAll", "p0").accept(b.limit(1))).lastEvaluatedKey().keySet());
        assertEquals(Set.of("pk", "sk", "g", "gs"), scan(b -> b.indexName("gsiAll").limit(3)).lastEvaluatedKey().keySet());
        assertEquals(Set.of("pk", "sk", "ls"), scan(b -> b.indexName("lsiInclude").limit(3)).lastEvaluatedKey().keySet());
        // Even when a projection leaves the keys out of the items.
        QueryResponse projected = query(b -> globalQuery("gsiAll", "g0").accept(b.limit(1).projectionExpression("note")));
        assertEquals(Set.of("note"), projected.items().get(0).keySet());
        assertEquals(Set.of("pk", "sk", "g", "gs"), projected.lastEvaluatedKey().keySet());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7})
    void pagingAQueryOnAnIndexVisitsEveryEntryOnceAcrossTies(int limit) {
        // gsiHash has only g: all of a g value's entries tie on the index key.
        for (boolean forward : List.of(true, false)) {
            List<Map<String, AttributeValue>> paged = allPages(b -> globalQuery("gsiHash", "g0")
                    .accept(b.scanIndexForward(forward)), limit);
            assertEquals(asSet(itemsWith(Set.of("g"), "g", s("g0")).stream().map(i -> projected(i, Set.of("g"))).toList()),
                    asSet(paged));
            assertEquals(query(b -> globalQuery("gsiHash", "g0").accept(b.scanIndexForward(forward))).items(), paged,
                    "the pages are the whole result, cut");
            List<Map<String, AttributeValue>> sorted = allPages(b -> globalQuery("gsiKeys", "g1")
                    .accept(b.scanIndexForward(forward)), limit);
            assertEquals(itemsWith(GLOBAL_KEY, "g", s("g1")).size(), asSet(sorted).size());
            assertOrderedBy("gs", forward, sorted);
        }
        List<Map<String, AttributeValue>> local = allPages(localQuery("lsiInclude", "p2"), limit);
        assertEquals(asSet(itemsWith(LOCAL_KEY, "pk", s("p2")).stream().map(i -> projected(i, LOCAL_KEY, "amount"))
                .toList()), asSet(local));
    }

    @Test
    void pagingAnIndexKeyedByTheTablesOwnKeyAttributesNeedsOnlyTheTableKey() {
        // The index key reuses the table key's attributes (reversed), so LastEvaluatedKey, the
        // union of both keys, is just the table key.
        String table = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("sk", ScalarAttributeType.N))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("reversed")
                        .keySchema(key("sk", KeyType.HASH), key("pk", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build()));
        List<Map<String, AttributeValue>> expected = new ArrayList<>();
        for (String pk : List.of("e", "a", "d", "b", "c")) {
            Map<String, AttributeValue> item = values("pk", s(pk), "sk", n("7"));
            server.client().putItem(b -> b.tableName(table).item(item));
            expected.add(item);
        }
        expected.sort(Comparator.comparing(i -> i.get("pk").s()));
        Consumer<QueryRequest.Builder> bySeven = b -> b.tableName(table).indexName("reversed")
                .keyConditionExpression("sk = :seven").expressionAttributeValues(values(":seven", n("7")));
        Eventually.until("the index holds all five", () -> server.client().query(bySeven::accept).count(), c -> c == 5);
        List<Map<String, AttributeValue>> paged = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = server.client().query(b -> bySeven.accept(b.limit(2).exclusiveStartKey(from)));
            if (page.hasLastEvaluatedKey()) assertEquals(Set.of("pk", "sk"), page.lastEvaluatedKey().keySet());
            paged.addAll(page.items());
            start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        assertEquals(expected, paged);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void pagingAScanOfAnIndexVisitsEveryEntryOnce(int limit) {
        assertEquals(asSet(entries(Set.of("g")).stream().map(i -> projected(i, Set.of("g"))).toList()),
                asSet(allScanPages(b -> b.indexName("gsiHash"), limit)));
        assertEquals(asSet(entries(LOCAL_KEY)), asSet(allScanPages(b -> b.indexName("lsiAll"), limit)));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 16})
    void aParallelScanOfAnIndexReadsEveryEntryInExactlyOneSegment(int totalSegments) {
        for (String index : List.of("gsiKeys", "gsiHash", "lsiKeys")) {
            Set<String> indexKey = index.equals("gsiHash") ? Set.of("g") : index.startsWith("gsi") ? GLOBAL_KEY : LOCAL_KEY;
            List<Map<String, AttributeValue>> all = new ArrayList<>();
            for (int segment = 0; segment < totalSegments; segment++) {
                int seg = segment;
                all.addAll(allScanPages(b -> b.indexName(index).segment(seg).totalSegments(totalSegments), 2));
            }
            assertEquals(entries(indexKey).size(), all.size(), index);
            assertEquals(asSet(entries(indexKey).stream().map(i -> projected(i, indexKey)).toList()), asSet(all), index);
        }
    }

    @Test
    void aParallelScanOfAnIndexRefusesAStartKeyOfAnotherSegment() {
        // Find an entry of segment 0 of 2, and start segment 1 from it.
        ScanResponse first = Eventually.until("a page of segment 0 with a LastEvaluatedKey",
                () -> scan(b -> b.indexName("gsiAll").segment(0).totalSegments(2).limit(1)), ScanResponse::hasLastEvaluatedKey);
        assertValidation("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey "
                        + "with correct Segment. TotalSegments: 2 Segment: 1",
                () -> scan(b -> b.indexName("gsiAll").segment(1).totalSegments(2).exclusiveStartKey(first.lastEvaluatedKey())));
    }

    // ---- ExclusiveStartKey errors (query-scan notes §1.5) -------------------------------------

    private static Map<String, AttributeValue> globalStart(Object... changes) {
        Map<String, AttributeValue> start = values("pk", s("p0"), "sk", n("0"), "g", s("g0"), "gs", n("0"));
        for (int i = 0; i < changes.length; i += 2) {
            if (changes[i + 1] == null) start.remove((String) changes[i]);
            else start.put((String) changes[i], (AttributeValue) changes[i + 1]);
        }
        return start;
    }

    @Test
    void aQueryOnAnIndexRefusesAStartKeyWithoutTheRightAttributes() {
        String invalid = "The provided starting key is invalid";
        for (Map<String, AttributeValue> start : List.of(globalStart("gs", null), globalStart("note", s("x")),
                globalStart("g", null, "gs", null), globalStart("sk", null), Map.<String, AttributeValue>of())) {
            assertValidation(invalid, () -> query(b -> globalQuery("gsiAll", "g0").accept(b.exclusiveStartKey(start))));
        }
        assertValidation(invalid, () -> query(b -> localQuery("lsiAll", "p0")
                .accept(b.exclusiveStartKey(values("pk", s("p0"), "sk", n("0"))))));
    }

    @Test
    void aQueryOnAnIndexRefusesAStartKeyOfTheWrongTypes() {
        assertValidation("The provided key element does not match the schema",
                () -> query(b -> globalQuery("gsiAll", "g0").accept(b.exclusiveStartKey(globalStart("gs", s("0"))))));
        assertValidation("The provided key element does not match the schema",
                () -> query(b -> globalQuery("gsiAll", "g0").accept(b.exclusiveStartKey(globalStart("g", n("0"))))));
        // The table key's part is worded with the prefix.
        assertValidation("The provided starting key is invalid: The provided key element does not match the schema",
                () -> query(b -> globalQuery("gsiAll", "g0").accept(b.exclusiveStartKey(globalStart("sk", s("0"))))));
    }

    @Test
    void aQueryOnAnIndexRefusesAStartKeyOutsideItsConditions() {
        assertValidation("The provided starting key is outside query boundaries based on provided conditions",
                () -> query(b -> globalQuery("gsiAll", "g0").accept(b.exclusiveStartKey(globalStart("g", s("g1"))))));
        assertValidation("The provided starting key does not match the range key predicate",
                () -> query(b -> b.indexName("gsiAll").keyConditionExpression("g = :g AND gs > :one")
                        .expressionAttributeValues(values(":g", s("g0"), ":one", n("1")))
                        .exclusiveStartKey(globalStart())));
        assertValidation("The query can return at most one row and cannot be restarted",
                () -> query(b -> b.indexName("gsiAll").keyConditionExpression("g = :g AND gs >= :zero")
                        .expressionAttributeValues(values(":g", s("g0"), ":zero", n("0")))
                        .exclusiveStartKey(globalStart("g", s("g1")))));
    }

    @Test
    void aQueryOnAnIndexStartsAfterAStartKeyThatIsNoEntry() {
        // The start key is only a position: (gs 2, table key p9/99) lies between the entries of gs 1
        // and those of gs 3. (Among entries sharing gs, a position is placed by its table key's hash,
        // as DynamoDB orders them: DynamoDbOrderTest.)
        List<Map<String, AttributeValue>> after = query(b -> globalQuery("gsiAll", "g1")
                .accept(b.exclusiveStartKey(globalStart("g", s("g1"), "gs", n("2"), "pk", s("p9"), "sk", n("99"))))).items();
        assertEquals(asSet(itemsWith(GLOBAL_KEY, "g", s("g1")).stream().filter(i -> number(i, "gs").intValue() > 2)
                .toList()), asSet(after));
    }

    @Test
    void aScanOfAnIndexRefusesAStartKeyThatIsNotAnEntrysKey() {
        assertValidation("The provided starting key is invalid",
                () -> scan(b -> b.indexName("gsiAll").exclusiveStartKey(globalStart("gs", null))));
        assertValidation("The provided starting key is invalid",
                () -> scan(b -> b.indexName("gsiAll").exclusiveStartKey(values("pk", s("p0"), "sk", n("0")))));
        assertValidation("The provided key element does not match the schema",
                () -> scan(b -> b.indexName("gsiAll").exclusiveStartKey(globalStart("g", n("0")))));
        assertValidation("The provided starting key is invalid: The provided key element does not match the schema",
                () -> scan(b -> b.indexName("gsiAll").exclusiveStartKey(globalStart("pk", n("0")))));
        assertValidation("The provided starting key is invalid",
                () -> scan(b -> b.indexName("lsiKeys").exclusiveStartKey(values("pk", s("p0"), "sk", n("0")))));
    }

    // ---- capacity -----------------------------------------------------------------------------

    @Test
    void aQueryOnAGlobalIndexBillsTheIndexAndShowsTheTableAtZero() {
        RawResponses raw = new RawResponses();
        DynamoDbClient client = server.newClient(raw);
        QueryResponse response = client.query(b -> globalQuery("gsiKeys", "g0").accept(b.tableName(TABLE)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)));
        ConsumedCapacity consumed = response.consumedCapacity();
        assertEquals(TABLE, consumed.tableName());
        assertEquals(0.5, consumed.capacityUnits());
        assertEquals(0.0, consumed.table().capacityUnits());
        assertEquals(Set.of("gsiKeys"), consumed.globalSecondaryIndexes().keySet());
        assertEquals(0.5, consumed.globalSecondaryIndexes().get("gsiKeys").capacityUnits());
        JsonNode json = raw.lastJson().field("ConsumedCapacity").get();
        // DynamoDB sends no LocalSecondaryIndexes member (nothing billed there) and no read/write split.
        assertEquals(Set.of("TableName", "CapacityUnits", "Table", "GlobalSecondaryIndexes"), json.asObject().keySet());
        assertEquals(Set.of("CapacityUnits"), json.field("Table").get().asObject().keySet());

        ScanResponse total = scan(b -> b.indexName("gsiAll").returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertTrue(total.consumedCapacity().capacityUnits() > 0);
        assertNull(total.consumedCapacity().table(), "TOTAL has no breakdown");
        assertFalse(total.consumedCapacity().hasGlobalSecondaryIndexes());
        assertNull(query(globalQuery("gsiAll", "g0")).consumedCapacity(), "none unless asked for");
    }

    @Test
    void aLocalIndexFetchingFromTheTableBillsEntriesToTheIndexAndTheSummedItemsToTheTable() {
        // dynalite's query.js "should return all attributes when specified for secondary indexes"
        // (run against DynamoDB): items of ~0.1, ~4.1 and ~4.1 KB, read consistently, cost 3 units
        // on the table (their summed size, rounded up to 4 KB; not 1 + 2 + 2) and 1 on the index.
        String table = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(definition("pk", ScalarAttributeType.S), definition("sk", ScalarAttributeType.S),
                        definition("ls", ScalarAttributeType.S))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("byLs")
                        .keySchema(key("pk", KeyType.HASH), key("ls", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build()));
        String blob = "x".repeat(4200);
        server.client().putItem(b -> b.tableName(table).item(values("pk", s("a"), "sk", s("1"), "ls", s("1"))));
        server.client().putItem(b -> b.tableName(table).item(values("pk", s("a"), "sk", s("2"), "ls", s("2"), "blob", s(blob))));
        server.client().putItem(b -> b.tableName(table).item(values("pk", s("a"), "sk", s("3"), "ls", s("3"), "blob", s(blob))));
        Function<Consumer<QueryRequest.Builder>, ConsumedCapacity> consumed = request -> server.client()
                .query(b -> {
                    b.tableName(table).indexName("byLs").keyConditionExpression("pk = :p")
                            .expressionAttributeValues(values(":p", s("a"))).consistentRead(true)
                            .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES);
                    request.accept(b);
                }).consumedCapacity();

        ConsumedCapacity all = consumed.apply(b -> b.select(Select.ALL_ATTRIBUTES));
        assertEquals(4.0, all.capacityUnits());
        assertEquals(3.0, all.table().capacityUnits());
        assertEquals(1.0, all.localSecondaryIndexes().get("byLs").capacityUnits());
        assertFalse(all.hasGlobalSecondaryIndexes());

        ConsumedCapacity projectedOnly = consumed.apply(b -> { });
        assertEquals(1.0, projectedOnly.capacityUnits());
        assertEquals(0.0, projectedOnly.table().capacityUnits());
        assertEquals(1.0, projectedOnly.localSecondaryIndexes().get("byLs").capacityUnits());

        ConsumedCapacity eventual = consumed.apply(b -> b.select(Select.ALL_ATTRIBUTES).consistentRead(false));
        assertEquals(1.5, eventual.table().capacityUnits());
        assertEquals(0.5, eventual.localSecondaryIndexes().get("byLs").capacityUnits());
        assertEquals(2.0, eventual.capacityUnits());
    }

    // ---- entries follow the items -------------------------------------------------------------

    @Test
    void anIndexHoldsOnlyItemsWithEveryIndexKeyAttribute() {
        Predicate<Map<String, AttributeValue>> hasGlobalKey = i -> i.keySet().containsAll(GLOBAL_KEY);
        Set<Map<String, AttributeValue>> keys = new HashSet<>();
        for (Map<String, AttributeValue> i : scan(b -> b.indexName("gsiKeys")).items()) keys.add(i);
        assertEquals((int) ITEMS.stream().filter(hasGlobalKey).count(), keys.size());
        assertTrue(ITEMS.stream().anyMatch(hasGlobalKey.negate()), "the data has sparse items");
        assertEquals((int) ITEMS.stream().filter(i -> i.containsKey("ls")).count(), scan(b -> b.indexName("lsiKeys")).count());
    }
}
