package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.table.KinesisDataStreamDestination;
import io.stator.engine.table.KinesisStreamingDestinations;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeKinesisStreamingDestinationInput;
import java.io.IOException;

/**
 * DescribeKinesisStreamingDestination: {"TableName": ..., "KinesisDataStreamDestinations": [...]},
 * the table named by its name or ARN; an empty list for a table never streamed, as DynamoDB's.
 * An entry enabled without a precision shows none, and an ACTIVE one no description, as
 * DynamoDB's (docs/dynamodb/kinesis.md).
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
        KinesisStreamingDestinations described = engine.kinesis().describe(request.tableName());
        JsonGenerator g = response.json();
        g.writeStringField("TableName", described.tableName());
        g.writeArrayFieldStart("KinesisDataStreamDestinations");
        for (KinesisDataStreamDestination d : described.destinations()) {
            g.writeStartObject();
            g.writeStringField("StreamArn", d.streamArn());
            g.writeStringField("DestinationStatus", d.status().name());
            if (d.description() != null) g.writeStringField("DestinationStatusDescription", d.description());
            if (d.precision() != null) g.writeStringField("ApproximateCreationDateTimePrecision", d.precision().name());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
