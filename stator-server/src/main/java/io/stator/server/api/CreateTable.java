package io.stator.server.api;

import static io.stator.server.api.ExpressionParameters.member;

import io.stator.engine.Engine;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.CreateTableInput;
import java.io.IOException;

/**
 * CreateTable (checked and made by the engine's {@code TableCreation}). The table is usable as
 * soon as this returns. The response says CREATING, as DynamoDB's does, and DescribeTable says
 * ACTIVE from the first call, so waiters finish at once.
 */
final class CreateTable implements Action<CreateTableInput> {

    private final Engine engine;

    CreateTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(CreateTableInput request, ResponseBody response) throws IOException {
        NotYetSupported.refuse(member("ResourcePolicy", request.resourcePolicy()),
                member("GlobalTableSourceArn", request.globalTableSourceArn()),
                member("GlobalTableSettingsReplicationMode", request.globalTableSettingsReplicationMode()));
        TableDefinition created = engine.tables().create(TableRequests.createTable(request));
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.write(response.json(), created, engine.catalog(), TableDescriptionJson.View.CREATED);
    }
}
