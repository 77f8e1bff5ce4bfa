package io.stator.server.console;

import static io.stator.server.testing.AdvisorApi.field;
import static io.stator.server.testing.AdvisorApi.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.capacity.ThroughputSettings;
import io.stator.server.testing.AdvisorApi;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The console's pages as HTML (read with jsoup, no browser) and their JSON twins in the read API,
 * on a real server after workloads through the SDK: the heat map of a global index, a split drawn
 * where it happened, the parameters refused with a clear message, where the console is served
 * (the API port, --metrics-port) and --console off.
 */
class ConsolePagesTest {

    private static final TestClock CLOCK = new TestClock();
    private static final AtomicInteger UNIQUE = new AtomicInteger();
    private static final String KB_10 = "x".repeat(10_000);

    /** Partitions split for heat after two seconds at 80% of their ceiling (DynamoDB: minutes). */
    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK).withThroughput(
            new ThroughputSettings(ThroughputSettings.Mode.ENFORCE, 2_000, ThroughputSettings.DEFAULT_TABLE_QUOTA_UNITS)));

    private DynamoDbClient dynamo;

    @BeforeEach
    void stopTheClock() {
        CLOCK.set(Instant.parse("2026-10-01T00:00:00Z").plus(Duration.ofHours(UNIQUE.incrementAndGet())));
        dynamo = server.client();
    }

    @AfterAll
    static void followSystemTime() {
        CLOCK.useSystemTime();
    }

    @Test
    void everyPageHasItsJsonTwinWithTheSameFigures() {
        String t = table();
        for (int i = 0; i < 5; i++) put(t, "k" + i, i, "open", "x");
        dynamo.getItem(g -> g.tableName(t).key(Map.of("pk", AttributeValue.fromS("k1"), "sk", AttributeValue.fromN("1"))));

        JsonNode overview = AdvisorApi.get(server.port(), "/stator/advisor/overview");
        JsonNode row = field(overview, "tables").asArray().stream()
                .filter(r -> field(r, "tableName").asString().equals(t)).findFirst().orElseThrow();
        assertEquals(5, number(row, "itemCount"));
        assertEquals(40_000, number(row, "writeCeiling"));
        Document page = html("/console/");
        assertEquals("5", page.selectFirst("#tables tr[data-table=" + t + "] td:nth-child(4)").text());

        JsonNode table = AdvisorApi.get(server.port(), "/stator/advisor/table?table=" + t);
        assertEquals(5, field(table, "items").asArray().size());
        assertEquals("byStatus", field(field(table, "indexes").asArray().get(0), "indexName").asString());
        Document tablePage = html("/console/tables/" + t);
        assertEquals(5, tablePage.select("#items tbody tr").size());
        assertEquals("GSI", tablePage.selectFirst("#indexes tr[data-index=byStatus] td:nth-child(2)").text());

        JsonNode heat = AdvisorApi.get(server.port(), "/stator/advisor/heat-map?table=" + t + "&bucket=10");
        assertEquals(10, number(heat, "bucketSeconds"));
        assertEquals(30, field(heat, "columns").asArray().size(), "five minutes in 10 s buckets");
        assertEquals(60, field(AdvisorApi.get(server.port(), "/stator/advisor/heat-map?table=" + t), "columns")
                .asArray().size(), "a minute in 1 s buckets");
        assertEquals(60, field(AdvisorApi.get(server.port(), "/stator/advisor/heat-map?table=" + t + "&bucket=60"),
                "columns").asArray().size(), "an hour in minutes");

        JsonNode throttles = AdvisorApi.get(server.port(), "/stator/advisor/throttle-events?table=" + t);
        assertEquals(0, field(throttles, "events").asArray().size());
        JsonNode cost = AdvisorApi.get(server.port(), "/stator/advisor/cost?table=" + t);
        JsonNode monthly = field(field(cost, "tables").asArray().get(0), "cost", "monthly");
        assertTrue(number(monthly, "PAY_PER_REQUEST", "STANDARD") > 0, monthly.toString());
        assertEquals(io.stator.engine.advisor.Prices.standard().date(), field(cost, "pricesDate").asString());
    }

    @Test
    void aGlobalIndexHasItsOwnHeatMapAndACellListsItsKeys() {
        String t = table();
        CLOCK.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 30; i++) put(t, "k" + i, i, "open", KB_10);
        long second = CLOCK.instant().getEpochSecond();

        JsonNode heat = AdvisorApi.get(server.port(), "/stator/advisor/heat-map?table=" + t + "&index=byStatus");
        assertEquals("byStatus", field(heat, "indexName").asString());
        JsonNode hot = field(heat, "rows").asArray().stream()
                .filter(r -> field(r, "topKeys").asArray().size() > 0).findFirst().orElseThrow();
        // 30 index entries of 10 KB in one second on one index key: 300 write units, 30% of 1,000.
        assertEquals(0.3, Double.parseDouble(field(hot, "cells").asArray().get(59).asNumber()), 1e-9);
        assertEquals("open", field(field(hot, "topKeys").asArray().get(0), "key", "status", "S").asString());

        String firstHash = field(hot, "firstHash").asString();
        JsonNode cell = AdvisorApi.get(server.port(), "/stator/advisor/heat-cell?table=" + t + "&index=byStatus&partition="
                + firstHash + "&from=" + second + "&bucket=1");
        assertEquals(300, number(cell, "writeUnits"));
        Document fragment = html("/console/tables/" + t + "/heat-cell?index=byStatus&partition=" + firstHash + "&from="
                + second + "&bucket=1");
        assertEquals("status=\"open\"", fragment.selectFirst("#cell-keys tbody td.key").text());
        Document page = html("/console/tables/" + t + "/heat-map?index=byStatus");
        assertEquals("byStatus", page.selectFirst("select[name=index] option[selected]").attr("value"));

        // A second on, the Overview shows that second's units: 30 writes of 10 KB over 30 keys.
        CLOCK.advance(Duration.ofSeconds(1));
        JsonNode row = field(AdvisorApi.get(server.port(), "/stator/advisor/overview"), "tables").asArray().stream()
                .filter(r -> field(r, "tableName").asString().equals(t)).findFirst().orElseThrow();
        assertEquals(300, number(row, "writeUnits"));
        assertTrue(number(row, "hottestPartitionWriteUnits") >= 300 / 4.0, row.toString());
        assertTrue(number(row, "hottestPartitionWriteUnits") < 300, "30 keys over four partitions: " + row);
        assertEquals("300 / 40,000", html("/console/").selectFirst("#tables tr[data-table=" + t + "] td:nth-child(7)")
                .text());
    }

    @Test
    void aPartitionSplitForHeatIsDrawnWhereItSplit() {
        String t = table();
        AtomicInteger sk = new AtomicInteger();
        // 90 writes of 10 KB a second on one key: 900 write units, 90% of its partition's ceiling,
        // for four seconds: hot past the two seconds this server waits before a split. (A split is
        // drawn from the first second whose window opened with the new partition.)
        for (int s = 0; s < 4; s++) {
            CLOCK.advance(Duration.ofSeconds(1));
            for (int i = 0; i < 90; i++) put(t, "hot", sk.incrementAndGet(), "open", KB_10);
        }
        CLOCK.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 10; i++) put(t, "k" + i, 1, "open", "x");

        JsonNode heat = AdvisorApi.get(server.port(), "/stator/advisor/heat-map?table=" + t);
        List<JsonNode> split = field(heat, "rows").asArray().stream()
                .filter(r -> number(r, "splitColumn") >= 0).toList();
        // Each split halves the hot range and the hot half stays hot: it splits again two seconds on.
        assertTrue(split.size() >= 1, heat.toString());
        assertTrue(field(heat, "rows").asArray().size() > 4, "the table's four partitions, and those split off them");
        for (JsonNode r : split) assertTrue(number(r, "splitColumn") >= 55, "split in the hot seconds: " + r);
        Document page = html("/console/tables/" + t + "/heat-map");
        assertEquals(split.size(), page.select("#partitions .split").size());
        assertTrue(page.selectFirst("#partitions .split").text().startsWith("split at "));
    }

    @Test
    void badParametersAreRefusedWithAClearMessage() {
        String t = table();
        RawHttp.Response bucket = get("/stator/advisor/heat-map?table=" + t + "&bucket=5");
        assertEquals(400, bucket.status());
        assertTrue(bucket.bodyText().contains("Parameter bucket must be 1, 10 or 60 (seconds): 5"), bucket.bodyText());
        RawHttp.Response unknown = get("/stator/advisor/overview?table=" + t);
        assertEquals(400, unknown.status());
        assertTrue(unknown.bodyText().contains("Unknown parameter: table"), unknown.bodyText());
        RawHttp.Response cell = get("/stator/advisor/heat-cell?table=" + t + "&partition=0&from=x");
        assertTrue(cell.bodyText().contains("Parameter from must be a second since the epoch: x"), cell.bodyText());
        RawHttp.Response index = get("/stator/advisor/heat-map?table=" + t + "&index=nope");
        assertTrue(index.bodyText().contains("Index not found: nope"), index.bodyText());

        assertEquals(404, get("/console/tables/NoSuchTable").status());
        assertTrue(get("/console/tables/NoSuchTable").bodyText().contains("Table not found: NoSuchTable"));
        assertEquals(404, get("/console/tables/" + t + "/heat-map?bucket=5").status());
        assertEquals(404, get("/console/nothing").status());
        assertEquals(404, get("/console/tables/" + t + "/access-patterns?sort=nothing").status());
        RawHttp.Response post = RawHttp.exchange(server.port(), new RawHttp.Request("POST", "/console/", Map.of(),
                new byte[0]));
        assertEquals(405, post.status(), "read-only");
        RawHttp.Response bare = get("/console");
        assertEquals(301, bare.status());
        assertEquals("/console/", bare.header("location"));
        RawHttp.Response asset = get("/console/assets/echarts.min.js");
        assertEquals(200, asset.status());
        assertTrue(asset.header("content-type").startsWith("text/javascript"));
        assertEquals(404, get("/console/assets/../../etc/passwd").status());
    }

    @Test
    void theConsoleIsServedOnTheMetricsPortTooAndNotAtAllWhenOff() {
        try (StatorTestServer both = StatorTestServer.start(o -> o.withMetricsPort(0))) {
            RawHttp.Response page = RawHttp.exchange(both.metricsPort(), new RawHttp.Request("GET", "/console/", Map.of(),
                    new byte[0]));
            assertEquals(200, page.status());
            assertTrue(page.bodyText().contains("<h1>Overview</h1>"));
            assertEquals(200, RawHttp.exchange(both.port(), new RawHttp.Request("GET", "/console/", Map.of(),
                    new byte[0])).status());
        }
        try (StatorTestServer off = StatorTestServer.start(o -> o.withMetricsPort(0).withConsole(false))) {
            for (int port : new int[] {off.port(), off.metricsPort()}) {
                RawHttp.Response page = RawHttp.exchange(port, new RawHttp.Request("GET", "/console/", Map.of(),
                        new byte[0]));
                assertEquals(404, page.status(), "--console off, port " + port);
            }
            // The rest is served as before.
            assertEquals(200, RawHttp.exchange(off.port(), new RawHttp.Request("GET", "/stator/advisor/overview",
                    Map.of(), new byte[0])).status());
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private static RawHttp.Response get(String target) {
        return RawHttp.exchange(server.port(), new RawHttp.Request("GET", target, Map.of(), new byte[0]));
    }

    private static Document html(String target) {
        RawHttp.Response r = get(target);
        assertEquals(200, r.status(), r.toString());
        assertTrue(r.header("content-type").startsWith("text/html"), r.header("content-type"));
        return Jsoup.parse(r.bodyText());
    }

    /** An on-demand table keyed by pk (S) and sk (N), with a global index on status keeping everything. */
    private String table() {
        String name = "Pages" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.N),
                        a -> a.attributeName("status").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE"))
                .globalSecondaryIndexes(g -> g.indexName("byStatus").keySchema(k -> k.attributeName("status").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.ALL))));
        return name;
    }

    private void put(String table, String pk, int sk, String status, String payload) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", AttributeValue.fromS(pk));
        item.put("sk", AttributeValue.fromN(Integer.toString(sk)));
        item.put("status", AttributeValue.fromS(status));
        item.put("payload", AttributeValue.fromS(payload));
        dynamo.putItem(p -> p.tableName(table).item(item));
    }
}
