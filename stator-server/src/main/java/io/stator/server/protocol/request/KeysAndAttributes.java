// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code KeysAndAttributes}, as a request carries it. */
public record KeysAndAttributes(
        Unvalidated<List<Map<String, AttributeValue>>> keys,
        List<String> attributesToGet,
        Boolean consistentRead,
        String projectionExpression,
        Map<String, String> expressionAttributeNames) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Keys",
            "AttributesToGet",
            "ConsistentRead",
            "ProjectionExpression",
            "ExpressionAttributeNames");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static KeysAndAttributes of(Object[] values) {
        return new KeysAndAttributes(
                (Unvalidated<List<Map<String, AttributeValue>>>) values[0],
                (List<String>) values[1],
                (Boolean) values[2],
                (String) values[3],
                (Map<String, String>) values[4]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> keys;
            case 1 -> attributesToGet;
            case 2 -> consistentRead;
            case 3 -> projectionExpression;
            case 4 -> expressionAttributeNames;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
