package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.TableDescriptionJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeTableInput;
import java.io.IOException;

/** DescribeTable. */
final class DescribeTable implements Action<DescribeTableInput> {

    private final Engine engine;

    DescribeTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DescribeTableInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.table(access, engine, "DescribeTable", request.tableName());
        TableDefinition table = engine.tables().describe(request.tableName());
        response.json().writeFieldName("Table");
        TableDescriptionJson.write(response.json(), table, engine.catalog(), TableDescriptionJson.View.DESCRIBED);
    }
}
