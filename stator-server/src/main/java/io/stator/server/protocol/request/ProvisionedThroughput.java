// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ProvisionedThroughput}, as a request carries it. */
public record ProvisionedThroughput(
        Long readCapacityUnits,
        Long writeCapacityUnits) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ReadCapacityUnits",
            "WriteCapacityUnits");

    /** The record of the members' values, in the model's order. */
    static ProvisionedThroughput of(Object[] values) {
        return new ProvisionedThroughput(
                (Long) values[0],
                (Long) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> readCapacityUnits;
            case 1 -> writeCapacityUnits;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
