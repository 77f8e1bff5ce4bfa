// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code Update}, as a request carries it. */
public record Update(
        Unvalidated<Map<String, AttributeValue>> key,
        String updateExpression,
        String tableName,
        String conditionExpression,
        Map<String, String> expressionAttributeNames,
        Unvalidated<Map<String, AttributeValue>> expressionAttributeValues,
        ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Key",
            "UpdateExpression",
            "TableName",
            "ConditionExpression",
            "ExpressionAttributeNames",
            "ExpressionAttributeValues",
            "ReturnValuesOnConditionCheckFailure");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static Update of(Object[] values) {
        return new Update(
                (Unvalidated<Map<String, AttributeValue>>) values[0],
                (String) values[1],
                (String) values[2],
                (String) values[3],
                (Map<String, String>) values[4],
                (Unvalidated<Map<String, AttributeValue>>) values[5],
                (ReturnValuesOnConditionCheckFailure) values[6]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> key;
            case 1 -> updateExpression;
            case 2 -> tableName;
            case 3 -> conditionExpression;
            case 4 -> expressionAttributeNames;
            case 5 -> expressionAttributeValues;
            case 6 -> returnValuesOnConditionCheckFailure;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
