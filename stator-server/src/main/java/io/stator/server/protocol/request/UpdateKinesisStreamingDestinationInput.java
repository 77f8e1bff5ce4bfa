// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code UpdateKinesisStreamingDestinationInput}, as a request carries it. */
public record UpdateKinesisStreamingDestinationInput(
        String tableName,
        String streamArn,
        UpdateKinesisStreamingConfiguration updateKinesisStreamingConfiguration) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "StreamArn",
            "UpdateKinesisStreamingConfiguration");

    /** The record of the members' values, in the model's order. */
    static UpdateKinesisStreamingDestinationInput of(Object[] values) {
        return new UpdateKinesisStreamingDestinationInput(
                (String) values[0],
                (String) values[1],
                (UpdateKinesisStreamingConfiguration) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> streamArn;
            case 2 -> updateKinesisStreamingConfiguration;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
