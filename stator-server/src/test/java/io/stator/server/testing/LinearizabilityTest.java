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
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

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

    // ---- Against a brute force ----

    /**
     * Whether some order of the operations (each unknown one in it or not) keeps real time (one
     * that returned before another was invoked comes first) and fits a register: every order tried.
     */
    private static boolean bruteForce(List<Operation> history) {
        List<Operation> ops = history.stream().filter(o -> !(o.outcome() instanceof Linearizability.NoEffect))
                .filter(o -> !(o.op() instanceof Get && o.outcome() == UNKNOWN)).toList();
        List<Integer> unknown = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) if (ops.get(i).outcome() == UNKNOWN) unknown.add(i);
        for (int subset = 0; subset < 1 << unknown.size(); subset++) {
            List<Operation> kept = new ArrayList<>();
            for (int i = 0; i < ops.size(); i++) {
                int u = unknown.indexOf(i);
                if (u < 0 || (subset & 1 << u) != 0) kept.add(ops.get(i));
            }
            if (fitsSomeOrder(kept, null)) return true;
        }
        return false;
    }

    private static boolean fitsSomeOrder(List<Operation> left, String value) {
        if (left.isEmpty()) return true;
        for (Operation next : left) {
            // Nothing left may have returned before this one was invoked.
            if (left.stream().anyMatch(o -> o != next && o.returned() < next.invoked())) continue;
            String after;
            switch (next.op()) {
                case Put p -> after = p.value();
                case Delete d -> after = null;
                case Get g -> {
                    if (!Objects.equals(((Read) next.outcome()).value(), value)) continue;
                    after = value;
                }
                case ConditionalPut c -> {
                    boolean holds = Objects.equals(c.expected(), value);
                    if (next.outcome() == OK && !holds || next.outcome() == FAILED && holds) continue;
                    after = holds ? c.value() : value;
                }
            }
            List<Operation> rest = new ArrayList<>(left);
            rest.remove(next);
            if (fitsSomeOrder(rest, after)) return true;
        }
        return false;
    }

    @Test
    void agreesWithABruteForceOnSmallRandomHistories() {
        Random random = new Random(35);
        String[] values = {null, "a", "b"};
        int[] verdicts = new int[2];
        for (int h = 0; h < 4000; h++) {
            List<Operation> history = new ArrayList<>();
            int size = 1 + random.nextInt(7);
            for (int i = 0; i < size; i++) {
                long invoked = random.nextInt(12);
                long returned = invoked + random.nextInt(6);
                String value = values[1 + random.nextInt(2)];
                String other = values[random.nextInt(3)];
                Outcome maybeUnknown = random.nextInt(5) == 0 ? UNKNOWN : OK;
                Operation o = switch (random.nextInt(4)) {
                    case 0 -> op(i, new Put("k", value), invoked, returned, maybeUnknown);
                    case 1 -> op(i, new Delete("k"), invoked, returned, maybeUnknown);
                    case 2 -> op(i, new Get("k"), invoked, returned, read(other));
                    default -> op(i, new ConditionalPut("k", other, value), invoked, returned,
                            random.nextBoolean() ? maybeUnknown : FAILED);
                };
                history.add(o);
            }
            boolean expected = bruteForce(history);
            Result result = Linearizability.check(history);
            verdicts[expected ? 1 : 0]++;
            assertEquals(expected ? Verdict.LINEARIZABLE : Verdict.NOT_LINEARIZABLE, result.verdict(),
                    () -> history.stream().map(o -> Linearizability.describe(o, 0)).toList() + "\n" + result);
        }
        assertTrue(verdicts[0] > 500 && verdicts[1] > 500, "linearizable or not: " + verdicts[1] + ", " + verdicts[0]);
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

    /** Runs an operation on the registers and records it (they throw nothing). */
    private static Outcome recorded(History history, int client, Registers registers, Op op) {
        History.Call call = history.invoke(client, op);
        switch (op) {
            case Put p -> {
                registers.put(p.key(), p.value());
                call.ok();
            }
            case Delete d -> {
                registers.delete(d.key());
                call.ok();
            }
            case Get g -> call.read(registers.get(g.key()));
            case ConditionalPut c -> {
                if (registers.conditionalPut(c.key(), c.expected(), c.value())) call.ok();
                else call.failed();
            }
        }
        return call.outcome();
    }

    /** Each client's way to run and record an operation. */
    private interface Clients {
        Function<Op, Outcome> of(History history, int client);

        static Clients slow(Registers registers) {
            return (history, client) -> {
                Registers slow = new Slow(registers, new Random(client), 200_000);
                return op -> recorded(history, client, slow, op);
            };
        }
    }

    /**
     * Runs {@code threads} clients at once, each doing {@code operations} random operations on
     * {@code keys} keys, and returns what they recorded. Values are unique per write, or drawn from
     * {@code values} ones. A conditional put expects the value the client last read of that key.
     */
    private static List<Operation> workload(int threads, int operations, int keys, int values, Clients clients)
            throws Exception {
        History history = new History();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < threads; c++) {
                int client = c;
                running.add(pool.submit(() -> {
                    Function<Op, Outcome> run = clients.of(history, client);
                    Random random = new Random(client);
                    Map<String, String> lastRead = new HashMap<>();
                    start.await();
                    for (int i = 0; i < operations; i++) {
                        String key = "k" + random.nextInt(keys);
                        String value = values == 0 ? "c" + client + "-" + i : "v" + random.nextInt(values);
                        int dice = random.nextInt(10);
                        if (dice < 4) {
                            if (run.apply(new Get(key)) instanceof Read r) lastRead.put(key, r.value());
                        } else if (dice < 7) {
                            run.apply(new Put(key, value));
                        } else if (dice < 8) {
                            run.apply(new Delete(key));
                        } else {
                            run.apply(new ConditionalPut(key, lastRead.get(key), value));
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> c : running) c.get();
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
        List<Operation> history = workload(8, 250, 10, 0, Clients.slow(registers));
        Result result = timedCheck("ConcurrentHashMap, unique values", history);
        assertEquals(Verdict.LINEARIZABLE, result.verdict(), result::toString);
    }

    @Test
    void concurrentHashMapRegistersWithFewValuesAreLinearizable() throws Exception {
        // Values written many times make many orders look alike: the memo's hard case.
        MapRegisters registers = new MapRegisters();
        List<Operation> history = workload(8, 250, 10, 3, Clients.slow(registers));
        Result result = timedCheck("ConcurrentHashMap, three values", history);
        assertEquals(Verdict.LINEARIZABLE, result.verdict(), result::toString);
    }

    @Test
    void registersServingStaleReadsAreNotLinearizable() throws Exception {
        StaleRegisters registers = new StaleRegisters();
        List<Operation> history = workload(8, 250, 10, 0, Clients.slow(registers));
        Result result = timedCheck("stale reads", history);
        assertEquals(Verdict.NOT_LINEARIZABLE, result.verdict(), result::toString);
        assertTrue(result.key().startsWith("k"), result::toString);
    }

    @Test
    void searchGivesUpAfterItsStepBudget() throws Exception {
        MapRegisters registers = new MapRegisters();
        List<Operation> history = workload(8, 100, 1, 0, Clients.slow(registers));
        Result result = Linearizability.check(history, 10);
        assertEquals(Verdict.UNKNOWN, result.verdict(), result::toString);
        assertEquals("k0", result.key());
    }

    /**
     * Clients of which one operation in ten loses its answer (recorded as unknown), having taken
     * effect or not, as a timed-out request may have.
     */
    private static Clients losingAnswers(Registers registers) {
        return (history, client) -> {
            Function<Op, Outcome> slow = Clients.slow(registers).of(history, client);
            Function<Op, Outcome> unrecorded = Clients.slow(registers).of(new History(), client);
            Random random = new Random(-client);
            return op -> {
                if (random.nextInt(10) > 0) return slow.apply(op);
                History.Call call = history.invoke(client, op);
                if (random.nextBoolean()) unrecorded.apply(op);
                call.unknown();
                return UNKNOWN;
            };
        };
    }

    @Test
    void historiesWithLostAnswersAreLinearizable() throws Exception {
        List<Operation> history = workload(8, 250, 10, 0, losingAnswers(new MapRegisters()));
        Result result = timedCheck("ConcurrentHashMap, lost answers", history);
        assertEquals(Verdict.LINEARIZABLE, result.verdict(), result::toString);
    }

    @Test
    void lostAnswersDoNotHideStaleReads() throws Exception {
        List<Operation> history = workload(8, 250, 10, 0, losingAnswers(new StaleRegisters()));
        Result result = timedCheck("stale reads, lost answers", history);
        assertEquals(Verdict.NOT_LINEARIZABLE, result.verdict(), result::toString);
    }

    // ---- One Stator, end to end ----

    @Test
    void consistentReadsAndWritesOfOneStatorAreLinearizable() throws Exception {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
        List<DynamoDbClient> clients = new ArrayList<>();
        try {
            for (int c = 0; c < 4; c++) clients.add(server.newClient());
            List<Operation> history = workload(4, 100, 3, 0,
                    (h, client) -> new RegisterClient(h, client, clients.get(client), table)::run);
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
