package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.Tables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * A transaction survives {@code kill -9} whole or not at all, in its tables and in their
 * indexes. Client threads stream transactions into a separate Stator JVM, each writing three
 * items of a table with a global and a local index, an item of a second table and an update of
 * its thread's counter there, all marked with the transaction's id; the server is SIGKILLed
 * mid-stream and started again on the same directory. Then every transaction is wholly present
 * or wholly absent in both tables, the local index and (once propagated) the global index; every
 * transaction acknowledged before the kill is present; and each thread's counter equals the
 * number of its transactions present. Two rounds, so that recovery is itself recovered from.
 */
class TransactionCrashTest {

    private static final int WRITERS = 3;
    private static final int ROUNDS = 2;
    private static final String MAIN = "crash-main";
    private static final String OTHER = "crash-other";

    @TempDir
    Path tmp;

    /** One transaction as a client thread sent it. */
    private record Sent(String id, int writer, boolean acknowledged) {}

    private final List<Sent> sent = new ArrayList<>();

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyTransactionSurvivesSigkillWholeOrNotAtAll() throws Exception {
        Path data = tmp.resolve("data");
        Path stderr = tmp.resolve("stator-stderr.txt");
        for (int round = 0; round < ROUNDS; round++) {
            try (StatorProcess server = StatorProcess.start(data, stderr)) {
                if (round == 0) {
                    createTables(server.client());
                } else {
                    check(server, "after the kill of round " + (round - 1));
                }
                transactUntilKilled(server, round);
            }
        }
        try (StatorProcess server = StatorProcess.start(data, stderr)) {
            check(server, "after the last kill");
        }
    }

