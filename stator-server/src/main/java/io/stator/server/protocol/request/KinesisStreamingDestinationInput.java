// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code KinesisStreamingDestinationInput}, as a request carries it. */
public record KinesisStreamingDestinationInput(
        String tableName,
        String streamArn,
        EnableKinesisStreamingConfiguration enableKinesisStreamingConfiguration) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "StreamArn",
            "EnableKinesisStreamingConfiguration");

    /** The record of the members' values, in the model's order. */
    static KinesisStreamingDestinationInput of(Object[] values) {
        return new KinesisStreamingDestinationInput(
                (String) values[0],
                (String) values[1],
                (EnableKinesisStreamingConfiguration) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> streamArn;
            case 2 -> enableKinesisStreamingConfiguration;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
