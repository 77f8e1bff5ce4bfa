package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.index.PropagationDelay;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * With {@code --ttl-delay}, an expired item stays (readable, as on DynamoDB) until its delay
 * past its expiry has passed; with a range, each item waits its own time within it, so that a
 * range such as 1h-48h reproduces DynamoDB's lateness. Time is the server's test clock.
 */
class TimeToLiveDelayTest {

    private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
    private static final long NOW = T0.getEpochSecond();

    private static StatorTestServer start(TestClock clock, String delay) {
        clock.set(T0);
        return StatorTestServer.start(o -> o.withClock(clock).with(m -> m.ttlDelay = PropagationDelay.parse(delay)));
    }

    private static String tableWithTimeToLive(DynamoDbClient client) {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client, table);
        client.updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(s -> s.enabled(true).attributeName("exp")));
        Eventually.until("ENABLED", () -> client.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription()
                .timeToLiveStatus(), TimeToLiveStatus.ENABLED::equals);
        return table;
    }

    private static void awaitExpirer(StatorTestServer server) throws InterruptedException {
        assertTrue(server.engine().timeToLive().expirer().awaitRound(10_000), "the expirer ran");
    }

    private static int count(DynamoDbClient client, String table) {
        return client.scan(b -> b.tableName(table).consistentRead(true)).count();
    }

    @Test
    void anExpiredItemStaysReadableUntilTheDelayHasPassed() throws InterruptedException {
        TestClock clock = new TestClock();
        try (StatorTestServer server = start(clock, "10m")) {
            DynamoDbClient client = server.client();
            String table = tableWithTimeToLive(client);
            Map<String, AttributeValue> key = item("id", s("a"));
            Map<String, AttributeValue> expired = item("id", s("a"), "exp", n(Long.toString(NOW + 5)));
            client.putItem(b -> b.tableName(table).item(expired));

            clock.advance(Duration.ofSeconds(6));
            awaitExpirer(server);
            assertEquals(expired, client.getItem(b -> b.tableName(table).key(key).consistentRead(true)).item());
            assertEquals(expired, client.getItem(b -> b.tableName(table).key(key)).item());
            assertEquals(1, client.query(b -> b.tableName(table).keyConditionExpression("id = :a")
                    .expressionAttributeValues(Map.of(":a", s("a")))).count());
            assertEquals(1, count(client, table));

            clock.set(T0.plusSeconds(5).plus(Duration.ofMinutes(10)));
            awaitExpirer(server);
            assertEquals(1, count(client, table), "due now, deleted once now is past it");
            clock.advance(Duration.ofMillis(1));
            Eventually.until("deleted", () -> count(client, table), c -> c == 0);
        }
    }

    @Test
    void aDelayRangeSpreadsTheDeletionsOverIt() throws InterruptedException {
        TestClock clock = new TestClock();
        try (StatorTestServer server = start(clock, "1h-2h")) {
            DynamoDbClient client = server.client();
            String table = tableWithTimeToLive(client);
            for (int i = 0; i < 40; i++) {
                String id = "i" + i;
                client.putItem(b -> b.tableName(table).item(item("id", s(id), "exp", n(Long.toString(NOW + 10)))));
            }
            clock.advance(Duration.ofSeconds(10).plus(Duration.ofMinutes(59)));
            awaitExpirer(server);
            assertEquals(40, count(client, table), "none within the first hour");

            clock.advance(Duration.ofMinutes(31));
            awaitExpirer(server);
            int left = count(client, table);
            assertTrue(left > 0 && left < 40, left + " of 40 left half way through the range");

            clock.advance(Duration.ofMinutes(31));
            Eventually.until("all deleted", () -> count(client, table), c -> c == 0);
        }
    }
}
