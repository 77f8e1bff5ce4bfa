package io.stator.server.advisor;

import static io.stator.server.testing.AdvisorApi.field;
import static io.stator.server.testing.AdvisorApi.findings;
import static io.stator.server.testing.AdvisorApi.number;
import static io.stator.server.testing.AdvisorApi.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.key.PartitionHash;
import io.stator.server.testing.AdvisorApi;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The advisor's key findings (advisor.md 6.1 and 6.2: F1 to F6 and F9) on a real server, each with
 * the workload that must raise it and the one that must not, through the JSON API.
 *
 * <p><b>Scaled down.</b> The server runs with {@code --advisor-scale 10}: the workloads of 6.2 are
 * sent at a tenth of their rate (80 writes a test-second stand for 800), which keeps the class
 * short on two busy cores; the findings judge the projected rates, as they would production's.
 * The clock is fixed between two advances, so every request between them falls in one second.
 */
class KeyFindingsTest {

    private static final double SCALE = 10;
    private static final TestClock CLOCK = new TestClock();
    private static final Instant BASE = Instant.parse("2026-03-01T12:00:00Z");
    private static final AtomicInteger TESTS = new AtomicInteger();
    private static final AtomicInteger UNIQUE = new AtomicInteger();
    private static final String PAYLOAD_1KB = "x".repeat(900);
    private static final String PAYLOAD_4KB = "x".repeat(4_000);

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK).withAdvisorScale(SCALE));

    private DynamoDbClient dynamo;

    @BeforeEach
    void stopTheClock() {
        // Three days a test, so that the clock only moves forward (the F6 test crosses two midnights).
        CLOCK.set(BASE.plus(Duration.ofDays(3L * TESTS.incrementAndGet())));
        dynamo = server.client();
    }

    @AfterAll
    static void followSystemTime() {
        CLOCK.useSystemTime();
    }

    // ---- F1 ---------------------------------------------------------------------------------------

    @Test
    void oneKeyAtEightHundredWritesASecondIsAHotPartitionKeyThenCriticalPastTheCeiling() {
        String t = keyedTable("S");
        AtomicInteger sk = new AtomicInteger();
        // 80 writes of 1 KB a second (800 projected) on one key: four seconds are one short of five.
        seconds(4, s -> putItems(t, 80, i -> item("hot", sk.incrementAndGet(), PAYLOAD_1KB)));
        assertEquals(List.of(), findings(server.port(), t, "F1"), "4 s at 800 WCU/s: not yet sustained");
        CLOCK.advance(Duration.ofSeconds(1));
        seconds(6, s -> putItems(t, 80, i -> item("hot", sk.incrementAndGet(), PAYLOAD_1KB)));

        JsonNode f1 = only(t, "F1");
        assertEquals("WARN", string(f1, "severity"));
        assertFalse(f1.field("indexName").isPresent());
        JsonNode key = field(f1, "evidence", "keys").asArray().get(0);
        assertEquals("hot", string(key, "key", "pk", "S"));
        assertEquals(800, number(key, "peakUnitsPerSecond"));
        assertEquals(80, number(key, "observedPeakUnitsPerSecond"));
        assertEquals(1.0, number(key, "share"));
        assertEquals(10, number(key, "secondsAtOrAboveWarn"));
        assertEquals(10, field(key, "timeline").asArray().size());
        assertEquals(800, number(field(key, "timeline").asArray().get(0), "units"));
        JsonNode operation = field(f1, "evidence", "operations").asArray().get(0);
        assertEquals("BatchWriteItem PutItem: pk = :v AND sk = :v", string(operation, "signature"));
        assertEquals(1.0, number(operation, "share"));
        assertTrue(string(f1, "summary").startsWith("Partition key pk=\"hot\" of the table took 800 WCU/s"),
                string(f1, "summary"));
        assertTrue(field(f1, "sources").asArray().stream().anyMatch(s -> s.asString().equals("bp-partition-key-sharding")));
        assertTrue(number(f1, "dollarsPerMonth") > 0);

        // Exactly the ceiling is not past it; one write more is.
        CLOCK.advance(Duration.ofSeconds(1));
        putItems(t, 100, i -> item("hot", sk.incrementAndGet(), PAYLOAD_1KB));
        assertEquals("WARN", string(only(t, "F1"), "severity"), "1,000 WCU/s is the ceiling, not past it");
        CLOCK.advance(Duration.ofSeconds(1));
        putItems(t, 101, i -> item("hot", sk.incrementAndGet(), PAYLOAD_1KB));
        JsonNode critical = only(t, "F1");
        assertEquals("CRITICAL", string(critical, "severity"));
        assertEquals(1010, number(field(critical, "evidence", "keys").asArray().get(0), "peakUnitsPerSecond"));
    }

    @Test
    void theSameWritesOverAThousandKeysOrJustBelowHalfTheCeilingAreNotHot() {
        String spread = keyedTable("S");
        AtomicInteger n = new AtomicInteger();
        seconds(10, s -> putItems(spread, 80, i -> item("k" + (n.getAndIncrement() % 1_000), s, PAYLOAD_1KB)));
        assertEquals(List.of(), findings(server.port(), spread, "F1"));

        String below = keyedTable("S");
        AtomicInteger sk = new AtomicInteger();
        seconds(10, s -> putItems(below, 49, i -> item("hot", sk.incrementAndGet(), PAYLOAD_1KB)));
        assertEquals(List.of(), findings(server.port(), below, "F1"), "490 WCU/s is below 500");
        seconds(1, s -> putItems(below, 50, i -> item("hot", sk.incrementAndGet(), PAYLOAD_1KB)));
        assertEquals(List.of(), findings(server.port(), below, "F1"), "one second at 500 is not five");
    }

    @Test
    void writesThatFanOutToOneIndexKeyMakeTheIndexKeyHot() {
        String t = indexedTable("status");
        AtomicInteger n = new AtomicInteger();
        // 60 items a second, each its own table key, all status "open": 600 WCU/s on one index key.
        seconds(5, s -> putItems(t, 60, i -> Map.of("pk", str("u#" + n.incrementAndGet()), "status", str("open"))));

        JsonNode f1 = only(t, "F1");
        assertEquals("WARN", string(f1, "severity"));
        assertEquals("ByKey", string(f1, "indexName"));
        JsonNode key = field(f1, "evidence", "keys").asArray().get(0);
        assertEquals("open", string(key, "key", "status", "S"));
        assertEquals(600, number(key, "peakUnitsPerSecond"));
        assertEquals("BatchWriteItem PutItem: pk = :v",
                string(field(f1, "evidence", "operations").asArray().get(0), "signature"));
        assertTrue(string(f1, "summary").startsWith("Partition key status=\"open\" of index ByKey took 600 WCU/s"),
                string(f1, "summary"));
        assertEquals(List.of("bp-indexes-gsi-sharding", "bp-partition-key-sharding"),
                field(f1, "sources").asArray().stream().map(JsonNode::asString).toList());
    }

    // ---- F2 ---------------------------------------------------------------------------------------

    @Test
    void oneKeyReadStronglyAtTwoThousandUnitsASecondIsAHotPartitionKeyForReads() {
        String t = keyedTable("S");
        putItems(t, 100, i -> item("hot", i, PAYLOAD_4KB));
        CLOCK.advance(Duration.ofSeconds(10));
        // 200 strongly consistent reads of 4 KB a second (2,000 RCU/s projected), for 10 s.
        seconds(10, s -> readItems(t, 2, b -> "hot", 100));

        JsonNode f2 = only(t, "F2");
        assertEquals("WARN", string(f2, "severity"));
        JsonNode key = field(f2, "evidence", "keys").asArray().get(0);
        assertEquals("hot", string(key, "key", "pk", "S"));
        assertEquals(2_000, number(key, "peakUnitsPerSecond"));
        assertEquals(10, field(key, "timeline").asArray().size());
        assertEquals("BatchGetItem GetItem: pk = :v AND sk = :v | consistent",
                string(field(f2, "evidence", "operations").asArray().get(0), "signature"));

        CLOCK.advance(Duration.ofSeconds(1));
        readItems(t, 4, b -> "hot", 100);
        JsonNode critical = only(t, "F2");
        assertEquals("CRITICAL", string(critical, "severity"), "4,000 RCU/s is past 3,000");
    }

    @Test
    void theSameReadsOverAThousandKeysAreNotHot() {
        String t = keyedTable("S");
        seconds(4, s -> putItems(t, 250, i -> item("k" + (s * 250 + i), 0, PAYLOAD_4KB)));
        CLOCK.advance(Duration.ofSeconds(10));
        AtomicInteger batch = new AtomicInteger();
        seconds(10, s -> {
            int b = batch.getAndIncrement() % 5;
            readItems(t, 2, c -> "k" + ((b * 2 + c) * 100), 100);
        });
        assertEquals(List.of(), findings(server.port(), t, "F2"));
    }

    // ---- F3 ---------------------------------------------------------------------------------------

    @Test
    void oneCounterUpdatedSixHundredTimesASecondIsAHotItemAndACounter() {
        String t = hashTable("counters-");
        seconds(5, s -> {
            for (int i = 0; i < 60; i++) increment(t, "hits");
        });

        JsonNode f3 = only(t, "F3");
        assertEquals("WARN", string(f3, "severity"));
        assertTrue(field(f3, "evidence", "counter").asBoolean());
        assertEquals("UpdateItem: pk = :v | update: ADD n",
                field(f3, "evidence", "counterSignatures").asArray().get(0).asString());
        JsonNode item = field(f3, "evidence", "items").asArray().get(0);
        assertEquals("hits", string(item, "key", "pk", "S"));
        assertEquals(1_800, number(item, "peakUnitsPerSecond"), "600 writes a second, 3 units each");
        assertEquals(5, field(item, "timeline").asArray().size());
        assertTrue(string(f3, "fix").startsWith("The item is a counter"));
    }

    @Test
    void sixHundredUpdatesASecondOverSixHundredItemsHaveNoHotItem() {
        String t = hashTable("counters-");
        seconds(5, s -> {
            for (int i = 0; i < 60; i++) increment(t, "c" + i);
        });
        assertEquals(List.of(), findings(server.port(), t, "F3"));
        // The edge: 490 writes a second (1,470 units) on one item is below 1,500.
        String below = hashTable("counters-");
        seconds(5, s -> {
            for (int i = 0; i < 49; i++) increment(below, "hits");
        });
        assertEquals(List.of(), findings(server.port(), below, "F3"));
    }

    // ---- F4 ---------------------------------------------------------------------------------------

    @Test
    void fiftyKeysOfOneModelledPartitionAtThirtyWritesASecondEachMakeItHot() {
        String t = keyedTable("S");
        List<JsonNode> partitions = partitions(t);
        long last = Long.parseUnsignedLong(string(partitions.get(0), "lastHash"), 16);
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < 50; i++) {
            if (Long.compareUnsigned(PartitionHash.DYNAMODB.of(new io.stator.core.model.AttributeValue.S("k" + i)), last) <= 0) {
                keys.add("k" + i);
            }
        }
        // 3 writes a second per key (30 WCU/s projected), 1,500 WCU/s on the partition.
        AtomicInteger sk = new AtomicInteger();
        seconds(6, s -> putItems(t, 150, i -> item(keys.get(i % 50), sk.incrementAndGet(), "v")));

        JsonNode f4 = only(t, "F4");
        assertEquals("WARN", string(f4, "severity"));
        assertTrue(field(f4, "evidence", "modelled").asBoolean());
        assertEquals("0000000000000000", string(f4, "evidence", "firstHash"));
        assertEquals(string(partitions.get(0), "lastHash"), string(f4, "evidence", "lastHash"));
        assertEquals(1_500, number(f4, "evidence", "peakWriteUnitsPerSecond"));
        assertEquals(1.5, number(f4, "evidence", "peakCeilingShare"));
        List<JsonNode> listed = field(f4, "evidence", "keys").asArray();
        assertEquals(50, number(f4, "evidence", "keysListed"));
        Set<String> listedKeys = new HashSet<>();
        for (JsonNode k : listed) {
            listedKeys.add(string(k, "key", "pk", "S"));
            assertEquals(18, number(k, "observedWriteUnits"), "3 writes a second for 6 s");
        }
        assertEquals(new HashSet<>(keys), listedKeys, "the partition's keys, all 50");
        assertTrue(string(f4, "summary").startsWith("Modelled partition 0000000000000000-"), string(f4, "summary"));
        assertEquals(List.of(), findings(server.port(), t, "F1"), "no key of it is hot");
    }

    @Test
    void fiftyKeysSpreadOverThePartitionsAtTheSameTotalAreNot() {
        String t = keyedTable("S");
        List<JsonNode> partitions = partitions(t);
        long[] starts = new long[partitions.size()];
        for (int p = 0; p < starts.length; p++) starts[p] = Long.parseUnsignedLong(string(partitions.get(p), "firstHash"), 16);
        int[] perPartition = new int[starts.length];
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < 50; i++) {
            long hash = PartitionHash.DYNAMODB.of(new io.stator.core.model.AttributeValue.S("k" + i));
            int p = 0;
            while (p + 1 < starts.length && Long.compareUnsigned(starts[p + 1], hash) <= 0) p++;
            if (perPartition[p] < 13) {
                perPartition[p]++;
                keys.add("k" + i);
            }
        }
        AtomicInteger sk = new AtomicInteger();
        seconds(6, s -> putItems(t, 150, i -> item(keys.get(i % 50), sk.incrementAndGet(), "v")));
        assertEquals(List.of(), findings(server.port(), t, "F4"));
    }

    // ---- F5 and F9 --------------------------------------------------------------------------------

    @Test
    void aStatusIndexOfThreeValuesAtFifteenHundredWritesASecondIsSkewed() {
        String t = indexedTable("status");
        AtomicInteger n = new AtomicInteger();
        String[] statuses = {"open", "pending", "closed"};
        seconds(3, s -> putItems(t, 150, i -> {
            int k = n.getAndIncrement();
            return Map.of("pk", str("u#" + k), "status", str(statuses[k % 3]), "userId", str("user" + k));
        }));

        JsonNode f9 = only(t, "F9");
        assertEquals("WARN", string(f9, "severity"));
        assertEquals("ByKey", string(f9, "indexName"));
        assertEquals(3, number(f9, "evidence", "distinctValues"));
        assertEquals(1_500, number(f9, "evidence", "peakWriteUnitsPerSecond"));
        List<JsonNode> values = field(f9, "evidence", "topValues").asArray();
        assertEquals(3, values.size());
        Set<String> seen = new HashSet<>();
        for (JsonNode v : values) {
            seen.add(string(v, "key", "status", "S"));
            assertEquals(1 / 3.0, number(v, "share"), 0.01);
        }
        assertEquals(Set.of(statuses), seen);
        assertEquals(0, number(f9, "evidence", "throttledTableWrites"));
        assertTrue(string(f9, "summary").startsWith("Partition key status of index ByKey had 3 distinct values"),
                string(f9, "summary"));
        assertEquals(List.of(), findings(server.port(), t, "F5"), "the table's own key has a value per item");
    }

    @Test
    void aUserIndexOfTenThousandValuesAtTheSameRateIsNot() {
        String t = indexedTable("userId");
        AtomicInteger n = new AtomicInteger();
        seconds(3, s -> putItems(t, 150, i -> {
            int k = n.getAndIncrement();
            return Map.of("pk", str("u#" + k), "status", str("open"), "userId", str("user" + (k * 7_919 % 10_000)));
        }));
        assertEquals(List.of(), findings(server.port(), t, "F9"));
        assertEquals(List.of(), findings(server.port(), t, "F5"));
    }

    @Test
    void aTableKeyOfFewValuesIsLowCardinalityOnlyPastOnePartitionsLoad() {
        // Three values at 1,000 WCU/s: one partition serves it (the edge); at 1,010 it does not.
        String edge = keyedTable("S");
        AtomicInteger n = new AtomicInteger();
        seconds(1, s -> putItems(edge, 100, i -> item("s" + (i % 3), n.incrementAndGet(), "v")));
        assertEquals(List.of(), findings(server.port(), edge, "F5"));
        String past = keyedTable("S");
        seconds(1, s -> putItems(past, 101, i -> item("s" + (i % 3), n.incrementAndGet(), "v")));
        JsonNode f5 = only(past, "F5");
        assertEquals("WARN", string(f5, "severity"));
        assertEquals(3, number(f5, "evidence", "distinctValues"));
        assertEquals(1_010, number(f5, "evidence", "peakWriteUnitsPerSecond"));
        assertEquals(3, field(f5, "evidence", "topValues").asArray().size());

        // 99 values with none over 25%: still too few; 100 values: enough.
        String ninetyNine = keyedTable("S");
        seconds(1, s -> putItems(ninetyNine, 150, i -> item("v" + (i % 99), n.incrementAndGet(), "v")));
        assertEquals(99, number(only(ninetyNine, "F5"), "evidence", "distinctValues"));
        String hundred = keyedTable("S");
        seconds(1, s -> putItems(hundred, 150, i -> item("v" + (i % 100), n.incrementAndGet(), "v")));
        assertEquals(List.of(), findings(server.port(), hundred, "F5"));
    }

    @Test
    void anIndexThatThrottlesItsTablesWritesIsCriticalBackPressure() {
        // The test server only reports throughput; this table enforces it (its stator:throughput tag).
        String t = "keys-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(t).billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(p -> p.readCapacityUnits(100L).writeCapacityUnits(1_000L))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("status").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .globalSecondaryIndexes(g -> g.indexName("ByKey").keySchema(k -> k.attributeName("status").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.ALL))
                        .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L)))
                .tags(g -> g.key("stator:throughput").value("enforce")));
        // The index's 1 WCU banks 300 s of burst: 4 KB entries drain it within a hundred writes.
        int throttled = 0;
        for (int i = 0; i < 120; i++) {
            int k = i;
            try {
                dynamo.putItem(b -> b.tableName(t).item(Map.of("pk", str("p" + k), "status", str("open"),
                        "payload", str(PAYLOAD_4KB))));
            } catch (ProvisionedThroughputExceededException e) {
                throttled++;
            }
        }
        assertTrue(throttled > 0, "the index throttled some writes");

        JsonNode f9 = only(t, "F9");
        assertEquals("CRITICAL", string(f9, "severity"));
        assertEquals("ByKey", string(f9, "indexName"));
        assertEquals(throttled, number(f9, "evidence", "throttledTableWrites"));
        assertTrue(field(f9, "evidence", "throttlingReasons").field("IndexWriteProvisionedThroughputExceeded").isPresent(),
                field(f9, "evidence").toString());
        JsonNode event = field(f9, "evidence", "throttledWrites").asArray().get(0);
        assertEquals("PutItem: pk = :v", string(event, "signature"));
        assertTrue(string(f9, "summary").contains("Index ByKey throttled " + throttled + " of its table's writes"),
                string(f9, "summary"));
    }

    // ---- F6 ---------------------------------------------------------------------------------------

    @Test
    void todaysDateAsTheKeyAcrossTwoMidnightsIsATimeBucketKey() {
        String t = keyedTable("S");
        String uuids = keyedTable("S");
        AtomicInteger sk = new AtomicInteger();
        Runnable burst = () -> seconds(3, s -> {
            String today = LocalDate.ofInstant(CLOCK.instant(), ZoneOffset.UTC).toString();
            putItems(t, 50, i -> item(today, sk.incrementAndGet(), "v"));
            putItems(uuids, 50, i -> item(UUID.randomUUID().toString(), 0, "v"));
        });
        LocalDate day = LocalDate.ofInstant(CLOCK.instant(), ZoneOffset.UTC);
        CLOCK.set(day.atTime(23, 59, 50).toInstant(ZoneOffset.UTC));
        burst.run();
        CLOCK.set(day.plusDays(1).atTime(0, 0, 5).toInstant(ZoneOffset.UTC));
        burst.run();
        assertEquals(List.of(), findings(server.port(), t, "F6"), "one midnight: the hot value changed once");
        // Seventy minutes of the day's traffic: the first midnight's minutes leave the 60 minutes kept,
        // their leads do not.
        for (int m = 1; m <= 70; m++) {
            CLOCK.set(day.plusDays(1).atStartOfDay().plusMinutes(m).toInstant(ZoneOffset.UTC));
            putItems(t, 5, i -> item(day.plusDays(1).toString(), sk.incrementAndGet(), "v"));
        }
        CLOCK.set(day.plusDays(1).atTime(23, 59, 50).toInstant(ZoneOffset.UTC));
        burst.run();
        CLOCK.set(day.plusDays(2).atTime(0, 0, 5).toInstant(ZoneOffset.UTC));
        burst.run();

        JsonNode f6 = only(t, "F6");
        assertEquals("WARN", string(f6, "severity"));
        assertEquals(2, number(f6, "evidence", "rotations"));
        assertTrue(field(f6, "evidence", "dateLike").asBoolean());
        List<String> sequence = field(f6, "evidence", "sequence").asArray().stream()
                .map(v -> string(v, "key", "pk", "S")).toList();
        assertEquals(List.of(day.toString(), day.plusDays(1).toString(), day.plusDays(2).toString()), sequence);
        assertEquals(List.of(), findings(server.port(), uuids, "F6"), "PK = UUID");
    }

    // ---- the workloads --------------------------------------------------------------------------

    /** Runs {@code body} in {@code n} consecutive test-seconds (the clock left in the last one). */
    private static void seconds(int n, java.util.function.IntConsumer body) {
        for (int s = 0; s < n; s++) {
            if (s > 0) CLOCK.advance(Duration.ofSeconds(1));
            body.accept(s);
        }
    }

    /** A table with pk (of {@code type}) and a numeric sort key sk, on demand. */
    private String keyedTable(String type) {
        String name = "keys-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(type),
                        a -> a.attributeName("sk").attributeType("N"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE")));
        return name;
    }

    /** A table with only a partition key pk (S), on demand. */
    private String hashTable(String prefix) {
        String name = "keys-" + prefix + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH")));
        return name;
    }

    /** A table keyed by pk with a global index ByKey on {@code attribute}, on demand. */
    private String indexedTable(String attribute) {
        String name = "keys-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName(attribute).attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .globalSecondaryIndexes(g -> g.indexName("ByKey").keySchema(k -> k.attributeName(attribute).keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
        return name;
    }

    private static AttributeValue str(String v) {
        return AttributeValue.fromS(v);
    }

    private static Map<String, AttributeValue> item(String pk, int sk, String payload) {
        return Map.of("pk", str(pk), "sk", AttributeValue.fromN(Integer.toString(sk)), "payload", str(payload));
    }

    /** {@code count} items, 25 to a BatchWriteItem. */
    private void putItems(String table, int count, IntFunction<Map<String, AttributeValue>> item) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < count; i++) items.add(item.apply(i));
        batchPut(table, items);
    }

    private void batchPut(String table, List<Map<String, AttributeValue>> items) {
        for (int from = 0; from < items.size(); from += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (Map<String, AttributeValue> it : items.subList(from, Math.min(items.size(), from + 25))) {
                batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(it).build()).build());
            }
            var r = dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, batch)));
            assertTrue(r.unprocessedItems().isEmpty(), "nothing throttled: " + r.unprocessedItems());
        }
    }

    /**
     * {@code batches} strongly consistent BatchGetItems of {@code size} items: batch {@code b}
     * reads partition key {@code pk(b)}, its sort keys 0 to size - 1 (or sort key 0 of
     * {@code size} consecutive keys when the key ends in a number).
     */
    private void readItems(String table, int batches, IntFunction<String> pk, int size) {
        for (int b = 0; b < batches; b++) {
            String key = pk.apply(b);
            List<Map<String, AttributeValue>> keys = new ArrayList<>();
            if (key.equals("hot")) {
                for (int i = 0; i < size; i++) keys.add(Map.of("pk", str("hot"), "sk", AttributeValue.fromN(Integer.toString(i))));
            } else {
                int first = Integer.parseInt(key.substring(1));
                for (int i = 0; i < size; i++) keys.add(Map.of("pk", str("k" + (first + i)), "sk", AttributeValue.fromN("0")));
            }
            var r = dynamo.batchGetItem(g -> g.requestItems(Map.of(table,
                    KeysAndAttributes.builder().keys(keys).consistentRead(true).build())));
            assertEquals(size, r.responses().get(table).size());
        }
    }

    private void increment(String table, String pk) {
        dynamo.updateItem(b -> b.tableName(table).key(Map.of("pk", str(pk))).updateExpression("ADD n :one")
                .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
    }

    private static List<JsonNode> partitions(String table) {
        List<JsonNode> p = field(AdvisorApi.get(server.port(), "/stator/advisor/partitions?table=" + table), "partitions")
                .asArray();
        assertEquals(4, p.size(), "a new on-demand table: 4 modelled partitions");
        return p;
    }

    /** The one finding of {@code id} on {@code table}. */
    private static JsonNode only(String table, String id) {
        List<JsonNode> found = findings(server.port(), table, id);
        assertEquals(1, found.size(), id + " on " + table + ": " + findings(server.port(), table));
        return found.get(0);
    }
}
