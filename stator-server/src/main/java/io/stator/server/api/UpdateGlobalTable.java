package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.replication.LegacyGlobalTables;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ReplicaUpdate;
import io.stator.server.protocol.request.UpdateGlobalTableInput;
import java.util.ArrayList;
import java.util.List;

/**
 * UpdateGlobalTable, of global tables version 2017.11.29 (Legacy): adding a replica is refused as
 * unsupported, removing one finds no global table (the engine's {@link LegacyGlobalTables}).
 */
final class UpdateGlobalTable implements Action<UpdateGlobalTableInput> {

    private final Engine engine;

    UpdateGlobalTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(UpdateGlobalTableInput request, Authorizer access, ResponseBody response) {
        LegacyGlobalTables legacy = new LegacyGlobalTables(engine.catalog().arns());
        List<LegacyGlobalTables.ReplicaUpdate> updates = new ArrayList<>();
        List<String> regions = new ArrayList<>();
        for (ReplicaUpdate u : request.replicaUpdates()) {
            String create = u == null || u.create() == null ? null : u.create().regionName();
            String delete = u == null || u.delete() == null ? null : u.delete().regionName();
            updates.add(new LegacyGlobalTables.ReplicaUpdate(create, delete));
            if (create != null) regions.add(create);
            if (delete != null) regions.add(delete);
        }
        if (access.enforced()) {
            Permissions.globalTableAndReplicas(access, engine, legacy, "UpdateGlobalTable", request.globalTableName(), regions);
        }
        legacy.update(request.globalTableName(), updates);
    }
}
