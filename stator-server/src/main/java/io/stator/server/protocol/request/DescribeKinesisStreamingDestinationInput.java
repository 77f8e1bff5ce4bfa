// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code DescribeKinesisStreamingDestinationInput}, as a request carries it. */
public record DescribeKinesisStreamingDestinationInput(
        String tableName) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName");

    /** The record of the members' values, in the model's order. */
    static DescribeKinesisStreamingDestinationInput of(Object[] values) {
        return new DescribeKinesisStreamingDestinationInput(
                (String) values[0]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
