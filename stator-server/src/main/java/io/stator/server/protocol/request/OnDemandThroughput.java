// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code OnDemandThroughput}, as a request carries it. */
public record OnDemandThroughput(
        Long maxReadRequestUnits,
        Long maxWriteRequestUnits) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "MaxReadRequestUnits",
            "MaxWriteRequestUnits");

    /** The record of the members' values, in the model's order. */
    static OnDemandThroughput of(Object[] values) {
        return new OnDemandThroughput(
                (Long) values[0],
                (Long) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> maxReadRequestUnits;
            case 1 -> maxWriteRequestUnits;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
