// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code AttributeDefinition}, as a request carries it. */
public record AttributeDefinition(
        String attributeName,
        String attributeType) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "AttributeName",
            "AttributeType");

    /** The record of the members' values, in the model's order. */
    static AttributeDefinition of(Object[] values) {
        return new AttributeDefinition(
                (String) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> attributeName;
            case 1 -> attributeType;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
