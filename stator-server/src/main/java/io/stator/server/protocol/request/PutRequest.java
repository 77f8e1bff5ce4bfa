// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code PutRequest}, as a request carries it. */
public record PutRequest(
        Unvalidated<Map<String, AttributeValue>> item) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Item");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static PutRequest of(Object[] values) {
        return new PutRequest(
                (Unvalidated<Map<String, AttributeValue>>) values[0]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> item;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
