package io.stator.server.advisor;

import static io.stator.server.testing.AdvisorApi.field;
import static io.stator.server.testing.AdvisorApi.number;
import static io.stator.server.testing.AdvisorApi.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.AdvisorApi;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The access-pattern findings of advisor.md section 6 (F7, F8, F10 to F14), each with the
 * workload that must trigger it and the one that must not (6.2), through the SDK to a real server
 * and back through GET /stator/advisor/findings. The clock is stopped: every request between two
 * advances falls in one second.
 *
 * <p>Scaled down (the server runs at --advisor-scale 10): F7's 10,000-item table is 1,000 items
 * here, projected to 10,000 (the "> 1,000 items" threshold is judged on the item count times the
 * scale). F13's collection of 20,000 items is 2,000 items of 1 KB: the same 2 MB, so the Query
 * without a sort-key condition still reads full 1 MB pages of it.
 */
class PatternFindingsTest {

    private static final TestClock CLOCK = new TestClock();
    private static final AtomicInteger UNIQUE = new AtomicInteger();
    private static final double SCALE = 10;

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK).withAdvisorScale(SCALE));

    private DynamoDbClient dynamo;

    @BeforeEach
    void stopTheClock() {
        CLOCK.set(Instant.parse("2026-07-01T00:00:00Z").plus(Duration.ofHours(UNIQUE.incrementAndGet())));
        dynamo = server.client();
    }

    @AfterAll
    static void followSystemTime() {
        CLOCK.useSystemTime();
    }

    // ---- F7 --------------------------------------------------------------------------------------

    @Test
    void f7ScanWithFilterFiveTimesASecondForThirtySecondsIsAWarning() {
        String t = table(b -> {});
        load(t, 1_000, i -> item("p" + i, 0, "status", i % 10 == 0 ? "open" : "closed"));
        for (int second = 0; second < 30; second++) {
            for (int i = 0; i < 5; i++) scanOpen(t);
            CLOCK.advance(Duration.ofSeconds(1));
        }
        JsonNode f = only(t, "F7");
        assertEquals("WARN", string(f, "severity"));
        assertEquals("Scan | filter: status", string(f, "evidence", "signature"));
        assertEquals(150, number(f, "evidence", "calls"));
        assertEquals(5, number(f, "evidence", "callsPerSecond", "average"), 1e-9);
        assertEquals(50, number(f, "evidence", "projectedCallsPerSecond"), 1e-9);
        assertEquals(1_000, number(f, "evidence", "scannedCountPerCall"), 1e-9);
        assertEquals(100, number(f, "evidence", "countPerCall"), 1e-9);
        assertEquals(10_000, number(f, "evidence", "projectedTableItems"), 1e-9);
        assertEquals(List.of("status"), strings(field(f, "evidence", "filter")));
        assertTrue(string(f, "summary").startsWith("Scan \"Scan | filter: status\" runs 5.0 times a second"),
                string(f, "summary"));
        assertTrue(number(f, "dollarsPerMonth") > 0);
        assertEquals(List.of("bp-query-scan", "bp-indexes-general-sparse-indexes"), strings(field(f, "sources")));
    }

    @Test
    void f7OneScanAMinuteBesideKeyedReadsIsOnlyTheInfoOfALargeTable() {
        String t = table(b -> {});
        load(t, 1_000, i -> item("p" + i, 0, "status", "closed"));
        for (int minute = 0; minute < 3; minute++) {
            scanOpen(t);
            getAll(t, 300);
            CLOCK.advance(Duration.ofMinutes(1));
        }
        JsonNode f = only(t, "F7");
        assertEquals("INFO", string(f, "severity"), f.toString());
        assertEquals(3, number(f, "evidence", "calls"));
        assertTrue(number(f, "evidence", "shareOfReadUnits") < 0.10, f.toString());
        assertTrue(!field(f, "evidence", "sustained").asBoolean());
    }

    @Test
    void f7ScanOfASmallTableIsNothing() {
        String t = table(b -> {});
        // 100 items, projected 1,000: not more than 1,000.
        load(t, 100, i -> item("p" + i, 0, "status", "closed"));
        scanOpen(t);
        getAll(t, 100);
        assertEquals(List.of(), AdvisorApi.findings(server.port(), t, "F7"));
    }

    @Test
    void f7PartiqlSelectWithoutAKeyIsAScan() {
        String t = table(b -> {});
        load(t, 200, i -> item("p" + i, 0, "status", "closed"));
        for (int second = 0; second < 10; second++) {
            dynamo.executeStatement(b -> b.statement("SELECT * FROM \"" + t + "\" WHERE status = 'open'"));
            CLOCK.advance(Duration.ofSeconds(1));
        }
        JsonNode f = only(t, "F7");
        assertEquals("WARN", string(f, "severity"), "1 a second projected to 10, for 10 s");
        assertTrue(field(f, "evidence", "partiql").asBoolean());
    }

    // ---- F8 --------------------------------------------------------------------------------------

    @Test
    void f8QueryKeepingOneOfAHundredFiftyTimesIsAWarning() {
        String t = table(b -> {});
        load(t, 100, i -> item("c", i, "status", i == 7 ? "open" : "closed"));
        for (int i = 0; i < 50; i++) queryOpen(t, "c");
        JsonNode f = only(t, "F8");
        assertEquals("WARN", string(f, "severity"));
        assertEquals("Query: pk = :v AND sk >= :v | filter: status", string(f, "evidence", "signature"));
        assertEquals(5_000, number(f, "evidence", "scannedCount"));
        assertEquals(50, number(f, "evidence", "count"));
        assertEquals(0.01, number(f, "evidence", "keptShare"), 1e-9);
        double paid = number(f, "evidence", "readUnitsPaid");
        assertEquals(paid * 0.99, number(f, "evidence", "readUnitsWasted"), 0.01);
        assertTrue(number(f, "dollarsPerMonth") > 0);
    }

    @Test
    void f8QueryKeepingNinetyOfAHundredIsNothing() {
        String t = table(b -> {});
        load(t, 100, i -> item("c", i, "status", i < 90 ? "open" : "closed"));
        for (int i = 0; i < 50; i++) queryOpen(t, "c");
        assertEquals(List.of(), AdvisorApi.findings(server.port(), t, "F8"));
    }

    @Test
    void f8ThresholdsAtTheirEdges() {
        // Kept 10% over exactly 20 requests: a warning; 11%: information; 51%: nothing; 19 requests: nothing.
        assertEquals("WARN", f8Severity(10, 20));
        assertEquals("INFO", f8Severity(11, 20));
        assertEquals("INFO", f8Severity(50, 20));
        assertEquals(null, f8Severity(51, 20));
        assertEquals(null, f8Severity(10, 19));
    }

    private String f8Severity(int kept, int requests) {
        String t = table(b -> {});
        load(t, 100, i -> item("c", i, "status", i < kept ? "open" : "closed"));
        for (int i = 0; i < requests; i++) queryOpen(t, "c");
        List<JsonNode> found = AdvisorApi.findings(server.port(), t, "F8");
        return found.isEmpty() ? null : string(found.get(0), "severity");
    }

    // ---- F10 -------------------------------------------------------------------------------------

    @Test
    void f10UpdatesMovingAKeyOfFourAllProjectedIndexesAreAWarning() {
        String t = table(b -> b.attributeDefinitions(attr("pk", "S"), attr("sk", "N"), attr("g1", "S"), attr("g2", "S"),
                        attr("g3", "S"), attr("g4", "S"))
                .globalSecondaryIndexes(gsi("Gsi1", "g1", ProjectionType.ALL), gsi("Gsi2", "g2", ProjectionType.ALL),
                        gsi("Gsi3", "g3", ProjectionType.ALL), gsi("Gsi4", "g4", ProjectionType.ALL)));
        String padding = "x".repeat(3_000);
        load(t, 10, i -> Map.of("pk", s("p" + i), "sk", n(0), "g1", s("a"), "g2", s("b" + i), "g3", s("c" + i),
                "g4", s("d" + i), "body", s(padding)));
        for (int round = 1; round <= 2; round++) {
            for (int i = 0; i < 10; i++) {
                int item = i;
                String value = "a" + round;
                dynamo.updateItem(b -> b.tableName(t).key(Map.of("pk", s("p" + item), "sk", n(0)))
                        .updateExpression("SET g1 = :v").expressionAttributeValues(Map.of(":v", s(value))));
            }
        }
        JsonNode f = AdvisorApi.findings(server.port(), t, "F10").stream()
                .filter(x -> string(x, "evidence", "signature").equals("UpdateItem: pk = :v AND sk = :v | update: SET g1"))
                .findFirst().orElseThrow(() -> new AssertionError(AdvisorApi.findings(server.port(), t)));
        assertEquals("WARN", string(f, "severity"));
        // 3 units on the table; Gsi1 moved (a delete and a put, 3 + 3), Gsi2 to Gsi4 rewritten (3 each).
        assertEquals(6, number(f, "evidence", "amplification"), 1e-9);
        assertEquals(3, number(f, "evidence", "tableWriteUnitsPerCall"), 1e-9);
        assertEquals(6, number(f, "evidence", "indexes", "Gsi1", "writeUnitsPerCall"), 1e-9);
        assertEquals(3, number(f, "evidence", "indexes", "Gsi2", "writeUnitsPerCall"), 1e-9);
        assertEquals(1, number(f, "evidence", "indexes", "Gsi1", "keyMoveShare"), 1e-9);
        assertEquals(20, number(f, "evidence", "indexes", "Gsi1", "movedAttributes", "g1"));
        assertEquals(List.of("Gsi1"), strings(field(f, "evidence", "keyMovingIndexes")));
        assertTrue(number(f, "evidence", "indexes", "Gsi1", "dollarsPerMonth") > 0);
        assertTrue(string(f, "summary").contains("the key of Gsi1 moved on 100% of its writes (g1)"), string(f, "summary"));
    }

    @Test
    void f10UpdatesThatTouchNoIndexOfAKeysOnlyIndexAreNothing() {
        String t = table(b -> b.attributeDefinitions(attr("pk", "S"), attr("sk", "N"), attr("g1", "S"))
                .globalSecondaryIndexes(gsi("Gsi1", "g1", ProjectionType.KEYS_ONLY)));
        String padding = "x".repeat(3_000);
        load(t, 10, i -> Map.of("pk", s("p" + i), "sk", n(0), "g1", s("a" + i), "body", s(padding)));
        for (int round = 1; round <= 2; round++) {
            for (int i = 0; i < 10; i++) {
                int item = i;
                String value = padding + round;
                dynamo.updateItem(b -> b.tableName(t).key(Map.of("pk", s("p" + item), "sk", n(0)))
                        .updateExpression("SET body = :v").expressionAttributeValues(Map.of(":v", s(value))));
            }
        }
        assertEquals(List.of(), AdvisorApi.findings(server.port(), t, "F10"));
    }

    // ---- F11 -------------------------------------------------------------------------------------

    @Test
    void f11AnIndexWrittenAThousandTimesAndNeverReadIsUnused() {
        String t = table(b -> b.attributeDefinitions(attr("pk", "S"), attr("sk", "N"), attr("g1", "S"))
                .globalSecondaryIndexes(gsi("Gsi1", "g1", ProjectionType.ALL)));
        // 1,000 writes over 5 minutes: the table has had traffic long enough (from its first call to its last).
        for (int minute = 0; minute <= 5; minute++) {
            int base = minute * 200;
            load(t, minute == 5 ? 1 : 200, i -> Map.of("pk", s("p" + (base + i)), "sk", n(0), "g1", s("v" + i)));
            if (minute < 5) CLOCK.advance(Duration.ofMinutes(1));
        }
        JsonNode f = only(t, "F11");
        assertEquals("INFO", string(f, "severity"));
        assertEquals("Gsi1", string(f, "indexName"));
        assertEquals("Unused global secondary index", string(f, "title"));
        assertEquals(1_001, number(f, "evidence", "entriesWritten"));
        assertEquals(0, number(f, "evidence", "reads"));
        assertTrue(number(f, "evidence", "indexSizeBytes") > 0);
        assertTrue(number(f, "dollarsPerMonth") > 0);
    }

    @Test
    void f11AnIndexNotYetWrittenForFiveMinutesIsNotCalledUnused() {
        String t = table(b -> b.attributeDefinitions(attr("pk", "S"), attr("sk", "N"), attr("g1", "S"))
                .globalSecondaryIndexes(gsi("Gsi1", "g1", ProjectionType.ALL)));
        load(t, 100, i -> Map.of("pk", s("p" + i), "sk", n(0), "g1", s("v" + i)));
        CLOCK.advance(Duration.ofSeconds(298));
        load(t, 1, i -> Map.of("pk", s("last"), "sk", n(0), "g1", s("v")));
        assertEquals(List.of(), AdvisorApi.findings(server.port(), t, "F11"), "299 s of traffic");
        CLOCK.advance(Duration.ofSeconds(1));
        load(t, 1, i -> Map.of("pk", s("last"), "sk", n(1), "g1", s("v")));
        assertEquals(1, AdvisorApi.findings(server.port(), t, "F11").size(), "300 s of traffic");
    }

    @Test
    void f11AnAllProjectionReadForTwoAttributesIsOverProjected() {
        String t = table(b -> b.attributeDefinitions(attr("pk", "S"), attr("sk", "N"), attr("g1", "S"))
                .globalSecondaryIndexes(gsi("Gsi1", "g1", ProjectionType.ALL)));
        String padding = "x".repeat(2_000);
        load(t, 50, i -> Map.of("pk", s("p" + i), "sk", n(0), "g1", s("v" + (i % 5)), "a", s("a"), "b", s("b"),
                "body", s(padding)));
        for (int i = 0; i < 20; i++) {
            int v = i % 5;
            dynamo.query(b -> b.tableName(t).indexName("Gsi1").keyConditionExpression("g1 = :v")
                    .projectionExpression("a, b").expressionAttributeValues(Map.of(":v", s("v" + v))));
        }
        JsonNode f = only(t, "F11");
        assertEquals("WARN", string(f, "severity"));
        assertEquals("Over-projected global secondary index", string(f, "title"));
        assertEquals(List.of("a", "b"), strings(field(f, "evidence", "attributesRead")));
        assertTrue(number(f, "evidence", "maxEntryBytes") > 2_000);
        assertTrue(string(f, "fix").contains("INCLUDE a, b"), string(f, "fix"));
    }

    @Test
    void f11AnIndexReadOnEveryRequestIsNothing() {
        String t = table(b -> b.attributeDefinitions(attr("pk", "S"), attr("sk", "N"), attr("g1", "S"))
                .globalSecondaryIndexes(gsi("Gsi1", "g1", ProjectionType.ALL)));
        String padding = "x".repeat(2_000);
        for (int minute = 0; minute <= 5; minute++) {
            int base = minute * 20;
            load(t, 20, i -> Map.of("pk", s("p" + (base + i)), "sk", n(0), "g1", s("v" + i), "body", s(padding)));
            for (int i = 0; i < 20; i++) {
                int v = i;
                dynamo.query(b -> b.tableName(t).indexName("Gsi1").keyConditionExpression("g1 = :v")
                        .expressionAttributeValues(Map.of(":v", s("v" + v))));
            }
            CLOCK.advance(Duration.ofMinutes(1));
        }
        assertEquals(List.of(), AdvisorApi.findings(server.port(), t, "F11"));
    }

    // ---- F12 -------------------------------------------------------------------------------------

    @Test
    void f12ItemsOf380KbAreCritical() {
        String t = table(b -> {});
        for (int i = 0; i < 3; i++) putSized(t, "big" + i, 380 * 1024);
        JsonNode f = only(t, "F12");
        assertEquals("CRITICAL", string(f, "severity"));
        assertEquals(380 * 1024, number(f, "evidence", "largestItemBytes"));
        List<JsonNode> largest = field(f, "evidence", "largestItems").asArray();
        assertEquals(3, largest.size());
        assertEquals(380 * 1024, number(largest.get(0), "bytes"));
        assertTrue(string(largest.get(0), "key", "pk", "S").startsWith("big"));
        assertEquals(3, number(f, "evidence", "sizeHistogram", "256 KB and more"));
        assertEquals(List.of("bp-use-s3-too", "ServiceQuotas"), strings(field(f, "sources")));
    }

    @Test
    void f12SizesAtTheEdges() {
        assertEquals(null, f12Severity(100 * 1024 - 1));
        assertEquals("WARN", f12Severity(100 * 1024));
        assertEquals("WARN", f12Severity(350 * 1024 - 1));
        assertEquals("CRITICAL", f12Severity(350 * 1024));
    }

    private String f12Severity(int bytes) {
        String t = table(b -> {});
        putSized(t, "k", bytes);
        List<JsonNode> found = AdvisorApi.findings(server.port(), t, "F12");
        return found.isEmpty() ? null : string(found.get(0), "severity");
    }

    @Test
    void f12ItemsOf2KbAreNothing() {
        String t = table(b -> {});
        for (int i = 0; i < 20; i++) putSized(t, "small" + i, 2 * 1024);
        assertEquals(List.of(), AdvisorApi.findings(server.port(), t, "F12"));
    }

    @Test
    void f12GetItemOfTwoAttributesOfA20KbItemIsInformation() {
        String t = table(b -> {});
        putSized(t, "wide", 20 * 1024);
        for (int i = 0; i < 5; i++) {
            dynamo.getItem(b -> b.tableName(t).key(Map.of("pk", s("wide"), "sk", n(0))).projectionExpression("pk, sk"));
        }
        JsonNode f = only(t, "F12");
        assertEquals("INFO", string(f, "severity"));
        assertEquals(List.of("pk", "sk"), strings(field(f, "evidence", "projection")));
        assertEquals(2.5, number(f, "evidence", "readUnitsPerCall"), 1e-9, "20 KB eventually consistent");
        // A whole-item GetItem of the same item is no such finding.
        String u = table(b -> {});
        putSized(u, "wide", 20 * 1024);
        dynamo.getItem(b -> b.tableName(u).key(Map.of("pk", s("wide"), "sk", n(0))));
        assertEquals(List.of(), AdvisorApi.findings(server.port(), u, "F12"));
    }

    // ---- F13 -------------------------------------------------------------------------------------

    @Test
    void f13ACollectionGrowingEveryMinuteReadWithoutASortKeyConditionIsAWarning() {
        String t = table(b -> {});
        String padding = "x".repeat(1_000);
        for (int minute = 0; minute < 5; minute++) {
            int base = minute * 400;
            load(t, 400, i -> Map.of("pk", s("device"), "sk", n(base + i), "body", s(padding)));
            assertEquals(base + 400, queryAll(t, "device"));
            CLOCK.advance(Duration.ofMinutes(1));
        }
        JsonNode f = only(t, "F13");
        assertEquals("WARN", string(f, "severity"));
        assertEquals("device", string(f, "evidence", "key", "pk", "S"));
        assertEquals(2_000, number(f, "evidence", "itemsAdded"));
        List<JsonNode> timeline = field(f, "evidence", "collectionOverTime").asArray();
        assertEquals(6, timeline.size(), "its five minutes of growth, and the minute open now");
        assertEquals(400, number(timeline.get(0), "itemsAddedSoFar"));
        assertEquals(2_000, number(timeline.get(4), "itemsAddedSoFar"));
        assertEquals(0, number(timeline.get(5), "itemsAdded"));
        assertTrue(string(f, "summary").contains("grew by 2,000 items"), string(f, "summary"));
        JsonNode reader = field(f, "evidence", "unboundedQueries").asArray().get(0);
        assertEquals("Query: pk = :v", string(reader, "signature"));
        assertTrue(number(reader, "maxBytesPerCall") >= (1 << 20) * 0.95, reader.toString());
    }

    @Test
    void f13BoundedCollectionsOfAHundredItemsAreNothing() {
        String t = table(b -> {});
        String padding = "x".repeat(1_000);
        for (int minute = 0; minute < 5; minute++) {
            int collection = minute;
            load(t, 100, i -> Map.of("pk", s("c" + collection), "sk", n(i), "body", s(padding)));
            for (int c = 0; c <= minute; c++) assertEquals(100, queryAll(t, "c" + c));
            CLOCK.advance(Duration.ofMinutes(1));
        }
        assertEquals(List.of(), AdvisorApi.findings(server.port(), t, "F13"));
    }

    @Test
    void f13WithALocalIndexACollectionProjectedPastFiveGbIsAWarning() {
        // 2 MB at --advisor-scale 4,000 is 8 GB; 100 KB is 400 MB.
        try (StatorTestServer lsi = StatorTestServer.start(o -> o.withClock(CLOCK).withAdvisorScale(4_000))) {
            DynamoDbClient client = lsi.client();
            String t = "patterns-lsi-" + UNIQUE.incrementAndGet();
            client.createTable(b -> b.tableName(t).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(attr("pk", "S"), attr("sk", "N"), attr("lsk", "S"))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE"))
                    .localSecondaryIndexes(l -> l.indexName("ByLsk").keySchema(k -> k.attributeName("pk").keyType("HASH"),
                            k -> k.attributeName("lsk").keyType("RANGE")).projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
            String padding = "x".repeat(1_000);
            load(client, t, 2_000, i -> Map.of("pk", s("big"), "sk", n(i), "lsk", s("l" + i), "body", s(padding)));
            load(client, t, 100, i -> Map.of("pk", s("small"), "sk", n(i), "lsk", s("l" + i), "body", s(padding)));
            List<JsonNode> found = AdvisorApi.findings(lsi.port(), t, "F13");
            assertEquals(1, found.size(), found.toString());
            JsonNode f = found.get(0);
            assertEquals("WARN", string(f, "severity"));
            assertEquals("big", string(f, "evidence", "key", "pk", "S"));
            double size = number(f, "evidence", "collectionSizeBytes");
            assertTrue(size > 2_000_000 && size < 2_200_000, "2,000 items of about 1 KB and their index entries: " + size);
            assertEquals(size * 4_000, number(f, "evidence", "projectedCollectionSizeBytes"), 1);
        }
    }

    // ---- F14 -------------------------------------------------------------------------------------

    @Test
    void f14AllStronglyConsistentGetItemsAreInformation() {
        String t = table(b -> {});
        load(t, 10, i -> item("p" + i, 0, "status", "x"));
        for (int i = 0; i < 30; i++) get(t, "p" + (i % 10), true);
        JsonNode f = only(t, "F14");
        assertEquals("INFO", string(f, "severity"));
        assertEquals(1, number(f, "evidence", "stronglyConsistentShare"), 1e-9);
        assertEquals(30, number(f, "evidence", "stronglyConsistentReads"));
        assertEquals(15, number(f, "evidence", "readUnitsSavedAtEventualConsistency"), 1e-9);
        assertTrue(number(f, "dollarsPerMonth") > 0);
    }

    @Test
    void f14EventuallyConsistentReadsAreNothingAndHalfIsTheEdge() {
        assertEquals(null, f14Severity(0, 30));
        assertEquals("INFO", f14Severity(15, 15));
        assertEquals(null, f14Severity(14, 16));
        assertEquals(null, f14Severity(19, 0), "fewer than 20 reads");
        assertEquals("INFO", f14Severity(20, 0));
    }

    private String f14Severity(int consistent, int eventual) {
        String t = table(b -> {});
        load(t, 10, i -> item("p" + i, 0, "status", "x"));
        for (int i = 0; i < consistent; i++) get(t, "p" + (i % 10), true);
        for (int i = 0; i < eventual; i++) get(t, "p" + (i % 10), false);
        List<JsonNode> found = AdvisorApi.findings(server.port(), t, "F14");
        return found.isEmpty() ? null : string(found.get(0), "severity");
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** A pk (S) and sk (N) table on demand, adjusted (indexes, more attribute definitions). */
    private String table(Consumer<CreateTableRequest.Builder> adjust) {
        String name = "patterns-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> {
            b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(attr("pk", "S"), attr("sk", "N"))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE"));
            adjust.accept(b);
        });
        return name;
    }

    private static software.amazon.awssdk.services.dynamodb.model.AttributeDefinition attr(String name, String type) {
        return software.amazon.awssdk.services.dynamodb.model.AttributeDefinition.builder().attributeName(name)
                .attributeType(type).build();
    }

    private static GlobalSecondaryIndex gsi(String name, String key, ProjectionType projection) {
        return GlobalSecondaryIndex.builder().indexName(name).keySchema(k -> k.attributeName(key).keyType("HASH"))
                .projection(p -> p.projectionType(projection)).build();
    }

    private static Map<String, AttributeValue> item(String pk, int sk, String name, String value) {
        return Map.of("pk", s(pk), "sk", n(sk), name, s(value));
    }

    private void load(String t, int count, java.util.function.IntFunction<Map<String, AttributeValue>> items) {
        load(dynamo, t, count, items);
    }

    /** Writes {@code count} items in batches of 25. */
    private static void load(DynamoDbClient client, String t, int count,
                             java.util.function.IntFunction<Map<String, AttributeValue>> items) {
        for (int i = 0; i < count; i += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (int j = i; j < Math.min(count, i + 25); j++) {
                batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(items.apply(j)).build()).build());
            }
            Map<String, List<WriteRequest>> unprocessed = client.batchWriteItem(b -> b.requestItems(Map.of(t, batch)))
                    .unprocessedItems();
            assertTrue(unprocessed.isEmpty(), "nothing throttled in report mode");
        }
    }

    /** An item of exactly {@code bytes} by DynamoDB's size rule: names and values, "pk" + value, "sk" + 1, "d" + value. */
    private void putSized(String t, String pk, int bytes) {
        int fixed = "pk".length() + pk.length() + "sk".length() + 1 + "d".length();
        dynamo.putItem(b -> b.tableName(t).item(Map.of("pk", s(pk), "sk", n(0), "d", s("x".repeat(bytes - fixed)))));
    }

    private void scanOpen(String t) {
        dynamo.scan(b -> b.tableName(t).filterExpression("#s = :o").expressionAttributeNames(Map.of("#s", "status"))
                .expressionAttributeValues(Map.of(":o", s("open"))));
    }

    private void queryOpen(String t, String pk) {
        dynamo.query(b -> b.tableName(t).keyConditionExpression("pk = :p AND sk >= :z").filterExpression("#s = :o")
                .expressionAttributeNames(Map.of("#s", "status"))
                .expressionAttributeValues(Map.of(":p", s(pk), ":z", n(0), ":o", s("open"))));
    }

    /** Every item of a collection, page by page; the items counted. */
    private int queryAll(String t, String pk) {
        int count = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest.Builder b = QueryRequest.builder().tableName(t).keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", s(pk)));
            if (start != null) b.exclusiveStartKey(start);
            QueryResponse r = dynamo.query(b.build());
            count += r.count();
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        return count;
    }

    /** GetItems of p0 .. p{n-1} (sort key 0) in batches of 100. */
    private void getAll(String t, int n) {
        for (int i = 0; i < n; i += 100) {
            List<Map<String, AttributeValue>> keys = new ArrayList<>();
            for (int j = i; j < Math.min(n, i + 100); j++) keys.add(Map.of("pk", s("p" + (j % 1_000)), "sk", n(0)));
            Map<String, KeysAndAttributes> request = new HashMap<>();
            request.put(t, KeysAndAttributes.builder().keys(keys).build());
            dynamo.batchGetItem(b -> b.requestItems(request));
        }
    }

    private void get(String t, String pk, boolean consistent) {
        dynamo.getItem(b -> b.tableName(t).key(Map.of("pk", s(pk), "sk", n(0))).consistentRead(consistent));
    }

    /** The one finding of {@code id} on the table. */
    private static JsonNode only(String t, String id) {
        List<JsonNode> found = AdvisorApi.findings(server.port(), t, id);
        assertEquals(1, found.size(), id + " of " + t + ": " + AdvisorApi.findings(server.port(), t));
        return found.get(0);
    }

    private static List<String> strings(JsonNode array) {
        return array.asArray().stream().map(JsonNode::asString).toList();
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(int v) {
        return AttributeValue.fromN(Integer.toString(v));
    }
}
