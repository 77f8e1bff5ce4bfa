// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code DeleteItemInput}, as a request carries it. */
public record DeleteItemInput(
        String tableName,
        Unvalidated<Map<String, AttributeValue>> key,
        Map<String, ExpectedAttributeValue> expected,
        ConditionalOperator conditionalOperator,
        ReturnValue returnValues,
        ReturnConsumedCapacity returnConsumedCapacity,
        ReturnItemCollectionMetrics returnItemCollectionMetrics,
        String conditionExpression,
        Map<String, String> expressionAttributeNames,
        Unvalidated<Map<String, AttributeValue>> expressionAttributeValues,
        ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "Key",
            "Expected",
            "ConditionalOperator",
            "ReturnValues",
            "ReturnConsumedCapacity",
            "ReturnItemCollectionMetrics",
            "ConditionExpression",
            "ExpressionAttributeNames",
            "ExpressionAttributeValues",
            "ReturnValuesOnConditionCheckFailure");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static DeleteItemInput of(Object[] values) {
        return new DeleteItemInput(
                (String) values[0],
                (Unvalidated<Map<String, AttributeValue>>) values[1],
                (Map<String, ExpectedAttributeValue>) values[2],
                (ConditionalOperator) values[3],
                (ReturnValue) values[4],
                (ReturnConsumedCapacity) values[5],
                (ReturnItemCollectionMetrics) values[6],
                (String) values[7],
                (Map<String, String>) values[8],
                (Unvalidated<Map<String, AttributeValue>>) values[9],
                (ReturnValuesOnConditionCheckFailure) values[10]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> key;
            case 2 -> expected;
            case 3 -> conditionalOperator;
            case 4 -> returnValues;
            case 5 -> returnConsumedCapacity;
            case 6 -> returnItemCollectionMetrics;
            case 7 -> conditionExpression;
            case 8 -> expressionAttributeNames;
            case 9 -> expressionAttributeValues;
            case 10 -> returnValuesOnConditionCheckFailure;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
