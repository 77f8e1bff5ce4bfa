package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.table.TimeToLiveDescription;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeTimeToLiveInput;
import java.io.IOException;

/**
 * DescribeTimeToLive: {"TimeToLiveDescription": {"TimeToLiveStatus": ..., "AttributeName": ...}},
 * without AttributeName when DISABLED, whether it never was enabled or was disabled since (live
 * probe, ack-api-quirks DDB-TABLE-144).
 */
final class DescribeTimeToLive implements Action<DescribeTimeToLiveInput> {

    private final Engine engine;

    DescribeTimeToLive(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DescribeTimeToLiveInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.table(access, engine, "DescribeTimeToLive", request.tableName());
        TimeToLiveDescription ttl = engine.timeToLive().describe(request.tableName());
        JsonGenerator g = response.json();
        g.writeObjectFieldStart("TimeToLiveDescription");
        g.writeStringField("TimeToLiveStatus", ttl.status().name());
        if (ttl.attributeName() != null) g.writeStringField("AttributeName", ttl.attributeName());
        g.writeEndObject();
    }
}
