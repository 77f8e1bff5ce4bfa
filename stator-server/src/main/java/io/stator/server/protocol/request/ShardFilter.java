// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ShardFilter}, as a request carries it. */
public record ShardFilter(
        String type,
        String shardId) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Type",
            "ShardId");

    /** The record of the members' values, in the model's order. */
    static ShardFilter of(Object[] values) {
        return new ShardFilter(
                (String) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> type;
            case 1 -> shardId;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
