package io.stator.server;

import static io.stator.server.testing.DynamoAssertions.isSameItem;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.testing.KeyShape;
import io.stator.server.testing.StatorProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * An acknowledged write survives {@code kill -9} of the server. A separate Stator JVM takes puts,
 * overwrites and deletes from several client threads; the test notes each write the server
 * acknowledged, SIGKILLs the server while writes are still in flight, starts a new server on the
 * same directory and reads every key back: each must hold exactly what its last acknowledged
 * write left (or, if a write to it was in flight at the kill, what that write would have left).
 * Three rounds, so that recovery is itself recovered from.
 */
class KillNineTest {

    private static final int WRITERS = 4;
    private static final int ROUNDS = 3;
    private static final List<KeyShape> SHAPES = List.of(
            new KeyShape(ScalarAttributeType.S, null),
            new KeyShape(ScalarAttributeType.B, ScalarAttributeType.N));

    @TempDir
    Path tmp;

    /** One item of one table. */
    private record ItemKey(String table, Map<String, AttributeValue> key) {}

    /**
     * What the test knows of one item. Only the writer that owns the key changes it, and the
     * checking thread reads it only after that writer has ended.
     */
    private static final class Ledger {
        /** As the last acknowledged write left it; null when absent. */
        Map<String, AttributeValue> acknowledged;
        /** A write was sent and not acknowledged: the server may or may not have made it. */
        boolean inFlight;
        /** What the write in flight would leave; null for a delete. */
        Map<String, AttributeValue> inFlightItem;
    }

    private final Map<ItemKey, Ledger> ledger = new LinkedHashMap<>();

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyAcknowledgedWriteSurvivesSigkill() throws Exception {
        Path data = tmp.resolve("data");
        Path stderr = tmp.resolve("stator-stderr.txt");
        Map<KeyShape, String> tables = new LinkedHashMap<>();
        List<List<ItemKey>> keysByWriter = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) keysByWriter.add(new ArrayList<>());

        for (int round = 0; round < ROUNDS; round++) {
            try (StatorProcess server = StatorProcess.start(data, stderr)) {
                if (round == 0) {
                    for (KeyShape shape : SHAPES) tables.put(shape, shape.createTable(server.client()));
                } else {
                    checkEveryItem(server.client(), "after the kill of round " + (round - 1));
                }
                writeUntilKilled(server, tables, keysByWriter, round);
            }
        }
        try (StatorProcess server = StatorProcess.start(data, stderr)) {
            checkEveryItem(server.client(), "after the last kill");
        }
    }

    private void writeUntilKilled(StatorProcess server, Map<KeyShape, String> tables,
                                  List<List<ItemKey>> keysByWriter, int round) throws Exception {
        AtomicBoolean killed = new AtomicBoolean();
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            // Each writer owns its keys: no two threads ever write the same item.
            List<ItemKey> own = keysByWriter.get(w);
            Random random = new Random(31L * round + w);
            Thread writer = new Thread(() -> {
                try {
                    while (true) write(server.client(), tables, own, random, acknowledged);
                } catch (Throwable t) {
                    if (!killed.get()) failure.compareAndSet(null, t);
                }
            }, "writer-" + w);
            writers.add(writer);
        }
        writers.forEach(Thread::start);

        int target = 300 + ThreadLocalRandom.current().nextInt(500);
        while (acknowledged.get() < target && failure.get() == null && writers.stream().anyMatch(Thread::isAlive)) {
            Thread.sleep(5);
        }
        killed.set(true);
        int exit = server.kill(); // writers are mid-request: the server never stops by itself
        for (Thread writer : writers) writer.join(TimeUnit.SECONDS.toMillis(60));
        if (failure.get() != null) {
            throw new AssertionError("a write failed before the kill" + server.stderrText(), failure.get());
        }
        assertNotEquals(0, exit, "the server must have been killed, not have exited");
        assertTrue(acknowledged.get() >= target, "round " + round + " wrote too little");
    }

    /** One write: a new item, a new version of an item, or a delete. */
    private void write(DynamoDbClient client, Map<KeyShape, String> tables, List<ItemKey> own, Random random,
                       AtomicInteger acknowledged) {
        int choice = random.nextInt(10);
        ItemKey target;
        Ledger state;
        if (own.isEmpty() || choice < 5) {
            KeyShape shape = SHAPES.get(random.nextInt(SHAPES.size()));
            target = new ItemKey(tables.get(shape), shape.newKey());
            state = new Ledger();
            synchronized (ledger) {
                ledger.put(target, state);
            }
            own.add(target);
        } else {
            target = own.get(random.nextInt(own.size()));
            synchronized (ledger) {
                state = ledger.get(target);
            }
        }
        boolean delete = choice >= 8 && state.acknowledged != null;
        Map<String, AttributeValue> item = delete ? null : randomItem(target.key(), random);
        state.inFlight = true;
        state.inFlightItem = item;
        if (delete) {
            client.deleteItem(b -> b.tableName(target.table()).key(target.key()));
        } else {
            client.putItem(b -> b.tableName(target.table()).item(item));
        }
        state.acknowledged = item;
        state.inFlight = false;
        acknowledged.incrementAndGet();
    }

    /** An item of every kind of value, up to a few KB, all in canonical form so it reads back equal. */
    private static Map<String, AttributeValue> randomItem(Map<String, AttributeValue> key, Random random) {
        byte[] bytes = new byte[random.nextInt(1500)];
        random.nextBytes(bytes);
        Map<String, AttributeValue> item = new LinkedHashMap<>(key);
        item.put("version", AttributeValue.fromN(Long.toString(random.nextLong())));
        item.put("text", AttributeValue.fromS("\u00e9\uD83D\uDE00".repeat(random.nextInt(300))));
        item.put("bytes", AttributeValue.fromB(SdkBytes.fromByteArray(bytes)));
        item.put("decimal", AttributeValue.fromN(random.nextInt(1000) + "." + (1 + random.nextInt(9))));
        item.put("set", AttributeValue.fromSs(List.of("a" + random.nextInt(), "b")));
        item.put("doc", AttributeValue.fromM(Map.of(
                "flag", AttributeValue.fromBool(random.nextBoolean()),
                "list", AttributeValue.fromL(List.of(AttributeValue.fromNul(true),
                        AttributeValue.fromN(Integer.toString(random.nextInt())))))));
        return item;
    }

    /** Reads every item ever written and checks it against the ledger, then settles the ledger. */
    private void checkEveryItem(DynamoDbClient client, String when) {
        int inFlight = 0;
        for (Map.Entry<ItemKey, Ledger> e : ledger.entrySet()) {
            ItemKey itemKey = e.getKey();
            Ledger state = e.getValue();
            var response = client.getItem(b -> b.tableName(itemKey.table()).key(itemKey.key()).consistentRead(true));
            Map<String, AttributeValue> actual = response.hasItem() ? response.item() : null;
            boolean asAcknowledged = isSameItem(state.acknowledged, actual);
            if (state.inFlight) {
                inFlight++;
                if (!asAcknowledged && !isSameItem(state.inFlightItem, actual)) {
                    fail(when + ": item " + itemKey + " is neither as acknowledged nor as the write in flight "
                            + "left it: " + actual);
                }
            } else if (!asAcknowledged) {
                fail(when + ": acknowledged write lost or damaged for " + itemKey + "; expected "
                        + state.acknowledged + ", found " + actual);
            }
            state.acknowledged = actual;
            state.inFlight = false;
            state.inFlightItem = null;
        }
        assertTrue(inFlight <= WRITERS, "each writer has at most one write in flight, found " + inFlight);
    }
}
