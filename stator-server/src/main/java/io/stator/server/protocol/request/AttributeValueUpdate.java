// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;

/** DynamoDB's {@code AttributeValueUpdate}, as a request carries it. */
public record AttributeValueUpdate(
        Unvalidated<AttributeValue> value,
        String action) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Value",
            "Action");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static AttributeValueUpdate of(Object[] values) {
        return new AttributeValueUpdate(
                (Unvalidated<AttributeValue>) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> value;
            case 1 -> action;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
