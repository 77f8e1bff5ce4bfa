package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.DynamoAssertions.assertError;
import static io.stator.server.testing.Transact.assertCancelled;
import static io.stator.server.testing.Transact.check;
import static io.stator.server.testing.Transact.delete;
import static io.stator.server.testing.Transact.put;
import static io.stator.server.testing.Transact.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;

/**
 * TransactWriteItems' ClientRequestToken: for ten minutes after a transaction with a token
 * commits, the same request with the same token succeeds without applying anything again (and
 * is billed as reads), while another request with that token is refused with
 * IdempotentParameterMismatchException (API reference; Scylla's tests; dynoxide's measurements
 * of DynamoDB for the replay's capacity, docs/dynamodb/batches-transactions.md §3.6). The token is kept
 * with the transaction's own writes, so a restart does not forget it.
 */
class ClientRequestTokenTest {

    private static final TestClock CLOCK = new TestClock();

    @RegisterExtension
    static final SharedServer server = new SharedServer(options -> options.withClock(CLOCK));

    private static String table;

    @BeforeAll
    static void createTable() {
        table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
    }

    @AfterEach
    void followSystemTime() {
        CLOCK.useSystemTime();
    }

    private static String unique() {
        return UUID.randomUUID().toString();
    }

    private static Map<String, AttributeValue> key(String pk) {
        return item("pk", s(pk));
    }

