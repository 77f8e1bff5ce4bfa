package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.TimeToLiveSpecification;
import io.stator.server.protocol.request.UpdateTimeToLiveInput;
import java.io.IOException;

/**
 * UpdateTimeToLive (its rules in the engine's {@code TimeToLive}). DynamoDB answers with the
 * specification it was sent, not the status it leads to: {"TimeToLiveSpecification": {"Enabled":
 * true, "AttributeName": "x"}} (live probe, ack-api-quirks DDB-TABLE-145).
 */
final class UpdateTimeToLive implements Action<UpdateTimeToLiveInput> {

    private final Engine engine;

    UpdateTimeToLive(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(UpdateTimeToLiveInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.table(access, engine, "UpdateTimeToLive", request.tableName());
        TimeToLiveSpecification spec = request.timeToLiveSpecification();
        engine.timeToLive().update(request.tableName(), spec.enabled(), spec.attributeName());
        JsonGenerator g = response.json();
        g.writeObjectFieldStart("TimeToLiveSpecification");
        g.writeBooleanField("Enabled", spec.enabled());
        g.writeStringField("AttributeName", spec.attributeName());
        g.writeEndObject();
    }
}
