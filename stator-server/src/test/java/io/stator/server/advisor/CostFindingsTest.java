package io.stator.server.advisor;

import static io.stator.server.testing.AdvisorApi.field;
import static io.stator.server.testing.AdvisorApi.findings;
import static io.stator.server.testing.AdvisorApi.number;
import static io.stator.server.testing.AdvisorApi.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.advisor.Prices;
import io.stator.engine.capacity.ThroughputSettings;
import io.stator.engine.table.TableDefinition.TableClass;
import io.stator.server.testing.AdvisorApi;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/**
 * The advisor's cost findings (F15 capacity mode or table class misfit, F16 throttle observed,
 * F17 spike beyond on-demand's instant capacity) and each access pattern's cost, on a real server
 * through the JSON API, each finding with its trigger and no-trigger workloads (advisor.md,
 * section 6.2). The workloads are scaled down: the server projects with --advisor-scale 100, so
 * 100 writes in one test-second stand for 10,000 a second; a second server projects with 10,000.
 * The clock is stopped, so every request between two moves of it falls in one second.
 */
class CostFindingsTest {

    private static final TestClock CLOCK = new TestClock();
    private static final AtomicInteger UNIQUE = new AtomicInteger();
    private static final Prices PRICES = Prices.standard();
    private static final double SCALE = 100;
    private static final double LARGE_SCALE = 10_000;

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK).withAdvisorScale(SCALE));

    @RegisterExtension
    static final SharedServer large = new SharedServer(o -> o.withClock(CLOCK).withAdvisorScale(LARGE_SCALE));

    private DynamoDbClient dynamo;
    private Instant start;

    @BeforeEach
    void stopTheClock() {
        // Each test three hours after the last, so that no table sees the clock go back.
        start = Instant.parse("2026-06-01T00:00:00Z").plus(Duration.ofHours(3L * UNIQUE.incrementAndGet()));
        CLOCK.set(start);
        dynamo = server.client();
    }

    @AfterAll
    static void followSystemTime() {
        CLOCK.useSystemTime();
    }

    private void at(int minute, int second) {
        CLOCK.set(start.plus(Duration.ofMinutes(minute)).plusSeconds(second));
    }

    private static String onDemandTable(DynamoDbClient client) {
        String name = "cost-" + UNIQUE.incrementAndGet();
        client.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH")));
        return name;
    }

    /** An item of about {@code bytes} bytes: ceil(bytes / 1 KB) write units for a {@code bytes} past 100. */
    private static Map<String, AttributeValue> item(String pk, int bytes) {
        return Map.of("pk", AttributeValue.fromS(pk), "data", AttributeValue.fromS("x".repeat(Math.max(1, bytes - 100))));
    }

    private void put(String table, String pk, int bytes) {
        dynamo.putItem(b -> b.tableName(table).item(item(pk, bytes)));
    }

    private static JsonNode only(List<JsonNode> found) {
        assertEquals(1, found.size(), found.toString());
        return found.getFirst();
    }

    // ---- F15 -------------------------------------------------------------------------------------

    @Test
    void steadyTrafficAtSixtyPercentOfItsPeakOnDemandIsToldProvisionedCostsLess() {
        String t = onDemandTable(dynamo);
        // Ten minutes, each with 36 seconds of one 4.5 KB write (5 write units): 3 units a second on
        // average, 5 at the peak: 60% utilisation. Projected: 300 on average, 500 at the peak.
        for (int minute = 0; minute < 10; minute++) {
            for (int second = 0; second < 36; second++) {
                at(minute, second);
                put(t, "k" + (second % 6), 4_500);
            }
        }
        at(9, 59);
        JsonNode f = only(findings(server.port(), t, "F15"));
        assertEquals("INFO", string(f, "severity"));
        assertEquals(60, number(f, "evidence", "utilisationPercent"), 1e-9);
        assertEquals(10, number(f, "evidence", "minutes"));
        assertEquals(3, number(f, "evidence", "observed", "averageWriteUnitsPerSecond"), 1e-9);
        assertEquals(500, number(f, "evidence", "projected", "peakWriteUnitsPerSecond"), 1e-9);
        double breakEven = PRICES.breakEvenUtilisation(TableClass.STANDARD, 0, 1);
        assertEquals(28.89, 100 * breakEven, 0.005);
        assertEquals(100 * breakEven, number(f, "evidence", "breakEvenUtilisationPercent"), 0.005);
        assertEquals(200 * breakEven, number(f, "evidence", "provisionedPaysAbovePercent"), 0.005);
        // On demand: 300 WRU a second for a month; provisioned: 500 / 0.5 = 1,000 WCU and the least RCU, 1.
        double onDemand = PRICES.onDemandMonthly(TableClass.STANDARD, 0, 300);
        double provisioned = PRICES.provisionedMonthly(TableClass.STANDARD, 1, 1_000);
        assertEquals(onDemand, number(f, "evidence", "monthlyCost", "PAY_PER_REQUEST", "STANDARD"), 0.02);
        assertEquals(provisioned, number(f, "evidence", "monthlyCost", "PROVISIONED", "STANDARD"), 0.02);
        assertEquals(PRICES.onDemandMonthly(TableClass.STANDARD_INFREQUENT_ACCESS, 0, 300),
                number(f, "evidence", "monthlyCost", "PAY_PER_REQUEST", "STANDARD_INFREQUENT_ACCESS"), 0.02);
        assertEquals("PROVISIONED", string(f, "evidence", "cheapest", "billingMode"));
        assertEquals("STANDARD", string(f, "evidence", "cheapest", "tableClass"));
        assertEquals(onDemand - provisioned, number(f, "dollarsPerMonth"), 0.03);
        assertTrue(string(f, "summary").contains("provisioned capacity"), string(f, "summary"));
        assertTrue(field(f, "sources").asArray().stream().anyMatch(s -> s.asString()
                .equals("CostOptimization_TableCapacityMode")));
    }

    @Test
    void spikyTrafficAtTenPercentUtilisationIsNotToldToSwitch() {
        String t = onDemandTable(dynamo);
        // Ten minutes, each with one second of ten 4.5 KB writes (50 units) and ten seconds of one
        // 25 KB write (25 units): 5 units a second on average, 50 at the peak: 10%.
        for (int minute = 0; minute < 10; minute++) {
            at(minute, 0);
            for (int i = 0; i < 10; i++) put(t, "spike" + i, 4_500);
            for (int second = 1; second <= 10; second++) {
                at(minute, second);
                put(t, "steady", 25_000);
            }
        }
        at(9, 59);
        assertEquals(List.of(), findings(server.port(), t, "F15"));
        JsonNode put = AdvisorApi.field(AdvisorApi.get(server.port(), "/stator/advisor/access-patterns?table=" + t),
                "patterns").asArray().getFirst();
        assertEquals(200, number(put, "calls"), "the workload ran");
    }

    @Test
    void aStorageHeavyTableWithLittleTrafficIsToldStandardInfrequentAccessCostsLess() {
        DynamoDbClient client = large.client();
        String t = onDemandTable(client);
        // 3 MB stored (30 GB projected at 10,000), written over an hour before the span read, then
        // two small reads ten minutes apart: storage outweighs the traffic.
        for (int i = 0; i < 8; i++) {
            int n = i;
            client.putItem(b -> b.tableName(t).item(item("big" + n, 390_000)));
        }
        for (int minute : new int[] {70, 79}) {
            at(minute, 0);
            client.getItem(b -> b.tableName(t).key(Map.of("pk", AttributeValue.fromS("small"))));
        }
        at(79, 30);
        JsonNode f = only(findings(large.port(), t, "F15"));
        assertEquals("PAY_PER_REQUEST", string(f, "evidence", "cheapest", "billingMode"));
        assertEquals("STANDARD_INFREQUENT_ACCESS", string(f, "evidence", "cheapest", "tableClass"));
        // Standard-IA's throughput costs 25% more and its storage 60% less: it pays above 0.25 / 0.6.
        assertEquals(100 * 0.25 / 0.6, number(f, "evidence", "standardInfrequentAccessPaysAbovePercent"), 0.005);
        assertTrue(number(f, "evidence", "storageShareOfThroughputPercent") > 100 * 0.25 / 0.6, f.toString());
        assertTrue(string(f, "summary").contains("with Standard-IA instead of")
                && string(f, "summary").contains("Standard-IA pays above 41.7%"), string(f, "summary"));
        assertTrue(string(f, "fix").contains("TableClass"), string(f, "fix"));
    }

    @Test
    void aProvisionedTableUsedAtAFewPercentIsToldOnDemandCostsLess() {
        String t = provisionedTable(50);
        // One 1 KB write a minute for ten minutes against 50 WCU and 5 RCU (5,000 and 500 projected).
        for (int minute = 0; minute < 10; minute++) {
            at(minute, 0);
            put(t, "k" + minute, 500);
        }
        at(9, 59);
        JsonNode f = only(findings(server.port(), t, "F15"));
        assertEquals("PAY_PER_REQUEST", string(f, "evidence", "cheapest", "billingMode"));
        assertEquals(5_000, number(f, "evidence", "provisionedWriteCapacityUnits"));
        double provisioned = PRICES.provisionedMonthly(TableClass.STANDARD, 500, 5_000);
        assertEquals(provisioned, number(f, "evidence", "monthlyCost", "PROVISIONED", "STANDARD"), 0.02);
        // 10 write units over 600 s, x 100: 1.67 a second on demand.
        double onDemand = PRICES.onDemandMonthly(TableClass.STANDARD, 0, 10 * SCALE / 600);
        assertEquals(onDemand, number(f, "evidence", "monthlyCost", "PAY_PER_REQUEST", "STANDARD"), 0.02);
        assertEquals(provisioned - onDemand, number(f, "dollarsPerMonth"), 0.03);
        assertTrue(string(f, "summary").contains("with on demand instead of"), string(f, "summary"));
    }

    // ---- F16 -------------------------------------------------------------------------------------

    private String provisionedTable(int writeCapacityUnits) {
        String name = "cost-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(name).billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits((long) writeCapacityUnits))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                // Throttled as DynamoDB would (the test servers only report by default).
                .tags(tag -> tag.key(ThroughputSettings.MODE_TAG).value("enforce")));
        return name;
    }

    /** Writes of 1 KB at {@code perSecond} for {@code seconds} seconds (SDK retries off); the throttled. */
    private int writeFor(String table, int perSecond, int seconds) {
        int throttled = 0;
        for (int second = 0; second < seconds; second++) {
            at(0, second);
            for (int i = 0; i < perSecond; i++) {
                try {
                    put(table, "k" + second + "-" + i, 500);
                } catch (ProvisionedThroughputExceededException e) {
                    throttled++;
                }
            }
        }
        return throttled;
    }

    @Test
    void fiftyWritesASecondOnFiveWriteUnitsAreThrottledAndTold() {
        String t = provisionedTable(5);
        // 5 WCU bank 300 seconds of burst (1,500 units): 50 writes a second drain it in about 33 s.
        int throttled = writeFor(t, 50, 40);
        assertTrue(throttled > 100, "throttled: " + throttled);
        JsonNode f = only(findings(server.port(), t, "F16"));
        assertEquals("CRITICAL", string(f, "severity"));
        assertEquals(throttled, number(f, "evidence", "throttleEvents"));
        assertEquals(2_000, number(f, "evidence", "requests"));
        assertEquals(Math.round(throttled / 20.0 * 100) / 100.0, number(f, "evidence", "throttledPercent"));
        assertEquals(throttled, number(f, "evidence", "byReason", "TableWriteProvisionedThroughputExceeded"));
        assertTrue(string(f, "evidence", "resourceArn").endsWith(":table/" + t), f.toString());
        double logged = number(f, "evidence", "loggedEvents");
        assertTrue(logged > 10 && logged <= throttled, f.toString());
        assertEquals(logged, number(f, "evidence", "byException",
                "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"));
        List<JsonNode> events = field(f, "evidence", "events").asArray();
        assertEquals(10, events.size());
        JsonNode last = events.getLast();
        assertEquals("k39-49", string(last, "key", "pk", "S"));
        assertEquals("PutItem: pk = :v", string(last, "signature"));
        assertEquals("TableWriteProvisionedThroughputExceeded", string(field(last, "reasons").asArray().getFirst(),
                "reason"));
        assertEquals(start.plusSeconds(39).toString(), string(last, "time"));
        assertTrue(string(f, "fix").contains("provisioned capacity"), string(f, "fix"));
    }

    @Test
    void fourWritesASecondOnFiveWriteUnitsAreNeverThrottled() {
        String t = provisionedTable(5);
        assertEquals(0, writeFor(t, 4, 40));
        assertEquals(List.of(), findings(server.port(), t, "F16"));
    }

    @Test
    void aFewThrottlesAmongManyRequestsAreAWarning() {
        String t = provisionedTable(1);
        // 1 WCU banks 300 units: three 100 KB writes take them, and the next two are refused.
        at(0, 0);
        for (int i = 0; i < 3; i++) put(t, "big" + i, 100 * 1024 - 200);
        int throttled = writeFor(t, 2, 1);
        assertEquals(2, throttled);
        JsonNode f = only(findings(server.port(), t, "F16"));
        assertEquals("WARN", string(f, "severity"));
        assertEquals(2, number(f, "evidence", "throttleEvents"));
    }

    @Test
    void aGlobalIndexThatThrottlesItsTablesWritesIsToldOnTheIndex() {
        String t = "cost-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(t).billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(1_000L))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("status").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .globalSecondaryIndexes(g -> g.indexName("ByStatus").keySchema(k -> k.attributeName("status").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.ALL))
                        .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L)))
                .tags(tag -> tag.key(ThroughputSettings.MODE_TAG).value("enforce")));
        // The index's 1 WCU banks 300 units: three 100 KB entries take them; the fourth write is refused.
        at(0, 0);
        int throttled = 0;
        for (int i = 0; i < 4; i++) {
            Map<String, AttributeValue> item = new java.util.HashMap<>(item("big" + i, 100 * 1024 - 200));
            item.put("status", AttributeValue.fromS("open"));
            try {
                dynamo.putItem(b -> b.tableName(t).item(item));
            } catch (ProvisionedThroughputExceededException e) {
                throttled++;
            }
        }
        assertEquals(1, throttled);
        JsonNode f = only(findings(server.port(), t, "F16"));
        assertEquals("ByStatus", string(f, "indexName"));
        assertEquals(1, number(f, "evidence", "byReason", "IndexWriteProvisionedThroughputExceeded"));
        assertTrue(string(f, "evidence", "resourceArn").endsWith(":table/" + t + "/index/ByStatus"), f.toString());
        assertEquals("big3", string(field(f, "evidence", "events").asArray().getFirst(), "key", "pk", "S"));
    }

    // ---- F17 -------------------------------------------------------------------------------------

    @Test
    void zeroToTenThousandWritesASecondOnANewOnDemandTableIsASpike() {
        String t = onDemandTable(dynamo);
        at(0, 0);
        for (int i = 0; i < 100; i++) put(t, "k" + i, 500);
        JsonNode f = only(findings(server.port(), t, "F17"));
        assertEquals("WARN", string(f, "severity"));
        assertEquals("write", string(f, "evidence", "units"));
        assertEquals(10_000, number(f, "evidence", "peakUnitsPerSecond"));
        assertEquals(100, number(f, "evidence", "observedPeakUnitsPerSecond"));
        assertEquals(4_000, number(f, "evidence", "instantCapacity"));
        List<JsonNode> curve = field(f, "evidence", "curve").asArray();
        assertEquals(1, curve.size());
        assertEquals(start.toString(), string(curve.getFirst(), "minute"));
        assertTrue(string(f, "fix").contains("WarmThroughput"), string(f, "fix"));
    }

    @Test
    void aRampThatDoublesEveryThirtyMinutesIsNoSpike() {
        String t = onDemandTable(dynamo);
        // 3,000, 6,000 then 12,000 write units a second (projected), thirty minutes apart: each step
        // at most twice the peak of thirty minutes before.
        int[] rates = {30, 60, 120};
        for (int step = 0; step < rates.length; step++) {
            at(30 * step, 0);
            for (int i = 0; i < rates[step]; i++) put(t, "k" + i, 500);
        }
        assertEquals(List.of(), findings(server.port(), t, "F17"));
        // The same ramp fifteen minutes a step doubles twice within thirty minutes: the last step is a
        // spike, past twice the 4,000 in force thirty minutes before.
        String fast = onDemandTable(dynamo);
        for (int step = 0; step < rates.length; step++) {
            at(15 * step, 30);
            for (int i = 0; i < rates[step]; i++) put(fast, "k" + i, 500);
        }
        JsonNode f = only(findings(server.port(), fast, "F17"));
        assertEquals(12_000, number(f, "evidence", "peakUnitsPerSecond"));
        assertEquals(8_000, number(f, "evidence", "instantCapacity"));
    }

    // ---- cost per access pattern and the scale ---------------------------------------------------

    private static JsonNode pattern(int port, String table, String signature) {
        JsonNode answer = AdvisorApi.get(port, "/stator/advisor/access-patterns?table=" + table);
        return field(answer, "patterns").asArray().stream().filter(p -> string(p, "signature").equals(signature))
                .findFirst().orElseThrow(() -> new AssertionError(signature + " not in " + answer));
    }

    @Test
    void eachAccessPatternCostsItsUnitsAtThePriceTablesPrices() {
        String t = "cost-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(t).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("status").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .globalSecondaryIndexes(g -> g.indexName("ByStatus").keySchema(k -> k.attributeName("status").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
        // Three seconds, each with ten puts of a small item (1 write unit on the table, 1 on the
        // index) and ten strongly consistent reads of them (1 read unit each).
        for (int second = 0; second < 3; second++) {
            at(0, second);
            for (int i = 0; i < 10; i++) {
                String pk = "k" + second + "-" + i;
                dynamo.putItem(b -> b.tableName(t).item(Map.of("pk", AttributeValue.fromS(pk),
                        "status", AttributeValue.fromS("open"))));
                dynamo.getItem(b -> b.tableName(t).consistentRead(true).key(Map.of("pk", AttributeValue.fromS(pk))));
            }
        }
        JsonNode answer = AdvisorApi.get(server.port(), "/stator/advisor/access-patterns?table=" + t);
        assertEquals(SCALE, number(answer, "scale"));
        assertEquals(PRICES.date(), string(answer, "prices", "date"));
        assertEquals("us-east-1", string(answer, "prices", "region"));
        assertEquals(PRICES.sources(), string(answer, "prices", "sources"));

        // Puts: 10 write units a second on the table and 10 on the index, x 100 = 1,000 each: $1,642.50
        // a month each on demand. Provisioned: the busiest second's 20 units x 100 / 0.5 = 4,000 WCU.
        JsonNode put = field(pattern(server.port(), t, "PutItem: pk = :v"), "cost");
        double writes = PRICES.onDemandMonthly(TableClass.STANDARD, 0, 1_000);
        assertEquals(1_642.50, writes, 0.005);
        assertEquals(writes, number(put, "tableDollarsPerMonth"), 0.005);
        assertEquals(writes, number(put, "indexDollarsPerMonth", "ByStatus"), 0.005);
        assertEquals(2 * writes, number(put, "dollarsPerMonth"), 0.005);
        assertEquals(PRICES.provisionedMonthly(TableClass.STANDARD, 0, 4_000), number(put, "provisionedDollarsPerMonth"),
                0.005);
        // Reads: 10 read units a second x 100 = 1,000: $328.50 a month; provisioned 2,000 RCU.
        JsonNode get = field(pattern(server.port(), t, "GetItem: pk = :v | consistent"), "cost");
        double reads = PRICES.onDemandMonthly(TableClass.STANDARD, 1_000, 0);
        assertEquals(328.50, reads, 0.005);
        assertEquals(reads, number(get, "dollarsPerMonth"), 0.005);
        assertEquals(reads, number(get, "tableDollarsPerMonth"), 0.005);
        assertEquals(PRICES.provisionedMonthly(TableClass.STANDARD, 2_000, 0), number(get, "provisionedDollarsPerMonth"),
                0.005);
        // Shares of what was spent: 60 write units against 30 read units at a fifth of the price.
        assertEquals(10.0 / 11, number(put, "shareOfTable"), 1e-9);
        assertEquals(1.0 / 11, number(get, "shareOfTable"), 1e-9);
    }

    @Test
    void findingsAndCostsAreProjectedWithTheAdvisorScale() {
        // The same 30 writes in one second: 3,000 units a second at scale 100, under a new table's
        // 4,000; 300,000 at scale 10,000, a spike.
        String small = onDemandTable(dynamo);
        String big = onDemandTable(large.client());
        at(0, 0);
        for (int i = 0; i < 30; i++) {
            put(small, "k" + i, 500);
            int n = i;
            large.client().putItem(b -> b.tableName(big).item(item("k" + n, 500)));
        }
        assertEquals(List.of(), findings(server.port(), small, "F17"));
        JsonNode f = only(findings(large.port(), big, "F17"));
        assertEquals(300_000, number(f, "evidence", "peakUnitsPerSecond"));
        assertEquals(30, number(f, "evidence", "observedPeakUnitsPerSecond"));
        assertEquals(LARGE_SCALE, number(AdvisorApi.get(large.port(), "/stator/advisor/findings?table=" + big), "scale"));
        double atScale = number(pattern(server.port(), small, "PutItem: pk = :v"), "cost", "dollarsPerMonth");
        double atLargeScale = number(pattern(large.port(), big, "PutItem: pk = :v"), "cost", "dollarsPerMonth");
        assertEquals(PRICES.onDemandMonthly(TableClass.STANDARD, 0, 30 * SCALE), atScale, 0.005);
        assertEquals(100 * atScale, atLargeScale, 0.01);
    }
}
