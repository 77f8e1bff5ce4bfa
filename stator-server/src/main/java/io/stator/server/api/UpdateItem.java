package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.WriteResult;
import io.stator.server.access.Authorizer;
import io.stator.server.api.checks.WriteRequests;
import io.stator.server.api.json.ItemResponses;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.UpdateItemInput;
import java.io.IOException;

/**
 * UpdateItem: an UpdateExpression (or legacy AttributeUpdates) applied to the item, created when
 * absent (an upsert), under an optional condition; all of it atomic with respect to every other
 * write of the item, and whole or not at all (checks: {@link WriteRequests#update}).
 */
final class UpdateItem implements Action<UpdateItemInput> {

    private final Engine engine;

    UpdateItem(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(UpdateItemInput request, Authorizer access, ResponseBody response) throws IOException {
        ItemWrite write = WriteRequests.update(engine, request, WriteRequests.Access.of(access, null,
                request.returnConsumedCapacity()));
        WriteResult result = engine.items().write(write);

        JsonGenerator g = response.json();
        ItemResponses.writeAttributes(g, result);
        ItemResponses.writeConsumedCapacity(g, request.returnConsumedCapacity(), request.tableName(), result.consumed());
        ItemResponses.writeItemCollectionMetrics(g, request.returnItemCollectionMetrics(), result);
    }
}
