package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.RawDynamoDb;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * DescribeTimeToLive: DISABLED without an attribute until enabled, ENABLING then ENABLED with
 * it, DISABLING then DISABLED without it again (DynamoDB forgets the attribute).
 */
class DescribeTimeToLiveTest {

    private static final TestClock CLOCK = new TestClock();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK));

    @AfterEach
    void followSystemTime() {
        CLOCK.useSystemTime();
    }

    private static DynamoDbClient client() {
        return server.client();
    }

    private static TimeToLiveDescription describe(String table) {
        return client().describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription();
    }

    private static TimeToLiveDescription awaitStatus(String table, TimeToLiveStatus status) {
        return Eventually.until(table + " " + status, () -> describe(table), d -> d.timeToLiveStatus() == status);
    }

    @Test
    void aNewTableIsDisabledWithoutAnAttribute() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        assertEquals(TimeToLiveDescription.builder().timeToLiveStatus(TimeToLiveStatus.DISABLED).build(), describe(table));
        // Nothing but the status, on the wire too.
        RawDynamoDb.Reply raw = new RawDynamoDb(server.endpoint()).call("DescribeTimeToLive",
                "{\"TableName\": \"" + table + "\"}");
        assertEquals(200, raw.status(), raw.body());
        assertEquals("{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"DISABLED\"}}", raw.body());
    }

    @Test
    void enablingGoesThroughEnablingToEnabledWithTheAttribute() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        for (int i = 0; i < 200; i++) {
            String id = "i" + i;
            client().putItem(b -> b.tableName(table).item(java.util.Map.of(
                    "id", io.stator.server.testing.Attrs.s(id), "ttl", io.stator.server.testing.Attrs.n("4102444800"))));
        }
        client().updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(s -> s.enabled(true).attributeName("ttl")));
        TimeToLiveDescription first = describe(table);
        assertTrue(Set.of(TimeToLiveStatus.ENABLING, TimeToLiveStatus.ENABLED).contains(first.timeToLiveStatus()),
                first.toString());
        assertEquals("ttl", first.attributeName());
        assertEquals(TimeToLiveDescription.builder().timeToLiveStatus(TimeToLiveStatus.ENABLED).attributeName("ttl").build(),
                awaitStatus(table, TimeToLiveStatus.ENABLED));
    }

    @Test
    void disablingGoesThroughDisablingToDisabledAndForgetsTheAttribute() {
        CLOCK.set(Instant.parse("2026-06-01T00:00:00Z"));
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        client().updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(s -> s.enabled(true).attributeName("ttl")));
        awaitStatus(table, TimeToLiveStatus.ENABLED);
        CLOCK.advance(Duration.ofHours(1));
        client().updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(s -> s.enabled(false).attributeName("ttl")));
        TimeToLiveDescription first = describe(table);
        if (first.timeToLiveStatus() == TimeToLiveStatus.DISABLING) {
            assertEquals("ttl", first.attributeName(), "the attribute is still the table's while DISABLING");
        } else {
            assertEquals(TimeToLiveStatus.DISABLED, first.timeToLiveStatus());
        }
        TimeToLiveDescription settled = awaitStatus(table, TimeToLiveStatus.DISABLED);
        assertNull(settled.attributeName());
    }

    @Test
    void theSettingSurvivesARestart() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        client().updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(s -> s.enabled(true).attributeName("exp")));
        awaitStatus(table, TimeToLiveStatus.ENABLED);
        server.restart();
        assertEquals(TimeToLiveDescription.builder().timeToLiveStatus(TimeToLiveStatus.ENABLED).attributeName("exp").build(),
                describe(table));
    }

    @Test
    void aMissingTableIsNotFound() {
        assertError("ResourceNotFoundException", "Requested resource not found: Table: no-such-table not found",
                () -> client().describeTimeToLive(b -> b.tableName("no-such-table")));
    }

    @Test
    void aTableIsNamedByNameOrArn() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        String arn = client().describeTable(b -> b.tableName(table)).table().tableArn();
        assertEquals(TimeToLiveStatus.DISABLED, describe(arn).timeToLiveStatus());
    }

    @Test
    void aMissingOrBadTableNameIsRefusedAsDescribeTableRefusesIt() {
        RawDynamoDb raw = new RawDynamoDb(server.endpoint());
        for (String body : new String[] {"{}", "{\"TableName\": \"\"}", "{\"TableName\": \"a;b\"}"}) {
            RawDynamoDb.Reply expected = raw.call("DescribeTable", body);
            RawDynamoDb.Reply reply = raw.call("DescribeTimeToLive", body);
            assertEquals(400, reply.status(), body);
            assertEquals(expected.type(), reply.type(), body);
            assertEquals(expected.message(), reply.message(), body);
        }
    }
}
