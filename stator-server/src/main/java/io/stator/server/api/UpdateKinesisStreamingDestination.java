package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.table.KinesisDataStreamDestination.Precision;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.KinesisDestinationJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.UpdateKinesisStreamingDestinationInput;
import java.io.IOException;

/**
 * UpdateKinesisStreamingDestination (its rules in the engine's {@code KinesisDestinations}): the
 * ACTIVE destination's record precision changed, UPDATING then ACTIVE. DynamoDB answers
 * {"DestinationStatus": "UPDATING", "StreamArn", "TableName", "UpdateKinesisStreamingConfiguration"}
 * (API reference, the example).
 */
final class UpdateKinesisStreamingDestination implements Action<UpdateKinesisStreamingDestinationInput> {

    private final Engine engine;

    UpdateKinesisStreamingDestination(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(UpdateKinesisStreamingDestinationInput request, Authorizer access, ResponseBody response)
            throws IOException {
        if (access.enforced()) {
            Permissions.table(access, engine, "UpdateKinesisStreamingDestination", request.tableName());
        }
        var configuration = request.updateKinesisStreamingConfiguration();
        Precision precision = configuration == null || configuration.approximateCreationDateTimePrecision() == null
                ? null : Precision.valueOf(configuration.approximateCreationDateTimePrecision());
        KinesisDestinationJson.write(response.json(),
                engine.kinesis().update(request.tableName(), request.streamArn(), precision),
                "UpdateKinesisStreamingConfiguration", precision);
    }
}
