package io.stator.engine.table;

import java.util.List;

/**
 * DescribeKinesisStreamingDestination's answer: the table's name and its Kinesis data stream
 * destinations. Stator streams to no Kinesis data stream (EnableKinesisStreamingDestination is
 * not served), so a table has none: DynamoDB's answer for a table never streamed, an empty list.
 *
 * @param tableName    the table's name, also when it was named by its ARN
 * @param destinations DynamoDB's KinesisDataStreamDestinations, in its order
 */
public record KinesisStreamingDestinations(String tableName, List<Destination> destinations) {

    public KinesisStreamingDestinations {
        destinations = List.copyOf(destinations);
    }

    /**
     * One KinesisDataStreamDestination, in DynamoDB's vocabulary.
     *
     * @param streamArn                            the Kinesis data stream's ARN
     * @param destinationStatus                    ENABLING, ACTIVE, DISABLING, DISABLED, ENABLE_FAILED or UPDATING
     * @param destinationStatusDescription         null when DynamoDB gives none
     * @param approximateCreationDateTimePrecision MILLISECOND or MICROSECOND
     */
    public record Destination(String streamArn, String destinationStatus, String destinationStatusDescription,
                              String approximateCreationDateTimePrecision) {}
}
