package io.stator.embedded.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.stator.embedded.EmbeddedStator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.RepeatedTest;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A fresh server for each test: nothing one test wrote is seen by the next. */
@StatorTest(lifecycle = StatorTest.Lifecycle.PER_METHOD, inMemory = false)
@StatorTable(name = "counters", partitionKey = "id")
class PerMethodExtensionTest {

    private static final List<EmbeddedStator> SERVERS = new ArrayList<>();

    @StatorInject
    DynamoDbClient client;

    @RepeatedTest(3)
    void eachTestHasItsOwnServer(EmbeddedStator stator) {
        assertFalse(SERVERS.contains(stator));
        SERVERS.add(stator);
        assertEquals(0, client.scan(r -> r.tableName("counters")).count());
        client.putItem(r -> r.tableName("counters").item(Map.of("id", AttributeValue.fromS("c"))));
    }

    @AfterAll
    static void threeServersRan() {
        assertEquals(3, SERVERS.size());
    }
}
