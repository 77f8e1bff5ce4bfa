// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code Delete}, as a request carries it. */
public record Delete(
        Unvalidated<Map<String, AttributeValue>> key,
        String tableName,
        String conditionExpression,
        Map<String, String> expressionAttributeNames,
        Unvalidated<Map<String, AttributeValue>> expressionAttributeValues,
        ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Key",
            "TableName",
            "ConditionExpression",
            "ExpressionAttributeNames",
            "ExpressionAttributeValues",
            "ReturnValuesOnConditionCheckFailure");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static Delete of(Object[] values) {
        return new Delete(
                (Unvalidated<Map<String, AttributeValue>>) values[0],
                (String) values[1],
                (String) values[2],
                (Map<String, String>) values[3],
                (Unvalidated<Map<String, AttributeValue>>) values[4],
                (ReturnValuesOnConditionCheckFailure) values[5]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> key;
            case 1 -> tableName;
            case 2 -> conditionExpression;
            case 3 -> expressionAttributeNames;
            case 4 -> expressionAttributeValues;
            case 5 -> returnValuesOnConditionCheckFailure;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
