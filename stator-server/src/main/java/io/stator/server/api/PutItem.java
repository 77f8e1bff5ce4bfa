package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.WriteResult;
import io.stator.server.access.Authorizer;
import io.stator.server.api.checks.WriteRequests;
import io.stator.server.api.json.ItemResponses;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.PutItemInput;
import java.io.IOException;

/** PutItem: replaces the whole item, under an optional condition (checks: {@link WriteRequests#put}). */
final class PutItem implements Action<PutItemInput> {

    private final Engine engine;

    PutItem(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(PutItemInput request, Authorizer access, ResponseBody response) throws IOException {
        ItemWrite write = WriteRequests.put(engine, request, WriteRequests.Access.of(access, null,
                request.returnConsumedCapacity()));
        WriteResult result = engine.items().write(write);

        JsonGenerator g = response.json();
        ItemResponses.writeAttributes(g, result);
        ItemResponses.writeConsumedCapacity(g, request.returnConsumedCapacity(), request.tableName(), result.consumed());
        ItemResponses.writeItemCollectionMetrics(g, request.returnItemCollectionMetrics(), result);
    }
}
