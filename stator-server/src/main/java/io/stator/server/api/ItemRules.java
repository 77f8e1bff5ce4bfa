package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import java.io.IOException;
import java.util.Map;

/**
 * What the item actions share: DynamoDB's item limits (400 KB by its size rules, 32 levels of
 * nesting), its ReturnValues rules, and how consumed capacity is reported.
 */
final class ItemRules {

    /** 400 KB; an item of exactly this size is accepted. */
    static final long MAX_ITEM_BYTES = 409_600;
    /** Maps and lists may nest 32 levels deep. */
    static final int MAX_NESTING_DEPTH = 32;

    private ItemRules() {}

    static void checkItemSize(Map<String, AttributeValue> item) {
        if (ItemSize.of(item) > MAX_ITEM_BYTES) {
            throw DynamoDbException.validation("Item size has exceeded the maximum allowed size");
        }
    }

    /** UpdateItem's wording of the same limit, checked on the item the update produces. */
    static void checkUpdatedItemSize(Map<String, AttributeValue> item) {
        if (ItemSize.of(item) > MAX_ITEM_BYTES) {
            throw DynamoDbException.validation("Item size to update has exceeded the maximum allowed size");
        }
    }

    static void checkNesting(Map<String, AttributeValue> item) {
        for (AttributeValue value : item.values()) {
            if (depth(value, 0) > MAX_NESTING_DEPTH) {
                throw DynamoDbException.validation("Nesting Levels have exceeded supported limits: "
                        + "Attributes in the item have nested levels beyond supported limit");
            }
        }
    }

    /** The nesting depth of a value: 0 for a scalar or set, 1 + the deepest element for M and L. */
    private static int depth(AttributeValue value, int depthSoFar) {
        if (depthSoFar > MAX_NESTING_DEPTH) return depthSoFar; // deep enough to refuse; stop here
        int deepest = 0;
        switch (value) {
            case AttributeValue.M m -> {
                for (AttributeValue v : m.values().values()) deepest = Math.max(deepest, depth(v, depthSoFar + 1));
                return 1 + deepest;
            }
            case AttributeValue.L l -> {
                for (AttributeValue v : l.values()) deepest = Math.max(deepest, depth(v, depthSoFar + 1));
                return 1 + deepest;
            }
            default -> {
                return 0;
            }
        }
    }

    /** PutItem and DeleteItem return only the old item, or nothing. */
    static boolean returnsOldItem(String returnValues) {
        if (returnValues == null || returnValues.equals("NONE")) return false;
        if (returnValues.equals("ALL_OLD")) return true;
        throw DynamoDbException.validation("ReturnValues can only be ALL_OLD or NONE");
    }

    /** Writes ConsumedCapacity when ReturnConsumedCapacity asks for it (TOTAL or INDEXES). */
    static void writeConsumedCapacity(JsonGenerator g, String returnConsumedCapacity, String tableName,
                                      double units) throws IOException {
        if (returnConsumedCapacity == null || returnConsumedCapacity.equals("NONE")) return;
        g.writeObjectFieldStart("ConsumedCapacity");
        g.writeStringField("TableName", tableName);
        g.writeNumberField("CapacityUnits", units);
        if (returnConsumedCapacity.equals("INDEXES")) {
            g.writeObjectFieldStart("Table");
            g.writeNumberField("CapacityUnits", units);
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