    private static TransactWriteItemsResponse write(String token, TransactWriteItem... actions) {
        return server.client().transactWriteItems(b -> b.clientRequestToken(token)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).transactItems(actions));
    }

    private static Map<String, AttributeValue> read(Map<String, AttributeValue> key) {
        var response = server.client().getItem(b -> b.tableName(table).key(key).consistentRead(true));
        return response.hasItem() ? response.item() : null;
    }

    /** A new counter at 0, and a transaction incrementing it and putting a new item. */
    private static TransactWriteItem[] incrementAndPut(String counter, String created) {
        server.client().putItem(b -> b.tableName(table).item(item("pk", s(counter), "n", n("0"))));
        return new TransactWriteItem[] {
            update(table, key(counter), "SET n = n + :one", item(":one", n("1"))),
            put(table, item("pk", s(created), "from", s("transaction")))
        };
    }

    private static String counterValue(String counter) {
        return read(key(counter)).get("n").n();
    }

    private static double units(TransactWriteItemsResponse response) {
        return response.consumedCapacity().stream().mapToDouble(ConsumedCapacity::capacityUnits).sum();
    }

    @Test
    void sameTokenAndRequestSucceedWithoutApplyingAgain() {
        String counter = unique();
        String created = unique();
        TransactWriteItem[] actions = incrementAndPut(counter, created);
        String token = unique();

        write(token, actions);
        server.client().deleteItem(b -> b.tableName(table).key(key(created)));
        write(token, actions);
        write(token, actions);

        assertEquals("1", counterValue(counter));
        assertNull(read(key(created)), "the replays put nothing back");
    }

    @Test
    void withoutATokenEveryRequestIsApplied() {
        String counter = unique();
        TransactWriteItem[] actions = incrementAndPut(counter, unique());

        server.client().transactWriteItems(b -> b.transactItems(actions));
        server.client().transactWriteItems(b -> b.transactItems(actions));

        assertEquals("2", counterValue(counter));
    }

    @Test
    void replayIsBilledAsTransactionalReadsOfTheItemsTheTransactionSaw() {
        // dynoxide's captures S1, S2, R1, R2: a 9 KB item costs 18 write units the first time
        // (2 per KB) and 6 read units on the replay (2 per 4 KB), whether the transaction shrank
        // it, grew it, deleted it or only checked it.
        String shrunk = unique();
        String grown = unique();
        String deleted = unique();
        String checked = unique();
        for (String p : List.of(shrunk, deleted, checked)) {
            server.client().putItem(b -> b.tableName(table).item(DynamoSize.padded(key(p), 9000)));
        }
        server.client().putItem(b -> b.tableName(table).item(key(grown)));
        List<TransactWriteItem> cases = List.of(put(table, key(shrunk)), put(table, DynamoSize.padded(key(grown), 9000)),
                delete(table, key(deleted)), check(table, key(checked), "attribute_exists(pk)"));
        for (TransactWriteItem action : cases) {
            String token = unique();
            TransactWriteItemsResponse first = write(token, action);
            TransactWriteItemsResponse replay = write(token, action);

            assertEquals(18.0, units(first), action::toString);
            assertEquals(18.0, first.consumedCapacity().get(0).writeCapacityUnits());
            assertEquals(6.0, units(replay), action::toString);
            assertEquals(6.0, replay.consumedCapacity().get(0).readCapacityUnits());
            assertNull(replay.consumedCapacity().get(0).writeCapacityUnits(), "a replay writes nothing");
        }

        // Capture S3: each action is rounded on its own, 6 + 2.
        String big = unique();
        server.client().putItem(b -> b.tableName(table).item(DynamoSize.padded(key(big), 9000)));
        String token = unique();
        TransactWriteItem[] pair = {delete(table, key(big)), put(table, item("pk", s(unique()), "o", s("o")))};
        assertEquals(20.0, units(write(token, pair)));
        assertEquals(8.0, units(write(token, pair)));
    }

    @Test
    void anotherRequestWithTheSameTokenIsRefused() {
        String counter = unique();
        String token = unique();
        write(token, incrementAndPut(counter, unique()));
        String other = unique();

        // DynamoDB's message is not recorded anywhere (DynamoDB Local sends none); Stator sends
        // the API reference's description of the error.
        assertError("IdempotentParameterMismatchException", "DynamoDB rejected the request because you retried a "
                + "request with a different payload but with an idempotent token that was already used.",
                () -> write(token, update(table, key(counter), "SET n = n + :one", item(":one", n("1"))),
                        put(table, key(other))));

        assertEquals("1", counterValue(counter));
        assertNull(read(key(other)));
    }

    @Test
    void tokenIsRecognisedAfterARestart() {
        String counter = unique();
        String token = unique();
        TransactWriteItem[] actions = incrementAndPut(counter, unique());
        write(token, actions);

        server.restart();

        write(token, actions);
        assertEquals("1", counterValue(counter));
        assertError("IdempotentParameterMismatchException", "DynamoDB rejected the request because you retried a "
                + "request with a different payload but with an idempotent token that was already used.",
                () -> write(token, put(table, key(unique()))));
    }

    @Test
    void tokenIsForgottenTenMinutesAfterItsTransaction() {
        CLOCK.set(Instant.parse("2026-03-01T12:00:00Z"));
        String counter = unique();
        String token = unique();
        TransactWriteItem[] actions = incrementAndPut(counter, unique());
        write(token, actions);

        CLOCK.advance(Duration.ofMinutes(10));
        write(token, actions);
        assertEquals("1", counterValue(counter), "still a replay at ten minutes");

        CLOCK.advance(Duration.ofMillis(1));
        write(token, actions);
        assertEquals("2", counterValue(counter), "a new request after ten minutes");

        // Its own ten minutes start again: the same request is a replay, another one is refused.
        write(token, actions);
        assertEquals("2", counterValue(counter));
        assertError("IdempotentParameterMismatchException", "DynamoDB rejected the request because you retried a "
                + "request with a different payload but with an idempotent token that was already used.",
                () -> write(token, put(table, key(unique()))));
    }

    @Test
    void retriesWhileTheFirstIsRunningAreRefusedOrReplayed() throws Exception {
        String counter = unique();
        TransactWriteItem[] actions = incrementAndPut(counter, unique());
        String token = unique();
        List<Thread> threads = new ArrayList<>();
        AtomicInteger inProgress = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < 6; i++) {
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    write(token, actions);
                } catch (DynamoDbException e) {
                    // The text DynamoDB sends (a live SDK log, aws/aws-sdk-java-v2#2518).
                    if (!e.awsErrorDetails().errorCode().equals("TransactionInProgressException")
                            || !e.awsErrorDetails().errorMessage()
                                    .equals("Transaction from previous request is still in progress")
                            || e.statusCode() != 400) {
                        failure.compareAndSet(null, e);
                    }
                    inProgress.incrementAndGet();
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread t : threads) t.join();
        if (failure.get() != null) throw new AssertionError(failure.get());

        assertEquals("1", counterValue(counter), inProgress.get() + " retries found the first in progress");
    }

    @Test
    void cancelledTransactionLeavesItsTokenUnused() {
        // DynamoDB documents the token for requests that succeed; what it does with the token
        // of a cancelled one is unknown. Stator keeps only committed tokens, so the same request
        // may go through once its condition holds.
        String p = unique();
        String token = unique();
        TransactWriteItem conditional = put(table, item("pk", s(p), "v", s("new")), "attribute_exists(pk)");

        assertCancelled(List.of("ConditionalCheckFailed"), () -> write(token, conditional));
        server.client().putItem(b -> b.tableName(table).item(item("pk", s(p), "v", s("old"))));
        write(token, conditional);

        assertEquals("new", read(key(p)).get("v").s());
        assertFalse(read(key(p)).containsKey("n"));
    }
}
