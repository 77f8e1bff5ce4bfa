package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.WriteResult;
import io.stator.server.access.Authorizer;
import io.stator.server.api.checks.WriteRequests;
import io.stator.server.api.json.ItemResponses;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DeleteItemInput;
import java.io.IOException;

/**
 * DeleteItem: deleting an absent item succeeds and still consumes one write unit (checks:
 * {@link WriteRequests#delete}).
 */
final class DeleteItem implements Action<DeleteItemInput> {

    private final Engine engine;

    DeleteItem(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DeleteItemInput request, Authorizer access, ResponseBody response) throws IOException {
        ItemWrite write = WriteRequests.delete(engine, request, WriteRequests.Access.of(access, null,
                request.returnConsumedCapacity()));
        WriteResult result = engine.items().write(write);

        JsonGenerator g = response.json();
        ItemResponses.writeAttributes(g, result);
        ItemResponses.writeConsumedCapacity(g, request.returnConsumedCapacity(), request.tableName(), result.consumed());
        ItemResponses.writeItemCollectionMetrics(g, request.returnItemCollectionMetrics(), result);
    }
}
