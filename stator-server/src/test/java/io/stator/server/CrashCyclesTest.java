package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.testing.IndexContents;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.Tables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
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
 * Nothing acknowledged is lost, cycle after cycle of {@code kill -9}: a server in its own JVM
 * takes puts, updates and deletes from several clients and a stream of transfers between two
 * counters (transactions), on a table with a global and a local index, and is SIGKILLed at a
 * random moment; then it is started again on the same directory and checked:
 * <ul>
 *   <li>every item is as its last acknowledged write left it, or as the one write that was in
 *       flight at the kill would have (each client writes only its own items, one at a time, so
 *       those are the only two possible states);</li>
 *   <li>the transfers are whole: the two counters always add up, and the transfers present are
 *       those acknowledged, or one more;</li>
 *   <li>every index holds exactly what the table's items say it must (the global one once its
 *       queue has drained).</li>
 * </ul>
 * {@code ./mvnw verify} runs a few cycles; the profile {@code crash-cycles} runs 100
 * ({@code -Dstator.crashCycles=N} for any other number).
 */
class CrashCyclesTest {

    private static final String TABLE = "crash-cycles";
    private static final int WRITERS = 3;
    private static final int KEYS_PER_WRITER = 20;
    private static final long TOTAL = 1_000_000;

    @TempDir
    Path tmp;

    /** What an item may be after a restart: its last acknowledged state, or the one in flight. */
    private static final class KeyState {
        Map<String, AttributeValue> acknowledged; // null: absent
        Map<String, AttributeValue> inFlight;
        boolean writing;
    }

    private final Map<String, KeyState> keys = new HashMap<>();
    private long transfersAcknowledged;
    private boolean transferInFlight;

    @Test
    @Timeout(value = 60, unit = TimeUnit.MINUTES)
    void everyAcknowledgedWriteSurvivesEveryKill() throws Exception {
        int cycles = Integer.getInteger("stator.crashCycles", 5);
        Path data = tmp.resolve("data");
        Path stderr = tmp.resolve("stator-stderr.txt");
        Random random = new Random(Long.getLong("stator.seed", System.nanoTime()));
        long start = System.nanoTime();
        long writes = 0;
        for (int cycle = 0; cycle < cycles; cycle++) {
            try (StatorProcess server = StatorProcess.start(data, stderr)) {
                if (cycle == 0) createTable(server.client());
                else check(server.client(), "after kill " + cycle);
                writes += writeUntilKilled(server, cycle, 100 + random.nextInt(400));
            }
        }
        try (StatorProcess server = StatorProcess.start(data, stderr)) {
            check(server.client(), "after the last kill");
        }
        System.out.printf("CrashCyclesTest: %d kill -9 cycles, %d writes and %d transfers acknowledged, "
                        + "every one present after every restart, indexes exact; %.0f s%n", cycles, writes,
                transfersAcknowledged, (System.nanoTime() - start) / 1e9);
    }

