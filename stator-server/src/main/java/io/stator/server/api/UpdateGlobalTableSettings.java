package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.replication.LegacyGlobalTables;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ReplicaSettingsUpdate;
import io.stator.server.protocol.request.UpdateGlobalTableSettingsInput;
import java.util.List;
import java.util.Objects;

/**
 * UpdateGlobalTableSettings, of global tables version 2017.11.29 (Legacy): once the model's
 * constraints on the settings hold, GlobalTableNotFoundException for every name, as DynamoDB
 * answers today. Nothing is changed.
 */
final class UpdateGlobalTableSettings implements Action<UpdateGlobalTableSettingsInput> {

    private final Engine engine;

    UpdateGlobalTableSettings(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(UpdateGlobalTableSettingsInput request, Authorizer access, ResponseBody response) {
        LegacyGlobalTables legacy = new LegacyGlobalTables(engine.catalog().arns());
        if (access.enforced()) {
            List<String> regions = request.replicaSettingsUpdate() == null ? List.of()
                    : request.replicaSettingsUpdate().stream().filter(Objects::nonNull)
                            .map(ReplicaSettingsUpdate::regionName).filter(Objects::nonNull).toList();
            Permissions.globalTableAndReplicas(access, engine, legacy, "UpdateGlobalTableSettings",
                    request.globalTableName(), regions);
        }
        legacy.updateSettings(request.globalTableName());
    }
}
