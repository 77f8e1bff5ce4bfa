package io.stator.server.api;

import static io.stator.server.testing.Attrs.b;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.l;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Attrs.with;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.IndexContents;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import io.stator.server.testing.TestBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Every write keeps every secondary index right: entries appear, move and disappear with their
 * key attributes, hold exactly the projected attributes and follow them, wrongly typed or empty
 * index keys are refused without a change, DescribeTable's counts follow, and each write is
 * billed for the index entries it changed.
 *
 * <p>The table of most tests: key {@code pk} (S) and {@code sk} (N); global indexes
 * {@code gsi-keys} (KEYS_ONLY, on g), {@code gsi-include} (INCLUDE proj, on g and gr) and
 * {@code gsi-all} (ALL, on h1 and h2, then hb); local indexes {@code lsi-keys} (KEYS_ONLY, on l)
 * and {@code lsi-include} (INCLUDE proj, on ln). gsi-keys is declared before gsi-include so that
 * the index an error names is seen to be the alphabetically first, not the first declared.
 */
class IndexMaintenanceTest {

    private static final String INVALID = "One or more parameter values were invalid: ";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static String indexedTable() {
        String table = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N),
                        Tables.definition("g", ScalarAttributeType.S),
                        Tables.definition("gr", ScalarAttributeType.N),
                        Tables.definition("h1", ScalarAttributeType.S),
                        Tables.definition("h2", ScalarAttributeType.N),
                        Tables.definition("hb", ScalarAttributeType.B),
                        Tables.definition("l", ScalarAttributeType.S),
                        Tables.definition("ln", ScalarAttributeType.N))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(
                        global("gsi-keys", ProjectionType.KEYS_ONLY, List.of("g"), List.of()),
                        global("gsi-include", ProjectionType.INCLUDE, List.of("g"), List.of("gr")),
                        global("gsi-all", ProjectionType.ALL, List.of("h1", "h2"), List.of("hb")))
                .localSecondaryIndexes(local("lsi-keys", ProjectionType.KEYS_ONLY, "l"),
                        local("lsi-include", ProjectionType.INCLUDE, "ln")));
        return table;
    }

    private static GlobalSecondaryIndex global(String name, ProjectionType projection, List<String> hash,
                                               List<String> range) {
        GlobalSecondaryIndex.Builder index = GlobalSecondaryIndex.builder().indexName(name);
        List<KeySchemaElement> key = new ArrayList<>();
        hash.forEach(h -> key.add(Tables.key(h, KeyType.HASH)));
        range.forEach(r -> key.add(Tables.key(r, KeyType.RANGE)));
        return index.keySchema(key).projection(p -> p.projectionType(projection)
                .nonKeyAttributes(projection == ProjectionType.INCLUDE ? List.of("proj") : null)).build();
    }

    private static LocalSecondaryIndex local(String name, ProjectionType projection, String sortKey) {
        return LocalSecondaryIndex.builder().indexName(name)
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key(sortKey, KeyType.RANGE))
                .projection(p -> p.projectionType(projection)
                        .nonKeyAttributes(projection == ProjectionType.INCLUDE ? List.of("proj") : null))
                .build();
    }

    private static final Map<String, AttributeValue> KEY = item("pk", s("p1"), "sk", n("1"));

    private static Map<String, AttributeValue> fullItem() {
        return item("pk", s("p1"), "sk", n("1"), "g", s("a"), "gr", n("10"), "h1", s("x"), "h2", n("2"),
                "hb", b(1, 2), "l", s("l1"), "ln", n("5"), "proj", s("v1"), "unprojected", s("o1"));
    }

    private static void put(String table, Map<String, AttributeValue> item) {
        server.client().putItem(b -> b.tableName(table).item(item));
    }

    private static void update(String table, String expression, Map<String, AttributeValue> values) {
        server.client().updateItem(b -> b.tableName(table).key(KEY).updateExpression(expression)
                .expressionAttributeValues(values.isEmpty() ? null : values));
    }

    /** The items a query of an index finds (consistently on a local index). */
    private static List<Map<String, AttributeValue>> query(String table, String index, String condition,
                                                           Map<String, AttributeValue> values) {
        QueryRequest.Builder request = QueryRequest.builder().tableName(table).indexName(index)
                .keyConditionExpression(condition).expressionAttributeValues(values);
        if (index.startsWith("lsi")) request.consistentRead(true);
        return server.client().query(request.build()).items();
    }

    /** Waits for the global indexes, then checks every index against the items and the counts. */
    private static void assertIndexesRight(String table) {
        IndexContents.awaitIndexesMatch(server.client(), table, Duration.ofSeconds(10));
        IndexContents.assertCounts(server.client(), table);
    }

    // ---- membership, moves and projections ----------------------------------------------------

    @Test
    void putGivesEachIndexAnEntryWithExactlyItsProjectedAttributes() {
        String table = indexedTable();
        put(table, fullItem());
        assertIndexesRight(table);

        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "g", s("a"))),
                query(table, "gsi-keys", "g = :g", Map.of(":g", s("a"))));
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "g", s("a"), "gr", n("10"), "proj", s("v1"))),
                query(table, "gsi-include", "g = :g", Map.of(":g", s("a"))));
        assertEquals(List.of(fullItem()), query(table, "gsi-all", "h1 = :h1 AND h2 = :h2",
                Map.of(":h1", s("x"), ":h2", n("2"))));
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "l", s("l1"))),
                query(table, "lsi-keys", "pk = :p", Map.of(":p", s("p1"))));
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "ln", n("5"), "proj", s("v1"))),
                query(table, "lsi-include", "pk = :p", Map.of(":p", s("p1"))));
    }

    @Test
    void changingAnIndexKeyMovesTheEntryInGlobalAndLocalIndexes() {
        String table = indexedTable();
        put(table, fullItem());
        update(table, "SET g = :g, l = :l, hb = :hb", Map.of(":g", s("b"), ":l", s("l2"), ":hb", b(9)));
        assertIndexesRight(table);

        assertEquals(List.of(), query(table, "gsi-keys", "g = :g", Map.of(":g", s("a"))));
        assertEquals(List.of(), query(table, "gsi-include", "g = :g", Map.of(":g", s("a"))));
        assertEquals(1, query(table, "gsi-keys", "g = :g", Map.of(":g", s("b"))).size());
        assertEquals(1, query(table, "gsi-include", "g = :g", Map.of(":g", s("b"))).size());
        assertEquals(List.of(), query(table, "gsi-all", "h1 = :h1 AND h2 = :h2 AND hb = :hb",
                Map.of(":h1", s("x"), ":h2", n("2"), ":hb", b(1, 2))));
        assertEquals(1, query(table, "gsi-all", "h1 = :h1 AND h2 = :h2 AND hb = :hb",
                Map.of(":h1", s("x"), ":h2", n("2"), ":hb", b(9))).size());
        assertEquals(List.of(), query(table, "lsi-keys", "pk = :p AND l = :l", Map.of(":p", s("p1"), ":l", s("l1"))));
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "l", s("l2"))),
                query(table, "lsi-keys", "pk = :p AND l = :l", Map.of(":p", s("p1"), ":l", s("l2"))));

        // A put that changes the key moves the entry too.
        put(table, item("pk", s("p1"), "sk", n("1"), "g", s("c"), "l", s("l3")));
        assertIndexesRight(table);
        assertEquals(List.of(), query(table, "gsi-keys", "g = :g", Map.of(":g", s("b"))));
        assertEquals(1, query(table, "gsi-keys", "g = :g", Map.of(":g", s("c"))).size());
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "l", s("l3"))),
                query(table, "lsi-keys", "pk = :p", Map.of(":p", s("p1"))));
    }

    @Test
    void entriesComeAndGoWithTheirKeyAttributes() {
        String table = indexedTable();
        put(table, item("pk", s("p1"), "sk", n("1"), "proj", s("v1")));
        assertIndexesRight(table);
        for (String index : List.of("gsi-keys", "gsi-include", "gsi-all", "lsi-keys", "lsi-include")) {
            assertEquals(0, IndexContents.scan(server.client(), table, index, List.of("pk", "sk")).size(), index);
        }

        // gsi-include needs both g and gr; gsi-all all three of h1, h2 and hb.
        update(table, "SET g = :g, h1 = :h1, h2 = :h2", Map.of(":g", s("a"), ":h1", s("x"), ":h2", n("2")));
        assertIndexesRight(table);
        assertEquals(1, query(table, "gsi-keys", "g = :g", Map.of(":g", s("a"))).size());
        assertEquals(List.of(), query(table, "gsi-include", "g = :g", Map.of(":g", s("a"))));
        assertEquals(List.of(), query(table, "gsi-all", "h1 = :h1 AND h2 = :h2", Map.of(":h1", s("x"), ":h2", n("2"))));

        update(table, "SET gr = :gr, hb = :hb, l = :l", Map.of(":gr", n("1"), ":hb", b(1), ":l", s("l1")));
        assertIndexesRight(table);
        assertEquals(1, query(table, "gsi-include", "g = :g", Map.of(":g", s("a"))).size());
        assertEquals(1, query(table, "gsi-all", "h1 = :h1 AND h2 = :h2", Map.of(":h1", s("x"), ":h2", n("2"))).size());
        assertEquals(1, query(table, "lsi-keys", "pk = :p", Map.of(":p", s("p1"))).size());

        update(table, "REMOVE gr, h2, l", Map.of());
        assertIndexesRight(table);
        assertEquals(1, query(table, "gsi-keys", "g = :g", Map.of(":g", s("a"))).size());
        assertEquals(List.of(), query(table, "gsi-include", "g = :g", Map.of(":g", s("a"))));
        assertEquals(0, IndexContents.scan(server.client(), table, "gsi-all", List.of("pk", "sk")).size());
        assertEquals(List.of(), query(table, "lsi-keys", "pk = :p", Map.of(":p", s("p1"))));

        server.client().deleteItem(b -> b.tableName(table).key(KEY));
        assertIndexesRight(table);
        assertEquals(List.of(), query(table, "gsi-keys", "g = :g", Map.of(":g", s("a"))));
    }

    @Test
    void entriesFollowUpdatesOfTheirProjectedAttributesOnly() {
        String table = indexedTable();
        put(table, fullItem());
        update(table, "SET proj = :p", Map.of(":p", s("v2")));
        assertIndexesRight(table);
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "g", s("a"), "gr", n("10"), "proj", s("v2"))),
                query(table, "gsi-include", "g = :g", Map.of(":g", s("a"))));
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "ln", n("5"), "proj", s("v2"))),
                query(table, "lsi-include", "pk = :p", Map.of(":p", s("p1"))));
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "g", s("a"))),
                query(table, "gsi-keys", "g = :g", Map.of(":g", s("a"))));

        update(table, "SET unprojected = :o REMOVE proj", Map.of(":o", s("o2")));
        assertIndexesRight(table);
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "g", s("a"), "gr", n("10"))),
                query(table, "gsi-include", "g = :g", Map.of(":g", s("a"))));
        Map<String, AttributeValue> all = query(table, "gsi-all", "h1 = :h1 AND h2 = :h2",
                Map.of(":h1", s("x"), ":h2", n("2"))).getFirst();
        assertEquals(s("o2"), all.get("unprojected"));
        assertFalse(all.containsKey("proj"));
    }

    // ---- refused writes --------------------------------------------------------------------

    @Test
    void aWronglyTypedIndexKeyIsRefusedAndChangesNothing() {
        String table = indexedTable();
        put(table, fullItem());
        assertIndexesRight(table);

        // g keys gsi-keys (declared first) and gsi-include: the alphabetically first is named
        // (docs/dynamodb/indexes.md §4.1, real AWS texts).
        assertValidation(INVALID + "Type mismatch for Index Key g Expected: S Actual: N IndexName: gsi-include",
                () -> put(table, with(fullItem(), "g", n("1"), "proj", s("changed"))));
        assertValidation(INVALID + "Type mismatch for Index Key g Expected: S Actual: L IndexName: gsi-include",
                () -> put(table, with(fullItem(), "g", l(s("a")), "proj", s("changed"))));
        assertValidation(INVALID + "Type mismatch for Index Key hb Expected: B Actual: S IndexName: gsi-all",
                () -> put(table, item("pk", s("p2"), "sk", n("1"), "hb", s("x"))));
        assertValidation(INVALID + "Type mismatch for Index Key l Expected: S Actual: N IndexName: lsi-keys",
                () -> put(table, item("pk", s("p2"), "sk", n("1"), "l", n("1"))));
        assertValidation(INVALID + "Type mismatch for Index Key gr Expected: N Actual: S IndexName: gsi-include",
                () -> update(table, "SET gr = :v, proj = :p", Map.of(":v", s("ten"), ":p", s("changed"))));
        assertValidation(INVALID + "Type mismatch for Index Key ln Expected: N Actual: BOOL IndexName: lsi-include",
                () -> update(table, "SET ln = :v", Map.of(":v", AttributeValue.fromBool(true))));
        // Refused even when the write's condition does not hold: the check comes first.
        assertValidation(INVALID + "Type mismatch for Index Key g Expected: S Actual: N IndexName: gsi-include",
                () -> server.client().putItem(b -> b.tableName(table).item(with(fullItem(), "g", n("1")))
                        .conditionExpression("attribute_not_exists(pk)")));

        assertEquals(fullItem(), server.client().getItem(b -> b.tableName(table).key(KEY).consistentRead(true)).item());
        if (!TestBackend.cassandra()) { // shared storage keeps no counters yet
            assertEquals(1, server.client().describeTable(b -> b.tableName(table)).table().itemCount());
        }
        assertIndexesRight(table);
    }

    @Test
    void anEmptyIndexKeyIsRefusedWithThePutOrTheUpdateMessage() {
        String table = indexedTable();
        put(table, fullItem());
        // docs/dynamodb/indexes.md §4.2 (real AWS texts): PutItem names the index and key, UpdateItem does not.
        String putPrefix = "One or more parameter values are not valid. A value specified for a secondary index key "
                + "is not supported. The AttributeValue for a key attribute cannot contain an empty ";
        assertValidation(putPrefix + "string value. IndexName: gsi-include, IndexKey: g",
                () -> put(table, with(fullItem(), "g", s(""))));
        assertValidation(putPrefix + "string value. IndexName: lsi-keys, IndexKey: l",
                () -> put(table, with(fullItem(), "l", s(""))));
        assertValidation(putPrefix + "binary value. IndexName: gsi-all, IndexKey: hb",
                () -> put(table, with(fullItem(), "hb", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0])))));
        String updatePrefix = "One or more parameter values are not valid. The update expression attempted to update "
                + "a secondary index key to a value that is not supported. The AttributeValue for a key attribute "
                + "cannot contain an empty ";
        assertValidation(updatePrefix + "string value.", () -> update(table, "SET g = :v", Map.of(":v", s(""))));
        assertValidation(updatePrefix + "string value.", () -> update(table, "SET l = :v", Map.of(":v", s(""))));
        assertValidation(updatePrefix + "binary value.", () -> update(table, "SET hb = :v",
                Map.of(":v", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0])))));

        // Empty values are fine on attributes that key no index.
        update(table, "SET proj = :v", Map.of(":v", s("")));
        assertEquals(with(fullItem(), "proj", s("")),
                server.client().getItem(b -> b.tableName(table).key(KEY).consistentRead(true)).item());
        assertIndexesRight(table);
    }

    // ---- local indexes ---------------------------------------------------------------------

    @Test
    void localIndexEntriesAreThereAsSoonAsTheWriteIsAcknowledged() {
        String table = indexedTable();
        for (int i = 0; i < 60; i++) {
            String value = "l" + i;
            Map<String, AttributeValue> key = item("pk", s("p" + (i % 3)), "sk", n("1"));
            if (i % 2 == 0) {
                put(table, with(key, "l", s(value)));
            } else {
                server.client().updateItem(b -> b.tableName(table).key(key).updateExpression("SET l = :l")
                        .expressionAttributeValues(Map.of(":l", s(value))));
            }
            assertEquals(List.of(with(key, "l", s(value))), query(table, "lsi-keys", "pk = :p AND l = :l",
                    Map.of(":p", key.get("pk"), ":l", s(value))), "write " + i);
        }
        assertIndexesRight(table);
    }

    // ---- index key limits --------------------------------------------------------------------

    /**
     * A global index's key values are held to a table key's lengths: 2,048 bytes in its partition
     * key, 1,024 in its sort key. One byte more is refused with DynamoDB's text (a real AWS
     * response, wellcomecollection/platform#2285: "Size limit exceeded for Index Key componentId
     * Actual Size: 2175 bytes Max Size: 2048 bytes IndexName: work-sets-index"; the sort key's by
     * analogy, with 1024) and nothing is written.
     */
    @Test
    void indexKeyValuesAreHeldToTableKeyLengths() {
        String table = indexedTable();
        String longest = "é".repeat(1_023) + "xx"; // 2,048 bytes
        put(table, item("pk", s("p1"), "sk", n("1"), "h1", s(longest), "h2", n("1"), "hb", AttributeValue.fromB(
                software.amazon.awssdk.core.SdkBytes.fromByteArray(new byte[1_024]))));
        assertEquals(1, query(table, "gsi-all", "h1 = :h AND h2 = :n", Map.of(":h", s(longest), ":n", n("1"))).size());

        assertValidation("One or more parameter values were invalid: Size limit exceeded for Index Key h1 Actual Size: "
                + "2049 bytes Max Size: 2048 bytes IndexName: gsi-all",
                () -> put(table, item("pk", s("p2"), "sk", n("1"), "h1", s(longest + "y"), "h2", n("1"))));
        assertValidation("One or more parameter values were invalid: Size limit exceeded for Index Key hb Actual Size: "
                + "1025 bytes Max Size: 1024 bytes IndexName: gsi-all",
                () -> put(table, item("pk", s("p2"), "sk", n("1"), "h1", s("x"), "h2", n("1"), "hb",
                        AttributeValue.fromB(software.amazon.awssdk.core.SdkBytes.fromByteArray(new byte[1_025])))));
        // g keys gsi-keys and gsi-include: the alphabetically first is named (docs/dynamodb/indexes.md §4.1).
        assertValidation("One or more parameter values were invalid: Size limit exceeded for Index Key g Actual Size: "
                + "2049 bytes Max Size: 2048 bytes IndexName: gsi-include",
                () -> server.client().updateItem(b -> b.tableName(table).key(KEY).updateExpression("SET g = :g")
                        .expressionAttributeValues(Map.of(":g", s("g".repeat(2_049))))));
        assertEquals(null, server.client().getItem(b -> b.tableName(table).key(item("pk", s("p2"), "sk", n("1")))).item()
                .get("pk"));
        assertIndexesRight(table);
    }

    // ---- counts ----------------------------------------------------------------------------

    @Test
    void describeTableCountsFollowTheWrites() {
        String table = indexedTable();
        for (int i = 0; i < 30; i++) {
            put(table, with(fullItem(), "pk", s("p" + i), "g", s("g" + (i % 4))));
        }
        assertIndexesRight(table);
        for (int i = 0; i < 30; i += 3) {
            String pk = "p" + i;
            server.client().updateItem(b -> b.tableName(table).key(item("pk", s(pk), "sk", n("1")))
                    .updateExpression("REMOVE g, l SET proj = :p").expressionAttributeValues(Map.of(":p", s("longer value"))));
        }
        for (int i = 1; i < 30; i += 3) {
            String pk = "p" + i;
            server.client().deleteItem(b -> b.tableName(table).key(item("pk", s(pk), "sk", n("1"))));
        }
        assertIndexesRight(table);
        // Every figure, the local indexes' too: exact at once on one server, recounted on shared storage.
        IndexContents.awaitCounts(server.client(), table);
        var gsiKeys = server.client().describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
                .filter(i -> i.indexName().equals("gsi-keys")).findFirst().orElseThrow();
        assertEquals(10, gsiKeys.itemCount(), "30 items, 10 deleted, 10 without g");
    }

    // ---- capacity --------------------------------------------------------------------------

    /**
     * Write units per index, as DynamoDB measured them (docs/dynamodb/indexes.md §4.5: items under 1 KB,
     * global index gsi-inc INCLUDE proj on gsiPk, local index lsi1 ALL on lsiSk).
     */
    @Test
    void writesAreBilledForTheIndexEntriesTheyChange() {
        String table = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.S),
                        Tables.definition("gsiPk", ScalarAttributeType.S),
                        Tables.definition("lsiSk", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("gsi-inc")
                        .keySchema(Tables.key("gsiPk", KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("proj")).build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("lsi1")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("lsiSk", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)).build()));
        Map<String, AttributeValue> both = item("pk", s("a"), "sk", s("1"), "gsiPk", s("g1"), "lsiSk", s("l1"),
                "proj", s("p1"), "unprojected", s("o1"));

        assertCapacity(2, 1, null, putItem(table, item("pk", s("a"), "sk", s("2"), "gsiPk", s("g1"))));
        assertCapacity(2, null, 1, putItem(table, item("pk", s("a"), "sk", s("3"), "lsiSk", s("l1"))));
        assertCapacity(3, 1, 1, putItem(table, both));
        assertCapacity(1, null, null, putItem(table, item("pk", s("a"), "sk", s("4"))));
        assertCapacity(1, null, null, putItem(table, both));
        assertCapacity(2, null, 1, updateItem(table, "SET unprojected = :v", s("o2")));
        assertCapacity(3, 1, 1, updateItem(table, "SET proj = :v", s("p2")));
        assertCapacity(4, 2, 1, updateItem(table, "SET gsiPk = :v", s("g2")));
        assertCapacity(3, 1, 1, updateItem(table, "REMOVE gsiPk", null));
        assertCapacity(3, null, 2, updateItem(table, "SET lsiSk = :v", s("l2")));
        put(table, both);
        assertCapacity(3, 1, 1, server.client().deleteItem(b -> b.tableName(table).key(item("pk", s("a"), "sk", s("1")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity());
        assertCapacity(1, null, null, server.client().deleteItem(b -> b.tableName(table)
                .key(item("pk", s("a"), "sk", s("4"))).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity());
        // TOTAL folds the index units in.
        assertEquals(3.0, server.client().putItem(b -> b.tableName(table).item(both)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity().capacityUnits());
    }

    private static ConsumedCapacity putItem(String table, Map<String, AttributeValue> item) {
        return server.client().putItem(b -> b.tableName(table).item(item)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
    }

    private static ConsumedCapacity updateItem(String table, String expression, AttributeValue value) {
        return server.client().updateItem(b -> b.tableName(table).key(item("pk", s("a"), "sk", s("1")))
                .updateExpression(expression).expressionAttributeValues(value == null ? null : Map.of(":v", value))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
    }

    /** Total units, the table's 1, and each index's arm (null: no arm at all, as DynamoDB leaves it out). */
    private static void assertCapacity(double total, Integer gsi, Integer lsi, ConsumedCapacity consumed) {
        assertEquals(total, consumed.capacityUnits(), "CapacityUnits");
        assertEquals(1.0, consumed.table().capacityUnits(), "Table");
        if (gsi == null) {
            assertFalse(consumed.hasGlobalSecondaryIndexes(), "no GlobalSecondaryIndexes");
        } else {
            assertEquals(gsi.doubleValue(), consumed.globalSecondaryIndexes().get("gsi-inc").capacityUnits());
            assertEquals(1, consumed.globalSecondaryIndexes().size());
        }
        if (lsi == null) {
            assertFalse(consumed.hasLocalSecondaryIndexes(), "no LocalSecondaryIndexes");
        } else {
            assertEquals(lsi.doubleValue(), consumed.localSecondaryIndexes().get("lsi1").capacityUnits());
            assertEquals(1, consumed.localSecondaryIndexes().size());
        }
        assertTrue(consumed.table().readCapacityUnits() == null && consumed.table().writeCapacityUnits() == null);
    }
}
