package io.stator.embedded.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.embedded.EmbeddedStator;
import io.stator.embedded.StatorClock;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * One server for the class: a table declared on the class, one loaded from create-table JSON,
 * items seeded from batch-write-item JSON, and the items reset to the seed between tests.
 */
@StatorTest(tableFiles = "/stator/orders-table.json", seedFiles = "/stator/seed.json")
@StatorTable(name = "users", partitionKey = "id",
        globalIndexes = @StatorIndex(name = "byName", partitionKey = "name", projection = ProjectionType.INCLUDE,
                nonKeyAttributes = "email"))
@StatorTable(name = "events", partitionKey = "stream", sortKey = "seq", sortKeyType = ScalarAttributeType.N,
        localIndexes = @StatorIndex(name = "byKind", sortKey = "kind"), streamView = "NEW_IMAGE",
        ttlAttribute = "expiresAt")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PerClassExtensionTest {

    @StatorInject
    static EmbeddedStator classServer;

    @StatorInject
    EmbeddedStator stator;

    @StatorInject
    DynamoDbClient client;

    @StatorInject
    DynamoDbAsyncClient asyncClient;

    @StatorInject
    DynamoDbEnhancedClient enhancedClient;

    @StatorInject
    DynamoDbStreamsClient streamsClient;

    @StatorInject
    StatorClock clock;

    @StatorInject
    URI endpoint;

    @Test
    @Order(1)
    void theDeclaredAndTheLoadedTablesExistAsDeclared() {
        TableDescription users = client.describeTable(r -> r.tableName("users")).table();
        assertEquals("byName", users.globalSecondaryIndexes().get(0).indexName());
        assertEquals(ProjectionType.INCLUDE, users.globalSecondaryIndexes().get(0).projection().projectionType());
        TableDescription events = client.describeTable(r -> r.tableName("events")).table();
        assertEquals("byKind", events.localSecondaryIndexes().get(0).indexName());
        assertEquals("NEW_IMAGE", events.streamSpecification().streamViewTypeAsString());
        assertEquals("expiresAt", client.describeTimeToLive(r -> r.tableName("events"))
                .timeToLiveDescription().attributeName());
        assertEquals(1, client.describeTable(r -> r.tableName("orders")).table().globalSecondaryIndexes().size());
    }

    @Test
    @Order(2)
    void seededItemsAreThereAndATestMayChangeThem() {
        assertEquals(30, client.scan(r -> r.tableName("orders")).count());
        assertEquals(2, client.scan(r -> r.tableName("users")).count());
        client.putItem(r -> r.tableName("users").item(Map.of("id", AttributeValue.fromS("carol"))));
        client.deleteItem(r -> r.tableName("users").key(Map.of("id", AttributeValue.fromS("alice"))));
        client.putItem(r -> r.tableName("events").item(Map.of("stream", AttributeValue.fromS("s"),
                "seq", AttributeValue.fromN("1"))));
    }

    @Test
    @Order(3)
    void theNextTestStartsFromTheSeedAgain() {
        assertEquals(2, client.scan(r -> r.tableName("users")).count());
        assertTrue(client.getItem(r -> r.tableName("users").key(Map.of("id", AttributeValue.fromS("alice"))))
                .hasItem());
        assertEquals(0, client.scan(r -> r.tableName("events")).count());
        assertEquals(30, client.scan(r -> r.tableName("orders")).count());
    }

    @Test
    @Order(4)
    void everythingIsInjectedFromTheOneServer(EmbeddedStator parameter, DynamoDbClient clientParameter) {
        assertSame(classServer, stator);
        assertSame(stator, parameter);
        assertSame(stator.client(), client);
        assertSame(client, clientParameter);
        assertSame(stator.asyncClient(), asyncClient);
        assertSame(stator.enhancedClient(), enhancedClient);
        assertSame(stator.streamsClient(), streamsClient);
        assertSame(stator.clock(), clock);
        assertEquals(stator.endpoint(), endpoint);
        assertEquals(1, streamsClient.listStreams().streams().size(), "the events table's");
    }

    @Nested
    class ANestedClass {
        @Test
        void runsOnTheEnclosingClassServer(EmbeddedStator parameter) {
            assertSame(classServer, parameter);
            assertEquals(30, parameter.client().scan(r -> r.tableName("orders")).count());
        }
    }
}
