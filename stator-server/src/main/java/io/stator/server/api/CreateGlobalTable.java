package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.replication.LegacyGlobalTables;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.CreateGlobalTableInput;
import io.stator.server.protocol.request.Replica;
import java.util.List;
import java.util.Objects;

/**
 * CreateGlobalTable, of global tables version 2017.11.29 (Legacy): refused as DynamoDB refuses it
 * today, with a ValidationException recommending version 2019.11.21 (UpdateTable's ReplicaUpdates).
 */
final class CreateGlobalTable implements Action<CreateGlobalTableInput> {

    private final Engine engine;

    CreateGlobalTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(CreateGlobalTableInput request, Authorizer access, ResponseBody response) {
        LegacyGlobalTables legacy = new LegacyGlobalTables(engine.catalog().arns());
        List<String> regions = request.replicationGroup().stream().filter(Objects::nonNull)
                .map(Replica::regionName).filter(Objects::nonNull).toList();
        if (access.enforced()) {
            Permissions.globalTableAndReplicas(access, engine, legacy, "CreateGlobalTable", request.globalTableName(), regions);
        }
        legacy.create(request.globalTableName(), regions);
    }
}