    private static void createTables(DynamoDbClient client) {
        client.createTable(b -> b.tableName(MAIN).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.S),
                        Tables.definition("txn", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("by-txn").keySchema(Tables.key("txn", KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .localSecondaryIndexes(l -> l.indexName("by-pk-txn")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("txn", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
        client.createTable(Tables.onDemand(OTHER).build());
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            client.putItem(b -> b.tableName(OTHER).item(Map.of("pk", s("writer-" + writer), "n", n(0))));
        }
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    /** The transaction {@code id} of {@code writer}: three items of MAIN, one of OTHER, its counter. */
    private static List<TransactWriteItem> transaction(String id, int writer) {
        List<TransactWriteItem> actions = new ArrayList<>();
        for (String part : List.of("a", "b", "c")) {
            // Spread over a few partitions, so that the local index has collections of several transactions.
            Map<String, AttributeValue> item = Map.of("pk", s("p" + Math.floorMod(id.hashCode(), 5)),
                    "sk", s(id + "-" + part), "txn", s(id), "payload", s("x".repeat(200)));
            actions.add(TransactWriteItem.builder().put(p -> p.tableName(MAIN).item(item)).build());
        }
        actions.add(TransactWriteItem.builder().put(p -> p.tableName(OTHER)
                .item(Map.of("pk", s(id), "txn", s(id)))).build());
        actions.add(TransactWriteItem.builder().update(u -> u.tableName(OTHER).key(Map.of("pk", s("writer-" + writer)))
                .updateExpression("SET n = n + :one, lastTxn = :id")
                .expressionAttributeValues(Map.of(":one", n(1), ":id", s(id)))).build());
        return actions;
    }

    private void transactUntilKilled(StatorProcess server, int round) throws Exception {
        AtomicBoolean killed = new AtomicBoolean();
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            writers.add(new Thread(() -> {
                for (int i = 0; ; i++) {
                    String id = String.format("r%d-w%d-%05d", round, writer, i);
                    try {
                        server.client().transactWriteItems(b -> b.transactItems(transaction(id, writer)));
                    } catch (Throwable t) {
                        if (!killed.get()) failure.compareAndSet(null, t);
                        record(new Sent(id, writer, false));
                        return;
                    }
                    record(new Sent(id, writer, true));
                    acknowledged.incrementAndGet();
                }
            }, "transactions-" + w));
        }
        writers.forEach(Thread::start);

        int target = 150 + ThreadLocalRandom.current().nextInt(200);
        while (acknowledged.get() < target && failure.get() == null && writers.stream().anyMatch(Thread::isAlive)) {
            Thread.sleep(5);
        }
        killed.set(true);
        int exit = server.kill(); // every writer is mid-request: the server never stops by itself
        for (Thread writer : writers) writer.join(TimeUnit.SECONDS.toMillis(60));
        if (failure.get() != null) {
            throw new AssertionError("a transaction failed before the kill" + server.stderrText(), failure.get());
        }
        assertNotEquals(0, exit, "the server must have been killed, not have exited");
        assertTrue(acknowledged.get() >= target, "round " + round + " wrote too little");
    }

    private void record(Sent transaction) {
        synchronized (sent) {
            sent.add(transaction);
        }
    }

    /** Every transaction sent so far is whole or absent everywhere, and present if acknowledged. */
    private void check(StatorProcess server, String when) throws InterruptedException {
        DynamoDbClient client = server.client();
        Map<String, Integer> baseItems = countByTransaction(client, MAIN, null);
        Map<String, Integer> localEntries = countByTransaction(client, MAIN, "by-pk-txn");
        Map<String, Integer> otherItems = countByTransaction(client, OTHER, null);
        int[] present = new int[WRITERS];
        Map<String, Boolean> isPresent = new HashMap<>();
        for (Sent t : sent) {
            int base = baseItems.getOrDefault(t.id(), 0);
            boolean whole = base == 3 && otherItems.getOrDefault(t.id(), 0) == 1
                    && localEntries.getOrDefault(t.id(), 0) == 3;
            boolean absent = base == 0 && !otherItems.containsKey(t.id()) && !localEntries.containsKey(t.id());
            if (!whole && !absent) {
                fail(when + ": transaction " + t + " is in part: " + base + " items of " + MAIN + ", "
                        + otherItems.getOrDefault(t.id(), 0) + " of " + OTHER + ", "
                        + localEntries.getOrDefault(t.id(), 0) + " local index entries");
            }
            if (t.acknowledged() && !whole) fail(when + ": acknowledged transaction " + t + " lost");
            if (whole) present[t.writer()]++;
            isPresent.put(t.id(), whole);
        }
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            Map<String, AttributeValue> counter = client.getItem(b -> b.tableName(OTHER)
                    .key(Map.of("pk", s("writer-" + writer))).consistentRead(true)).item();
            assertEquals(Integer.toString(present[w]), counter.get("n").n(), when + ": counter of writer " + w);
        }
        assertEquals(sent.stream().filter(t -> isPresent.get(t.id())).count(),
                (long) baseItems.size(), when + ": items of transactions never sent");

        System.out.printf("TransactionCrashTest, %s: %d transactions sent, %d acknowledged, %d present%n", when,
                sent.size(), sent.stream().filter(Sent::acknowledged).count(), expectedPresent(isPresent));

        // The global index is updated after the commit, from a queue written with it: wait
        // until it holds exactly the transactions present.
        Map<String, Integer> expected = new TreeMap<>();
        isPresent.forEach((id, whole) -> {
            if (whole) expected.put(id, 3);
        });
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Map<String, Integer> globalEntries = new TreeMap<>(countByTransaction(client, MAIN, "by-txn"));
        while (!globalEntries.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            globalEntries = new TreeMap<>(countByTransaction(client, MAIN, "by-txn"));
        }
        assertEquals(expected, globalEntries, when + ": the global index after propagation");
    }

    private static long expectedPresent(Map<String, Boolean> isPresent) {
        return isPresent.values().stream().filter(Boolean::booleanValue).count();
    }

    /** The items (or index entries) of a table or index, counted by their "txn" attribute. */
    private static Map<String, Integer> countByTransaction(DynamoDbClient client, String table, String index) {
        Map<String, Integer> counts = new HashMap<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            var page = client.scan(b -> {
                b.tableName(table).exclusiveStartKey(from);
                // Global indexes cannot be read consistently; tables and local indexes can.
                if (index == null || !index.equals("by-txn")) b.consistentRead(true);
                if (index != null) b.indexName(index);
            });
            for (Map<String, AttributeValue> item : page.items()) {
                AttributeValue txn = item.get("txn");
                if (txn != null) counts.merge(txn.s(), 1, Integer::sum);
            }
            start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return counts;
    }
}
