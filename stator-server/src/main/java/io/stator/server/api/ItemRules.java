package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.item.ItemOperations;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * What the item actions share: DynamoDB's item limits (400 KB by its size rules, 32 levels of
 * nesting), its ReturnValues rules, and how consumed capacity is reported.
 */
final class ItemRules {

    /**
     * Documents nest 32 levels deep, the attribute itself being level 1: an attribute holding
     * 31 maps (or lists) around a string is the deepest DynamoDB takes, one more map is refused
     * (probed against DynamoDB, docs/dynamodb/dynamodb-errors.md section 9.2).
     */
    static final int MAX_NESTING_LEVELS = 32;

    private ItemRules() {}

    static void checkItemSize(Map<String, AttributeValue> item) {
        if (ItemSize.of(item) > ItemSize.MAX_ITEM_SIZE) {
            throw DynamoDbException.validation("Item size has exceeded the maximum allowed size");
        }
    }

    /** UpdateItem's wording of the same limit, checked on the item the update produces. */
    static void checkUpdatedItemSize(Map<String, AttributeValue> item) {
        if (ItemSize.of(item) > ItemSize.MAX_ITEM_SIZE) {
            throw DynamoDbException.validation("Item size to update has exceeded the maximum allowed size");
        }
    }

    static void checkNesting(Map<String, AttributeValue> item) {
        for (AttributeValue value : item.values()) {
            if (exceedsNestingLevels(value, 1)) {
                throw DynamoDbException.validation("Nesting Levels have exceeded supported limits: "
                        + "Attributes in the item have nested levels beyond supported limit");
            }
        }
    }

    /**
     * True if the value, found at {@code level}, or anything inside it lies deeper than
     * {@link #MAX_NESTING_LEVELS}. Stops descending at the limit, so a hostile request cannot
     * make this recurse further than the limit allows.
     */
    private static boolean exceedsNestingLevels(AttributeValue value, int level) {
        if (level > MAX_NESTING_LEVELS) return true;
        Iterable<AttributeValue> members = switch (value) {
            case AttributeValue.M m -> m.values().values();
            case AttributeValue.L l -> l.values();
            default -> List.of();
        };
        for (AttributeValue member : members) {
            if (exceedsNestingLevels(member, level + 1)) return true;
        }
        return false;
    }

    /**
     * The condition of a PutItem or DeleteItem: its legacy Expected, or its ConditionExpression,
     * checked (with the placeholders) in DynamoDB's order.
     */
    static Condition condition(Struct request) {
        Condition condition = LegacyConditions.expected(request);
        ExpressionContext expressions = ExpressionParameters.context(request);
        if (request.has("ConditionExpression")) {
            condition = expressions.condition(ExpressionKind.CONDITION, request.string("ConditionExpression"));
        }
        expressions.checkAllUsed();
        return condition;
    }

    static boolean returnsOldItemOnFailure(Struct request) {
        return "ALL_OLD".equals(request.string("ReturnValuesOnConditionCheckFailure"));
    }

    /** PutItem and DeleteItem return only the old item, or nothing. */
    static boolean returnsOldItem(String returnValues) {
        if (returnValues == null || returnValues.equals("NONE")) return false;
        if (returnValues.equals("ALL_OLD")) return true;
        throw DynamoDbException.validation("ReturnValues can only be ALL_OLD or NONE");
    }

    /** Writes the item a write replaced or deleted, when ReturnValues asked for it and there was one. */
    static void writeOldItem(JsonGenerator g, boolean returnOld, Map<String, AttributeValue> oldItem)
            throws IOException {
        if (!returnOld || oldItem == null) return;
        g.writeFieldName("Attributes");
        AttributeValueJson.writeItem(g, oldItem);
    }

    /**
     * Writes ConsumedCapacity when the request's ReturnConsumedCapacity asks for it: TOTAL gives
     * the sum, INDEXES also the table's part and each index's (an index that cost nothing is
     * left out). The table is named as the request named it: by ARN if it was addressed by ARN,
     * as DynamoDB's API reference says of ConsumedCapacity.TableName.
     */
    static void writeConsumedCapacity(JsonGenerator g, Struct request, ConsumedCapacity consumed) throws IOException {
        String mode = request.string("ReturnConsumedCapacity");
        if (mode == null || mode.equals("NONE")) return;
        g.writeFieldName("ConsumedCapacity");
        writeCapacity(g, mode, request.string("TableName"), consumed, null);
    }

