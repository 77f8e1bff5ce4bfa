// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code UpdateTimeToLiveInput}, as a request carries it. */
public record UpdateTimeToLiveInput(
        String tableName,
        TimeToLiveSpecification timeToLiveSpecification) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "TimeToLiveSpecification");

    /** The record of the members' values, in the model's order. */
    static UpdateTimeToLiveInput of(Object[] values) {
        return new UpdateTimeToLiveInput(
                (String) values[0],
                (TimeToLiveSpecification) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> timeToLiveSpecification;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
