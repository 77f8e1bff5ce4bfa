// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code DescribeStreamInput}, as a request carries it. */
public record DescribeStreamInput(
        String streamArn,
        Integer limit,
        String exclusiveStartShardId,
        ShardFilter shardFilter) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "StreamArn",
            "Limit",
            "ExclusiveStartShardId",
            "ShardFilter");

    /** The record of the members' values, in the model's order. */
    static DescribeStreamInput of(Object[] values) {
        return new DescribeStreamInput(
                (String) values[0],
                (Integer) values[1],
                (String) values[2],
                (ShardFilter) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> streamArn;
            case 1 -> limit;
            case 2 -> exclusiveStartShardId;
            case 3 -> shardFilter;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
