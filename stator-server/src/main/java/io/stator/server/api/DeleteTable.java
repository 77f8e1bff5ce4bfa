package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.TableDescriptionJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DeleteTableInput;
import java.io.IOException;

/**
 * DeleteTable. The table and its items are gone when this returns; the response says DELETING,
 * as DynamoDB's does. Refused while deletion protection is on.
 */
final class DeleteTable implements Action<DeleteTableInput> {

    private final Engine engine;

    DeleteTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DeleteTableInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.table(access, engine, "DeleteTable", request.tableName());
        TableDefinition deleted = engine.tables().delete(request.tableName());
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.writeDeleted(response.json(), deleted, engine.catalog());
    }
}
