package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
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
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.VectorDistanceFunction;

/**
 * No acknowledged vector is lost to {@code kill -9}: a separate Stator JVM takes puts of items
 * with vectors, overwrites (a new vector) and deletes from several threads, and is SIGKILLed
 * while they are in flight; after a restart on the same directory every item is as its last
 * acknowledged write left it (or as the write in flight would have), and the vector index holds
 * exactly those items: each found by a search for its own vector, and no other. Two rounds.
 */
class VectorKillNineTest {

    private static final int WRITERS = 4;
    private static final int ROUNDS = 2;
    private static final int DIMENSIONS = 8;
    private static final String TABLE = "vectors";

    @TempDir
    Path tmp;

    /** What the test knows of one item: its acknowledged vector (null when absent) and the one in flight. */
    private static final class Ledger {
        volatile float[] acknowledged;
        volatile boolean inFlight;
        volatile float[] inFlightVector;
    }

    private final Map<String, Ledger> ledger = new ConcurrentHashMap<>();

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyAcknowledgedVectorSurvivesSigkill() throws Exception {
        Path data = tmp.resolve("data");
        Path stderr = tmp.resolve("stator-stderr.txt");
        List<List<String>> keysByWriter = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) keysByWriter.add(new ArrayList<>());
        for (int round = 0; round < ROUNDS; round++) {
            try (StatorProcess server = StatorProcess.start(data, stderr)) {
                if (round == 0) {
                    server.client().createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                            .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                            .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                            .vectorIndexes(v -> v.indexName("byVector").vectorAttribute(a -> a.attributeName("v"))
                                    .dimensions((long) DIMENSIONS).distanceFunction(VectorDistanceFunction.EUCLIDEAN)
                                    .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
                } else {
                    check(server.client(), "after the kill of round " + (round - 1));
                }
                writeUntilKilled(server, keysByWriter, round);
            }
        }
        try (StatorProcess server = StatorProcess.start(data, stderr)) {
            check(server.client(), "after the last kill");
        }
    }

    private void writeUntilKilled(StatorProcess server, List<List<String>> keysByWriter, int round) throws Exception {
        AtomicBoolean killed = new AtomicBoolean();
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            List<String> own = keysByWriter.get(w); // each writer owns its keys
            Random random = new Random(31L * round + w);
            String prefix = "r" + round + "w" + w + "-";
            Thread writer = new Thread(() -> {
                try {
                    while (true) write(server.client(), own, prefix, random, acknowledged);
                } catch (Throwable t) {
                    if (!killed.get()) failure.compareAndSet(null, t);
                }
            }, "vector-writer-" + w);
            writers.add(writer);
        }
        writers.forEach(Thread::start);
        int target = 400 + ThreadLocalRandom.current().nextInt(600);
        while (acknowledged.get() < target && failure.get() == null && writers.stream().anyMatch(Thread::isAlive)) {
            Thread.sleep(5);
        }
        killed.set(true);
        int exit = server.kill();
        for (Thread writer : writers) writer.join(TimeUnit.SECONDS.toMillis(60));
        if (failure.get() != null) throw new AssertionError("a write failed before the kill" + server.stderrText(), failure.get());
        assertNotEquals(0, exit, "the server must have been killed, not have exited");
    }

    private void write(DynamoDbClient client, List<String> own, String prefix, Random random, AtomicInteger acknowledged) {
        int choice = random.nextInt(10);
        String key;
        Ledger state;
        if (own.isEmpty() || choice < 5) {
            key = prefix + own.size();
            state = new Ledger();
            ledger.put(key, state);
            own.add(key);
        } else {
            key = own.get(random.nextInt(own.size()));
            state = ledger.get(key);
        }
        boolean delete = choice >= 8 && state.acknowledged != null;
        float[] v = null;
        if (!delete) {
            v = new float[DIMENSIONS];
            for (int d = 0; d < DIMENSIONS; d++) v[d] = (float) random.nextGaussian();
        }
        state.inFlightVector = v;
        state.inFlight = true;
        if (delete) {
            client.deleteItem(b -> b.tableName(TABLE).key(Map.of("pk", AttributeValue.fromS(key))));
        } else {
            Map<String, AttributeValue> item = Map.of("pk", AttributeValue.fromS(key), "v", vector(v));
            client.putItem(b -> b.tableName(TABLE).item(item));
        }
        state.acknowledged = v;
        state.inFlight = false;
        acknowledged.incrementAndGet();
    }

    private static AttributeValue vector(float[] v) {
        List<AttributeValue> out = new ArrayList<>(v.length);
        for (float f : v) out.add(AttributeValue.fromN(Float.toString(f)));
        return AttributeValue.fromL(out);
    }

    private static float[] floats(AttributeValue list) {
        float[] v = new float[list.l().size()];
        for (int i = 0; i < v.length; i++) v[i] = Float.parseFloat(list.l().get(i).n());
        return v;
    }

    /** The items, then the index: it converges to exactly the items there are, each found by its own vector. */
    private void check(DynamoDbClient client, String when) {
        int present = 0;
        for (Map.Entry<String, Ledger> e : ledger.entrySet()) {
            Ledger state = e.getValue();
            var response = client.getItem(b -> b.tableName(TABLE).key(Map.of("pk", AttributeValue.fromS(e.getKey())))
                    .consistentRead(true));
            float[] actual = response.hasItem() && !response.item().isEmpty() ? floats(response.item().get("v")) : null;
            boolean asAcknowledged = java.util.Arrays.equals(state.acknowledged, actual);
            if (!asAcknowledged && !(state.inFlight && java.util.Arrays.equals(state.inFlightVector, actual))) {
                fail(when + ": item " + e.getKey() + " lost or damaged; expected "
                        + java.util.Arrays.toString(state.acknowledged) + ", found " + java.util.Arrays.toString(actual));
            }
            state.acknowledged = actual;
            state.inFlight = false;
            if (actual != null) present++;
        }
        int expected = present;
        Eventually.until(when + ": the index holds every item", () -> client.describeTable(b -> b.tableName(TABLE)).table()
                .vectorIndexes().get(0).itemCount(), count -> count == expected);
        for (Map.Entry<String, Ledger> e : ledger.entrySet()) {
            float[] v = e.getValue().acknowledged;
            if (v == null) continue;
            var hits = client.searchVectors(b -> b.tableName(TABLE).indexName("byVector")
                    .searchVector(vector(v).l()).topK(1)).searchResults();
            assertEquals(e.getKey(), hits.get(0).item().get("pk").s(), when + ": the index finds " + e.getKey());
            assertEquals(0.0, hits.get(0).score(), when);
        }
        assertTrue(present > 0);
    }
}
