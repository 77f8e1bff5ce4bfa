// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code PutItemInput}, as a request carries it. */
public record PutItemInput(
        String tableName,
        Unvalidated<Map<String, AttributeValue>> item,
        Map<String, ExpectedAttributeValue> expected,
        ReturnValue returnValues,
        ReturnConsumedCapacity returnConsumedCapacity,
        ReturnItemCollectionMetrics returnItemCollectionMetrics,
        ConditionalOperator conditionalOperator,
        String conditionExpression,
        Map<String, String> expressionAttributeNames,
        Unvalidated<Map<String, AttributeValue>> expressionAttributeValues,
        ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "Item",
            "Expected",
            "ReturnValues",
            "ReturnConsumedCapacity",
            "ReturnItemCollectionMetrics",
            "ConditionalOperator",
            "ConditionExpression",
            "ExpressionAttributeNames",
            "ExpressionAttributeValues",
            "ReturnValuesOnConditionCheckFailure");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static PutItemInput of(Object[] values) {
        return new PutItemInput(
                (String) values[0],
                (Unvalidated<Map<String, AttributeValue>>) values[1],
                (Map<String, ExpectedAttributeValue>) values[2],
                (ReturnValue) values[3],
                (ReturnConsumedCapacity) values[4],
                (ReturnItemCollectionMetrics) values[5],
                (ConditionalOperator) values[6],
                (String) values[7],
                (Map<String, String>) values[8],
                (Unvalidated<Map<String, AttributeValue>>) values[9],
                (ReturnValuesOnConditionCheckFailure) values[10]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> item;
            case 2 -> expected;
            case 3 -> returnValues;
            case 4 -> returnConsumedCapacity;
            case 5 -> returnItemCollectionMetrics;
            case 6 -> conditionalOperator;
            case 7 -> conditionExpression;
            case 8 -> expressionAttributeNames;
            case 9 -> expressionAttributeValues;
            case 10 -> returnValuesOnConditionCheckFailure;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
