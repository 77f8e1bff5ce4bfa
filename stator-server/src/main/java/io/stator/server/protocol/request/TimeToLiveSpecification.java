// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code TimeToLiveSpecification}, as a request carries it. */
public record TimeToLiveSpecification(
        Boolean enabled,
        String attributeName) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Enabled",
            "AttributeName");

    /** The record of the members' values, in the model's order. */
    static TimeToLiveSpecification of(Object[] values) {
        return new TimeToLiveSpecification(
                (Boolean) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> enabled;
            case 1 -> attributeName;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
