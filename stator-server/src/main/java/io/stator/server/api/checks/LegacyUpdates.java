package io.stator.server.api.checks;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.write.ItemUpdate.AttributeUpdate;
import io.stator.engine.write.ItemUpdate;
import io.stator.server.protocol.request.AttributeValueUpdate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The legacy {@code AttributeUpdates} parameter of UpdateItem, checked with DynamoDB's messages
 * (which differ from UpdateExpression's) before anything else, as DynamoDB checks it, and given
 * to the engine as {@link ItemUpdate.AttributeUpdates}.
 */
public final class LegacyUpdates {

    private LegacyUpdates() {}

    /** The updates, or null when the request has none. */
    public static ItemUpdate.AttributeUpdates read(Map<String, AttributeValueUpdate> updates) {
        if (updates == null) return null;
        Map<String, AttributeUpdate> read = new LinkedHashMap<>();
        for (Map.Entry<String, AttributeValueUpdate> e : updates.entrySet()) {
            AttributeValue value = e.getValue().value() == null ? null : e.getValue().value().validated();
            String action = e.getValue().action() == null ? "PUT" : e.getValue().action();
            if (value == null && !action.equals("DELETE")) {
                throw DynamoDbException.invalidParameter("Only DELETE action is allowed when no attribute value is specified");
            }
            if (value != null && action.equals("DELETE")) {
                switch (value.type()) {
                    case SS, NS, BS -> { }
                    default -> throw DynamoDbException.invalidParameter(
                            "DELETE action with value is not supported for the type " + value.type());
                }
            }
            if (value != null && action.equals("ADD")) {
                switch (value.type()) {
                    case N, SS, NS, BS, L -> { }
                    default -> throw DynamoDbException.invalidParameter(
                            "ADD action is not supported for the type " + value.type());
                }
            }
            read.put(e.getKey(), new AttributeUpdate(AttributeUpdate.Action.valueOf(action), value));
        }
        return new ItemUpdate.AttributeUpdates(read);
    }
}