    /**
     * The ConsumedCapacity of an operation on several tables (batches, transactions): a list,
     * one entry per table, in the order the request first names them. A transaction's entries
     * repeat each part's units as ReadCapacityUnits or WriteCapacityUnits (as measured on
     * DynamoDB); a batch's do not.
     *
     * @param unitsField "ReadCapacityUnits", "WriteCapacityUnits", or null
     */
    static void writeConsumedCapacities(JsonGenerator g, Struct request, Map<String, ConsumedCapacity> byTable,
                                        String unitsField) throws IOException {
        String mode = request.string("ReturnConsumedCapacity");
        if (mode == null || mode.equals("NONE")) return;
        g.writeArrayFieldStart("ConsumedCapacity");
        for (Map.Entry<String, ConsumedCapacity> e : byTable.entrySet()) writeCapacity(g, mode, e.getKey(), e.getValue(), unitsField);
        g.writeEndArray();
    }

    private static void writeCapacity(JsonGenerator g, String mode, String tableName, ConsumedCapacity consumed,
                                      String unitsField) throws IOException {
        g.writeStartObject();
        g.writeStringField("TableName", tableName);
        writeUnits(g, consumed.total(), unitsField);
        if (mode.equals("INDEXES")) {
            g.writeObjectFieldStart("Table");
            writeUnits(g, consumed.tableUnits(), unitsField);
            g.writeEndObject();
            writeIndexUnits(g, "GlobalSecondaryIndexes", consumed.globalIndexUnits(), unitsField);
            writeIndexUnits(g, "LocalSecondaryIndexes", consumed.localIndexUnits(), unitsField);
        }
        g.writeEndObject();
    }

    private static void writeUnits(JsonGenerator g, double units, String unitsField) throws IOException {
        g.writeNumberField("CapacityUnits", units);
        if (unitsField != null) g.writeNumberField(unitsField, units);
    }

    /**
     * Writes ItemCollectionMetrics when ReturnItemCollectionMetrics is SIZE and the table has a
     * local secondary index (DynamoDB returns none otherwise): the item's partition key, and the
     * collection's size as a range in GB. DynamoDB calls the range a rough estimate; here it is
     * the whole gigabytes below and above the exact size.
     */
    static void writeItemCollectionMetrics(JsonGenerator g, Struct request, TableDefinition table,
                                           ItemOperations.WriteResult result) throws IOException {
        if (!returnsItemCollectionMetrics(request) || result.itemCollectionSize() < 0) return;
        g.writeFieldName("ItemCollectionMetrics");
        writeItemCollectionMetrics(g, table, result);
    }

    static boolean returnsItemCollectionMetrics(Struct request) {
        return "SIZE".equals(request.string("ReturnItemCollectionMetrics"));
    }

    /** One write's ItemCollectionMetrics object (the write must be on a table with a local index). */
    static void writeItemCollectionMetrics(JsonGenerator g, TableDefinition table, ItemOperations.WriteResult result)
            throws IOException {
        Map<String, AttributeValue> item = result.newItem() != null ? result.newItem() : result.oldItem();
        String partitionKey = table.keySchema().partitionKey();
        double gigabytes = Math.floor(result.itemCollectionSize() / (1024.0 * 1024 * 1024));
        g.writeStartObject();
        g.writeFieldName("ItemCollectionKey");
        AttributeValueJson.writeItem(g, Map.of(partitionKey, item.get(partitionKey)));
        g.writeArrayFieldStart("SizeEstimateRangeGB");
        g.writeNumber(gigabytes);
        g.writeNumber(gigabytes + 1);
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void writeIndexUnits(JsonGenerator g, String field, Map<String, Double> units, String unitsField)
            throws IOException {
        if (units.isEmpty()) return;
        g.writeObjectFieldStart(field);
        for (Map.Entry<String, Double> e : units.entrySet()) {
            g.writeObjectFieldStart(e.getKey());
            writeUnits(g, e.getValue(), unitsField);
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
