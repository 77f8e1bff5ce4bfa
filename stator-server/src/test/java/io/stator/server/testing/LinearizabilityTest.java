package io.stator.server.testing;

import static io.stator.server.testing.Linearizability.FAILED;
import static io.stator.server.testing.Linearizability.NO_EFFECT;
import static io.stator.server.testing.Linearizability.OK;
import static io.stator.server.testing.Linearizability.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Linearizability.ConditionalPut;
import io.stator.server.testing.Linearizability.Delete;
import io.stator.server.testing.Linearizability.Get;
import io.stator.server.testing.Linearizability.Op;
import io.stator.server.testing.Linearizability.Operation;
import io.stator.server.testing.Linearizability.Outcome;
import io.stator.server.testing.Linearizability.Put;
import io.stator.server.testing.Linearizability.Read;
import io.stator.server.testing.Linearizability.Result;
import io.stator.server.testing.Linearizability.Verdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

class LinearizabilityTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    // ---- Hand-built histories (times in milliseconds) ----

    private static Operation op(int client, Op op, long invokedMillis, long returnedMillis, Outcome outcome) {
        return new Operation(client, op, invokedMillis * 1_000_000, returnedMillis * 1_000_000, outcome);
    }

    private static Read read(String value) { return new Read(value); }

    private static void assertLinearizable(List<Operation> history) {
        Result result = Linearizability.check(history);
        assertEquals(Verdict.LINEARIZABLE, result.verdict(), result::toString);
    }

    private static Result assertNotLinearizable(String key, List<Operation> history) {
        Result result = Linearizability.check(history);
        assertEquals(Verdict.NOT_LINEARIZABLE, result.verdict(), result::toString);
        assertEquals(key, result.key());
        return result;
    }

    @Test
    void sequentialHistoryOfEveryOperationIsLinearizable() {
        assertLinearizable(List.of(
                op(1, new Get("k"), 0, 1, read(null)),
                op(1, new Put("k", "a"), 2, 3, OK),
                op(2, new Get("k"), 4, 5, read("a")),
                op(2, new ConditionalPut("k", "a", "b"), 6, 7, OK),
                op(1, new ConditionalPut("k", "a", "c"), 8, 9, FAILED),
                op(1, new Get("k"), 10, 11, read("b")),
                op(2, new Delete("k"), 12, 13, OK),
                op(1, new ConditionalPut("k", null, "d"), 14, 15, OK),
                op(2, new Get("k"), 16, 17, read("d"))));
    }

    @Test
    void overlappingWritesMayTakeEffectInEitherOrder() {
        for (String last : List.of("a", "b")) {
            assertLinearizable(List.of(
                    op(1, new Put("k", "a"), 0, 10, OK),
                    op(2, new Put("k", "b"), 5, 15, OK),
                    op(3, new Get("k"), 16, 17, read(last)),
                    op(3, new Get("k"), 18, 19, read(last))));
        }
    }

    @Test
    void readsDuringAWriteMaySeeTheOldValueThenTheNew() {
        assertLinearizable(List.of(
                op(1, new Put("k", "a"), 0, 1, OK),
                op(1, new Put("k", "b"), 2, 20, OK),
                op(2, new Get("k"), 3, 4, read("a")),
                op(3, new Get("k"), 3, 9, read("b")),
                op(2, new Get("k"), 5, 30, read("b")),
                op(2, new Get("k"), 31, 32, read("b"))));
    }

    @Test
    void concurrentConditionalPutsOneWinsTheOtherFails() {
        assertLinearizable(List.of(
                op(1, new Put("k", "a"), 0, 1, OK),
                op(2, new ConditionalPut("k", "a", "b"), 2, 10, FAILED),
                op(3, new ConditionalPut("k", "a", "c"), 3, 8, OK),
                op(1, new Get("k"), 11, 12, read("c"))));
    }

    @Test
    void writeWithUnknownOutcomeMayTakeEffectLateOrNever() {
        assertLinearizable(List.of(
                op(1, new Put("k", "a"), 0, 1, UNKNOWN),
                op(2, new Get("k"), 2, 3, read(null)),
                op(2, new Get("k"), 100, 101, read("a")),
                op(2, new Get("k"), 102, 103, read("a"))));
        assertLinearizable(List.of(
                op(1, new Put("k", "a"), 0, 1, UNKNOWN),
                op(1, new ConditionalPut("k", null, "b"), 2, 3, UNKNOWN),
                op(2, new Get("k"), 4, 5, read(null)),
                op(2, new Get("k"), 100, 101, read(null))));
    }

    @Test
    void definiteErrorsAndUnansweredReadsChangeNothing() {
        assertLinearizable(List.of(
                op(1, new Put("k", "a"), 0, 1, NO_EFFECT),
                op(2, new Get("k"), 2, 3, UNKNOWN),
                op(2, new Get("k"), 4, 5, read(null))));
    }

    @Test
    void keysAreIndependentRegisters() {
        assertLinearizable(List.of(
                op(1, new Put("k1", "a"), 0, 1, OK),
                op(1, new Get("k2"), 2, 3, read(null)),
                op(2, new Put("k2", "a"), 4, 5, OK),
                op(2, new Get("k1"), 6, 7, read("a"))));
    }

    @Test
    void staleReadAfterACompletedWriteIsNotLinearizable() {
        Result result = assertNotLinearizable("k2", List.of(
                op(1, new Put("k1", "x"), 0, 1, OK),
                op(1, new Put("k2", "a"), 0, 1, OK),
                op(2, new Put("k2", "b"), 2, 3, OK),
                op(3, new Get("k2"), 4, 5, read("a")),
                op(3, new Get("k1"), 4, 5, read("x"))));
        String explanation = result.explanation();
        assertTrue(explanation.contains("client 3 get(k2) -> \"a\"  [4.000 .. 5.000 ms]"), explanation);
        assertTrue(explanation.contains("the item is \"b\""), explanation);
        assertTrue(explanation.contains("(impossible on \"b\")"), explanation);
    }

    @Test
    void lostAcknowledgedWriteIsNotLinearizable() {
        assertNotLinearizable("k", List.of(
                op(1, new Put("k", "a"), 0, 1, OK),
                op(1, new Put("k", "b"), 2, 3, OK),
                op(2, new Get("k"), 4, 5, read("a"))));
        assertNotLinearizable("k", List.of(
                op(1, new Put("k", "a"), 0, 1, OK),
                op(2, new Get("k"), 4, 5, read(null))));
    }

    @Test
    void twoConditionalPutsSucceedingOnTheSameExpectedValueAreNotLinearizable() {
        assertNotLinearizable("k", List.of(
                op(1, new Put("k", "a"), 0, 1, OK),
                op(2, new ConditionalPut("k", "a", "b"), 2, 10, OK),
                op(3, new ConditionalPut("k", "a", "c"), 3, 8, OK)));
        // Nor when the item was absent.
        assertNotLinearizable("k", List.of(
                op(2, new ConditionalPut("k", null, "b"), 2, 10, OK),
                op(3, new ConditionalPut("k", null, "c"), 3, 8, OK)));
    }

    @Test
    void failedConditionSaysTheItemHeldAnotherValue() {
        assertNotLinearizable("k", List.of(
                op(1, new Put("k", "a"), 0, 1, OK),
                op(2, new ConditionalPut("k", "a", "b"), 2, 3, FAILED)));
    }

    @Test
    void valueSeenCannotComeBackWithoutAWrite() {
        assertNotLinearizable("k", List.of(
                op(1, new Put("k", "a"), 0, 10, OK),
                op(2, new Put("k", "b"), 0, 10, OK),
                op(3, new Get("k"), 11, 12, read("a")),
                op(3, new Get("k"), 13, 14, read("b"))));
        // An unknown write, once seen, stays (there is no delete).
        assertNotLinearizable("k", List.of(
                op(1, new Put("k", "a"), 0, 1, UNKNOWN),
                op(2, new Get("k"), 2, 3, read("a")),
                op(2, new Get("k"), 4, 5, read(null))));
    }

    // ---- Histories recorded from real threads ----

    /** A register per key that a workload drives. */
    private interface Registers {
        void put(String key, String value);

        void delete(String key);

        String get(String key);

        boolean conditionalPut(String key, String expected, String value);
    }

    /** Linearizable: every operation is one atomic step of the map. */
    private static final class MapRegisters implements Registers {
        private final ConcurrentHashMap<String, String> map = new ConcurrentHashMap<>();

        public void put(String key, String value) { map.put(key, value); }

        public void delete(String key) { map.remove(key); }

        public String get(String key) { return map.get(key); }

        public boolean conditionalPut(String key, String expected, String value) {
            return expected == null ? map.putIfAbsent(key, value) == null : map.replace(key, expected, value);
        }
    }

    /** Reads answer the value before the last write, as a lagging replica would. */
    private static final class StaleRegisters implements Registers {
        private final Map<String, String> current = new HashMap<>();
        private final Map<String, String> previous = new HashMap<>();

        public synchronized void put(String key, String value) { previous.put(key, current.put(key, value)); }

        public synchronized void delete(String key) { previous.put(key, current.remove(key)); }

        public synchronized String get(String key) { return previous.get(key); }

        public synchronized boolean conditionalPut(String key, String expected, String value) {
            if (!Objects.equals(current.get(key), expected)) return false;
            put(key, value);
            return true;
        }
    }

    /**
     * Registers whose operations take a random while, up to {@code maxNanos}, before and after
     * they take effect, as a request's trip to a server would: in-memory operations are otherwise
     * so short that few of them overlap.
     */
    private record Slow(Registers registers, Random random, int maxNanos) implements Registers {
        private void travel() { LockSupport.parkNanos(random.nextInt(maxNanos)); }

        public void put(String key, String value) { travel(); registers.put(key, value); travel(); }

        public void delete(String key) { travel(); registers.delete(key); travel(); }

        public String get(String key) {
            travel();
            String value = registers.get(key);
            travel();
            return value;
        }

        public boolean conditionalPut(String key, String expected, String value) {
            travel();
            boolean ok = registers.conditionalPut(key, expected, value);
            travel();
            return ok;
        }
    }

    /**
     * Runs {@code threads} clients at once, each doing {@code operations} random operations on
     * {@code keys} keys through its own {@link Registers} ({@code clientRegisters}), and returns
     * what they recorded. Values are unique per write, or drawn from {@code values} ones. A
     * conditional put expects the value the client last read of that key.
     */
    private static List<Operation> workload(int threads, int operations, int keys, int values,
                                            IntFunction<Registers> clientRegisters) throws Exception {
        History history = new History();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < threads; c++) {
                int client = c;
                clients.add(pool.submit(() -> {
                    Registers registers = clientRegisters.apply(client);
                    Random random = new Random(client);
                    Map<String, String> lastRead = new HashMap<>();
                    start.await();
                    for (int i = 0; i < operations; i++) {
                        String key = "k" + random.nextInt(keys);
                        String value = values == 0 ? "c" + client + "-" + i : "v" + random.nextInt(values);
                        int dice = random.nextInt(10);
                        if (dice < 4) {
                            History.Call call = history.invoke(client, new Get(key));
                            try {
                                String read = registers.get(key);
                                call.read(read);
                                lastRead.put(key, read);
                            } catch (SdkException e) {
                                call.threw(e);
                            }
                        } else if (dice < 7) {
                            History.Call call = history.invoke(client, new Put(key, value));
                            try {
                                registers.put(key, value);
                                call.ok();
                            } catch (SdkException e) {
                                call.threw(e);
                            }
                        } else if (dice < 8) {
                            History.Call call = history.invoke(client, new Delete(key));
                            try {
                                registers.delete(key);
                                call.ok();
                            } catch (SdkException e) {
                                call.threw(e);
                            }
                        } else {
                            String expected = lastRead.get(key);
                            History.Call call = history.invoke(client, new ConditionalPut(key, expected, value));
                            try {
                                if (registers.conditionalPut(key, expected, value)) call.ok();
                                else call.failed();
                            } catch (SdkException e) {
                                call.threw(e);
                            }
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> c : clients) c.get();
        } finally {
            pool.shutdownNow();
        }
        return history.operations();
    }

    private static Result timedCheck(String what, List<Operation> history) {
        long started = System.nanoTime();
        Result result = Linearizability.check(history);
        System.out.printf("%s: %d operations, %s, %d steps, %d ms%n", what, history.size(), result.verdict(),
                result.steps(), (System.nanoTime() - started) / 1_000_000);
        if (result.verdict() == Verdict.NOT_LINEARIZABLE) System.out.println(result);
        return result;
    }

    @Test
    void concurrentHashMapRegistersAreLinearizable() throws Exception {
        MapRegisters registers = new MapRegisters();
        List<Operation> history = workload(8, 250, 10, 0, client -> new Slow(registers, new Random(client), 200_000));
        Result result = timedCheck("ConcurrentHashMap, unique values", history);
        assertEquals(Verdict.LINEARIZABLE, result.verdict(), result::toString);
    }

    @Test
    void concurrentHashMapRegistersWithFewValuesAreLinearizable() throws Exception {
        // Values written many times make many orders look alike: the memo's hard case.
        MapRegisters registers = new MapRegisters();
        List<Operation> history = workload(8, 250, 10, 3, client -> new Slow(registers, new Random(client), 200_000));
        Result result = timedCheck("ConcurrentHashMap, three values", history);
        assertEquals(Verdict.LINEARIZABLE, result.verdict(), result::toString);
    }

    @Test
    void registersServingStaleReadsAreNotLinearizable() throws Exception {
        StaleRegisters registers = new StaleRegisters();
        List<Operation> history = workload(8, 250, 10, 0, client -> new Slow(registers, new Random(client), 200_000));
        Result result = timedCheck("stale reads", history);
        assertEquals(Verdict.NOT_LINEARIZABLE, result.verdict(), result::toString);
        assertTrue(result.key().startsWith("k"), result::toString);
    }

    @Test
    void searchGivesUpAfterItsStepBudget() throws Exception {
        MapRegisters registers = new MapRegisters();
        List<Operation> history = workload(8, 100, 1, 0, client -> new Slow(registers, new Random(client), 200_000));
        Result result = Linearizability.check(history, 10);
        assertEquals(Verdict.UNKNOWN, result.verdict(), result::toString);
        assertEquals("k0", result.key());
    }

    // ---- One Stator, end to end ----

    /** The register "key" is the item whose id is key; its value is the item's attribute "v". */
    private static final class StatorRegisters implements Registers {
        private final DynamoDbClient dynamo;
        private final String table;

        StatorRegisters(DynamoDbClient dynamo, String table) {
            this.dynamo = dynamo;
            this.table = table;
        }

        public void put(String key, String value) {
            dynamo.putItem(b -> b.tableName(table).item(item(key, value)));
        }

        public void delete(String key) {
            dynamo.deleteItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS(key))));
        }

        public String get(String key) {
            GetItemResponse response = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                    .key(Map.of("id", AttributeValue.fromS(key))));
            return response.hasItem() && !response.item().isEmpty() ? response.item().get("v").s() : null;
        }

        public boolean conditionalPut(String key, String expected, String value) {
            dynamo.putItem(b -> {
                b.tableName(table).item(item(key, value));
                if (expected == null) {
                    b.conditionExpression("attribute_not_exists(id)");
                } else {
                    b.conditionExpression("#v = :expected").expressionAttributeNames(Map.of("#v", "v"))
                            .expressionAttributeValues(Map.of(":expected", AttributeValue.fromS(expected)));
                }
            });
            return true; // a failed condition throws ConditionalCheckFailedException, which History records
        }

        private static Map<String, AttributeValue> item(String key, String value) {
            return Map.of("id", AttributeValue.fromS(key), "v", AttributeValue.fromS(value));
        }
    }

    @Test
    void consistentReadsAndWritesOfOneStatorAreLinearizable() throws Exception {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
        List<DynamoDbClient> clients = new ArrayList<>();
        try {
            for (int c = 0; c < 4; c++) clients.add(server.newClient());
            List<Operation> history = workload(4, 100, 3, 0,
                    client -> new StatorRegisters(clients.get(client), table));
            long failedConditions = history.stream().filter(o -> o.outcome() == FAILED).count();
            long others = history.stream().filter(o -> o.outcome() == NO_EFFECT || o.outcome() == UNKNOWN).count();
            assertEquals(0, others, "errors other than ConditionalCheckFailedException");
            assertTrue(failedConditions > 0, "no condition failed: the workload did not contend");
            Result result = timedCheck("one Stator", history);
            assertEquals(Verdict.LINEARIZABLE, result.verdict(), result::toString);
        } finally {
            clients.forEach(DynamoDbClient::close);
        }
    }
}
