// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code WarmThroughput}, as a request carries it. */
public record WarmThroughput(
        Long readUnitsPerSecond,
        Long writeUnitsPerSecond) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ReadUnitsPerSecond",
            "WriteUnitsPerSecond");

    /** The record of the members' values, in the model's order. */
    static WarmThroughput of(Object[] values) {
        return new WarmThroughput(
                (Long) values[0],
                (Long) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> readUnitsPerSecond;
            case 1 -> writeUnitsPerSecond;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
