package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.UpdateApplier;
import io.stator.core.model.AttributeValue;
import io.stator.server.protocol.Struct;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The legacy {@code AttributeUpdates} parameter of UpdateItem: per top-level attribute, PUT (the
 * default) a value, ADD to a number, set or list, or DELETE the attribute or some of a set's
 * elements. Checked and applied with DynamoDB's messages, which differ from UpdateExpression's.
 */
final class LegacyUpdates {

    private static final Supplier<DynamoDbException> MISMATCH =
            () -> DynamoDbException.validation("Type mismatch for attribute to update");

    private LegacyUpdates() {}

    /** Checks each update's action against its value, as DynamoDB does before anything else. */
    static Map<String, Struct> read(Struct request) {
        Map<String, Struct> updates = request.structMap("AttributeUpdates");
        if (updates == null) return null;
        for (Struct update : updates.values()) {
            AttributeValue value = update.attributeValue("Value");
            String action = update.string("Action", "PUT");
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
        }
        return updates;
    }

    static Map<String, AttributeValue> apply(Map<String, Struct> updates, Map<String, AttributeValue> base) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(base);
        for (Map.Entry<String, Struct> e : updates.entrySet()) {
            String name = e.getKey();
            AttributeValue value = e.getValue().attributeValue("Value");
            AttributeValue next = switch (e.getValue().string("Action", "PUT")) {
                case "PUT" -> value;
                case "ADD" -> UpdateApplier.add(item.get(name), value, MISMATCH);
                default -> value == null ? null : UpdateApplier.delete(item.get(name), value, MISMATCH);
            };
            if (next == null) item.remove(name);
            else item.put(name, next);
        }
        return item;
    }
}
