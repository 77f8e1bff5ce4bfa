// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ReplicaSettingsUpdate}, as a request carries it. */
public record ReplicaSettingsUpdate(
        String regionName,
        Long replicaProvisionedReadCapacityUnits,
        AutoScalingSettingsUpdate replicaProvisionedReadCapacityAutoScalingSettingsUpdate,
        List<ReplicaGlobalSecondaryIndexSettingsUpdate> replicaGlobalSecondaryIndexSettingsUpdate,
        String replicaTableClass) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "RegionName",
            "ReplicaProvisionedReadCapacityUnits",
            "ReplicaProvisionedReadCapacityAutoScalingSettingsUpdate",
            "ReplicaGlobalSecondaryIndexSettingsUpdate",
            "ReplicaTableClass");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static ReplicaSettingsUpdate of(Object[] values) {
        return new ReplicaSettingsUpdate(
                (String) values[0],
                (Long) values[1],
                (AutoScalingSettingsUpdate) values[2],
                (List<ReplicaGlobalSecondaryIndexSettingsUpdate>) values[3],
                (String) values[4]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> regionName;
            case 1 -> replicaProvisionedReadCapacityUnits;
            case 2 -> replicaProvisionedReadCapacityAutoScalingSettingsUpdate;
            case 3 -> replicaGlobalSecondaryIndexSettingsUpdate;
            case 4 -> replicaTableClass;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
