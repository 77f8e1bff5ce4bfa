// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code GetItemInput}, as a request carries it. */
public record GetItemInput(
        String tableName,
        Unvalidated<Map<String, AttributeValue>> key,
        List<String> attributesToGet,
        Boolean consistentRead,
        ReturnConsumedCapacity returnConsumedCapacity,
        String projectionExpression,
        Map<String, String> expressionAttributeNames) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "Key",
            "AttributesToGet",
            "ConsistentRead",
            "ReturnConsumedCapacity",
            "ProjectionExpression",
            "ExpressionAttributeNames");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static GetItemInput of(Object[] values) {
        return new GetItemInput(
                (String) values[0],
                (Unvalidated<Map<String, AttributeValue>>) values[1],
                (List<String>) values[2],
                (Boolean) values[3],
                (ReturnConsumedCapacity) values[4],
                (String) values[5],
                (Map<String, String>) values[6]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> key;
            case 2 -> attributesToGet;
            case 3 -> consistentRead;
            case 4 -> returnConsumedCapacity;
            case 5 -> projectionExpression;
            case 6 -> expressionAttributeNames;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
