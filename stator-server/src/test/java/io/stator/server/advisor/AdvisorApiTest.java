package io.stator.server.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.RawHttp;
import io.stator.server.testing.SharedServer;
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
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The advisor's read API on a real server (GET on the DynamoDB port, which serves the metrics to a
 * loopback client): its shapes, its 400s for what it cannot answer, and the sketches that keep its
 * memory bounded however many keys a workload touches.
 */
class AdvisorApiTest {

    private static final TestClock CLOCK = new TestClock();
    private static final AtomicInteger UNIQUE = new AtomicInteger();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK));

    private DynamoDbClient dynamo;

    @BeforeEach
    void stopTheClock() {
        CLOCK.set(Instant.parse("2026-06-01T00:00:00Z").plus(Duration.ofHours(UNIQUE.incrementAndGet())));
        dynamo = server.client();
    }

    @AfterAll
    static void followSystemTime() {
        CLOCK.useSystemTime();
    }

    private String table() {
        String name = "advisor-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("sk").attributeType("N"), a -> a.attributeName("status").attributeType("S"),
                        a -> a.attributeName("lsk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE"))
                .globalSecondaryIndexes(g -> g.indexName("ByStatus").keySchema(k -> k.attributeName("status").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .localSecondaryIndexes(l -> l.indexName("ByLsk").keySchema(k -> k.attributeName("pk").keyType("HASH"),
                        k -> k.attributeName("lsk").keyType("RANGE")).projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
        return name;
    }

    private static RawHttp.Response get(String target) {
        return RawHttp.exchange(server.port(), new RawHttp.Request("GET", target, Map.of(), new byte[0]));
    }

    private static JsonNode ok(String target) {
        RawHttp.Response r = get(target);
        assertEquals(200, r.status(), r.toString());
        assertEquals("application/json", r.header("content-type"));
        return JsonNode.parser().parse(r.bodyText());
    }

    private static JsonNode field(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) n = n.field(p).orElseThrow(() -> new AssertionError("no " + p + " in " + node));
        return n;
    }

    private static double number(JsonNode node, String... path) {
        return Double.parseDouble(field(node, path).asNumber());
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(int v) {
        return AttributeValue.fromN(Integer.toString(v));
    }

    @Test
    void partitionsAccessPatternsAndFindingsHaveTheirShapes() {
        String t = table();
        for (int i = 0; i < 10; i++) {
            int sk = i;
            dynamo.putItem(b -> b.tableName(t).item(Map.of("pk", s("p"), "sk", n(sk), "status", s(sk == 3 ? "open" : "closed"))));
        }
        for (int q = 0; q < 3; q++) {
            dynamo.query(b -> b.tableName(t).keyConditionExpression("pk = :p").filterExpression("#s = :o")
                    .expressionAttributeNames(Map.of("#s", "status"))
                    .expressionAttributeValues(Map.of(":p", s("p"), ":o", s("open"))));
        }
        dynamo.query(b -> b.tableName(t).indexName("ByStatus").keyConditionExpression("#s = :o")
                .expressionAttributeNames(Map.of("#s", "status")).expressionAttributeValues(Map.of(":o", s("open"))));

        JsonNode partitions = ok("/stator/advisor/partitions?table=" + t);
        assertEquals(t, field(partitions, "tableName").asString());
        assertTrue(field(partitions, "modelled").asBoolean());
        assertEquals(3000, number(partitions, "ceilings", "readUnitsPerSecond"));
        assertEquals(1000, number(partitions, "ceilings", "writeUnitsPerSecond"));
        List<JsonNode> parts = field(partitions, "partitions").asArray();
        assertEquals(4, parts.size(), "a new on-demand table: 4 modelled partitions");
        assertEquals("0000000000000000", field(parts.get(0), "firstHash").asString());
        assertEquals("ffffffffffffffff", field(parts.get(3), "lastHash").asString());
        double writes = 0;
        for (JsonNode p : parts) writes += number(p, "writeUnits");
        assertEquals(10, writes, "10 items of 1 unit (without lsk they are not in the local index)");
        JsonNode indexPartitions = ok("/stator/advisor/partitions?table=" + t + "&index=ByStatus&seconds=300");
        assertEquals("ByStatus", field(indexPartitions, "indexName").asString());

        JsonNode patterns = ok("/stator/advisor/access-patterns?table=" + t);
        List<JsonNode> list = field(patterns, "patterns").asArray();
        JsonNode query = list.stream().filter(p -> field(p, "signature").asString()
                .equals("Query: pk = :v | filter: status")).findFirst().orElseThrow(() -> new AssertionError(list.toString()));
        assertEquals(3, number(query, "calls"));
        assertEquals(3, number(query, "callsPerSecond", "peak"));
        assertEquals(3, number(query, "callsPerSecond", "average"));
        assertEquals(30, number(query, "scannedCount"));
        assertEquals(3, number(query, "count"));
        assertEquals(0.1, number(query, "keptShare"), 1e-9);
        assertEquals(0.5, number(query, "unitsPerCall", "table", "read"));
        assertFalse(field(query, "consistentRead").asBoolean());
        JsonNode put = list.stream().filter(p -> field(p, "signature").asString().equals("PutItem: pk = :v AND sk = :v"))
                .findFirst().orElseThrow();
        assertEquals(10, number(put, "indexWrites", "ByStatus", "entriesWritten"));
        assertEquals(1, number(put, "unitsPerCall", "indexes", "ByStatus", "write"));
        assertTrue(list.stream().anyMatch(p -> field(p, "signature").asString().equals("Query index ByStatus: status = :v")));

        assertEquals(List.of(), field(ok("/stator/advisor/findings"), "findings").asArray());
        assertEquals(List.of(), field(ok("/stator/advisor/findings?table=" + t), "findings").asArray());
    }

    @Test
    void whatTheApiCannotAnswerIsA400ThatSaysWhy() {
        String t = table();
        Map<String, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put("/stator/advisor/top-keys", "Parameter table is required");
        refusals.put("/stator/advisor/top-keys?table=nope", "Table not found: nope");
        refusals.put("/stator/advisor/top-keys?table=" + t + "&index=nope", "Index not found: nope (table " + t + ")");
        refusals.put("/stator/advisor/top-keys?table=" + t + "&index=ByLsk",
                "Index ByLsk is a local secondary index: its traffic is its table's (ask without index)");
        refusals.put("/stator/advisor/top-keys?table=" + t + "&color=red",
                "Unknown parameter: color (this route takes index, limit, minutes, table)");
        refusals.put("/stator/advisor/top-keys?table=" + t + "&table=" + t, "Parameter table is given twice");
        refusals.put("/stator/advisor/top-keys?table=" + t + "&limit=26",
                "Parameter limit must be a whole number from 1 to 25: 26");
        refusals.put("/stator/advisor/top-keys?table=" + t + "&limit=0",
                "Parameter limit must be a whole number from 1 to 25: 0");
        refusals.put("/stator/advisor/top-keys?table=" + t + "&minutes=61",
                "Parameter minutes must be a whole number from 1 to 60: 61");
        refusals.put("/stator/advisor/partitions?table=" + t + "&seconds=301",
                "Parameter seconds must be a whole number from 1 to 300: 301");
        refusals.put("/stator/advisor/partitions?table=" + t + "&seconds=x",
                "Parameter seconds must be a whole number from 1 to 300: x");
        refusals.put("/stator/advisor/access-patterns?table=" + t + "&index=ByStatus",
                "Unknown parameter: index (this route takes minutes, table)");
        refusals.put("/stator/advisor/findings?table=nope", "Table not found: nope");
        for (Map.Entry<String, String> e : refusals.entrySet()) {
            RawHttp.Response r = get(e.getKey());
            assertEquals(400, r.status(), e.getKey() + ": " + r);
            JsonNode body = JsonNode.parser().parse(r.bodyText());
            assertEquals("com.amazon.coral.validate#ValidationException", field(body, "__type").asString());
            assertEquals(e.getValue(), field(body, "message").asString(), e.getKey());
        }
        // The edges are taken.
        ok("/stator/advisor/top-keys?table=" + t + "&limit=25&minutes=60");
        ok("/stator/advisor/top-keys?table=" + t + "&limit=1&minutes=1");
        ok("/stator/advisor/partitions?table=" + t + "&seconds=300");
        RawHttp.Response route = get("/stator/advisor/nothing");
        assertEquals(404, route.status());
        RawHttp.Response post = RawHttp.exchange(server.port(), new RawHttp.Request("POST",
                "/stator/advisor/top-keys?table=" + t, Map.of("Content-Type", "application/json"), "{}".getBytes()));
        assertEquals(400, post.status());
        assertTrue(post.bodyText().contains("GET requests only"), post.toString());
    }

    @Test
    void manyDistinctKeysAreSketchedAndTheHotOneStillComesFirst() {
        String t = "advisor-many-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(t).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH")));
        // More distinct keys than a minute counts exactly (4,096), 1,000 a second (a second counts
        // 1,024), then, the next second, a hot key: the second counts it exactly, its minute (full)
        // sketches it.
        int keys = 5_000;
        for (int i = 0; i < keys; i += 25) {
            if (i > 0 && i % 1_000 == 0) CLOCK.advance(Duration.ofSeconds(1));
            List<WriteRequest> batch = new ArrayList<>(25);
            for (int j = i; j < i + 25; j++) {
                batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(Map.of("pk", s("k" + j))).build()).build());
            }
            dynamo.batchWriteItem(b -> b.requestItems(Map.of(t, batch)));
        }
        CLOCK.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 100; i++) dynamo.putItem(b -> b.tableName(t).item(Map.of("pk", s("hot"))));
        JsonNode top = ok("/stator/advisor/top-keys?table=" + t + "&limit=3");
        List<JsonNode> accessed = field(top, "mostAccessedPartitionKeys").asArray();
        assertEquals(3, accessed.size());
        JsonNode hot = accessed.get(0);
        assertEquals("hot", field(hot, "key", "pk", "S").asString());
        assertTrue(field(hot, "approximate").asBoolean(), "past the exact cap: estimated");
        double maximum = number(hot, "maximum");
        // The sketch's estimate is an upper bound, within its error of the truth (300).
        assertTrue(maximum >= 300 && maximum <= 300 + 3.5 / 256 * 3 * (keys + 100) / 4 * 2, "estimate " + maximum);
    }
}
