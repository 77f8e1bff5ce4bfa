// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code Projection}, as a request carries it. */
public record Projection(
        String projectionType,
        List<String> nonKeyAttributes) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ProjectionType",
            "NonKeyAttributes");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static Projection of(Object[] values) {
        return new Projection(
                (String) values[0],
                (List<String>) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> projectionType;
            case 1 -> nonKeyAttributes;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
