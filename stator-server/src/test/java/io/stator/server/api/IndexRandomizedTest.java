package io.stator.server.api;

import static io.stator.server.testing.Attrs.b;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.IndexContents;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Random writes, then every index compared entry by entry with what the table's items say it
 * must hold. Puts, updates (SET and REMOVE of index key and projected attributes) and deletes,
 * some conditional and failing, some refused for a wrongly typed index key, from several client
 * threads over a small key space so that items change many times. The table has a global index
 * with an INCLUDE projection, a sparse global index with a multi-attribute key, and a local
 * index. The seed is printed; set -Dstator.seed to replay one.
 */
class IndexRandomizedTest {

    private static final int OPERATIONS = 20_000;
    private static final int THREADS = 4;
    private static final int PARTITIONS = 40;
    private static final int SORT_KEYS = 10;

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void everyIndexHoldsExactlyWhatTheItemsSayAfterRandomWrites() throws Exception {
        long seed = Long.getLong("stator.seed", System.nanoTime());
        System.out.println("IndexRandomizedTest seed: " + seed + " (replay with -Dstator.seed=" + seed + ")");
        String table = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N),
                        Tables.definition("g", ScalarAttributeType.S),
                        Tables.definition("gr", ScalarAttributeType.N),
                        Tables.definition("h1", ScalarAttributeType.S),
                        Tables.definition("h2", ScalarAttributeType.N),
                        Tables.definition("r1", ScalarAttributeType.B),
                        Tables.definition("l", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(
                        GlobalSecondaryIndex.builder().indexName("gsi-include")
                                .keySchema(Tables.key("g", KeyType.HASH), Tables.key("gr", KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("p1", "p2"))
                                .build(),
                        GlobalSecondaryIndex.builder().indexName("gsi-multi")
                                .keySchema(Tables.key("h1", KeyType.HASH), Tables.key("h2", KeyType.HASH),
                                        Tables.key("r1", KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                                .build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("lsi-all")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("l", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL))
                        .build()));

        AtomicInteger succeeded = new AtomicInteger();
        AtomicInteger conditionFailed = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Random random = new Random(seed + t);
                done.add(threads.submit(() -> {
                    for (int i = 0; i < OPERATIONS / THREADS; i++) {
                        try {
                            write(table, random);
                            succeeded.incrementAndGet();
                        } catch (ConditionalCheckFailedException e) {
                            conditionFailed.incrementAndGet();
                        } catch (DynamoDbException e) {
                            assertEquals("ValidationException", e.awsErrorDetails().errorCode(), e.getMessage());
                            assertTrue(e.getMessage().contains("Type mismatch for Index Key"), e.getMessage());
                            refused.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            threads.shutdownNow();
        }
        System.out.printf("IndexRandomizedTest: %d writes made, %d conditions failed, %d refused%n",
                succeeded.get(), conditionFailed.get(), refused.get());
        assertTrue(conditionFailed.get() > 0 && refused.get() > 0, "the mix reached every outcome");

        IndexContents.awaitIndexesMatch(server.client(), table, Duration.ofSeconds(30));
        IndexContents.assertCounts(server.client(), table);
    }

    /** One random write. */
    private static void write(String table, Random random) {
        Map<String, AttributeValue> key = Map.of("pk", s("p" + random.nextInt(PARTITIONS)),
                "sk", n(Integer.toString(random.nextInt(SORT_KEYS))));
        int kind = random.nextInt(100);
        if (kind < 30) {
            Map<String, AttributeValue> item = new LinkedHashMap<>(key);
            for (String name : List.of("g", "gr", "h1", "h2", "r1", "l", "p1", "p2", "other")) {
                if (random.nextInt(10) < 7) item.put(name, value(name, random));
            }
            if (random.nextInt(50) == 0) item.put("gr", s("not a number")); // refused: gr keys gsi-include as N
            if (random.nextInt(5) == 0) {
                // Conditional put: fails when the item has no g, or when it is absent.
                server.client().putItem(b -> b.tableName(table).item(item).conditionExpression("attribute_exists(g)"));
            } else {
                server.client().putItem(b -> b.tableName(table).item(item));
            }
        } else if (kind < 80) {
            List<String> set = new ArrayList<>();
            List<String> remove = new ArrayList<>();
            Map<String, String> names = new HashMap<>();
            Map<String, AttributeValue> values = new HashMap<>();
            List<String> attributes = new ArrayList<>(List.of("g", "gr", "h1", "h2", "r1", "l", "p1", "p2", "other"));
            int changes = 1 + random.nextInt(3);
            for (int i = 0; i < changes; i++) {
                String name = attributes.remove(random.nextInt(attributes.size()));
                names.put("#" + name, name);
                if (random.nextInt(3) == 0) {
                    remove.add("#" + name);
                } else {
                    set.add("#" + name + " = :" + name);
                    values.put(":" + name, value(name, random));
                }
            }
            if (random.nextInt(50) == 0) {
                names.put("#h2", "h2");
                set.removeIf(a -> a.startsWith("#h2 "));
                remove.remove("#h2");
                values.remove(":h2");
                set.add("#h2 = :bad");
                values.put(":bad", s("not a number")); // refused: h2 keys gsi-multi as N
            }
            String expression = (set.isEmpty() ? "" : "SET " + String.join(", ", set) + " ")
                    + (remove.isEmpty() ? "" : "REMOVE " + String.join(", ", remove));
            String condition = random.nextInt(5) == 0 ? "attribute_not_exists(l)" : null;
            server.client().updateItem(b -> b.tableName(table).key(key).updateExpression(expression)
                    .conditionExpression(condition).expressionAttributeNames(names)
                    .expressionAttributeValues(values.isEmpty() ? null : values));
        } else {
            if (random.nextBoolean()) {
                server.client().deleteItem(b -> b.tableName(table).key(key).conditionExpression("gr < :v")
                        .expressionAttributeValues(Map.of(":v", n(Integer.toString(random.nextInt(5))))));
            } else {
                server.client().deleteItem(b -> b.tableName(table).key(key));
            }
        }
    }

    /** A random value of the type the attribute has in the indexes, from a small set (ties happen). */
    private static AttributeValue value(String name, Random random) {
        int v = random.nextInt(6);
        return switch (name) {
            case "gr", "h2" -> n(Integer.toString(v));
            case "r1" -> b(v, v + 1);
            case "other" -> n(Integer.toString(random.nextInt(1000)));
            default -> s(name + "-" + v);
        };
    }
}
