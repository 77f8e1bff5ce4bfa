package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.table.KinesisStreamingDestinations;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeKinesisStreamingDestinationInput;
import java.io.IOException;

/**
 * DescribeKinesisStreamingDestination: {"TableName": ..., "KinesisDataStreamDestinations": [...]},
 * the table named by its name or ARN. Stator streams to no Kinesis data stream, so the list is
 * empty, as DynamoDB's for a table never streamed.
 */
final class DescribeKinesisStreamingDestination implements Action<DescribeKinesisStreamingDestinationInput> {

    private final Engine engine;

    DescribeKinesisStreamingDestination(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DescribeKinesisStreamingDestinationInput request, Authorizer access, ResponseBody response)
            throws IOException {
        if (access.enforced()) {
            Permissions.table(access, engine, "DescribeKinesisStreamingDestination", request.tableName());
        }
        KinesisStreamingDestinations described = engine.tables().kinesisStreamingDestinations(request.tableName());
        JsonGenerator g = response.json();
        g.writeStringField("TableName", described.tableName());
        g.writeArrayFieldStart("KinesisDataStreamDestinations");
        for (KinesisStreamingDestinations.Destination d : described.destinations()) {
            g.writeStartObject();
            g.writeStringField("StreamArn", d.streamArn());
            g.writeStringField("DestinationStatus", d.destinationStatus());
            if (d.destinationStatusDescription() != null) {
                g.writeStringField("DestinationStatusDescription", d.destinationStatusDescription());
            }
            g.writeStringField("ApproximateCreationDateTimePrecision", d.approximateCreationDateTimePrecision());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
