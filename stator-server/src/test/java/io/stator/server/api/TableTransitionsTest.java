package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * --table-creation-delay: a new table is CREATING, and an updated one UPDATING, for the delay, as
 * DynamoDB's are for a while, so that an application can test that it waits for ACTIVE. While
 * CREATING, item operations get ResourceNotFoundException ("Requested resource not found": the
 * API reference's "its status might not be ACTIVE"; dynalite's tables while CREATING) and changes
 * ResourceInUseException; while UPDATING, items are served. An update's LastIncreaseDateTime and
 * LastDecreaseDateTime move to the moment it completes (dynalite's UpdateTable, whose tests run
 * against DynamoDB). The server's clock is a test clock: the transitions follow it, and survive a
 * restart.
 */
class TableTransitionsTest {

    private static final Duration DELAY = Duration.ofSeconds(2);
    private static final TestClock CLOCK = new TestClock();
    private static StatorTestServer server;
    private static DynamoDbClient client;

    @BeforeAll
    static void start() {
        CLOCK.set(Instant.parse("2026-06-01T00:00:00Z"));
        server = StatorTestServer.start(o -> o.withClock(CLOCK).with(m -> m.tableCreationDelay = DELAY));
        client = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aNewTableIsCreatingForTheDelayThenActive() {
        String table = StatorTestServer.tableName();
        TableDescription created = client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(d -> d.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))).tableDescription();
        assertEquals(TableStatus.CREATING, created.tableStatus());
        assertEquals(TableStatus.CREATING, status(table));

        ResourceNotFoundException put = assertThrows(ResourceNotFoundException.class, () -> put(table, "a"));
        assertEquals("Requested resource not found", put.awsErrorDetails().errorMessage());
        assertThrows(ResourceNotFoundException.class,
                () -> client.getItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("a")))));
        ResourceInUseException change = assertThrows(ResourceInUseException.class,
                () -> client.updateTable(b -> b.tableName(table).deletionProtectionEnabled(true)));
        assertEquals("Attempt to change a resource which is still in use: Table is being created: " + table,
                change.awsErrorDetails().errorMessage());

        CLOCK.advance(DELAY.minusMillis(1));
        assertEquals(TableStatus.CREATING, status(table));
        server.restart(); // the transition is stored with the table
        client = server.client();
        assertEquals(TableStatus.CREATING, status(table));
        CLOCK.advance(Duration.ofMillis(1));
        assertEquals(TableStatus.ACTIVE, status(table));
        put(table, "a");
        assertEquals("a", client.getItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("a"))))
                .item().get("pk").s());
    }

    @Test
    void anItemOperationAfterTheDelayFindsTheTableWithoutADescribeFirst() {
        String table = StatorTestServer.tableName();
        client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(d -> d.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
        CLOCK.advance(DELAY);
        put(table, "b");
        assertEquals(TableStatus.ACTIVE, status(table));
    }

    @Test
    void anUpdatedTableIsUpdatingForTheDelayItsItemsServedAndItsDatesMoveWhenItCompletes() {
        String table = StatorTestServer.tableName();
        client.createTable(b -> b.tableName(table)
                .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L))
                .attributeDefinitions(d -> d.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
        CLOCK.advance(DELAY);
        put(table, "c");

        Instant requested = CLOCK.instant();
        TableDescription updating = client.updateTable(b -> b.tableName(table)
                .provisionedThroughput(p -> p.readCapacityUnits(10L).writeCapacityUnits(5L))).tableDescription();
        assertEquals(TableStatus.UPDATING, updating.tableStatus());
        assertEquals(TableStatus.UPDATING, status(table));
        put(table, "d"); // an UPDATING table serves its items
        CLOCK.advance(DELAY);
        TableDescription done = describe(table);
        assertEquals(TableStatus.ACTIVE, done.tableStatus());
        assertEquals(10L, done.provisionedThroughput().readCapacityUnits());
        assertEquals(requested.plus(DELAY), done.provisionedThroughput().lastIncreaseDateTime());
        assertNull(done.provisionedThroughput().lastDecreaseDateTime());

        Instant lowered = CLOCK.instant();
        client.updateTable(b -> b.tableName(table).provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L)));
        assertEquals(TableStatus.UPDATING, status(table));
        CLOCK.advance(DELAY);
        TableDescription decreased = describe(table);
        assertEquals(TableStatus.ACTIVE, decreased.tableStatus());
        assertEquals(lowered.plus(DELAY), decreased.provisionedThroughput().lastDecreaseDateTime());
        assertEquals(requested.plus(DELAY), decreased.provisionedThroughput().lastIncreaseDateTime());
    }

    @Test
    void aChangeDynamoDbMakesWhileActiveLeavesTheTableActive() {
        String table = StatorTestServer.tableName();
        client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(d -> d.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
        CLOCK.advance(DELAY);
        assertEquals(TableStatus.ACTIVE, client.updateTable(b -> b.tableName(table).deletionProtectionEnabled(true))
                .tableDescription().tableStatus());
        assertEquals(TableStatus.ACTIVE, status(table));
        client.updateTable(b -> b.tableName(table).deletionProtectionEnabled(false));
    }

    private static void put(String table, String key) {
        client.putItem(b -> b.tableName(table).item(Map.of("pk", AttributeValue.fromS(key))));
    }

    private static TableStatus status(String table) {
        return describe(table).tableStatus();
    }

    private static TableDescription describe(String table) {
        return client.describeTable(b -> b.tableName(table)).table();
    }
}
