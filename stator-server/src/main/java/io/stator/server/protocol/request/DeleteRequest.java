// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code DeleteRequest}, as a request carries it. */
public record DeleteRequest(
        Unvalidated<Map<String, AttributeValue>> key) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Key");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static DeleteRequest of(Object[] values) {
        return new DeleteRequest(
                (Unvalidated<Map<String, AttributeValue>>) values[0]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> key;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
