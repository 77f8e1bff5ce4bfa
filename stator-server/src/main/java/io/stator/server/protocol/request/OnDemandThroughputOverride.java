// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code OnDemandThroughputOverride}, as a request carries it. */
public record OnDemandThroughputOverride(
        Long maxReadRequestUnits) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "MaxReadRequestUnits");

    /** The record of the members' values, in the model's order. */
    static OnDemandThroughputOverride of(Object[] values) {
        return new OnDemandThroughputOverride(
                (Long) values[0]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> maxReadRequestUnits;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
