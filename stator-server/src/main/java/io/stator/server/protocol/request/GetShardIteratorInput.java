// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code GetShardIteratorInput}, as a request carries it. */
public record GetShardIteratorInput(
        String streamArn,
        String shardId,
        String shardIteratorType,
        String sequenceNumber) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "StreamArn",
            "ShardId",
            "ShardIteratorType",
            "SequenceNumber");

    /** The record of the members' values, in the model's order. */
    static GetShardIteratorInput of(Object[] values) {
        return new GetShardIteratorInput(
                (String) values[0],
                (String) values[1],
                (String) values[2],
                (String) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> streamArn;
            case 1 -> shardId;
            case 2 -> shardIteratorType;
            case 3 -> sequenceNumber;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
