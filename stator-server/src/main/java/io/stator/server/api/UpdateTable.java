package io.stator.server.api;

import static io.stator.server.api.checks.ExpressionParameters.member;

import io.stator.engine.Engine;
import io.stator.engine.replication.GlobalTables.ReplicaUpdate;
import io.stator.engine.replication.GlobalTables.WitnessUpdate;
import io.stator.engine.table.GlobalTable;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableUpdates;
import io.stator.engine.table.UpdateTableSpec;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.NotYetSupported;
import io.stator.server.api.checks.TableRequests;
import io.stator.server.api.json.TableDescriptionJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.CreateReplicationGroupMemberAction;
import io.stator.server.protocol.request.GlobalTableWitnessGroupUpdate;
import io.stator.server.protocol.request.OnDemandThroughputOverride;
import io.stator.server.protocol.request.ProvisionedThroughputOverride;
import io.stator.server.protocol.request.ReplicaGlobalSecondaryIndex;
import io.stator.server.protocol.request.ReplicationGroupUpdate;
import io.stator.server.protocol.request.UpdateReplicationGroupMemberAction;
import io.stator.server.protocol.request.UpdateTableInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * UpdateTable (checked and applied by the engine's {@code TableUpdates}): applied at once, but
 * answered as DynamoDB answers while its change is still under way. With ReplicaUpdates, the
 * global table's replicas instead ({@code GlobalTables.updateReplicas}), created and deleted in
 * the background.
 */
final class UpdateTable implements Action<UpdateTableInput> {

    private final Engine engine;

    UpdateTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(UpdateTableInput request, Authorizer access, ResponseBody response) throws IOException {
        NotYetSupported.refuse(member("GlobalTableSettingsReplicationMode", request.globalTableSettingsReplicationMode()));
        UpdateTableSpec spec = TableRequests.updateTable(request);
        if (request.replicaUpdates() != null) {
            List<ReplicaUpdate> updates = replicaUpdates(request.replicaUpdates());
            if (access.enforced()) {
                Permissions.table(access, engine, "UpdateTable", request.tableName());
                for (ReplicaUpdate u : updates) {
                    if (u.kind() == ReplicaUpdate.Kind.UPDATE) continue;
                    Permissions.table(access, engine, u.kind() == ReplicaUpdate.Kind.CREATE ? "CreateTableReplica"
                            : "DeleteTableReplica", request.tableName());
                }
            }
            TableDefinition table = engine.globalTables().updateReplicas(request.tableName(), updates,
                    request.multiRegionConsistency(), witnessUpdates(request.globalTableWitnessUpdates()),
                    !TableUpdates.changes(spec).isEmpty());
            response.json().writeFieldName("TableDescription");
            TableDescriptionJson.write(response.json(), table, engine.catalog(),
                    new TableDescriptionJson.View("UPDATING", true, null, false, true));
            return;
        }
        // Without ReplicaUpdates, MultiRegionConsistency changes nothing: DynamoDB then asks for
        // something to update, as for an empty request.
        if (access.enforced()) Permissions.table(access, engine, "UpdateTable", request.tableName());
        TableUpdates.Result result = engine.tables().update(spec);
        TableDescriptionJson.View view = new TableDescriptionJson.View(result.tableStatus(),
                !result.billingModeSwitched(), result.warmThroughputStatus(), result.encryptionUpdating(), true);
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.write(response.json(), result.shown(), engine.catalog(), view);
    }

    private static List<WitnessUpdate> witnessUpdates(List<GlobalTableWitnessGroupUpdate> given) {
        if (given == null) return List.of();
        List<WitnessUpdate> out = new ArrayList<>(given.size());
        for (GlobalTableWitnessGroupUpdate g : given) {
            if (g.create() != null) out.add(new WitnessUpdate(true, g.create().regionName()));
            if (g.delete() != null) out.add(new WitnessUpdate(false, g.delete().regionName()));
        }
        return out;
    }

    private static List<ReplicaUpdate> replicaUpdates(List<ReplicationGroupUpdate> given) {
        List<ReplicaUpdate> out = new ArrayList<>(given.size());
        for (ReplicationGroupUpdate g : given) {
            CreateReplicationGroupMemberAction create = g.create();
            UpdateReplicationGroupMemberAction update = g.update();
            GlobalTable.Overrides overrides = create != null
                    ? overrides(create.kmsMasterKeyId(), create.provisionedThroughputOverride(),
                            create.onDemandThroughputOverride(), create.globalSecondaryIndexes(), create.tableClassOverride())
                    : update != null
                    ? overrides(update.kmsMasterKeyId(), update.provisionedThroughputOverride(),
                            update.onDemandThroughputOverride(), update.globalSecondaryIndexes(), update.tableClassOverride())
                    : null;
            out.add(ReplicaUpdate.of(create == null ? null : create.regionName(),
                    update == null ? null : update.regionName(), overrides,
                    g.delete() == null ? null : g.delete().regionName()));
        }
        return out;
    }

    /** A Create's or Update's settings for its replica alone; null when it gives none. */
    private static GlobalTable.Overrides overrides(String kmsMasterKeyId, ProvisionedThroughputOverride provisioned,
                                                   OnDemandThroughputOverride onDemand,
                                                   List<ReplicaGlobalSecondaryIndex> indexes, String tableClass) {
        if (kmsMasterKeyId == null && provisioned == null && onDemand == null && indexes == null && tableClass == null) {
            return null;
        }
        List<GlobalTable.IndexOverride> perIndex = new ArrayList<>();
        if (indexes != null) {
            for (ReplicaGlobalSecondaryIndex i : indexes) {
                perIndex.add(new GlobalTable.IndexOverride(i.indexName(),
                        i.provisionedThroughputOverride() == null ? null : i.provisionedThroughputOverride().readCapacityUnits(),
                        i.onDemandThroughputOverride() == null ? null : i.onDemandThroughputOverride().maxReadRequestUnits()));
            }
        }
        return new GlobalTable.Overrides(provisioned == null ? null : provisioned.readCapacityUnits(),
                onDemand == null ? null : onDemand.maxReadRequestUnits(), tableClass, kmsMasterKeyId, perIndex);
    }
}
