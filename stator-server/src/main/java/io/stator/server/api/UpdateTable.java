package io.stator.server.api;

import static io.stator.server.api.checks.ExpressionParameters.member;

import io.stator.engine.Engine;
import io.stator.engine.table.TableUpdates;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.NotYetSupported;
import io.stator.server.api.checks.TableRequests;
import io.stator.server.api.json.TableDescriptionJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.UpdateTableInput;
import java.io.IOException;

/**
 * UpdateTable (checked and applied by the engine's {@code TableUpdates}): applied at once, but
 * answered as DynamoDB answers while its change is still under way.
 */
final class UpdateTable implements Action<UpdateTableInput> {

    private final Engine engine;

    UpdateTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(UpdateTableInput request, Authorizer access, ResponseBody response) throws IOException {
        NotYetSupported.refuse(member("ReplicaUpdates", request.replicaUpdates()),
                member("MultiRegionConsistency", request.multiRegionConsistency()),
                member("GlobalTableWitnessUpdates", request.globalTableWitnessUpdates()),
                member("GlobalTableSettingsReplicationMode", request.globalTableSettingsReplicationMode()));
        if (access.enforced()) Permissions.table(access, engine, "UpdateTable", request.tableName());
        TableUpdates.Result result = engine.tables().update(TableRequests.updateTable(request));
        TableDescriptionJson.View view = new TableDescriptionJson.View(result.tableStatus(),
                !result.billingModeSwitched(), result.warmThroughputStatus(), result.encryptionUpdating(), true);
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.write(response.json(), result.shown(), engine.catalog(), view);
    }
}
