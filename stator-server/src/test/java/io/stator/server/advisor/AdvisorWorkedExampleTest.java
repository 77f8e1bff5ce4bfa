package io.stator.server.advisor;

import static io.stator.server.testing.AdvisorApi.field;
import static io.stator.server.testing.AdvisorApi.findings;
import static io.stator.server.testing.AdvisorApi.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.cli.CommandRun;
import io.stator.server.testing.ParallelWrites;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;

/**
 * docs/advisor.md's worked example, from the issue's seeds, on a real server at
 * {@code --advisor-scale 10} with a test clock: an Orders table of 40,000 items (400,000
 * projected) loaded at 300 a second through a global index on {@code status} (three values), a
 * Scan that reads every order to return a customer's 10, and an Events table keyed by today's
 * date. {@code bin/stator advise}'s report of it is written to
 * {@code target/advisor-worked-example.txt}, and the findings the page explains are asserted.
 */
class AdvisorWorkedExampleTest {

    private static final int ORDERS = 40_000;
    private static final int LOADED_PER_SECOND = 300;
    private static final String[] STATUSES = {"PENDING", "SHIPPED", "DELIVERED"};

    @Test
    void theSeedsWorkloadsAreExplained() throws IOException {
        TestClock clock = new TestClock();
        LocalDate day = LocalDate.parse("2026-12-01");
        clock.set(day.atTime(23, 59, 50).toInstant(ZoneOffset.UTC));
        try (StatorTestServer server = StatorTestServer.start(o -> o.withClock(clock).withAdvisorScale(10))) {
            DynamoDbClient dynamo = server.client();
            URI endpoint = URI.create("http://127.0.0.1:" + server.port());

            // A write stream keyed by the day: 50 events a second around two midnights, and the
            // day's trickle between them.
            dynamo.createTable(b -> b.tableName("Events").billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("day").attributeType("S"),
                            a -> a.attributeName("eventId").attributeType("N"))
                    .keySchema(k -> k.attributeName("day").keyType("HASH"),
                            k -> k.attributeName("eventId").keyType("RANGE")));
            int[] eventId = {0};
            Runnable burst = () -> {
                for (int s = 0; s < 3; s++) {
                    if (s > 0) clock.advance(Duration.ofSeconds(1));
                    String today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).toString();
                    List<Map<String, AttributeValue>> events = new ArrayList<>();
                    for (int i = 0; i < 50; i++) events.add(event(today, ++eventId[0]));
                    ParallelWrites.putAll(endpoint, "Events", events);
                }
            };
            burst.run();
            clock.set(day.plusDays(1).atTime(0, 0, 5).toInstant(ZoneOffset.UTC));
            burst.run();
            for (int m = 1; m <= 70; m++) {
                clock.set(day.plusDays(1).atStartOfDay().plusMinutes(m).toInstant(ZoneOffset.UTC));
                List<Map<String, AttributeValue>> events = new ArrayList<>();
                for (int i = 0; i < 5; i++) events.add(event(day.plusDays(1).toString(), ++eventId[0]));
                ParallelWrites.putAll(endpoint, "Events", events);
            }
            clock.set(day.plusDays(1).atTime(23, 59, 50).toInstant(ZoneOffset.UTC));
            burst.run();
            clock.set(day.plusDays(2).atTime(0, 0, 5).toInstant(ZoneOffset.UTC));
            burst.run();

            // Orders, with a global index on status: loaded at 300 a second (3,000 projected).
            dynamo.createTable(b -> b.tableName("Orders").billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("orderId").attributeType("S"),
                            a -> a.attributeName("status").attributeType("S"),
                            a -> a.attributeName("createdAt").attributeType("S"))
                    .keySchema(k -> k.attributeName("orderId").keyType("HASH"))
                    .globalSecondaryIndexes(g -> g.indexName("ByStatus")
                            .keySchema(k -> k.attributeName("status").keyType("HASH"),
                                    k -> k.attributeName("createdAt").keyType("RANGE"))
                            .projection(p -> p.projectionType(ProjectionType.ALL))));
            for (int from = 0; from < ORDERS; from += LOADED_PER_SECOND) {
                clock.advance(Duration.ofSeconds(1));
                List<Map<String, AttributeValue>> orders = new ArrayList<>();
                for (int i = from; i < Math.min(ORDERS, from + LOADED_PER_SECOND); i++) orders.add(order(i, clock));
                ParallelWrites.putAll(endpoint, "Orders", orders);
            }
            // A customer's orders found by a Scan: twice a second for 10 s, each reading all 40,000.
            for (int s = 0; s < 10; s++) {
                clock.advance(Duration.ofSeconds(1));
                for (int n = 0; n < 2; n++) {
                    int found = dynamo.scanPaginator(b -> b.tableName("Orders").filterExpression("customerId = :c")
                            .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("customer-42"))))
                            .stream().mapToInt(page -> page.count()).sum();
                    assertEquals(10, found);
                }
            }

            CommandRun report = CommandRun.run("advise", "--endpoint", endpoint.toString());
            assertEquals(0, report.code(), report.err());
            Path written = Path.of("target", "advisor-worked-example.txt");
            Files.writeString(written, report.out());

            JsonNode f6 = only(findings(server.port(), "Events", "F6"));
            assertEquals(List.of("2026-12-01", "2026-12-02", "2026-12-03"), field(f6, "evidence", "sequence").asArray()
                    .stream().map(v -> string(v, "key", "day", "S")).toList());
            List<JsonNode> orders = findings(server.port(), "Orders");
            assertTrue(has(orders, "F7", null), report.out());
            assertTrue(has(orders, "F8", null), report.out());
            assertTrue(has(orders, "F9", "ByStatus"), report.out());
            assertTrue(has(orders, "F1", "ByStatus"), report.out());
            assertFalse(has(orders, "F1", null), "the orders' own keys are spread: " + report.out());
            assertTrue(report.out().contains("== Table Orders: "), report.out());
            assertTrue(report.out().contains("Scan | filter: customerId"), report.out());
        }
    }

    private static boolean has(List<JsonNode> findings, String id, String index) {
        return findings.stream().anyMatch(f -> string(f, "id").equals(id)
                && (index == null ? f.field("indexName").isEmpty() : f.field("indexName").map(JsonNode::asString)
                .orElse("").equals(index)));
    }

    private static JsonNode only(List<JsonNode> list) {
        assertEquals(1, list.size(), list.toString());
        return list.get(0);
    }

    private static Map<String, AttributeValue> event(String day, int id) {
        return Map.of("day", AttributeValue.fromS(day), "eventId", AttributeValue.fromN(Integer.toString(id)),
                "kind", AttributeValue.fromS("click"));
    }

    private static Map<String, AttributeValue> order(int i, TestClock clock) {
        return Map.of("orderId", AttributeValue.fromS(String.format("order-%06d", i)),
                "customerId", AttributeValue.fromS("customer-" + (i % 4_000)),
                "status", AttributeValue.fromS(STATUSES[i % STATUSES.length]),
                "createdAt", AttributeValue.fromS(clock.instant().toString() + "#" + i),
                "total", AttributeValue.fromN(Integer.toString(10 + i % 490)));
    }
}
