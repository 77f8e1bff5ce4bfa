package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Attrs.with;
import static io.stator.server.testing.ErrorAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The item collection limit: on a table with a local secondary index, the items of one partition
 * key and their local index entries may not grow past the limit (10 GB in DynamoDB; lowered here
 * with {@code itemCollectionLimitBytes}); the write that would cross it is refused with
 * ItemCollectionSizeLimitExceededException and changes nothing. ReturnItemCollectionMetrics
 * reports the collection on such tables only.
 *
 * <p>The table: key {@code pk} (S) and {@code sk} (N), local index {@code by-l} (KEYS_ONLY, on l),
 * so a collection's size is its items' sizes plus, for each item with an l, the size of
 * {pk, sk, l}.
 */
class ItemCollectionLimitTest {

    private static final long LIMIT = 4_000;
    private static final String LIMIT_EXCEEDED = "ItemCollectionSizeLimitExceededException";
    /**
     * DynamoDB's message for this exception is unknown (docs/dynamodb/indexes.md §6); Stator uses the
     * cancellation-reason text DynamoDB documents for the same condition in TransactWriteItems.
     */
    private static final String LIMIT_MESSAGE = "Collection size exceeded.";

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.with(m -> m.itemCollectionLimitBytes = LIMIT));

    private static String tableWithLocalIndex() {
        String table = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N), Tables.definition("l", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("by-l")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("l", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build()));
        return table;
    }

    /** An item of exactly {@code bytes}, with an l (so a local index entry) or without. */
    private static Map<String, AttributeValue> sized(String pk, int sk, boolean indexed, long bytes) {
        Map<String, AttributeValue> item = item("pk", s(pk), "sk", n(Integer.toString(sk)));
        if (indexed) item = with(item, "l", s("l" + sk));
        return DynamoSize.padded(item, bytes);
    }

    /** What an item adds to its collection: itself and its local index entry. */
    private static long collectionBytes(Map<String, AttributeValue> item) {
        long bytes = DynamoSize.of(item);
        if (item.containsKey("l")) bytes += DynamoSize.of(item("pk", item.get("pk"), "sk", item.get("sk"), "l", item.get("l")));
        return bytes;
    }

    private static void put(String table, Map<String, AttributeValue> item) {
        server.client().putItem(b -> b.tableName(table).item(item));
    }

    private static List<Map<String, AttributeValue>> collection(String table, String pk) {
        return server.client().query(b -> b.tableName(table).consistentRead(true).keyConditionExpression("pk = :p")
                .expressionAttributeValues(Map.of(":p", s(pk)))).items();
    }

    private static List<Map<String, AttributeValue>> localEntries(String table, String pk) {
        return server.client().query(b -> b.tableName(table).indexName("by-l").consistentRead(true)
                .keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", s(pk)))).items();
    }

    @Test
    void aCollectionGrowsToTheLimitAndTheWriteThatWouldCrossItIsRefused() {
        String table = tableWithLocalIndex();
        Map<String, AttributeValue> first = sized("c1", 1, true, 1_000);
        Map<String, AttributeValue> second = sized("c1", 2, false, 1_000);
        put(table, first);
        put(table, second);
        long used = collectionBytes(first) + collectionBytes(second);
        // The third item, with its index entry, fills the collection to exactly the limit.
        Map<String, AttributeValue> probe = sized("c1", 3, true, 100);
        long entry = collectionBytes(probe) - DynamoSize.of(probe);
        Map<String, AttributeValue> third = sized("c1", 3, true, LIMIT - used - entry);
        assertEquals(LIMIT, used + collectionBytes(third));
        put(table, third);

        List<Map<String, AttributeValue>> items = collection(table, "c1");
        List<Map<String, AttributeValue>> entries = localEntries(table, "c1");
        assertEquals(3, items.size());
        assertEquals(2, entries.size());

        // One byte more, whichever way it comes, is refused.
        assertError(LIMIT_EXCEEDED, LIMIT_MESSAGE, () -> put(table, item("pk", s("c1"), "sk", n("4"))));
        assertError(LIMIT_EXCEEDED, LIMIT_MESSAGE, () -> put(table, with(second, "x", AttributeValue.fromBool(true))));
        assertError(LIMIT_EXCEEDED, LIMIT_MESSAGE, () -> server.client().updateItem(b -> b.tableName(table)
                .key(item("pk", s("c1"), "sk", n("2"))).updateExpression("SET x = :x")
                .expressionAttributeValues(Map.of(":x", AttributeValue.fromBool(true)))));
        // Giving the second item an l would add a local index entry.
        assertError(LIMIT_EXCEEDED, LIMIT_MESSAGE, () -> server.client().updateItem(b -> b.tableName(table)
                .key(item("pk", s("c1"), "sk", n("2"))).updateExpression("SET l = :l")
                .expressionAttributeValues(Map.of(":l", s("z")))));
        assertEquals(items, collection(table, "c1"), "the items are unchanged");
        assertEquals(entries, localEntries(table, "c1"), "the local index is unchanged");

        // Writes that do not grow the collection are accepted; other collections are not limited by this one.
        put(table, second);
        server.client().updateItem(b -> b.tableName(table).key(item("pk", s("c1"), "sk", n("1")))
                .updateExpression("REMOVE l"));
        put(table, sized("c2", 1, true, 2_000));

        // A delete makes room again.
        server.client().deleteItem(b -> b.tableName(table).key(item("pk", s("c1"), "sk", n("3"))));
        put(table, item("pk", s("c1"), "sk", n("4"), "l", s("l4")));
        assertEquals(3, collection(table, "c1").size());
    }

    /**
     * Writes to different items of one collection, at the same time, with room for only one of
     * them: one is accepted, the others refused, whatever their interleaving.
     */
    @Test
    void concurrentWritesToOneCollectionCannotTogetherCrossTheLimit() throws Exception {
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < 20; round++) {
                String table = tableWithLocalIndex();
                put(table, sized("c1", 0, false, LIMIT - 1_000));
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Boolean>> accepted = new ArrayList<>();
                for (int w = 1; w <= writers; w++) {
                    Map<String, AttributeValue> item = sized("c1", w, false, 600);
                    accepted.add(pool.submit(() -> {
                        start.await();
                        try {
                            put(table, item);
                            return true;
                        } catch (DynamoDbException e) {
                            assertEquals(LIMIT_EXCEEDED, e.awsErrorDetails().errorCode());
                            return false;
                        }
                    }));
                }
                start.countDown();
                int count = 0;
                for (Future<Boolean> f : accepted) count += f.get() ? 1 : 0;
                assertEquals(1, count, "writes accepted in round " + round);
                assertEquals(2, collection(table, "c1").size());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theCollectionSizeSurvivesARestart() {
        String table = tableWithLocalIndex();
        put(table, sized("c1", 1, false, LIMIT));
        server.restart();
        assertError(LIMIT_EXCEEDED, LIMIT_MESSAGE, () -> put(table, item("pk", s("c1"), "sk", n("2"))));
        server.client().deleteItem(b -> b.tableName(table).key(item("pk", s("c1"), "sk", n("1"))));
        put(table, item("pk", s("c1"), "sk", n("2")));
    }

    @Test
    void tablesWithoutLocalIndexHaveNoLimit() {
        String table = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N), Tables.definition("l", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("by-l")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("l", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)).build()));
        for (int i = 0; i < 5; i++) put(table, sized("c1", i, true, 2_000));
        assertEquals(5, collection(table, "c1").size());
        assertNull(server.client().putItem(b -> b.tableName(table).item(sized("c1", 9, true, 100))
                .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)).itemCollectionMetrics(),
                "no ItemCollectionMetrics without a local index");
    }

    @Test
    void returnItemCollectionMetricsGivesTheCollectionKeyAndASizeRange() {
        String table = tableWithLocalIndex();
        Map<String, AttributeValue> key = item("pk", s("c1"), "sk", n("1"));
        assertMetrics(server.client().putItem(b -> b.tableName(table).item(with(key, "l", s("a")))
                .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)).itemCollectionMetrics());
        assertMetrics(server.client().updateItem(b -> b.tableName(table).key(key).updateExpression("SET l = :l")
                .expressionAttributeValues(Map.of(":l", s("b")))
                .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)).itemCollectionMetrics());
        assertNull(server.client().putItem(b -> b.tableName(table).item(key)
                .returnItemCollectionMetrics(ReturnItemCollectionMetrics.NONE)).itemCollectionMetrics());
        assertNull(server.client().putItem(b -> b.tableName(table).item(key)).itemCollectionMetrics());
        assertMetrics(server.client().deleteItem(b -> b.tableName(table).key(key)
                .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)).itemCollectionMetrics());
    }

    /** DynamoDB's shape: the partition key only, and two numbers (docs/dynamodb/indexes.md §6). */
    private static void assertMetrics(ItemCollectionMetrics metrics) {
        assertEquals(Map.of("pk", s("c1")), metrics.itemCollectionKey());
        List<Double> range = metrics.sizeEstimateRangeGB();
        assertEquals(2, range.size());
        assertTrue(range.get(0) <= range.get(1), range.toString());
        assertFalse(range.get(0) < 0, range.toString());
        // How DynamoDB estimates is unknown; Stator gives the whole gigabytes around the size.
        assertEquals(List.of(0.0, 1.0), range);
    }
}
