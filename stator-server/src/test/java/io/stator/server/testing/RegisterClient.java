package io.stator.server.testing;

import io.stator.server.testing.Linearizability.ConditionalPut;
import io.stator.server.testing.Linearizability.Delete;
import io.stator.server.testing.Linearizability.Get;
import io.stator.server.testing.Linearizability.Op;
import io.stator.server.testing.Linearizability.Outcome;
import io.stator.server.testing.Linearizability.Put;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * One client of {@link Linearizability}'s registers on a table keyed by a string "id"
 * ({@link StatorTestServer#createTable}): register {@code key} is the item whose id is {@code key},
 * its value the item's string attribute "v", absent with the item. Every operation goes through
 * the SDK client given (a region's, say) and is recorded in the history, errors included
 * ({@link History.Call#threw}). Gets are strongly consistent reads.
 */
public final class RegisterClient {

    private final History history;
    private final int client;
    private final DynamoDbClient dynamo;
    private final String table;

    public RegisterClient(History history, int client, DynamoDbClient dynamo, String table) {
        this.history = history;
        this.client = client;
        this.dynamo = dynamo;
        this.table = table;
    }

    /** Runs the operation, records it, and returns its outcome. */
    public Outcome run(Op op) {
        History.Call call = history.invoke(client, op);
        try {
            switch (op) {
                case Put p -> {
                    dynamo.putItem(b -> b.tableName(table).item(item(p.key(), p.value())));
                    call.ok();
                }
                case Delete d -> {
                    dynamo.deleteItem(b -> b.tableName(table).key(key(d.key())));
                    call.ok();
                }
                case Get g -> {
                    GetItemResponse response = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                            .key(key(g.key())));
                    call.read(response.hasItem() && !response.item().isEmpty() ? response.item().get("v").s() : null);
                }
                case ConditionalPut c -> {
                    dynamo.putItem(b -> {
                        b.tableName(table).item(item(c.key(), c.value()));
                        if (c.expected() == null) {
                            b.conditionExpression("attribute_not_exists(id)");
                        } else {
                            b.conditionExpression("#v = :expected").expressionAttributeNames(Map.of("#v", "v"))
                                    .expressionAttributeValues(Map.of(":expected", AttributeValue.fromS(c.expected())));
                        }
                    });
                    call.ok();
                }
            }
        } catch (SdkException e) {
            call.threw(e);
        }
        return call.outcome();
    }

    private static Map<String, AttributeValue> key(String key) {
        return Map.of("id", AttributeValue.fromS(key));
    }

    private static Map<String, AttributeValue> item(String key, String value) {
        return Map.of("id", AttributeValue.fromS(key), "v", AttributeValue.fromS(value));
    }
}
