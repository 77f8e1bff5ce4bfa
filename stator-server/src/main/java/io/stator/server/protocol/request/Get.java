// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code Get}, as a request carries it. */
public record Get(
        Unvalidated<Map<String, AttributeValue>> key,
        String tableName,
        String projectionExpression,
        Map<String, String> expressionAttributeNames) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Key",
            "TableName",
            "ProjectionExpression",
            "ExpressionAttributeNames");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static Get of(Object[] values) {
        return new Get(
                (Unvalidated<Map<String, AttributeValue>>) values[0],
                (String) values[1],
                (String) values[2],
                (Map<String, String>) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> key;
            case 1 -> tableName;
            case 2 -> projectionExpression;
            case 3 -> expressionAttributeNames;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
