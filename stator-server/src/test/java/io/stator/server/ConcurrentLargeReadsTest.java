package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.Tables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;

/**
 * Fifty clients reading 380 KB items at once from a server run as {@code bin/stator --memory
 * 512MB} runs it (a 128 MB heap, 64 MB of direct buffers, exiting on its first OutOfMemoryError):
 * GetItems, BatchGetItems of every item (6 MB each), Scan pages, Queries and TransactGetItems.
 * Every request is answered, and answered right; the server is up at the end. Before requests
 * were admitted by memory, a quarter of such requests were answered 500 with the heap exhausted.
 */
class ConcurrentLargeReadsTest {

    private static final MemoryBudget BUDGET = new MemoryBudget(512L << 20);
    private static final int ITEMS = 16;
    private static final int VALUE_BYTES = 380 * 1024;
    private static final int READERS = 50;
    private static final int READS_EACH = 15;

    @TempDir(cleanup = CleanupMode.ALWAYS)
    Path tmp;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void fiftyReadersOfLargeItemsAreAllAnsweredRight() throws Exception {
        List<String> jvm = Arrays.asList(BUDGET.jvmOptions().split(" "));
        try (StatorProcess server = StatorProcess.start(tmp.resolve("data"), tmp.resolve("stator-stderr.txt"), jvm,
                List.of("--memory", "512MB"))) {
            DynamoDbClient client = server.client();
            String table = "large-reads";
            client.createTable(Tables.onDemand(table).build());
            for (int id = 0; id < ITEMS; id++) {
                Map<String, AttributeValue> item = item(id);
                client.putItem(b -> b.tableName(table).item(item));
            }

            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            AtomicInteger answered = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                int reader = r;
                readers.add(Thread.ofPlatform().name("reader-" + r).start(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < READS_EACH; i++) {
                        int id = (reader + i) % ITEMS;
                        try {
                            read(client, table, (reader + i) % 5, id);
                            answered.incrementAndGet();
                        } catch (RuntimeException | AssertionError e) {
                            failures.add("reader " + reader + ", read " + i + ": " + e);
                        }
                    }
                }));
            }
            long started = System.nanoTime();
            start.countDown();
            for (Thread t : readers) t.join();
            System.out.printf("ConcurrentLargeReadsTest: %d of %d answered in %.1f s, %d failed%n", answered.get(),
                    READERS * READS_EACH, (System.nanoTime() - started) / 1e9, failures.size());
            assertTrue(failures.isEmpty(), failures.size() + " failed, the first: " + failures.peek()
                    + server.stderrText());
            assertEquals(READERS * READS_EACH, answered.get());
            assertTrue(server.isAlive(), "the server is still running" + server.stderrText());
        }
    }

    /** One read of the five kinds, checking what comes back. */
    private static void read(DynamoDbClient client, String table, int kind, int id) {
        switch (kind) {
            case 0 -> assertEquals(item(id), client.getItem(b -> b.tableName(table).key(key(id))).item());
            case 1 -> {
                List<Map<String, AttributeValue>> keys = IntStream.range(0, ITEMS).mapToObj(ConcurrentLargeReadsTest::key).toList();
                var response = client.batchGetItem(b -> b.requestItems(Map.of(table,
                        KeysAndAttributes.builder().keys(keys).build())));
                assertTrue(response.unprocessedKeys().isEmpty(), "6 MB is within BatchGetItem's 16 MB");
                List<Map<String, AttributeValue>> items = response.responses().get(table);
                assertEquals(ITEMS, items.size());
                for (Map<String, AttributeValue> item : items) assertEquals(item(id(item)), item);
            }
            case 2 -> {
                List<Map<String, AttributeValue>> items = client.scan(b -> b.tableName(table).limit(3)).items();
                assertEquals(3, items.size());
                for (Map<String, AttributeValue> item : items) assertEquals(item(id(item)), item);
            }
            case 3 -> assertEquals(List.of(item(id)), client.query(b -> b.tableName(table)
                    .keyConditionExpression("pk = :pk").expressionAttributeValues(Map.of(":pk", key(id).get("pk"))))
                    .items());
            default -> {
                int other = (id + 1) % ITEMS;
                var response = client.transactGetItems(b -> b.transactItems(
                        TransactGetItem.builder().get(g -> g.tableName(table).key(key(id))).build(),
                        TransactGetItem.builder().get(g -> g.tableName(table).key(key(other))).build()));
                assertEquals(item(id), response.responses().get(0).item());
                assertEquals(item(other), response.responses().get(1).item());
            }
        }
    }

    private static Map<String, AttributeValue> key(int id) {
        return Map.of("pk", AttributeValue.fromS("item-" + id));
    }

    private static int id(Map<String, AttributeValue> item) {
        return Integer.parseInt(item.get("pk").s().substring("item-".length()));
    }

    /** Item {@code id}: a string of 380 KB when even, a binary of 380 KB when odd; the same every time. */
    private static Map<String, AttributeValue> item(int id) {
        SplittableRandom random = new SplittableRandom(id);
        AttributeValue value;
        if (id % 2 == 0) {
            char[] chars = new char[VALUE_BYTES];
            for (int i = 0; i < chars.length; i++) chars[i] = (char) ('a' + random.nextInt(26));
            value = AttributeValue.fromS(new String(chars));
        } else {
            byte[] bytes = new byte[VALUE_BYTES];
            random.nextBytes(bytes);
            value = AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(bytes));
        }
        return Map.of("pk", AttributeValue.fromS("item-" + id), "v", value);
    }
}
