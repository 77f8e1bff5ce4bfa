// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code UpdateReplicationGroupMemberAction}, as a request carries it. */
public record UpdateReplicationGroupMemberAction(
        String regionName,
        String kmsMasterKeyId,
        ProvisionedThroughputOverride provisionedThroughputOverride,
        OnDemandThroughputOverride onDemandThroughputOverride,
        List<ReplicaGlobalSecondaryIndex> globalSecondaryIndexes,
        String tableClassOverride) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "RegionName",
            "KMSMasterKeyId",
            "ProvisionedThroughputOverride",
            "OnDemandThroughputOverride",
            "GlobalSecondaryIndexes",
            "TableClassOverride");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static UpdateReplicationGroupMemberAction of(Object[] values) {
        return new UpdateReplicationGroupMemberAction(
                (String) values[0],
                (String) values[1],
                (ProvisionedThroughputOverride) values[2],
                (OnDemandThroughputOverride) values[3],
                (List<ReplicaGlobalSecondaryIndex>) values[4],
                (String) values[5]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> regionName;
            case 1 -> kmsMasterKeyId;
            case 2 -> provisionedThroughputOverride;
            case 3 -> onDemandThroughputOverride;
            case 4 -> globalSecondaryIndexes;
            case 5 -> tableClassOverride;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
