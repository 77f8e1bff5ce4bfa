// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code VectorAttributeDefinition}, as a request carries it. */
public record VectorAttributeDefinition(
        String attributeName) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "AttributeName");

    /** The record of the members' values, in the model's order. */
    static VectorAttributeDefinition of(Object[] values) {
        return new VectorAttributeDefinition(
                (String) values[0]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> attributeName;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
