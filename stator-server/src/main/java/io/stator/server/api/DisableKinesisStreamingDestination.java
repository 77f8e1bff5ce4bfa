package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.KinesisDestinationJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.KinesisStreamingDestinationInput;
import java.io.IOException;

/**
 * DisableKinesisStreamingDestination (its rules in the engine's {@code KinesisDestinations}): the
 * ACTIVE destination DISABLING, then DISABLED once delivery has stopped; the stream and the table
 * are left as they are. Its answer has Enable's shape.
 */
final class DisableKinesisStreamingDestination implements Action<KinesisStreamingDestinationInput> {

    private final Engine engine;

    DisableKinesisStreamingDestination(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(KinesisStreamingDestinationInput request, Authorizer access, ResponseBody response)
            throws IOException {
        if (access.enforced()) {
            Permissions.table(access, engine, "DisableKinesisStreamingDestination", request.tableName());
        }
        KinesisDestinationJson.write(response.json(), engine.kinesis().disable(request.tableName(),
                request.streamArn(), request.enableKinesisStreamingConfiguration() != null),
                "EnableKinesisStreamingConfiguration", null);
    }
}
