package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Transact.codes;
import static io.stator.server.testing.Transact.get;
import static io.stator.server.testing.Transact.put;
import static io.stator.server.testing.Transact.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.Engine;
import io.stator.engine.item.RowKeys;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import io.stator.server.testing.Transact;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Conflicts, shown statistically: a transaction holds its items only while it commits, too
 * briefly to arrange from outside, so many clients hit the same few items at once and every
 * outcome must be one DynamoDB allows (developer guide, "Transaction conflict handling"):
 * <ul>
 * <li>a transaction succeeds, or is cancelled with TransactionConflict on the contended items
 *     only (an action on an item nobody else touches stays None);</li>
 * <li>a plain PutItem/UpdateItem/DeleteItem succeeds or fails with TransactionConflictException
 *     "Transaction is ongoing for the item";</li>
 * <li>a TransactGetItems succeeds or is cancelled with TransactionConflict;</li>
 * <li>a BatchWriteItem never fails for it: a write that meets a transaction comes back in
 *     UnprocessedItems, as the request gave it.</li>
 * </ul>
 * At the end each counter holds exactly one increment per successful write that made one.
 */
class TransactionConflictTest {

    private static final String ONGOING = "Transaction is ongoing for the item";
    private static final int COUNTERS = 3;

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static Map<String, AttributeValue> counter(int i) {
        return item("pk", s("counter-" + i));
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void everyOutcomeIsOneDynamoDbAllowsAndCountersAreExact() throws Exception {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        for (int i = 0; i < COUNTERS; i++) {
            int c = i;
            server.client().putItem(b -> b.tableName(table).item(item("pk", s("counter-" + c), "n", n("0"))));
        }
        Map<String, AttributeValue> one = item(":one", n("1"));

        int[] expected = new int[COUNTERS];
        AtomicInteger transactionConflicts = new AtomicInteger();
        AtomicInteger writeConflicts = new AtomicInteger();
        AtomicInteger readConflicts = new AtomicInteger();
        AtomicInteger unprocessed = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();

        // Transactions: a put of an item of their own first, then a put of the marker that batch
        // writes also write, then an increment of every counter, in an order of their own (no
        // deadlock whatever the order).
        for (int t = 0; t < 4; t++) {
            Random random = new Random(t);
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < 150 && failure.get() == null; i++) {
                        List<Integer> order = new ArrayList<>(List.of(0, 1, 2));
                        Collections.shuffle(order, random);
                        List<TransactWriteItem> actions = new ArrayList<>();
                        Map<String, AttributeValue> own = item("pk", s(UUID.randomUUID().toString()));
                        actions.add(put(table, own));
                        actions.add(put(table, item("pk", s("marker"), "by", s("transaction"))));
                        for (int c : order) actions.add(update(table, counter(c), "SET n = n + :one", one));
                        try {
                            server.client().transactWriteItems(b -> b.transactItems(actions));
                            synchronized (expected) {
                                for (int c = 0; c < COUNTERS; c++) expected[c]++;
                            }
                        } catch (TransactionCanceledException e) {
                            List<CancellationReason> reasons = e.cancellationReasons();
                            assertEquals("None", reasons.get(0).code(), "the uncontended action: " + codes(e));
                            assertTrue(codes(e).contains("TransactionConflict"), codes(e)::toString);
                            for (CancellationReason r : reasons.subList(1, reasons.size())) {
                                assertTrue(r.code().equals("None") || r.code().equals("TransactionConflict"),
                                        codes(e)::toString);
                                if (r.code().equals("TransactionConflict")) assertEquals(ONGOING, r.message());
                            }
                            assertFalse(server.client().getItem(b -> b.tableName(table).key(own).consistentRead(true))
                                    .hasItem(), "a cancelled transaction wrote its own item");
                            transactionConflicts.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "transactions-" + t));
        }
        // Plain updates of one counter at a time.
        for (int t = 0; t < 2; t++) {
            Random random = new Random(100 + t);
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < 200 && failure.get() == null; i++) {
                        int c = random.nextInt(COUNTERS);
                        try {
                            server.client().updateItem(b -> b.tableName(table).key(counter(c))
                                    .updateExpression("SET n = n + :one").expressionAttributeValues(one));
                            synchronized (expected) {
                                expected[c]++;
                            }
                        } catch (TransactionConflictException e) {
                            assertEquals("TransactionConflictException", e.awsErrorDetails().errorCode());
                            assertEquals(ONGOING, e.awsErrorDetails().errorMessage());
                            assertEquals(400, e.statusCode());
                            writeConflicts.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "updates-" + t));
        }
        // Transactional reads of every counter.
        threads.add(new Thread(() -> {
            try {
                for (int i = 0; i < 200 && failure.get() == null; i++) {
                    try {
                        List<ItemResponse> r = server.client().transactGetItems(b -> b.transactItems(
                                get(table, counter(0)), get(table, counter(1)), get(table, counter(2)))).responses();
                        assertEquals(3, r.size());
                    } catch (TransactionCanceledException e) {
                        assertTrue(codes(e).contains("TransactionConflict"), codes(e)::toString);
                        assertTrue(codes(e).stream().allMatch(c -> c.equals("None") || c.equals("TransactionConflict")),
                                codes(e)::toString);
                        readConflicts.incrementAndGet();
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "reads"));
        // Batch writes of the marker the transactions write, and of an item of their own.
        threads.add(new Thread(() -> {
            try {
                for (int i = 0; i < 150 && failure.get() == null; i++) {
                    List<WriteRequest> writes = List.of(
                            WriteRequest.builder().putRequest(p -> p.item(item("pk", s("marker"), "by", s("batch"))))
                                    .build(),
                            WriteRequest.builder().putRequest(p -> p.item(item("pk", s(UUID.randomUUID().toString()))))
                                    .build());
                    BatchWriteItemResponse response = server.client().batchWriteItem(b -> b.requestItems(
                            Map.of(table, writes)));
                    for (List<WriteRequest> left : response.unprocessedItems().values()) {
                        for (WriteRequest w : left) assertTrue(writes.contains(w), w::toString);
                        unprocessed.addAndGet(left.size());
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "batches"));

        threads.forEach(Thread::start);
        for (Thread t : threads) t.join();
        if (failure.get() != null) throw new AssertionError("a client thread failed", failure.get());

        for (int c = 0; c < COUNTERS; c++) {
            int i = c;
            Map<String, AttributeValue> stored = server.client().getItem(b -> b.tableName(table).key(counter(i))
                    .consistentRead(true)).item();
            assertEquals(Integer.toString(expected[c]), stored.get("n").n(), "counter " + c);
        }
        assertTrue(transactionConflicts.get() + writeConflicts.get() + readConflicts.get() > 0,
                "no conflict happened: the test showed nothing about them");
        System.out.printf("TransactionConflictTest: %d transactions, %d writes, %d reads cancelled or refused; "
                + "%d batch writes left unprocessed%n", transactionConflicts.get(), writeConflicts.get(),
                readConflicts.get(), unprocessed.get());
    }

    /**
     * The same outcomes, each made certain: a transaction is held in the middle of its commit
     * (its update waits inside the engine), and every other client meets it.
     */
    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void whileATransactionCommitsEveryoneElseMeetsItsItems() throws Exception {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        Map<String, AttributeValue> held = item("pk", s("held"));
        Map<String, AttributeValue> free = item("pk", s("free"));
        Engine engine = server.engine();
        TableDefinition definition = engine.catalog().find(table);
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Map<String, io.stator.core.model.AttributeValue> heldKey = Map.of("pk",
                new io.stator.core.model.AttributeValue.S("held"));
        ItemWrite holding = new ItemWrite(definition, RowKeys.of(definition, heldKey), null, old -> {
                    inside.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Map.of("pk", new io.stator.core.model.AttributeValue.S("held"),
                            "by", new io.stator.core.model.AttributeValue.S("transaction"));
                }, false, ReturnValues.NONE, List.of());
        Thread transaction = new Thread(() -> engine.items().transactWrite(List.of(holding), null));
        transaction.start();
        try {
            assertTrue(inside.await(30, TimeUnit.SECONDS));

            TransactionConflictException write = assertThrows(TransactionConflictException.class,
                    () -> server.client().putItem(b -> b.tableName(table).item(item("pk", s("held"), "by", s("put")))));
            assertEquals(ONGOING, write.awsErrorDetails().errorMessage());
            assertEquals(400, write.statusCode());
            assertThrows(TransactionConflictException.class, () -> server.client().deleteItem(b -> b.tableName(table)
                    .key(held)));
            assertThrows(TransactionConflictException.class, () -> server.client().updateItem(b -> b.tableName(table)
                    .key(held).updateExpression("SET n = :one").expressionAttributeValues(item(":one", n("1")))));

            TransactionCanceledException other = Transact.assertCancelled(List.of("None", "TransactionConflict"),
                    () -> server.client().transactWriteItems(b -> b.transactItems(put(table, free), put(table, held))));
            assertEquals(ONGOING, other.cancellationReasons().get(1).message());

            Transact.assertCancelled(List.of("None", "TransactionConflict"),
                    () -> server.client().transactGetItems(b -> b.transactItems(get(table, free), get(table, held))));

            WriteRequest put = WriteRequest.builder().putRequest(r -> r.item(item("pk", s("held"), "by", s("batch"))))
                    .build();
            BatchWriteItemResponse batch = server.client().batchWriteItem(b -> b.requestItems(Map.of(table, List.of(put))));
            assertEquals(List.of(put), batch.unprocessedItems().get(table));

            // Nothing of those reached the item or the free one.
            assertFalse(server.client().getItem(b -> b.tableName(table).key(free).consistentRead(true)).hasItem());
        } finally {
            release.countDown();
            transaction.join();
        }
        assertEquals("transaction", server.client().getItem(b -> b.tableName(table).key(held).consistentRead(true))
                .item().get("by").s());
        // Once it has committed, the item is anyone's again.
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("held"), "by", s("put"))));
    }
}
