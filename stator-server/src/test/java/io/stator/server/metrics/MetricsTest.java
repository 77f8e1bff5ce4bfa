package io.stator.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.capacity.ThroughputSettings;
import io.stator.server.ServerOptions;
import io.stator.server.testing.PrometheusText;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * GET /metrics after a known sequence of requests, scraped over HTTP and read as Prometheus
 * reads the text format ({@link PrometheusText} checks every line): the CloudWatch-named
 * families, their labels, and values that match what the SDK was told (ConsumedCapacity) and
 * what was refused. The server's clock stands still, so that buckets refill only when the test
 * says.
 */
class MetricsTest {

    private static final TestClock CLOCK = new TestClock();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK).withThroughput(ThroughputSettings.DEFAULTS));

    private static final String INDEX = "by-color";

    @BeforeAll
    static void stopTheClock() {
        CLOCK.set(Instant.parse("2026-06-01T00:00:00Z"));
    }

    @AfterAll
    static void followSystemTime() {
        CLOCK.useSystemTime();
    }

    @Test
    void scrapedMetricsCountWhatTheRequestsDidUnderCloudWatchNames() {
        DynamoDbClient dynamo = server.client();
        String table = "metrics-" + System.nanoTime();
        // 1 write unit a second: 300 of burst; the index has its own 10.
        dynamo.createTable(b -> b.tableName(table)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("color").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .provisionedThroughput(p -> p.readCapacityUnits(10L).writeCapacityUnits(1L))
                .globalSecondaryIndexes(g -> g.indexName(INDEX)
                        .keySchema(k -> k.attributeName("color").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.ALL))
                        .provisionedThroughput(p -> p.readCapacityUnits(10L).writeCapacityUnits(10L))));

        double tableWrites = 0;
        double indexWrites = 0;
        double tableReads = 0;
        double indexReads = 0;
        // Writes: three items in the index, one not.
        for (String[] item : new String[][] {{"a", "red"}, {"b", "red"}, {"c", "blue"}}) {
            ConsumedCapacity c = dynamo.putItem(b -> b.tableName(table).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                    .item(Map.of("pk", s(item[0]), "color", s(item[1])))).consumedCapacity();
            tableWrites += c.table().capacityUnits();
            indexWrites += c.globalSecondaryIndexes().get(INDEX).capacityUnits();
        }
        tableWrites += dynamo.putItem(b -> b.tableName(table).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                .item(Map.of("pk", s("d")))).consumedCapacity().table().capacityUnits();
        // Reads: a GetItem either way, a Query on the table and one on the index, a Scan, a batch.
        tableReads += dynamo.getItem(b -> b.tableName(table).key(Map.of("pk", s("a")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity().table().capacityUnits();
        tableReads += dynamo.getItem(b -> b.tableName(table).key(Map.of("pk", s("a"))).consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity().table().capacityUnits();
        var onTable = dynamo.query(b -> b.tableName(table).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", s("b"))).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        tableReads += onTable.consumedCapacity().table().capacityUnits();
        var onIndex = dynamo.query(b -> b.tableName(table).indexName(INDEX).keyConditionExpression("color = :c")
                .expressionAttributeValues(Map.of(":c", s("red"))).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertEquals(2, onIndex.count());
        indexReads += onIndex.consumedCapacity().globalSecondaryIndexes().get(INDEX).capacityUnits();
        var scan = dynamo.scan(b -> b.tableName(table).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertEquals(4, scan.count());
        tableReads += scan.consumedCapacity().table().capacityUnits();
        var batch = dynamo.batchGetItem(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).requestItems(
                Map.of(table, KeysAndAttributes.builder().keys(Map.of("pk", s("a")), Map.of("pk", s("c")),
                        Map.of("pk", s("nobody"))).build())));
        assertEquals(2, batch.responses().get(table).size());
        tableReads += batch.consumedCapacity().get(0).table().capacityUnits();

        // A failed condition (debited all the same: one unit, as an item of under 1 KB costs).
        assertThrows(ConditionalCheckFailedException.class, () -> dynamo.putItem(b -> b.tableName(table)
                .item(Map.of("pk", s("a"))).conditionExpression("attribute_not_exists(pk)")));
        tableWrites += 1;
        // A transaction cancelled by a failed condition.
        assertThrows(TransactionCanceledException.class, () -> dynamo.transactWriteItems(b -> b.transactItems(
                t -> t.conditionCheck(c -> c.tableName(table).key(Map.of("pk", s("a")))
                        .conditionExpression("attribute_not_exists(pk)")),
                t -> t.put(p -> p.tableName(table).item(Map.of("pk", s("e"))))))); // debits 2 + 2 units
        tableWrites += 4;
        // A user error on the table, and one on a table that does not exist.
        assertThrows(software.amazon.awssdk.services.dynamodb.model.DynamoDbException.class,
                () -> dynamo.getItem(b -> b.tableName(table).key(Map.of("color", s("red")))));
        assertThrows(ResourceNotFoundException.class,
                () -> dynamo.getItem(b -> b.tableName("no-such-table").key(Map.of("pk", s("a")))));

        // A write of 300 units runs while the table's bucket holds anything, leaving it in debt...
        tableWrites += dynamo.putItem(b -> b.tableName(table).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                .item(Map.of("pk", s("big"), "pad", s("x".repeat(300 * 1024 - 100))))).consumedCapacity().table()
                .capacityUnits();
        // ...so the next one is throttled.
        ProvisionedThroughputExceededException throttled = assertThrows(ProvisionedThroughputExceededException.class,
                () -> dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", s("small")))));
        assertEquals("TableWriteProvisionedThroughputExceeded", throttled.throttlingReasons().get(0).reason());

        PrometheusText m = scrape(server.port());
        String[] onTheTable = {"table", table, "index", ""};
        String[] onTheIndex = {"table", table, "index", INDEX};

        // Capacity, from the engine's figures: what the SDK was told, plus the failed writes.
        assertEquals(tableWrites, m.sum("dynamodb_consumed_write_capacity_units_total", onTheTable), 1e-9);
        assertEquals(indexWrites, m.sum("dynamodb_consumed_write_capacity_units_total", onTheIndex), 1e-9);
        assertEquals(tableReads, m.sum("dynamodb_consumed_read_capacity_units_total", onTheTable), 1e-9);
        assertEquals(indexReads, m.sum("dynamodb_consumed_read_capacity_units_total", onTheIndex), 1e-9);
        assertEquals(1, m.sum("dynamodb_provisioned_write_capacity_units", onTheTable));
        assertEquals(10, m.sum("dynamodb_provisioned_read_capacity_units", onTheTable));
        assertEquals(10, m.sum("dynamodb_provisioned_write_capacity_units", onTheIndex));
        assertEquals("ConsumedWriteCapacityUnits", m.find("dynamodb_consumed_write_capacity_units_total", onTheTable)
                .get(0).labels().get("cloudwatch_metric"));
        assertEquals("counter", m.type("dynamodb_consumed_write_capacity_units_total"));
        assertEquals("gauge", m.type("dynamodb_provisioned_write_capacity_units"));

        // The throttle: one event of its reason, one throttled request.
        assertEquals(1, m.sum("dynamodb_write_provisioned_throughput_throttle_events_total", onTheTable));
        assertEquals(1, m.sum("dynamodb_write_throttle_events_total", onTheTable));
        assertEquals(0, m.sum("dynamodb_write_key_range_throughput_throttle_events_total", onTheTable));
        assertEquals(1, m.find("dynamodb_write_key_range_throughput_throttle_events_total", onTheTable).size(),
                "a provisioned table's possible reasons are all there, at 0 when none happened");
        assertEquals(List.of(), m.find("dynamodb_write_max_on_demand_throughput_throttle_events_total", onTheTable),
                "a provisioned table has no on-demand maximum to exceed");
        assertEquals(0, m.sum("dynamodb_write_throttle_events_total", onTheIndex));
        assertEquals(1, m.sum("dynamodb_throttled_requests_total", "operation", "PutItem", "table", table));

        // Requests: latency, items returned, errors by kind.
        String latency = "dynamodb_successful_request_latency_seconds";
        assertEquals("histogram", m.type(latency));
        assertEquals(5, m.sum(latency + "_count", "operation", "PutItem", "table", table, "index", ""));
        assertEquals(2, m.sum(latency + "_count", "operation", "GetItem", "table", table));
        assertEquals(1, m.sum(latency + "_count", "operation", "Query", "table", table, "index", INDEX));
        assertEquals(1, m.sum(latency + "_count", "operation", "Query", "table", table, "index", ""));
        assertTrue(m.sum(latency + "_sum", "operation", "Scan", "table", table) > 0);
        assertEquals(1, m.find(latency + "_bucket", "operation", "Scan", "table", table, "le", "+Inf").size());
        assertEquals("SuccessfulRequestLatency", m.find(latency + "_count", "operation", "Scan").get(0).labels()
                .get("cloudwatch_metric"));
        assertEquals(1, m.sum(latency + "_count", "operation", "CreateTable", "table", table));

        assertEquals(1, m.sum("dynamodb_returned_item_count_total", "operation", "Query", "table", table, "index", ""));
        assertEquals(2, m.sum("dynamodb_returned_item_count_total", "operation", "Query", "table", table, "index", INDEX));
        assertEquals(4, m.sum("dynamodb_returned_item_count_total", "operation", "Scan", "table", table));
        assertEquals(2, m.sum("dynamodb_returned_item_count_total", "operation", "BatchGetItem", "table", table));
        assertEquals(List.of(), m.find("dynamodb_returned_item_count_total", "operation", "GetItem"),
                "GetItem has no ReturnedItemCount");

        assertEquals(1, m.sum("dynamodb_conditional_check_failed_requests_total", "operation", "PutItem", "table", table));
        assertEquals(1, m.sum("dynamodb_conditional_check_failed_requests_total", "operation", "TransactWriteItems",
                "table", table));
        assertEquals(1, m.sum("dynamodb_user_errors_total", "operation", "GetItem", "table", table));
        assertEquals(1, m.sum("dynamodb_user_errors_total", "operation", "GetItem", "table", ""),
                "a table that does not exist gets no label of its own");
        assertEquals(0, m.sum("dynamodb_user_errors_total", "operation", "PutItem"),
                "throttles and failed conditions are not UserErrors, as on CloudWatch");
        assertEquals(List.of(), m.find("dynamodb_system_errors_total", "table", table));
        assertEquals(List.of(), m.find("dynamodb_user_errors_total", "table", "no-such-table"));
    }

    @Test
    void aHotPartitionsKeyRangeThrottleShowsInItsPartitionsFigures() {
        DynamoDbClient dynamo = server.client();
        String table = "hot-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH")));
        dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", s("hot"), "pad", s("x".repeat(390 * 1024)))));
        // About 98 units a strongly consistent read: the key's partition holds two seconds of
        // its 3,000 and refuses once they are gone, while the clock stands still.
        double read = 0;
        ThrottlingException throttled = null;
        for (int i = 0; i < 100 && throttled == null; i++) {
            try {
                read += dynamo.getItem(b -> b.tableName(table).key(Map.of("pk", s("hot"))).consistentRead(true)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity().capacityUnits();
            } catch (ThrottlingException e) {
                throttled = e;
            }
        }
        assertNotNull(throttled, "6,000 units read from one key at one instant were never throttled");
        assertEquals("TableReadKeyRangeThroughputExceeded", throttled.throttlingReasons().get(0).reason());

        PrometheusText m = scrape(server.port());
        String[] onTheTable = {"table", table, "index", ""};
        assertEquals(read, m.sum("dynamodb_consumed_read_capacity_units_total", onTheTable), 1e-9);
        assertEquals(1, m.sum("dynamodb_read_key_range_throughput_throttle_events_total", onTheTable));
        assertEquals(1, m.sum("dynamodb_read_throttle_events_total", onTheTable));
        assertEquals(0, m.sum("dynamodb_read_account_limit_throttle_events_total", onTheTable));
        assertEquals(List.of(), m.find("dynamodb_provisioned_read_capacity_units", onTheTable),
                "an on-demand table has no provisioned capacity");
        assertEquals(1, m.sum("dynamodb_throttled_requests_total", "operation", "GetItem", "table", table));

        // A new on-demand table has 4 partitions: all of them shown, one of them hot.
        assertEquals(4, m.sum("stator_partitions", onTheTable));
        List<PrometheusText.Sample> partitions = m.find("stator_partition_consumed_read_capacity_units_total", onTheTable);
        assertEquals(4, partitions.size());
        assertEquals(read, m.sum("stator_partition_consumed_read_capacity_units_total", onTheTable), 1e-9);
        List<PrometheusText.Sample> refused = m.find("stator_partition_read_key_range_throughput_throttle_events_total",
                onTheTable).stream().filter(s -> s.value() > 0).toList();
        assertEquals(1, refused.size());
        assertEquals(1, refused.get(0).value());
        assertTrue(refused.get(0).labels().get("partition").matches("[0-9a-f]{16}"), refused.get(0).labels().toString());
        assertFalse(refused.get(0).labels().containsKey("cloudwatch_metric"), "not a CloudWatch metric");
    }

    @Test
    void aDeletedTablesSeriesGoWithIt() {
        DynamoDbClient dynamo = server.client();
        String table = "deleted-" + System.nanoTime();
        StatorTestServer.createTable(dynamo, table);
        dynamo.putItem(b -> b.tableName(table).item(Map.of("id", s("1"))));
        assertFalse(scrape(server.port()).find("dynamodb_successful_request_latency_seconds_count", "table", table)
                .isEmpty());
        dynamo.deleteTable(b -> b.tableName(table));
        PrometheusText m = scrape(server.port());
        assertEquals(List.of(), m.samples().stream().filter(s -> table.equals(s.labels().get("table"))).toList());
        assertTrue(m.sum("dynamodb_successful_request_latency_seconds_count", "operation", "DeleteTable") >= 1);
    }

    @Test
    void theScrapeIsPrometheusTextAndOtherGetsKeepTheirAnswers() {
        server.client().listTables();
        assertThrows(ResourceNotFoundException.class,
                () -> server.client().describeTable(b -> b.tableName("no-such-table")));
        RawHttp.Response reply = RawHttp.exchange(server.port(),
                new RawHttp.Request("GET", "/metrics", Map.of(), new byte[0]));
        assertEquals(200, reply.status());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", reply.header("Content-Type"));
        PrometheusText m = PrometheusText.parse(reply.bodyText());
        assertTrue(m.help("dynamodb_user_errors_total").startsWith("UserErrors: "), m.help("dynamodb_user_errors_total"));
        assertTrue(m.sum("dynamodb_successful_request_latency_seconds_count", "operation", "ListTables", "table", "") >= 1);
        // Other paths and methods: as before.
        assertEquals(404, RawHttp.exchange(server.port(),
                new RawHttp.Request("GET", "/metricsz", Map.of(), new byte[0])).status());
        RawHttp.Response post = RawHttp.exchange(server.port(),
                new RawHttp.Request("POST", "/metrics", Map.of(), new byte[0]));
        assertEquals(400, post.status());
        assertTrue(post.bodyText().contains("UnknownOperationException"), post.toString());
        assertEquals(200, RawHttp.exchange(server.port(), new RawHttp.Request("GET", "/", Map.of(), new byte[0])).status());
    }

    @Test
    void withCredentialsOffLoopbackTheMetricsAreOnlyOnTheirOwnPort(@org.junit.jupiter.api.io.TempDir Path dir) {
        Path credentials = dir.resolve("credentials");
        assertTrue(ServerOptions.defaults(dir).metricsOnMainPort(), "no credentials");
        assertTrue(ServerOptions.defaults(dir).withCredentials(credentials).metricsOnMainPort(), "on loopback");
        assertFalse(ServerOptions.defaults(dir).withCredentials(credentials).with(o -> o.host = "0.0.0.0")
                .metricsOnMainPort(), "with credentials, on every address");
        assertTrue(ServerOptions.defaults(dir).with(o -> o.host = "0.0.0.0").metricsOnMainPort(), "anonymous");
    }

    @Test
    void metricsPortServesTheScrapeAndNothingElse() {
        try (StatorTestServer other = StatorTestServer.start(o -> o.withInMemory(true).withMetricsPort(0))) {
            StatorTestServer.createTable(other.client(), "on-the-side");
            int port = other.metricsPort();
            RawHttp.Response reply = RawHttp.exchange(port, new RawHttp.Request("GET", "/metrics", Map.of(), new byte[0]));
            assertEquals(200, reply.status());
            PrometheusText m = PrometheusText.parse(reply.bodyText());
            assertEquals(1, m.sum("dynamodb_successful_request_latency_seconds_count", "operation", "CreateTable",
                    "table", "on-the-side"));
            assertEquals(404, RawHttp.exchange(port, RawHttp.Request.action("ListTables", "{}")).status());
        }
    }

    static PrometheusText scrape(int port) {
        RawHttp.Response reply = RawHttp.exchange(port, new RawHttp.Request("GET", "/metrics", Map.of(), new byte[0]));
        assertEquals(200, reply.status(), reply.toString());
        return PrometheusText.parse(reply.bodyText());
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
