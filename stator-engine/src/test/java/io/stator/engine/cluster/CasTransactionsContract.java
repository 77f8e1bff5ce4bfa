package io.stator.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.storage.CollectionStore;
import io.stator.storage.RowKeyFraming;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Transactions on compare-and-set ({@link CasTransactions}) against a real backend, run by each
 * backend's tests: the bank-transfer audit (the total never changes, whatever runs concurrently),
 * a transaction stopped at every step and finished by another "server" (a second instance on the
 * same store), and concurrent increments from two instances.
 */
public abstract class CasTransactionsContract {

    protected abstract CollectionStore store();

    /** Accounts for the audit: fewer on a slow backend. */
    protected int accounts() { return 100; }

    /** Transfers per writer in the audit. */
    protected int transfersPerWriter() { return 150; }

    private static final AtomicLong TABLES = new AtomicLong(System.nanoTime() & 0xFFFFFFFL);

    private long table() {
        long id = TABLES.incrementAndGet();
        store().createTable(id);
        return id;
    }

    private static byte[] key(long table, String name) {
        byte[] pk = name.getBytes(StandardCharsets.UTF_8);
        return RowKeyFraming.rowKey(table, 0, name.hashCode() * 0x9E3779B97F4A7C15L, pk, new byte[0]);
    }

