package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;

/**
 * DeleteTable. The table and its items are gone when this returns; the response says DELETING,
 * as DynamoDB's does. Refused while deletion protection is on.
 */
final class DeleteTable implements Action {

    private final Engine engine;

    DeleteTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.WITH_TABLE_NAME);
        TableDefinition deleted = engine.catalog().delete(table.name());
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.write(response.json(), deleted, engine.catalog(), TableDescriptionJson.View.DELETED);
    }
}
