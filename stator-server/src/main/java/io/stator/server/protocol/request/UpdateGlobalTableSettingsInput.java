// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code UpdateGlobalTableSettingsInput}, as a request carries it. */
public record UpdateGlobalTableSettingsInput(
        String globalTableName,
        String globalTableBillingMode,
        Long globalTableProvisionedWriteCapacityUnits,
        AutoScalingSettingsUpdate globalTableProvisionedWriteCapacityAutoScalingSettingsUpdate,
        List<GlobalTableGlobalSecondaryIndexSettingsUpdate> globalTableGlobalSecondaryIndexSettingsUpdate,
        List<ReplicaSettingsUpdate> replicaSettingsUpdate) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "GlobalTableName",
            "GlobalTableBillingMode",
            "GlobalTableProvisionedWriteCapacityUnits",
            "GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate",
            "GlobalTableGlobalSecondaryIndexSettingsUpdate",
            "ReplicaSettingsUpdate");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static UpdateGlobalTableSettingsInput of(Object[] values) {
        return new UpdateGlobalTableSettingsInput(
                (String) values[0],
                (String) values[1],
                (Long) values[2],
                (AutoScalingSettingsUpdate) values[3],
                (List<GlobalTableGlobalSecondaryIndexSettingsUpdate>) values[4],
                (List<ReplicaSettingsUpdate>) values[5]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> globalTableName;
            case 1 -> globalTableBillingMode;
            case 2 -> globalTableProvisionedWriteCapacityUnits;
            case 3 -> globalTableProvisionedWriteCapacityAutoScalingSettingsUpdate;
            case 4 -> globalTableGlobalSecondaryIndexSettingsUpdate;
            case 5 -> replicaSettingsUpdate;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
