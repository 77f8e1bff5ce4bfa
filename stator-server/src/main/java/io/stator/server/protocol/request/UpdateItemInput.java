// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code UpdateItemInput}, as a request carries it. */
public record UpdateItemInput(
        String tableName,
        Unvalidated<Map<String, AttributeValue>> key,
        Map<String, AttributeValueUpdate> attributeUpdates,
        Map<String, ExpectedAttributeValue> expected,
        ConditionalOperator conditionalOperator,
        ReturnValue returnValues,
        ReturnConsumedCapacity returnConsumedCapacity,
        ReturnItemCollectionMetrics returnItemCollectionMetrics,
        String updateExpression,
        String conditionExpression,
        Map<String, String> expressionAttributeNames,
        Unvalidated<Map<String, AttributeValue>> expressionAttributeValues,
        ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "Key",
            "AttributeUpdates",
            "Expected",
            "ConditionalOperator",
            "ReturnValues",
            "ReturnConsumedCapacity",
            "ReturnItemCollectionMetrics",
            "UpdateExpression",
            "ConditionExpression",
            "ExpressionAttributeNames",
            "ExpressionAttributeValues",
            "ReturnValuesOnConditionCheckFailure");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static UpdateItemInput of(Object[] values) {
        return new UpdateItemInput(
                (String) values[0],
                (Unvalidated<Map<String, AttributeValue>>) values[1],
                (Map<String, AttributeValueUpdate>) values[2],
                (Map<String, ExpectedAttributeValue>) values[3],
                (ConditionalOperator) values[4],
                (ReturnValue) values[5],
                (ReturnConsumedCapacity) values[6],
                (ReturnItemCollectionMetrics) values[7],
                (String) values[8],
                (String) values[9],
                (Map<String, String>) values[10],
                (Unvalidated<Map<String, AttributeValue>>) values[11],
                (ReturnValuesOnConditionCheckFailure) values[12]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> key;
            case 2 -> attributeUpdates;
            case 3 -> expected;
            case 4 -> conditionalOperator;
            case 5 -> returnValues;
            case 6 -> returnConsumedCapacity;
            case 7 -> returnItemCollectionMetrics;
            case 8 -> updateExpression;
            case 9 -> conditionExpression;
            case 10 -> expressionAttributeNames;
            case 11 -> expressionAttributeValues;
            case 12 -> returnValuesOnConditionCheckFailure;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
