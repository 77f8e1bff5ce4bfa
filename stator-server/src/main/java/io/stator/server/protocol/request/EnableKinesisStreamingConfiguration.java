// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code EnableKinesisStreamingConfiguration}, as a request carries it. */
public record EnableKinesisStreamingConfiguration(
        String approximateCreationDateTimePrecision) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ApproximateCreationDateTimePrecision");

    /** The record of the members' values, in the model's order. */
    static EnableKinesisStreamingConfiguration of(Object[] values) {
        return new EnableKinesisStreamingConfiguration(
                (String) values[0]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> approximateCreationDateTimePrecision;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
