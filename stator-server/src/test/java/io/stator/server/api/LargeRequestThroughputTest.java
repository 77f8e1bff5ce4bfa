package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.engine.capacity.ThroughputSettings;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.Tables;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Workloads that DynamoDB serves with the SDK's retries off, served here with throughput enforced
 * (the default of bin/stator): the other bound of the physics, whose must-throttle side is
 * {@link ThrottlingTest}. Each runs on a new on-demand table after the traffic that, in a test
 * suite verified against DynamoDB, came before it: the transactions of nubo-db/dynamodb-conformance's
 * {@code tests/tier3/limits/transactionLimits.test.ts} (100 Puts in one transaction, then ten items
 * of about 350 KB, "approaching 4MB"), whose large transaction left the partitions it wrote in debt
 * for seconds and throttled whatever came next (issue 30).
 *
 * <p>The server's clock stands still while a burst of requests is sent, as a client on the same
 * machine sends them; it moves only where DynamoDB would need the time too (a loader writing one
 * partition at its ceiling, a new table taking thousands of items a second). The client does not
 * retry: every throttle is seen.
 */
class LargeRequestThroughputTest {

    private static final TestClock CLOCK = new TestClock();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK).withThroughput(ThroughputSettings.DEFAULTS));

    /** About 350 KB: 342 write units, 684 in a transaction. */
    private static final String PAD_350_KB = "x".repeat(350_000);

    private DynamoDbClient dynamo;

    @BeforeEach
    void stopTheClock() {
        CLOCK.set(Instant.parse("2026-06-01T00:00:00Z"));
        dynamo = server.client();
    }

    @AfterAll
    static void followSystemTime() {
        CLOCK.useSystemTime();
    }

    // ---- the five workloads of issue 30 ------------------------------------------------------------

    @Test
    void aThreeMegabyteTransactionAfterAFewHundredWrites() {
        String table = onDemandTable();
        for (int i = 0; i < 200; i++) put(table, Map.of("pk", s("w-" + i), "v", s("x".repeat(500))));
        theConformanceSuitesTransactions(table, i -> Map.of("pk", s("tw-" + i)));
        // Ten items of about 300 KB: 6,000 write units in one transaction.
        List<TransactWriteItem> threeMegabytes = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            threeMegabytes.add(putAction(table, Map.of("pk", s("tw3mb-" + i), "payload", s("x".repeat(300_000)))));
        }
        transactWrite(threeMegabytes);
        assertEquals(10, countPresent(table, 10, i -> Map.of("pk", s("tw3mb-" + i))));
    }

    @Test
    void transactGetItemsOfOneHundredItemsAfterTheSuitesTransactions() {
        String table = onDemandTable();
        theConformanceSuitesTransactions(table, i -> Map.of("pk", s("tw-" + i)));
        // transactionLimits.test.ts's TransactGetItems: 101 items seeded in batches of 25...
        for (int first = 0; first < 101; first += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (int i = first; i < Math.min(101, first + 25); i++) {
                batch.add(WriteRequest.builder().putRequest(PutRequest.builder()
                        .item(Map.of("pk", s("tg-" + i), "idx", n(i))).build()).build());
            }
            assertEquals(List.of(), dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, batch)))
                    .unprocessedItems().getOrDefault(table, List.of()), "every seed written");
        }
        // ...then 100 of them read in one transaction.
        List<TransactGetItem> gets = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int n = i;
            gets.add(TransactGetItem.builder().get(g -> g.tableName(table).key(Map.of("pk", s("tg-" + n)))).build());
        }
        var responses = dynamo.transactGetItems(b -> b.transactItems(gets)).responses();
        assertEquals(100, responses.size());
        for (int i = 0; i < 100; i++) assertEquals(n(i), responses.get(i).item().get("idx"), "item " + i);
    }

    @Test
    void transactGetItemsOfOneItemAfterTheSuitesTransactions() {
        String table = onDemandTable();
        theConformanceSuitesTransactions(table, i -> Map.of("pk", s("tw-" + i)));
        // transactGet.test.ts, "gets a single item": each of a few keys written, then read alone.
        for (int i = 0; i < 24; i++) {
            Map<String, AttributeValue> key = Map.of("pk", s("tg-single-" + i));
            put(table, Map.of("pk", key.get("pk"), "data", s("solo")));
            var responses = dynamo.transactGetItems(b -> b.transactItems(t -> t.get(g -> g.tableName(table).key(key))))
                    .responses();
            assertEquals(1, responses.size());
            assertEquals(s("solo"), responses.get(0).item().get("data"));
        }
    }

    @Test
    void aReverseQueryOverALongPartition() {
        String table = "long-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE)));
        // The suite's transactions write the partition's first items...
        theConformanceSuitesTransactions(table, i -> Map.of("pk", s("long"), "sk", n(100_000 + i)));
        // ...then 400 items of 10 KB (4,000 write units) follow, at 800 units a second: what one
        // partition takes (1,000 a second), with room to spare.
        String pad = "x".repeat(10_000);
        for (int i = 0; i < 400; i++) {
            put(table, Map.of("pk", s("long"), "sk", n(i), "pad", s(pad)));
            if (i % 80 == 79) tick();
        }
        // Read backwards, strongly consistent, page after page (about 1 MB each).
        List<Integer> sortKeys = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        int pages = 0;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = dynamo.query(b -> b.tableName(table).keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", s("long"))).scanIndexForward(false).consistentRead(true)
                    .exclusiveStartKey(from));
            page.items().forEach(item -> sortKeys.add(Integer.parseInt(item.get("sk").n())));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            pages++;
        } while (start != null);
        assertTrue(pages >= 5, pages + " pages");
        assertEquals(510, sortKeys.size());
        for (int i = 1; i < sortKeys.size(); i++) assertTrue(sortKeys.get(i - 1) > sortKeys.get(i), "descending at " + i);
    }

    @Test
    void scanPagesOfEightThousandItems() {
        String table = onDemandTable();
        theConformanceSuitesTransactions(table, i -> Map.of("pk", s("tw-" + i)));
        // 16,000 items of about 128 bytes (one write unit each), loaded as one client's loop of
        // BatchWriteItem does against DynamoDB: about 100 batches of 25 a second.
        String pad = "x".repeat(118);
        for (int first = 0; first < 16_000; first += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (int i = first; i < first + 25; i++) {
                batch.add(WriteRequest.builder().putRequest(PutRequest.builder()
                        .item(Map.of("pk", s(String.format("s-%05d", i)), "v", s(pad))).build()).build());
            }
            int at = first;
            assertEquals(List.of(), dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, batch)))
                    .unprocessedItems().getOrDefault(table, List.of()), () -> "every item written, from " + at);
            if (first % 2_500 == 2_475) tick();
        }
        int items = 0;
        int pages = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page = dynamo.scan(b -> b.tableName(table).exclusiveStartKey(from));
            assertTrue(page.count() <= 8_300, page.count() + " items in a page of 1 MB");
            items += page.count();
            pages++;
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        assertEquals(16_000 + 110, items);
        assertTrue(pages >= 2, pages + " pages");
    }

    // ---- beyond the five -----------------------------------------------------------------------

    @Test
    void aTransactionLargerThanASecondOfAnOnDemandMaximumIsServedFromBurst() {
        // A maximum "is applied on a best-effort basis" and a workload may briefly exceed it
        // through burst capacity (developer guide, on-demand-capacity-mode-max-throughput): the
        // 6,840 units of the suite's large transaction on a table capped at 1,000 a second take
        // one second of the cap, and burst the rest.
        String capped = "capped-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(capped).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH))
                .onDemandThroughput(o -> o.maxWriteRequestUnits(1_000L)));
        theConformanceSuitesTransactions(capped, i -> Map.of("pk", s("tw-" + i)));
        tick();
        for (int i = 0; i < 500; i++) put(capped, Map.of("pk", s("after-" + i)));
        // The cap still holds for requests of ordinary size.
        tick();
        int served = 0;
        try {
            while (served < 2_000) {
                int n = served;
                dynamo.putItem(b -> b.tableName(capped).item(Map.of("pk", s("flood-" + n))));
                served++;
            }
        } catch (ThrottlingException e) {
            assertEquals("TableWriteMaxOnDemandThroughputExceeded", e.throttlingReasons().get(0).reason());
        }
        assertEquals(1_000, served, "one second of the cap");
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /**
     * What transactionLimits.test.ts writes before its TransactGetItems: 100 small Puts in one
     * transaction, then ten items of about 350 KB in another (6,840 write units).
     */
    private void theConformanceSuitesTransactions(String table, IntFunction<Map<String, AttributeValue>> key) {
        List<TransactWriteItem> hundred = new ArrayList<>();
        for (int i = 0; i < 100; i++) hundred.add(putAction(table, with(key.apply(i), "idx", n(i))));
        transactWrite(hundred);
        List<TransactWriteItem> large = new ArrayList<>();
        for (int i = 100; i < 110; i++) large.add(putAction(table, with(key.apply(i), "payload", s(PAD_350_KB))));
        transactWrite(large);
    }

    private void transactWrite(List<TransactWriteItem> actions) {
        try {
            dynamo.transactWriteItems(b -> b.transactItems(actions));
        } catch (TransactionCanceledException e) {
            fail("cancelled: " + e.cancellationReasons().stream().map(CancellationReason::code).toList());
        }
    }

    private int countPresent(String table, int count, IntFunction<Map<String, AttributeValue>> key) {
        int present = 0;
        for (int i = 0; i < count; i++) {
            int n = i;
            if (dynamo.getItem(b -> b.tableName(table).key(key.apply(n))).hasItem()) present++;
        }
        return present;
    }

    private static TransactWriteItem putAction(String table, Map<String, AttributeValue> item) {
        return TransactWriteItem.builder().put(p -> p.tableName(table).item(item)).build();
    }

    private void put(String table, Map<String, AttributeValue> item) {
        try {
            dynamo.putItem(b -> b.tableName(table).item(item));
        } catch (ThrottlingException e) {
            fail("throttled: " + item.get("pk") + " " + item.get("sk"), e);
        }
    }

    private String onDemandTable() {
        String table = "served-" + System.nanoTime();
        dynamo.createTable(Tables.onDemand(table).build());
        return table;
    }

    private static Map<String, AttributeValue> with(Map<String, AttributeValue> key, String name, AttributeValue value) {
        Map<String, AttributeValue> item = new HashMap<>(key);
        item.put(name, value);
        return item;
    }

    private static void tick() {
        CLOCK.advance(Duration.ofSeconds(1));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(int value) {
        return AttributeValue.fromN(Integer.toString(value));
    }
}