    private static byte[] amount(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    private static long amount(byte[] v) {
        return v == null ? 0 : ByteBuffer.wrap(v).getLong();
    }

    private static CasTransactions.Action action(byte[] key, UnaryOperator<byte[]> f) {
        return new CasTransactions.Action() {
            @Override
            public byte[] rowKey() { return key; }

            @Override
            public byte[] apply(byte[] committed) { return f.apply(committed); }
        };
    }

    /** A clock a test moves: transactions go stale when it passes their age. */
    static final class MovableClock extends Clock {
        private final AtomicLong millis = new AtomicLong(1_000_000);

        void advance(long ms) { millis.addAndGet(ms); }

        @Override
        public long millis() { return millis.get(); }

        @Override
        public Instant instant() { return Instant.ofEpochMilli(millis.get()); }

        @Override
        public java.time.ZoneId getZone() { return ZoneOffset.UTC; }

        @Override
        public Clock withZone(java.time.ZoneId zone) { return this; }
    }

    @Test
    void theBankTransferAuditNeverSeesTheTotalChange() throws Exception {
        long t = table();
        int n = accounts();
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) keys.add(key(t, "account-" + i));
        // Two "servers": independent instances on one store.
        CasTransactions one = new CasTransactions(store(), Clock.systemUTC(), 30_000);
        CasTransactions two = new CasTransactions(store(), Clock.systemUTC(), 30_000);
        for (byte[] k : keys) one.writeOne(k, old -> amount(100));
        long total = 100L * n;

        AtomicBoolean done = new AtomicBoolean();
        AtomicLong audits = new AtomicLong();
        AtomicLong committed = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(10);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                CasTransactions server = w % 2 == 0 ? one : two;
                writers.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < transfersPerWriter(); i++) {
                        int from = random.nextInt(n);
                        int to = (from + 1 + random.nextInt(n - 1)) % n;
                        long sum = 1 + random.nextInt(30);
                        try {
                            server.write(List.of(
                                    action(keys.get(from), v -> {
                                        if (amount(v) < sum) throw new IllegalStateException("insufficient funds");
                                        return amount(amount(v) - sum);
                                    }),
                                    action(keys.get(to), v -> amount(amount(v) + sum))));
                            committed.incrementAndGet();
                        } catch (CasTransactions.ConflictException | CasTransactions.RefusedException e) {
                            // cancelled whole: nothing moved
                        }
                    }
                    return null;
                }));
            }
            List<Future<?>> auditors = new ArrayList<>();
            for (int a = 0; a < 2; a++) {
                CasTransactions server = a == 0 ? one : two;
                auditors.add(pool.submit(() -> {
                    // Until the writers are done and this auditor has finished an audit: under
                    // steady writes readAll may give up (a conflict) every time.
                    boolean audited = false;
                    while (!done.get() || !audited) {
                        try {
                            long seen = 0;
                            for (byte[] v : server.readAll(keys)) seen += amount(v);
                            assertEquals(total, seen, "an audit saw money appear or vanish");
                            audits.incrementAndGet();
                            audited = true;
                        } catch (CasTransactions.ConflictException e) {
                            // a transaction mid-flight: audit again
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : writers) f.get();
            done.set(true);
            for (Future<?> f : auditors) f.get();
        } finally {
            done.set(true);
            pool.shutdownNow();
        }
        long after = 0;
        for (byte[] k : keys) after += amount(one.read(k));
        assertEquals(total, after);
        assertTrue(committed.get() > 0, "some transfers committed");
        assertTrue(audits.get() > 0, "some audits completed");
    }

    @ParameterizedTest
    @EnumSource(CasTransactions.Step.class)
    void aTransactionStoppedAtAnyStepEndsWholeOrAbsent(CasTransactions.Step stop) {
        long t = table();
        byte[] a = key(t, "a");
        byte[] b = key(t, "b");
        MovableClock clock = new MovableClock();
        CasTransactions other = new CasTransactions(store(), clock, 10_000);
        other.writeOne(a, v -> amount(50));
        other.writeOne(b, v -> amount(50));
        CasTransactions dying = new CasTransactions(store(), clock, 10_000, step -> {
            if (step == stop) throw new IllegalStateException("the server died at " + step);
        });
        assertThrows(IllegalStateException.class, () -> dying.write(List.of(
                action(a, v -> amount(amount(v) - 20)), action(b, v -> amount(amount(v) + 20)))));

        boolean decided = stop == CasTransactions.Step.DECIDED || stop == CasTransactions.Step.APPLIED_ONE;
        if (stop == CasTransactions.Step.CLAIMED) {
            // Claimed, undecided and not yet stale: a writer of the item conflicts, as on DynamoDB.
            assertThrows(CasTransactions.ConflictException.class, () -> other.writeOne(a, v -> amount(0)));
        }
        if (!decided) clock.advance(10_001);
        long expectedA = decided ? 30 : 50;
        long expectedB = decided ? 70 : 50;
        assertEquals(List.of(expectedA, expectedB),
                other.readAll(List.of(a, b)).stream().map(CasTransactionsContract::amount).toList());
        clock.advance(10_001);
        other.recover();
        assertEquals(expectedA, amount(other.read(a)));
        assertEquals(expectedB, amount(other.read(b)));
        // Nothing left behind: the rows take plain writes again.
        other.writeOne(a, v -> amount(amount(v) + 1));
        assertEquals(expectedA + 1, amount(other.read(a)));
    }

    @Test
    void concurrentIncrementsFromTwoServersAreExact() throws Exception {
        long t = table();
        byte[] counter = key(t, "counter");
        CasTransactions one = new CasTransactions(store(), Clock.systemUTC(), 30_000);
        CasTransactions two = new CasTransactions(store(), Clock.systemUTC(), 30_000);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        int each = 50;
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                CasTransactions server = w % 2 == 0 ? one : two;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) server.writeOne(counter, v -> amount(amount(v) + 1));
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdownNow();
        }
        assertEquals(4L * each, amount(one.read(counter)));
    }

    @Test
    void aRefusedActionLeavesEveryItemAsItWas() {
        long t = table();
        byte[] a = key(t, "a");
        byte[] b = key(t, "b");
        CasTransactions tx = new CasTransactions(store(), Clock.systemUTC(), 30_000);
        tx.writeOne(a, v -> amount(5));
        CasTransactions.RefusedException e = assertThrows(CasTransactions.RefusedException.class, () -> tx.write(List.of(
                action(b, v -> amount(1)),
                action(a, v -> { throw new IllegalStateException("condition failed"); }))));
        assertEquals(1, e.position());
        assertNull(tx.read(b));
        assertArrayEquals(amount(5), tx.read(a));
        tx.writeOne(b, v -> amount(2)); // no intent left on b
        assertArrayEquals(amount(2), tx.read(b));
    }
}
