package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.table.KinesisDataStreamDestination.Precision;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.KinesisDestinationJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.KinesisStreamingDestinationInput;
import java.io.IOException;

/**
 * EnableKinesisStreamingDestination (its rules in the engine's {@code KinesisDestinations}): the
 * destination ENABLING, then ACTIVE once the stream is found at --kinesis-endpoint. DynamoDB
 * answers {"DestinationStatus": "ENABLING", "EnableKinesisStreamingConfiguration": {...},
 * "StreamArn": ..., "TableName": ...}, the configuration echoed ({} when none was sent; live probe,
 * ack-api-quirks DDB-TABLE-299).
 */
final class EnableKinesisStreamingDestination implements Action<KinesisStreamingDestinationInput> {

    private final Engine engine;

    EnableKinesisStreamingDestination(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(KinesisStreamingDestinationInput request, Authorizer access, ResponseBody response)
            throws IOException {
        if (access.enforced()) {
            Permissions.table(access, engine, "EnableKinesisStreamingDestination", request.tableName());
        }
        var configuration = request.enableKinesisStreamingConfiguration();
        Precision precision = configuration == null || configuration.approximateCreationDateTimePrecision() == null
                ? null : Precision.valueOf(configuration.approximateCreationDateTimePrecision());
        KinesisDestinationJson.write(response.json(),
                engine.kinesis().enable(request.tableName(), request.streamArn(), precision),
                "EnableKinesisStreamingConfiguration", precision);
    }
}
