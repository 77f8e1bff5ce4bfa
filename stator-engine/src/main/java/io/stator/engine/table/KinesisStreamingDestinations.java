package io.stator.engine.table;

import java.util.List;

/**
 * DescribeKinesisStreamingDestination's answer: the table's name and its Kinesis data stream
 * destinations (an empty list for a table never streamed, as DynamoDB's).
 *
 * @param tableName    the table's name, also when it was named by its ARN
 * @param destinations DynamoDB's KinesisDataStreamDestinations, in the order first enabled
 */
public record KinesisStreamingDestinations(String tableName, List<KinesisDataStreamDestination> destinations) {

    public KinesisStreamingDestinations {
        destinations = List.copyOf(destinations);
    }
}
