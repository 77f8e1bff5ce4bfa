package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Transact.codes;
import static io.stator.server.testing.Transact.get;
import static io.stator.server.testing.Transact.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Serializability under load: 8 threads make 2,000 random transfers between 100 accounts, each a
 * TransactWriteItems of two updates (the debit conditional on the balance), retried when
 * cancelled by a conflicting transaction; meanwhile auditors read all 100 accounts in one
 * TransactGetItems and must always find the same total and no negative balance. At the end every
 * balance is exactly what the acknowledged transfers made it. Transfers go both ways between
 * the same accounts, so a lock taken in request order would deadlock (the test would time out).
 */
class BankTransferTest {

    private static final int ACCOUNTS = 100;
    private static final int OPENING_BALANCE = 200;
    private static final int THREADS = 8;
    private static final int TRANSFERS = 2_000;
    private static final int AUDITORS = 2;

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static Map<String, AttributeValue> account(int i) {
        return item("pk", s("account-" + i));
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void concurrentTransfersKeepTheTotalAndEveryBalanceExact() throws Exception {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        for (int i = 0; i < ACCOUNTS; i++) {
            int n = i;
            server.client().putItem(b -> b.tableName(table)
                    .item(item("pk", s("account-" + n), "balance", n(Integer.toString(OPENING_BALANCE)))));
        }
        List<TransactGetItem> audit = new ArrayList<>();
        for (int i = 0; i < ACCOUNTS; i++) audit.add(get(table, account(i)));

        // What the acknowledged transfers did to each balance.
        AtomicLongArray net = new AtomicLongArray(ACCOUNTS);
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicInteger declined = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        AtomicInteger audits = new AtomicInteger();
        AtomicInteger auditConflicts = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();

        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Random random = new Random(t);
            threads.add(new Thread(() -> {
                try {
                    while (next.getAndIncrement() < TRANSFERS && failure.get() == null) {
                        int from = random.nextInt(ACCOUNTS);
                        int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                        int amount = 1 + random.nextInt(100);
                        Map<String, AttributeValue> values =
                                item(":a", n(Integer.toString(amount)));
                        while (true) {
                            try {
                                server.client().transactWriteItems(b -> b.transactItems(
                                        update(table, account(from), "SET balance = balance - :a", "balance >= :a",
                                                values),
                                        update(table, account(to), "SET balance = balance + :a", values)));
                                net.addAndGet(from, -amount);
                                net.addAndGet(to, amount);
                                done.incrementAndGet();
                                break;
                            } catch (TransactionCanceledException e) {
                                List<String> codes = codes(e);
                                if (codes.equals(List.of("ConditionalCheckFailed", "None"))) {
                                    declined.incrementAndGet();
                                    break;
                                }
                                // Another transaction held one of the two accounts: only conflicts, retry.
                                assertTrue(codes.contains("TransactionConflict"), codes::toString);
                                assertTrue(codes.stream().allMatch(c -> c.equals("None")
                                        || c.equals("TransactionConflict")), codes::toString);
                                conflicts.incrementAndGet();
                            }
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "transfers-" + t));
        }
        for (int a = 0; a < AUDITORS; a++) {
            threads.add(new Thread(() -> {
                try {
                    while (!stop.get() && failure.get() == null) {
                        try {
                            List<ItemResponse> accounts = server.client()
                                    .transactGetItems(b -> b.transactItems(audit)).responses();
                            long total = 0;
                            for (ItemResponse r : accounts) {
                                long balance = Long.parseLong(r.item().get("balance").n());
                                assertTrue(balance >= 0, () -> "negative balance: " + r.item());
                                total += balance;
                            }
                            assertEquals((long) ACCOUNTS * OPENING_BALANCE, total, "total seen by an audit");
                            audits.incrementAndGet();
                        } catch (TransactionCanceledException e) {
                            assertTrue(codes(e).stream().allMatch(c -> c.equals("None")
                                    || c.equals("TransactionConflict")), codes(e)::toString);
                            auditConflicts.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "auditor-" + a));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads.subList(0, THREADS)) t.join();
        stop.set(true);
        for (Thread t : threads) t.join();
        if (failure.get() != null) throw new AssertionError("a client thread failed", failure.get());

        assertEquals(TRANSFERS, done.get() + declined.get());
        assertTrue(audits.get() > 0, "no audit went through (" + auditConflicts.get() + " cancelled)");
        List<ItemResponse> accounts = server.client().transactGetItems(b -> b.transactItems(audit)).responses();
        long total = 0;
        for (int i = 0; i < ACCOUNTS; i++) {
            long balance = Long.parseLong(accounts.get(i).item().get("balance").n());
            assertEquals(OPENING_BALANCE + net.get(i), balance, "account " + i);
            assertTrue(balance >= 0);
            total += balance;
        }
        assertEquals((long) ACCOUNTS * OPENING_BALANCE, total);
        System.out.printf("BankTransferTest: %d transfers, %d declined, %d conflicts retried, %d audits "
                + "(%d cancelled)%n", done.get(), declined.get(), conflicts.get(), audits.get(), auditConflicts.get());
    }
}
