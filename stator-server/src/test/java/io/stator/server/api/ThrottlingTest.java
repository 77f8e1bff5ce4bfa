package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.engine.capacity.Throughput;
import io.stator.engine.capacity.ThroughputSettings;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * DynamoDB's throughput physics, scenario by scenario (the issue's seeds), through the SDK against
 * a real server whose clock the test moves: each "second" of load is sent while the clock stands
 * still, then the clock moves one second. Rates are write units a second; items of about 10 KB
 * cost 10 units each, so a rate needs a tenth as many requests. The client does not retry: every
 * throttle is seen. The server enforces throughput (the default of bin/stator; test servers
 * otherwise only report it).
 */
class ThrottlingTest {

    private static final TestClock CLOCK = new TestClock();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK).withThroughput(ThroughputSettings.DEFAULTS));

    private static final String ARN_PREFIX = "arn:aws:dynamodb:us-east-1:000000000000:table/";
    /** About 10 KB: 10 write units as DynamoDB bills an item (names and values, KB of 1,024 bytes). */
    private static final String PAD_10_UNITS = "x".repeat(10_000);
    /** About 1 KB: one write unit. */
    private static final String PAD_1_UNIT = "x".repeat(900);

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

    // ---- the seeds' scenarios ------------------------------------------------------------------

    @Test
    void aHotKeyOnAnOnDemandTableIsThrottledWhileTheSameRateOverManyKeysIsNot() {
        String table = onDemandTable();
        // 1,500 units a second on one key: past its partition's 1,000.
        ThrottlingException hot = null;
        for (int second = 0; second < 5 && hot == null; second++) {
            for (int i = 0; i < 150; i++) {
                try {
                    put(table, "hot", PAD_10_UNITS);
                } catch (ThrottlingException e) {
                    hot = e;
                    break;
                }
            }
            tick();
        }
        if (hot == null) fail("1,500 write units a second on one key were never throttled");
        assertEquals(400, hot.statusCode());
        assertTrue(hot.getMessage().startsWith("Throughput exceeds the current capacity of your table or index. "
                + "DynamoDB is automatically scaling your table or index so please try again shortly."), hot.getMessage());
        assertEquals(List.of(reason("TableWriteKeyRangeThroughputExceeded", ARN_PREFIX + table)), reasons(hot));

        // The same rate over 100 keys: no throttle.
        String spread = onDemandTable();
        for (int second = 0; second < 5; second++) {
            for (int i = 0; i < 150; i++) put(spread, "key-" + (i % 100), PAD_10_UNITS);
            tick();
        }

        // The hot key sharded by ten suffixes: no throttle either.
        String sharded = onDemandTable();
        for (int second = 0; second < 5; second++) {
            for (int i = 0; i < 150; i++) put(sharded, "hot#" + (i % 10), PAD_10_UNITS);
            tick();
        }
    }

    @Test
    void aLowCardinalityIndexKeyThrottlesTheTablesWritesNamingTheIndex() {
        String table = "orders-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("status").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .globalSecondaryIndexes(g -> g.indexName("by-status")
                        .keySchema(k -> k.attributeName("status").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.ALL))));
        // 1,200 units a second over distinct items, every one OPEN: the index's OPEN partition
        // takes all of them, past its 1,000 (after the two seconds' worth it holds).
        ThrottlingException throttled = null;
        int item = 0;
        for (int second = 0; second < 20 && throttled == null; second++) {
            for (int i = 0; i < 120; i++) {
                try {
                    dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", s("order-" + System.nanoTime()),
                            "status", s("OPEN"), "pad", s(PAD_10_UNITS))));
                    item++;
                } catch (ThrottlingException e) {
                    throttled = e;
                    break;
                }
            }
            tick();
        }
        if (throttled == null) fail("1,200 write units a second on one index key were never throttled");
        assertTrue(item >= 100, "the first second's writes fit: " + item);
        assertTrue(throttled.getMessage().startsWith("Throughput exceeds the current capacity for one or more global "
                + "secondary indexes."), throttled.getMessage());
        assertEquals(List.of(reason("IndexWriteKeyRangeThroughputExceeded", ARN_PREFIX + table + "/index/by-status")),
                reasons(throttled));
    }

    @Test
    void aProvisionedTablesHotPartitionRunsOnBurstAndAdaptiveCapacityUntilItsCeiling() {
        // 400 units over 4 partitions: provisioned at 4,000 first (4 partitions), then lowered;
        // partitions are never merged.
        String table = provisionedTable("provisioned", 10, 4_000);
        dynamo.updateTable(b -> b.tableName(table).provisionedThroughput(p -> p.readCapacityUnits(10L)
                .writeCapacityUnits(400L)));
        assertEquals(4, partitions(table), "partitions are never merged");
        // 150 units a second on one partition (a quarter's share would be 100) for ten minutes.
        for (int second = 0; second < 600; second++) {
            for (int i = 0; i < 3; i++) put(table, "one-key", "x".repeat(50 * 1024 - 100));
            tick();
        }
        // 1,200 a second on that partition: past its ceiling of 1,000.
        ProvisionedThroughputExceededException throttled = null;
        for (int second = 0; second < 20 && throttled == null; second++) {
            for (int i = 0; i < 120; i++) {
                try {
                    put(table, "one-key", PAD_10_UNITS);
                } catch (ProvisionedThroughputExceededException e) {
                    throttled = e;
                    break;
                }
            }
            tick();
        }
        if (throttled == null) fail("1,200 write units a second on one partition were never throttled");
        assertTrue(throttled.getMessage().startsWith("The level of configured provisioned throughput for the table was "
                + "exceeded."), throttled.getMessage());
        assertEquals(List.of(reason("TableWriteKeyRangeThroughputExceeded", ARN_PREFIX + table)), reasons(throttled));
    }

    @Test
    void aProvisionedIndexWithLessWriteCapacityThanItsTableThrottlesTheTablesWrites() {
        String table = "gsi-provisioned-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(table)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("g").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(100L))
                .globalSecondaryIndexes(g -> g.indexName("small")
                        .keySchema(k -> k.attributeName("g").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                        .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L))));
        // 50 writes a second, each one unit in the table and one in the index: the index's 5 a
        // second and 1,500 of burst run out after about 33 seconds; the table's 100 do not.
        ProvisionedThroughputExceededException throttled = null;
        int second = 0;
        for (; second < 60 && throttled == null; second++) {
            for (int i = 0; i < 50; i++) {
                try {
                    int n = second * 50 + i;
                    dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", s("p" + n), "g", s("g" + n))));
                } catch (ProvisionedThroughputExceededException e) {
                    throttled = e;
                    break;
                }
            }
            tick();
        }
        if (throttled == null) fail("the index's 5 write units a second were never exhausted");
        assertTrue(second >= 25, "burst capacity first: throttled in second " + second);
        assertTrue(throttled.getMessage().startsWith("The level of configured provisioned throughput for one or more "
                + "global secondary indexes of the table was exceeded."), throttled.getMessage());
        assertEquals(List.of(reason("IndexWriteProvisionedThroughputExceeded", ARN_PREFIX + table + "/index/small")),
                reasons(throttled));
    }

    @Test
    void aNewOnDemandTableServesFourThousandAtOnceThenDoubleItsPreviousPeak() {
        String first = onDemandTable();
        // 4,000 write units a second over many keys: served.
        for (int second = 0; second < 3; second++) {
            assertEquals(0, writeSecond(first, 4_000, second * 4_000, PAD_1_UNIT), "second " + second);
            tick();
        }
        // After that peak, double it at once: served.
        assertEquals(0, writeSecond(first, 8_000, 100_000, PAD_1_UNIT), "8,000 after a peak of 4,000");
        tick();
        // Past double the new peak within 30 minutes: throttled.
        assertTrue(writeSecond(first, 20_000, 200_000, PAD_1_UNIT) > 0, "20,000 after a peak of 8,000");

        // A new table given 10,000 at once: throttled.
        String second = onDemandTable();
        assertTrue(writeSecond(second, 10_000, 0, PAD_1_UNIT) > 0, "10,000 at once on a new table");
    }

    @Test
    void anOnDemandMaximumThrottlesAndARaisedWarmThroughputServesMoreAtOnce() {
        String capped = "capped-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(capped).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .onDemandThroughput(o -> o.maxWriteRequestUnits(20L)));
        // At most 20 write units a second: the third write of 10 finds the bucket empty.
        put(capped, "a", PAD_10_UNITS);
        put(capped, "b", PAD_10_UNITS);
        ThrottlingException max = assertThrows(ThrottlingException.class, () -> put(capped, "c", PAD_10_UNITS));
        assertEquals("Throughput exceeds the maximum OnDemandThroughput configured on table or index", max.getMessage()
                .substring(0, max.getMessage().indexOf(" (Service")));
        assertEquals(List.of(reason("TableWriteMaxOnDemandThroughputExceeded", ARN_PREFIX + capped)), reasons(max));
        tick();
        put(capped, "c", PAD_10_UNITS);

        // A table created warm at 40,000 write units a second takes 20,000 at once, which a new
        // table's 4,000 does not (aNewOnDemandTable...).
        String warm = "warm-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(warm).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .warmThroughput(w -> w.writeUnitsPerSecond(40_000L)));
        assertEquals(40, partitions(warm));
        assertEquals(0, writeSecond(warm, 20_000, 0, PAD_1_UNIT), "20,000 at once on a table warmed to 40,000");
    }

    @Test
    void aBatchPartlyOverTheLimitReturnsTheRestUnprocessedAndRetriesFinishIt() {
        String table = provisionedTable("batch", 1, 1);
        // 1 unit a second, 300 of burst: 25 items of 20 units fit 15 at a time.
        Map<String, List<WriteRequest>> request = Map.of(table, items(25, "x".repeat(20 * 1024 - 100)));
        BatchWriteItemResponse first = dynamo.batchWriteItem(b -> b.requestItems(request));
        int unprocessed = first.unprocessedItems().getOrDefault(table, List.of()).size();
        assertEquals(10, unprocessed, "15 fit in 300 units");
        // Nothing fits now: the whole call is refused, as DynamoDB refuses a batch none of whose
        // items it could process.
        Map<String, List<WriteRequest>> rest = first.unprocessedItems();
        ProvisionedThroughputExceededException none = assertThrows(
                ProvisionedThroughputExceededException.class, () -> dynamo.batchWriteItem(b -> b.requestItems(rest)));
        assertEquals("TableWriteProvisionedThroughputExceeded", reasons(none).get(0).reason());
        // A client that retries with backoff (time passes between attempts) finishes it.
        int attempts = 0;
        Map<String, List<WriteRequest>> pending = rest;
        while (!pending.isEmpty() && attempts++ < 20) {
            CLOCK.advance(Duration.ofSeconds(60));
            Map<String, List<WriteRequest>> next = pending;
            pending = dynamo.batchWriteItem(b -> b.requestItems(next)).unprocessedItems();
        }
        assertTrue(pending.isEmpty(), "left after " + attempts + " retries: " + pending);
        assertEquals(25, dynamo.scan(b -> b.tableName(table)).count());
    }

    @Test
    void readsBatchesAndTransactionsAreThrottledAsDynamoDbThrottlesThem() {
        String table = "reads-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(table)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L))
                .tags(t -> t.key("stator:throughput").value("report")));
        String big = "x".repeat(300 * 1024 - 100); // 75 read units strongly consistent, 300 write units
        for (int i = 0; i < 3; i++) put(table, "big-" + i, big);
        dynamo.untagResource(b -> b.resourceArn(ARN_PREFIX + table).tagKeys("stator:throughput"));
        CLOCK.advance(Duration.ofMinutes(10)); // the read bucket full again: 300 units

        // A read starts while the bucket holds anything, and pays after: four reads of 75 empty it.
        for (int i = 0; i < 4; i++) dynamo.getItem(b -> b.tableName(table).key(Map.of("pk", s("big-0"))).consistentRead(true));
        ProvisionedThroughputExceededException read = assertThrows(ProvisionedThroughputExceededException.class,
                () -> dynamo.getItem(b -> b.tableName(table).key(Map.of("pk", s("big-0"))).consistentRead(true)));
        assertEquals(List.of(reason("TableReadProvisionedThroughputExceeded", ARN_PREFIX + table)), reasons(read));

        // A batch none of whose keys can be read fails; one partly readable returns the rest.
        List<Map<String, AttributeValue>> keys = List.of(Map.of("pk", s("big-0")), Map.of("pk", s("big-1")),
                Map.of("pk", s("big-2")));
        assertThrows(ProvisionedThroughputExceededException.class, () -> dynamo.batchGetItem(b -> b.requestItems(
                Map.of(table, KeysAndAttributes.builder().keys(keys).consistentRead(true).build()))));
        CLOCK.advance(Duration.ofSeconds(10));
        BatchGetItemResponse partly = dynamo.batchGetItem(b -> b.requestItems(
                Map.of(table, KeysAndAttributes.builder().keys(keys).consistentRead(true).build())));
        assertEquals(1, partly.responses().get(table).size());
        assertEquals(2, partly.unprocessedKeys().get(table).keys().size());

        // A transaction with a write to a table whose write bucket is empty is cancelled with that
        // action's code; its other action, on another table, was fine. Nothing is written.
        put(table, "empties-the-bucket", big); // admitted while anything is left, leaving a debt
        String other = onDemandTable();
        TransactionCanceledException cancelled = assertThrows(TransactionCanceledException.class,
                () -> dynamo.transactWriteItems(b -> b.transactItems(
                        t -> t.put(p -> p.tableName(other).item(Map.of("pk", s("t-1")))),
                        t -> t.put(p -> p.tableName(table).item(Map.of("pk", s("t-2")))))));
        assertEquals(List.of("None", "ProvisionedThroughputExceeded"),
                cancelled.cancellationReasons().stream().map(CancellationReason::code).toList());
        assertFalse(dynamo.getItem(b -> b.tableName(other).key(Map.of("pk", s("t-1")))).hasItem(), "nothing written");
    }

    @Test
    void aGlobalIndexBackfillConsumesTheIndexsWriteCapacity() throws InterruptedException {
        String table = provisionedTable("backfill", 10, 1_000);
        for (int i = 0; i < 400; i++) {
            int n = i;
            dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", s("k" + n), "g", s("g" + n % 7), "pad", s(PAD_1_UNIT))));
        }
        // An index of 1 write unit a second (300 of burst) for 400 entries of one unit each.
        dynamo.updateTable(b -> b.tableName(table)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"), a -> a.attributeName("g").attributeType("S"))
                .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName("by-g")
                        .keySchema(k -> k.attributeName("g").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.ALL))
                        .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L)))));
        Thread.sleep(1_000);
        assertEquals(IndexStatus.CREATING, indexStatus(table), "the backfill waits for the index's capacity");
        CLOCK.advance(Duration.ofSeconds(200));
        Eventually.until("the backfill finishes once the index has capacity again", () -> indexStatus(table),
                status -> status == IndexStatus.ACTIVE);
    }

    private IndexStatus indexStatus(String table) {
        return dynamo.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().get(0).indexStatus();
    }

    @Test
    void partitionsSplitAsTheirDataOutgrowsThem() {
        // Partitions of 1 MB instead of DynamoDB's 10 GB, so that a test can fill them.
        TestClock clock = new TestClock();
        clock.set(Instant.parse("2026-06-01T00:00:00Z"));
        try (StatorTestServer small = StatorTestServer.start(o -> o.withClock(clock)
                .withThroughput(StatorTestServer.REPORT_ONLY.withPartitionBytes(1024 * 1024)))) {
            DynamoDbClient client = small.client();
            String table = "growing-" + System.nanoTime();
            client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH")));
            Throughput throughput = (Throughput) small.engine().capacityMeter().admission();
            assertEquals(4, throughput.partitionStarts(small.engine().catalog().find(table), null).length);
            String pad = "x".repeat(350 * 1024);
            for (int i = 0; i < 30; i++) {
                int n = i;
                client.putItem(b -> b.tableName(table).item(Map.of("pk", s("big-" + n), "pad", s(pad))));
            }
            // About 10.5 MB: read within a minute, 11 partitions needed, so 4 double twice.
            clock.advance(Duration.ofSeconds(61));
            client.getItem(b -> b.tableName(table).key(Map.of("pk", s("big-0"))));
            assertEquals(16, throughput.partitionStarts(small.engine().catalog().find(table), null).length);
            // Partitions are never merged, a restart included.
            small.restart();
            Throughput restarted = (Throughput) small.engine().capacityMeter().admission();
            assertEquals(16, restarted.partitionStarts(small.engine().catalog().find(table), null).length);
        }
    }

    @Test
    void theSdksOwnRetriesCarryAThrottledWriteThroughAsTimePasses() {
        String table = provisionedTable("retried", 1, 1);
        put(table, "big", "x".repeat(400 * 1024 - 100)); // 400 units from a bucket of 300: 100 in debt
        // A client that retries as the SDK does by default for DynamoDB's throttling errors; 40
        // seconds pass before each attempt (the test clock stands in for the backoff's time).
        AtomicInteger attempts = new AtomicInteger();
        ExecutionInterceptor timePasses = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                attempts.incrementAndGet();
                CLOCK.advance(Duration.ofSeconds(40));
            }
        };
        try (DynamoDbClient retrying = DynamoDbClient.builder().endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD).retryStrategy(b -> b.maxAttempts(5))
                        .addExecutionInterceptor(timePasses))
                .build()) {
            retrying.putItem(b -> b.tableName(table).item(Map.of("pk", s("small"))));
        }
        assertEquals(3, attempts.get(), "throttled at -60 and -20 units, admitted at +20");
    }

    @Test
    void reportModeComputesEverythingAndThrottlesNothing() {
        String table = "report-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(table)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L))
                .tags(t -> t.key("stator:throughput").value("report")));
        for (int i = 0; i < 100; i++) put(table, "k" + i, PAD_10_UNITS); // 1,000 units on a table of 1 (300 burst)
        assertEquals(100, dynamo.scan(b -> b.tableName(table)).count());
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private String provisionedTable(String prefix, long read, long write) {
        String table = prefix + "-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(table)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .provisionedThroughput(p -> p.readCapacityUnits(read).writeCapacityUnits(write)));
        return table;
    }

    private String onDemandTable() {
        String table = "on-demand-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH")));
        return table;
    }

    private static int partitions(String table) {
        Throughput throughput = (Throughput) server.engine().capacityMeter().admission();
        return throughput.partitionStarts(server.engine().catalog().find(table), null).length;
    }

    private void put(String table, String key, String pad) {
        dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", s(key), "pad", s(pad))));
    }

    /**
     * Writes {@code units} items of one unit each in batches of 25, keys {@code first} and up,
     * within the current second; returns how many came back unprocessed or refused.
     */
    private int writeSecond(String table, int units, int first, String pad) {
        int refused = 0;
        for (int i = 0; i < units; i += 25) {
            List<WriteRequest> batch = new ArrayList<>(25);
            for (int j = i; j < Math.min(units, i + 25); j++) {
                batch.add(WriteRequest.builder().putRequest(PutRequest.builder()
                        .item(Map.of("pk", s("key-" + (first + j)), "pad", s(pad))).build()).build());
            }
            try {
                refused += dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, batch)))
                        .unprocessedItems().getOrDefault(table, List.of()).size();
            } catch (ThrottlingException e) {
                refused += batch.size();
            }
        }
        return refused;
    }

    private static List<WriteRequest> items(int count, String pad) {
        List<WriteRequest> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            items.add(WriteRequest.builder().putRequest(PutRequest.builder()
                    .item(Map.of("pk", s("item-" + i), "pad", s(pad))).build()).build());
        }
        return items;
    }

    private static void tick() {
        CLOCK.advance(Duration.ofSeconds(1));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static ThrottlingReason reason(String reason, String resource) {
        return ThrottlingReason.builder().reason(reason).resource(resource).build();
    }

    private static List<ThrottlingReason> reasons(DynamoDbException e) {
        if (e instanceof ThrottlingException t) return t.throttlingReasons();
        if (e instanceof ProvisionedThroughputExceededException p) return p.throttlingReasons();
        return List.of();
    }
}
