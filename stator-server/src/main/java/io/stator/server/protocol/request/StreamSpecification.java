// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code StreamSpecification}, as a request carries it. */
public record StreamSpecification(
        Boolean streamEnabled,
        String streamViewType) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "StreamEnabled",
            "StreamViewType");

    /** The record of the members' values, in the model's order. */
    static StreamSpecification of(Object[] values) {
        return new StreamSpecification(
                (Boolean) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> streamEnabled;
            case 1 -> streamViewType;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
