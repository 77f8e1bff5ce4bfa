package io.stator.server;

import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.KeyShape;
import io.stator.server.testing.StatorTestServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Items survive a clean restart of the server on the same directory: what was put is there, as
 * it was put (numbers in canonical form), what was overwritten holds its last version, what was
 * deleted stays deleted, for every key configuration.
 */
class RestartTest {

    /** What each table should hold: key to item, or to null for a deleted item. */
    private final Map<String, Map<Map<String, AttributeValue>, Map<String, AttributeValue>>> expected =
            new LinkedHashMap<>();

    @Test
    void itemsSurviveRestartsOfTheServer() {
        try (StatorTestServer server = StatorTestServer.start()) {
            Map<KeyShape, String> tables = KeyShape.createTables(server.client());
            tables.forEach((shape, table) -> writeSome(server.client(), shape, table, 0));

            server.restart();
            checkEverything(server.client());

            // The restarted server takes writes, and they survive the next restart too.
            tables.forEach((shape, table) -> writeSome(server.client(), shape, table, 1));
            server.restart();
            checkEverything(server.client());
            assertEquals(tables.values().stream().sorted().toList(),
                    server.client().listTables().tableNames());
        }
    }

    /** Puts items of every value type, overwrites some and deletes some. */
    private void writeSome(DynamoDbClient client, KeyShape shape, String table, int generation) {
        Map<Map<String, AttributeValue>, Map<String, AttributeValue>> items =
                expected.computeIfAbsent(table, t -> new LinkedHashMap<>());
        for (int i = 0; i < 20; i++) {
            Map<String, AttributeValue> key = shape.newKey();
            Map<String, AttributeValue> attributes = new HashMap<>(key);
            attributes.put("generation", AttributeValue.fromN(Integer.toString(generation)));
            attributes.put("s", AttributeValue.fromS("\uD83D\uDE00 " + i));
            attributes.put("n", AttributeValue.fromN("-0015.789e6"));
            attributes.put("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, (byte) i, -1})));
            attributes.put("ns", AttributeValue.fromNs(List.of("1", "2.50")));
            attributes.put("m", AttributeValue.fromM(Map.of("l", AttributeValue.fromL(List.of(
                    AttributeValue.fromBool(true), AttributeValue.fromNul(true))))));
            // One item per table at the 400 KB limit.
            Map<String, AttributeValue> item = i == 0 ? DynamoSize.padded(attributes, 409_600) : attributes;
            client.putItem(b -> b.tableName(table).item(item));
            Map<String, AttributeValue> stored = new HashMap<>(item);
            stored.put("n", AttributeValue.fromN("-15789000"));
            stored.put("ns", AttributeValue.fromNs(List.of("1", "2.5")));
            items.put(key, stored);
        }
        List<Map<String, AttributeValue>> keys = new ArrayList<>(items.keySet());
        for (int i = 0; i < keys.size(); i += 3) {
            Map<String, AttributeValue> key = keys.get(i);
            client.deleteItem(b -> b.tableName(table).key(key));
            items.put(key, null);
        }
        for (int i = 1; i < keys.size(); i += 3) {
            Map<String, AttributeValue> replacement = new HashMap<>(keys.get(i));
            replacement.put("replaced", AttributeValue.fromS("generation " + generation));
            client.putItem(b -> b.tableName(table).item(replacement));
            items.put(keys.get(i), replacement);
        }
    }

    private void checkEverything(DynamoDbClient client) {
        expected.forEach((table, items) -> items.forEach((key, item) -> {
            var response = client.getItem(b -> b.tableName(table).key(key).consistentRead(true));
            if (item == null) {
                assertFalse(response.hasItem(), "deleted item came back: " + key);
            } else {
                assertSameItem(item, response.item());
            }
        }));
    }
}
