package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Attrs.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.engine.index.PropagationDelay;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.IndexContents;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import io.stator.server.testing.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * With {@code --gsi-propagation-delay}, a write is in the table and its local indexes as soon as
 * it is acknowledged, and in its global indexes only once the delay has passed, as DynamoDB's
 * global indexes lag behind the table. The changes on their way are durable: they reach the
 * global index after a restart, and after a {@code kill -9}.
 *
 * <p>The table: key {@code pk} (S) and {@code sk} (N), global index {@code by-g} (KEYS_ONLY, on
 * g), local index {@code by-l} (KEYS_ONLY, on l).
 */
class GsiPropagationDelayTest {

    private static final long DELAY_MILLIS = 500;

    private static final TestClock CLOCK = new TestClock();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK).with(m -> m.gsiPropagationDelay =
            PropagationDelay.parse(DELAY_MILLIS + "ms")));

    @AfterEach
    void followSystemTime() {
        CLOCK.useSystemTime();
    }

    @TempDir
    Path tmp;

    private static String createTable(DynamoDbClient client) {
        String table = StatorTestServer.tableName();
        client.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N),
                        Tables.definition("g", ScalarAttributeType.S),
                        Tables.definition("l", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("by-g")
                        .keySchema(Tables.key("g", KeyType.HASH)).projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                        .build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("by-l")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("l", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build()));
        return table;
    }

    /** The table keys of the items by-g holds under g = value. */
    private static List<Map<String, AttributeValue>> globalQuery(DynamoDbClient client, String table, String value) {
        return client.query(b -> b.tableName(table).indexName("by-g").keyConditionExpression("g = :g")
                .expressionAttributeValues(Map.of(":g", s(value)))).items().stream()
                .map(i -> IndexContents.keyOf(List.of("pk", "sk"), i)).toList();
    }

    private static List<Map<String, AttributeValue>> localQuery(DynamoDbClient client, String table, String pk) {
        return client.query(b -> b.tableName(table).indexName("by-l").consistentRead(true)
                .keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", s(pk)))).items();
    }

    /** Waits until by-g holds {@code expected} under g = value. */
    private static void awaitGlobal(DynamoDbClient client, String table, String value,
                                    List<Map<String, AttributeValue>> expected) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!globalQuery(client, table, value).equals(expected)) {
            if (System.nanoTime() > deadline) fail("by-g never held " + expected + " under " + value);
            Eventually.sleep(5);
        }
    }

    /**
     * On the server's (stopped) clock, the global index holds the old state until the delay has
     * passed, however slow the machine, and the new one as soon as it has.
     */
    @Test
    void aWriteIsInTheTableAndLocalIndexAtOnceAndInTheGlobalIndexAfterTheDelay() {
        String table = createTable(server.client());
        Map<String, AttributeValue> key = item("pk", s("p1"), "sk", n("1"));
        CLOCK.set(Instant.now());
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("p1"), "sk", n("1"), "g", s("a"), "l", s("l1"))));
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "l", s("l1"))), localQuery(server.client(), table, "p1"));
        assertStillAbsent(table, "a", key);
        CLOCK.advance(Duration.ofMillis(1));
        awaitGlobal(server.client(), table, "a", List.of(key));

        // An update moves the item from a to b: the global index shows the old state meanwhile.
        server.client().updateItem(b -> b.tableName(table).key(key).updateExpression("SET g = :g, l = :l")
                .expressionAttributeValues(Map.of(":g", s("b"), ":l", s("l2"))));
        assertEquals(s("b"), server.client().getItem(b -> b.tableName(table).key(key).consistentRead(true)).item().get("g"));
        assertEquals(List.of(item("pk", s("p1"), "sk", n("1"), "l", s("l2"))), localQuery(server.client(), table, "p1"));
        assertEquals(List.of(key), globalQuery(server.client(), table, "a"), "the old entry is still there");
        assertStillAbsent(table, "b", key);
        CLOCK.advance(Duration.ofMillis(1));
        awaitGlobal(server.client(), table, "b", List.of(key));
        assertEquals(List.of(), globalQuery(server.client(), table, "a"), "moved in one step");

        // A delete: gone from the table and the local index at once, from the global index later.
        server.client().deleteItem(b -> b.tableName(table).key(key));
        assertFalse(server.client().getItem(b -> b.tableName(table).key(key).consistentRead(true)).hasItem());
        assertEquals(List.of(), localQuery(server.client(), table, "p1"));
        CLOCK.advance(Duration.ofMillis(DELAY_MILLIS - 1));
        Eventually.sleep(200);
        assertEquals(List.of(key), globalQuery(server.client(), table, "b"), "still in the global index");
        CLOCK.advance(Duration.ofMillis(1));
        awaitGlobal(server.client(), table, "b", List.of());
    }

    /**
     * Moves the clock to 1 ms before the write's delay is over, gives the server time to act,
     * and checks that the item is still not in the global index under g = value.
     */
    private static void assertStillAbsent(String table, String value, Map<String, AttributeValue> key) {
        assertFalse(globalQuery(server.client(), table, value).contains(key), "not in the global index yet");
        CLOCK.advance(Duration.ofMillis(DELAY_MILLIS - 1));
        Eventually.sleep(200);
        assertFalse(globalQuery(server.client(), table, value).contains(key), "not in the global index 1 ms early");
    }

    @Test
    void aDelayRangeDelaysEachWriteWithinIt() {
        try (StatorTestServer ranged = StatorTestServer.start(o -> o.with(m -> m.gsiPropagationDelay =
                PropagationDelay.parse("100ms-300ms")))) {
            DynamoDbClient client = ranged.client();
            String table = createTable(client);
            Map<Map<String, AttributeValue>, Long> sent = new HashMap<>();
            for (int i = 0; i < 20; i++) {
                Map<String, AttributeValue> key = item("pk", s("p" + i), "sk", n("1"));
                sent.put(key, System.nanoTime());
                client.putItem(b -> b.tableName(table).item(with(key, "g", s("x"))));
            }
            Map<Map<String, AttributeValue>, Long> seen = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (seen.size() < 20) {
                if (System.nanoTime() > deadline) fail("only " + seen.size() + " of 20 reached the global index");
                List<Map<String, AttributeValue>> found = globalQuery(client, table, "x");
                // Taken after the query: an entry it found arrived before now (the query's start
                // would undercount by the query's own time on a loaded machine).
                long now = System.nanoTime();
                for (Map<String, AttributeValue> key : found) seen.putIfAbsent(key, now);
                Eventually.sleep(5);
            }
            for (Map.Entry<Map<String, AttributeValue>, Long> e : seen.entrySet()) {
                long took = (e.getValue() - sent.get(e.getKey())) / 1_000_000;
                assertTrue(took >= 100, e.getKey() + " reached the global index after " + took + " ms");
            }
        }
    }

    @Test
    void changesOnTheirWayReachTheGlobalIndexAfterARestart() {
        try (StatorTestServer slow = StatorTestServer.start(o -> o.with(m -> m.gsiPropagationDelay =
                PropagationDelay.parse("5s")))) {
            String table = createTable(slow.client());
            writeFifty(slow.client(), table);
            assertEquals(List.of(), globalQuery(slow.client(), table, "x"), "none propagated yet");
            slow.restart(); // well before the 5 s are over
            IndexContents.awaitIndexesMatch(slow.client(), table, Duration.ofSeconds(20));
            IndexContents.assertCounts(slow.client(), table);
            assertEquals(25, globalQuery(slow.client(), table, "x").size());
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void changesOnTheirWayReachTheGlobalIndexAfterAKillNine() throws Exception {
        Path data = tmp.resolve("data");
        Path stderr = tmp.resolve("stator-stderr.txt");
        String table;
        try (StatorProcess first = StatorProcess.start(data, stderr, List.of("-Xmx256m"),
                List.of("--gsi-propagation-delay", "5s"))) {
            table = createTable(first.client());
            writeFifty(first.client(), table);
            assertEquals(List.of(), globalQuery(first.client(), table, "x"), "none propagated yet");
            first.kill();
        }
        try (StatorProcess second = StatorProcess.start(data, stderr, List.of("-Xmx256m"),
                List.of("--gsi-propagation-delay", "5s"))) {
            IndexContents.awaitIndexesMatch(second.client(), table, Duration.ofSeconds(30));
            IndexContents.assertCounts(second.client(), table);
            assertEquals(25, globalQuery(second.client(), table, "x").size(), second.stderrText());
        }
    }

    /**
     * {@code --gsi-propagation-delay 0}: every write is in the global index before it answers, as
     * on DynamoDB Local (issue 38), for puts, updates that move an entry, deletes, batches and
     * transactions, from several clients at once; the index ends as the table says.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void withZeroEachWriteIsInTheGlobalIndexBeforeItAnswers() throws Exception {
        try (StatorProcess synchronous = StatorProcess.start(tmp.resolve("data"), tmp.resolve("stderr.txt"),
                List.of("-Xmx256m"), List.of("--gsi-propagation-delay", "0"))) {
            DynamoDbClient client = synchronous.client();
            String table = createTable(client);
            List<Thread> writers = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int w = 0; w < 4; w++) {
                int writer = w;
                writers.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 40; i++) {
                            String id = writer + "-" + i;
                            Map<String, AttributeValue> key = item("pk", s("p" + id), "sk", n("1"));
                            client.putItem(b -> b.tableName(table).item(with(key, "g", s("put-" + id))));
                            assertEquals(List.of(key), globalQuery(client, table, "put-" + id), "put " + id);
                            client.updateItem(b -> b.tableName(table).key(key).updateExpression("SET g = :g")
                                    .expressionAttributeValues(Map.of(":g", s("moved-" + id))));
                            assertEquals(List.of(key), globalQuery(client, table, "moved-" + id), "update " + id);
                            assertEquals(List.of(), globalQuery(client, table, "put-" + id), "moved from " + id);
                            if (i % 4 == 0) {
                                client.deleteItem(b -> b.tableName(table).key(key));
                                assertEquals(List.of(), globalQuery(client, table, "moved-" + id), "delete " + id);
                            }
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            for (Thread t : writers) t.join();
            if (!failures.isEmpty()) throw new AssertionError(failures.size() + " failed; first: " + failures.get(0),
                    failures.get(0));
            Map<String, AttributeValue> batched = item("pk", s("batched"), "sk", n("1"));
            client.batchWriteItem(b -> b.requestItems(Map.of(table, List.of(software.amazon.awssdk.services.dynamodb.model
                    .WriteRequest.builder().putRequest(r -> r.item(with(batched, "g", s("batch")))).build()))));
            assertEquals(List.of(batched), globalQuery(client, table, "batch"));
            Map<String, AttributeValue> transacted = item("pk", s("transacted"), "sk", n("1"));
            client.transactWriteItems(b -> b.transactItems(t -> t.put(p -> p.tableName(table)
                    .item(with(transacted, "g", s("transaction"))))));
            assertEquals(List.of(transacted), globalQuery(client, table, "transaction"));
            IndexContents.assertCounts(client, table);
        }
    }

    /** 50 puts, then updates that move half of them from g = w to g = x and delete a tenth. */
    private static void writeFifty(DynamoDbClient client, String table) {
        for (int i = 0; i < 50; i++) {
            Map<String, AttributeValue> key = item("pk", s("p" + i), "sk", n("1"));
            client.putItem(b -> b.tableName(table).item(with(key, "g", s("w"), "l", s("l"))));
        }
        for (int i = 0; i < 50; i += 2) {
            Map<String, AttributeValue> key = item("pk", s("p" + i), "sk", n("1"));
            client.updateItem(b -> b.tableName(table).key(key).updateExpression("SET g = :g")
                    .expressionAttributeValues(Map.of(":g", s("x"))));
        }
        for (int i = 1; i < 50; i += 10) {
            Map<String, AttributeValue> key = item("pk", s("p" + i), "sk", n("1"));
            client.deleteItem(b -> b.tableName(table).key(key));
        }
    }
}