    private void createTable(DynamoDbClient client) {
        client.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N),
                        Tables.definition("group", ScalarAttributeType.S),
                        Tables.definition("v", ScalarAttributeType.N))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("by-group")
                        .keySchema(Tables.key("group", KeyType.HASH), Tables.key("v", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .localSecondaryIndexes(l -> l.indexName("by-v")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("v", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
        for (int w = 0; w < WRITERS; w++) {
            for (int k = 0; k < KEYS_PER_WRITER; k++) keys.put(key(w, k), new KeyState());
        }
        client.putItem(b -> b.tableName(TABLE).item(Map.of("pk", s("counter-a"), "sk", n(0), "n", n(TOTAL))));
        client.putItem(b -> b.tableName(TABLE).item(Map.of("pk", s("counter-b"), "sk", n(0), "n", n(0))));
    }

    private static String key(int writer, int k) {
        return "w" + writer + "-k" + k;
    }

    /** Writes from every client until the server is killed, {@code millis} after the start; returns the writes acknowledged. */
    private long writeUntilKilled(StatorProcess server, int cycle, int millis) throws Exception {
        AtomicBoolean killed = new AtomicBoolean();
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            Random random = new Random(cycle * 31L + writer);
            threads.add(new Thread(() -> {
                for (long version = 1; ; version++) {
                    String pk = key(writer, random.nextInt(KEYS_PER_WRITER));
                    KeyState state = keys.get(pk);
                    int op = random.nextInt(10);
                    Map<String, AttributeValue> next;
                    Map<String, AttributeValue> after;
                    String tag = "c" + cycle + "-v" + version;
                    if (op < 5) {
                        next = item(pk, version, tag);
                        after = next;
                    } else if (op < 8) {
                        next = null;
                        after = item(pk, version, tag); // an update creates the item when absent
                        if (state.acknowledged != null) {
                            after = new HashMap<>(state.acknowledged);
                            after.putAll(Map.of("v", n(version), "group", s("g" + version % 3), "tag", s(tag)));
                        }
                    } else {
                        next = null;
                        after = null;
                    }
                    synchronized (state) {
                        state.inFlight = after;
                        state.writing = true;
                    }
                    try {
                        DynamoDbClient client = server.client();
                        Map<String, AttributeValue> key = Map.of("pk", s(pk), "sk", n(0));
                        long v = version;
                        if (op < 5) {
                            client.putItem(b -> b.tableName(TABLE).item(next));
                        } else if (op < 8) {
                            client.updateItem(b -> b.tableName(TABLE).key(key)
                                    .updateExpression("SET v = :v, #g = :g, tag = :t, payload = if_not_exists(payload, :p)")
                                    .expressionAttributeNames(Map.of("#g", "group"))
                                    .expressionAttributeValues(Map.of(":v", n(v), ":g", s("g" + v % 3), ":t", s(tag),
                                            ":p", s("x".repeat(100)))));
                        } else {
                            client.deleteItem(b -> b.tableName(TABLE).key(key));
                        }
                    } catch (Throwable t) {
                        if (!killed.get()) failure.compareAndSet(null, t);
                        return; // the write stays in flight: applied or not, both are allowed
                    }
                    synchronized (state) {
                        state.acknowledged = after;
                        state.inFlight = null;
                        state.writing = false;
                    }
                    acknowledged.incrementAndGet();
                }
            }, "writer-" + w));
        }
        threads.add(new Thread(() -> {
            while (true) {
                transferInFlight = true;
                try {
                    server.client().transactWriteItems(b -> b.transactItems(transfer("counter-a", -1),
                            transfer("counter-b", 1)));
                } catch (Throwable t) {
                    if (!killed.get()) failure.compareAndSet(null, t);
                    return;
                }
                transferInFlight = false;
                transfersAcknowledged++;
            }
        }, "transfers"));
        threads.forEach(Thread::start);
        Thread.sleep(millis);
        killed.set(true);
        int exit = server.kill();
        for (Thread t : threads) t.join(TimeUnit.SECONDS.toMillis(60));
        if (failure.get() != null) throw new AssertionError("a write failed before the kill" + server.stderrText(),
                failure.get());
        assertNotEquals(0, exit, "the server must have been killed, not have exited");
        return acknowledged.get();
    }

    private static Map<String, AttributeValue> item(String pk, long version, String tag) {
        return Map.of("pk", s(pk), "sk", n(0), "v", n(version), "group", s("g" + version % 3), "tag", s(tag),
                "payload", s("x".repeat(100)));
    }

    private static TransactWriteItem transfer(String counter, long delta) {
        return TransactWriteItem.builder().update(u -> u.tableName(TABLE)
                .key(Map.of("pk", s(counter), "sk", n(0))).updateExpression("SET n = n + :d")
                .expressionAttributeValues(Map.of(":d", n(delta)))).build();
    }

    /** Every item in one of its allowed states, the transfers whole, the indexes exact. */
    private void check(DynamoDbClient client, String when) {
        for (Map.Entry<String, KeyState> e : keys.entrySet()) {
            KeyState state = e.getValue();
            Map<String, AttributeValue> found = client.getItem(b -> b.tableName(TABLE).consistentRead(true)
                    .key(Map.of("pk", s(e.getKey()), "sk", n(0)))).item();
            Map<String, AttributeValue> actual = found == null || found.isEmpty() ? null : found;
            boolean asAcknowledged = Objects.equals(actual, state.acknowledged);
            boolean asInFlight = state.writing && Objects.equals(actual, state.inFlight);
            if (!asAcknowledged && !asInFlight) {
                fail(when + ": item " + e.getKey() + " is " + actual + ", but its last acknowledged write left "
                        + state.acknowledged + (state.writing ? " and the one in flight " + state.inFlight : ""));
            }
            state.acknowledged = actual;
            state.inFlight = null;
            state.writing = false;
        }
        long a = counter(client, "counter-a");
        long b = counter(client, "counter-b");
        assertEquals(TOTAL, a + b, when + ": the transfers are whole");
        assertTrue(b == transfersAcknowledged || (transferInFlight && b == transfersAcknowledged + 1),
                when + ": " + b + " transfers present, " + transfersAcknowledged + " acknowledged");
        transfersAcknowledged = b;
        transferInFlight = false;
        IndexContents.awaitIndexesMatch(client, TABLE, Duration.ofSeconds(60));
    }

    private static long counter(DynamoDbClient client, String pk) {
        return Long.parseLong(client.getItem(b -> b.tableName(TABLE).consistentRead(true)
                .key(Map.of("pk", s(pk), "sk", n(0)))).item().get("n").n());
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }
}
