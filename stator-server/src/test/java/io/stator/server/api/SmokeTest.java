package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.StatorTestServer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

class SmokeTest {

    @Test
    void createPutGet() {
        try (StatorTestServer server = StatorTestServer.start()) {
            DynamoDbClient c = server.client();
            String table = StatorTestServer.tableName();
            c.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(d -> d.attributeName("id").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));
            c.putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS("a"),
                    "n", AttributeValue.fromN("1.50"))));
            Map<String, AttributeValue> item = c.getItem(b -> b.tableName(table)
                    .key(Map.of("id", AttributeValue.fromS("a")))).item();
            assertEquals("1.5", item.get("n").n());
            server.restart();
            item = server.client().getItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS("a")))).item();
            assertEquals("1.5", item.get("n").n());
        }
    }
}
