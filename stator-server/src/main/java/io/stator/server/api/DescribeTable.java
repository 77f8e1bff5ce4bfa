package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;

/** DescribeTable. */
final class DescribeTable implements Action {

    private final Engine engine;

    DescribeTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.WITH_TABLE_NAME);
        response.json().writeFieldName("Table");
        TableDescriptionJson.write(response.json(), table, engine.catalog(), TableDescriptionJson.View.DESCRIBED);
    }
}
