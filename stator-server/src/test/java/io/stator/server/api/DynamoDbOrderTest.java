package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.key.PartitionHash;
import io.stator.engine.table.TableDefinition;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Scan order, parallel-scan segments, and the order of a global index's items sharing one index
 * key, exactly as DynamoDB returns them (key layout 2: DynamoDB's hash). The expected values are
 * those dynalite's test suite asserts (test/scan.js "should return items in string hash order",
 * "... number hash order", "... correct string/number hash segments"; test/query.js "should query
 * on basic hash global index" and its reverse and ExclusiveStartKey variants), a suite that runs
 * against DynamoDB itself.
 */
class DynamoDbOrderTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static DynamoDbClient client;

    @BeforeAll
    static void connect() {
        client = server.client();
    }

    @Test
    void scanReturnsStringKeysInDynamoDbsOrder() {
        String table = tableOf(ScalarAttributeType.S,
                "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "aardman", "hello", "zapf", "äáöü");
        assertEquals(List.of("2", "8", "9", "1", "6", "hello", "0", "5", "4", "äáöü", "aardman", "7", "3", "zapf"),
                scan(table, 0, 1));
    }

    @Test
    void scanReturnsNumberKeysInDynamoDbsOrder() {
        String table = tableOf(ScalarAttributeType.N,
                "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "-0.09", "999.9", "0.012345", "-999.9");
        assertEquals(List.of("7", "999.9", "8", "3", "2", "-999.9", "9", "4", "-0.09", "6", "1", "0", "0.012345", "5"),
                scan(table, 0, 1));
    }

    /**
     * Binary keys: no recorded DynamoDB order exists, so the expectation follows the rule dynalite
     * reproduces DynamoDB's string and number orders with (MD5 of "Outliers" and the raw bytes),
     * computed outside Stator and written down; likewise each of 4 segments' members.
     */
    @Test
    void scanAndSegmentsOfBinaryKeysFollowDynamoDbsHash() {
        String table = tableOf(ScalarAttributeType.B, "AA==", "AQ==", "/w==", "YWJj", "AAA=", "gH8=", "AAECAwQFBgcICQ==",
                "AQIDBA==");
        assertEquals(List.of("YWJj", "AQIDBA==", "/w==", "AQ==", "AAECAwQFBgcICQ==", "gH8=", "AAA=", "AA=="),
                scan(table, 0, 1));
        List<List<String>> segments = new ArrayList<>();
        for (int s = 0; s < 4; s++) segments.add(scan(table, s, 4));
        assertEquals(List.of(List.of("YWJj", "AQIDBA==", "/w=="), List.of("AQ==", "AAECAwQFBgcICQ=="),
                List.of("gH8=", "AAA="), List.of("AA==")), segments);
    }

    /** A table keyed by "a" of this type holding these keys (B ones in base64). */
    private static String tableOf(ScalarAttributeType type, String... keys) {
        String table = hashTable(type);
        for (String key : keys) {
            AttributeValue a = switch (type) {
                case S -> AttributeValue.fromS(key);
                case N -> AttributeValue.fromN(key);
                default -> AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(key)));
            };
            client.putItem(b -> b.tableName(table).item(Map.of("a", a)));
        }
        return table;
    }

    /** The keys one segment of a scan returns, in its order, as {@link #tableOf} writes them. */
    private static List<String> scan(String table, int segment, int totalSegments) {
        return client.scan(b -> b.tableName(table).segment(segment).totalSegments(totalSegments)).items().stream()
                .map(i -> i.get("a")).map(a -> a.s() != null ? a.s() : a.n() != null ? a.n()
                        : Base64.getEncoder().encodeToString(a.b().asByteArray())).toList();
    }

    @Test
    void parallelScanSegmentsHoldTheItemsDynamoDbsDo() {
        String strings = tableOf(ScalarAttributeType.S, "3635", "228", "1668", "3435");
        assertEquals(Set.of("3635", "228"), Set.copyOf(scan(strings, 0, 4096)));
        assertEquals(List.of("1668"), scan(strings, 1, 4096));
        assertEquals(List.of("3435"), scan(strings, 4, 4096));

        String numbers = tableOf(ScalarAttributeType.N, "251", "2388");
        assertEquals(List.of("251"), scan(numbers, 1, 4096));
        assertEquals(List.of("2388"), scan(numbers, 4095, 4096));
    }

    @Test
    void aGlobalIndexReturnsItemsSharingItsKeyInDynamoDbsOrder() {
        String table = StatorTestServer.tableName();
        client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(d -> d.attributeName("a").attributeType(ScalarAttributeType.S),
                        d -> d.attributeName("b").attributeType(ScalarAttributeType.S),
                        d -> d.attributeName("c").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("a").keyType(KeyType.HASH), k -> k.attributeName("b").keyType(KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("index3")
                        .keySchema(k -> k.attributeName("c").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.ALL))));
        Map<String, String[]> items = new LinkedHashMap<>();
        items.put("item", new String[] {"a", "a"});
        items.put("item2", new String[] {"b", "b"});
        items.put("item3", new String[] {"c", "e"});
        items.put("item4", new String[] {"c", "d"});
        items.put("item6", new String[] {"d", "a"});
        items.put("item7", new String[] {"e", "a"});
        for (Map.Entry<String, String[]> e : items.entrySet()) {
            client.putItem(b -> b.tableName(table).item(Map.of("a", AttributeValue.fromS(e.getValue()[0]),
                    "b", AttributeValue.fromS(e.getValue()[1]), "c", AttributeValue.fromS("C"),
                    "name", AttributeValue.fromS(e.getKey()))));
        }
        client.putItem(b -> b.tableName(table).item(Map.of("a", AttributeValue.fromS("f"), "b", AttributeValue.fromS("f"),
                "c", AttributeValue.fromS("c"), "name", AttributeValue.fromS("item5"))));
        awaitIndex(table, 6);

        QueryResponse forward = query(table, true, 4, null);
        assertEquals(List.of("item2", "item", "item3", "item7"), names(forward));
        assertEquals(key("e", "a"), forward.lastEvaluatedKey());

        QueryResponse reverse = query(table, false, 4, null);
        assertEquals(List.of("item4", "item6", "item7", "item3"), names(reverse));
        assertEquals(key("c", "e"), reverse.lastEvaluatedKey());

        QueryResponse after = query(table, true, 2, key("c", "e"));
        assertEquals(List.of("item7", "item6"), names(after));
        assertEquals(key("d", "a"), after.lastEvaluatedKey());

        QueryResponse before = query(table, false, 2, key("e", "a"));
        assertEquals(List.of("item3", "item"), names(before));
        assertEquals(key("a", "a"), before.lastEvaluatedKey());
    }

    /**
     * A table created before key layout 2 keeps xxHash64 (its catalog entry says so): its items,
     * index entries and order stay as they were written, across a restart, while a new table
     * gets DynamoDB's order.
     */
    @Test
    void aTableOfKeyLayoutOneKeepsItsHashAcrossARestart() {
        String table = StatorTestServer.tableName();
        client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(d -> d.attributeName("a").attributeType(ScalarAttributeType.S),
                        d -> d.attributeName("c").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("a").keyType(KeyType.HASH))
                .globalSecondaryIndexes(g -> g.indexName("byC").keySchema(k -> k.attributeName("c").keyType(KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
        server.engine().catalog().update(table, t -> {
            TableDefinition.Builder b = t.toBuilder();
            b.partitionHash = PartitionHash.XXH64; // as TableCodec reads a table written before layout 2
            return b.build();
        });
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) keys.add("k" + i);
        for (String a : keys) {
            client.putItem(b -> b.tableName(table).item(Map.of("a", AttributeValue.fromS(a), "c", AttributeValue.fromS("C"))));
        }
        List<String> xxHashOrder = new ArrayList<>(keys);
        xxHashOrder.sort((x, y) -> Long.compareUnsigned(PartitionHash.XXH64.of(new io.stator.core.model.AttributeValue.S(x)),
                PartitionHash.XXH64.of(new io.stator.core.model.AttributeValue.S(y))));
        for (int round = 0; round < 2; round++) {
            assertEquals(xxHashOrder, client.scan(b -> b.tableName(table)).items().stream().map(i -> i.get("a").s()).toList());
            List<String> segments = new ArrayList<>();
            for (int s = 0; s < 4; s++) {
                int segment = s;
                client.scan(b -> b.tableName(table).segment(segment).totalSegments(4)).items()
                        .forEach(i -> segments.add(i.get("a").s()));
            }
            assertEquals(xxHashOrder, segments);
            assertEquals("k7", client.getItem(b -> b.tableName(table).key(Map.of("a", AttributeValue.fromS("k7")))).item()
                    .get("a").s());
            assertEquals(1, client.query(b -> b.tableName(table).keyConditionExpression("a = :a")
                    .expressionAttributeValues(Map.of(":a", AttributeValue.fromS("k9")))).count());
            awaitCount(table, "byC", 40);
            server.restart();
            client = server.client();
        }
        assertEquals(PartitionHash.XXH64, server.engine().catalog().find(table).partitionHash());
        String fresh = hashTable(ScalarAttributeType.S);
        assertEquals(PartitionHash.DYNAMODB, server.engine().catalog().find(fresh).partitionHash());
    }

    private static String hashTable(ScalarAttributeType type) {
        String table = StatorTestServer.tableName();
        client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(d -> d.attributeName("a").attributeType(type))
                .keySchema(k -> k.attributeName("a").keyType(KeyType.HASH)));
        return table;
    }

    private static QueryResponse query(String table, boolean forward, int limit, Map<String, AttributeValue> start) {
        return client.query(b -> b.tableName(table).indexName("index3").keyConditionExpression("c = :c")
                .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("C")))
                .scanIndexForward(forward).limit(limit).exclusiveStartKey(start));
    }

    private static Map<String, AttributeValue> key(String a, String b) {
        return Map.of("a", AttributeValue.fromS(a), "b", AttributeValue.fromS(b), "c", AttributeValue.fromS("C"));
    }

    private static List<String> names(QueryResponse response) {
        return response.items().stream().map(i -> i.get("name").s()).toList();
    }

    /** Global indexes are updated asynchronously, as DynamoDB's are: wait until all are in. */
    private static void awaitIndex(String table, int count) {
        awaitCount(table, "index3", count);
    }

    private static void awaitCount(String table, String index, int count) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        int seen = 0;
        while (System.nanoTime() < deadline) {
            seen = client.query(b -> b.tableName(table).indexName(index).keyConditionExpression("c = :c")
                    .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("C")))).count();
            if (seen == count) return;
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        assertTrue(false, "the index holds " + seen + " of " + count);
    }
}
