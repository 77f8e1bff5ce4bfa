// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code GetRecordsInput}, as a request carries it. */
public record GetRecordsInput(
        String shardIterator,
        Integer limit) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ShardIterator",
            "Limit");

    /** The record of the members' values, in the model's order. */
    static GetRecordsInput of(Object[] values) {
        return new GetRecordsInput(
                (String) values[0],
                (Integer) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> shardIterator;
            case 1 -> limit;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
