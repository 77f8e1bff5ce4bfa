// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code UpdateTableInput}, as a request carries it. */
public record UpdateTableInput(
        List<AttributeDefinition> attributeDefinitions,
        String tableName,
        String billingMode,
        ProvisionedThroughput provisionedThroughput,
        List<GlobalSecondaryIndexUpdate> globalSecondaryIndexUpdates,
        StreamSpecification streamSpecification,
        SSESpecification sseSpecification,
        List<ReplicationGroupUpdate> replicaUpdates,
        String tableClass,
        Boolean deletionProtectionEnabled,
        String multiRegionConsistency,
        List<GlobalTableWitnessGroupUpdate> globalTableWitnessUpdates,
        OnDemandThroughput onDemandThroughput,
        WarmThroughput warmThroughput,
        String globalTableSettingsReplicationMode,
        List<VectorIndexUpdate> vectorIndexUpdates) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "AttributeDefinitions",
            "TableName",
            "BillingMode",
            "ProvisionedThroughput",
            "GlobalSecondaryIndexUpdates",
            "StreamSpecification",
            "SSESpecification",
            "ReplicaUpdates",
            "TableClass",
            "DeletionProtectionEnabled",
            "MultiRegionConsistency",
            "GlobalTableWitnessUpdates",
            "OnDemandThroughput",
            "WarmThroughput",
            "GlobalTableSettingsReplicationMode",
            "VectorIndexUpdates");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static UpdateTableInput of(Object[] values) {
        return new UpdateTableInput(
                (List<AttributeDefinition>) values[0],
                (String) values[1],
                (String) values[2],
                (ProvisionedThroughput) values[3],
                (List<GlobalSecondaryIndexUpdate>) values[4],
                (StreamSpecification) values[5],
                (SSESpecification) values[6],
                (List<ReplicationGroupUpdate>) values[7],
                (String) values[8],
                (Boolean) values[9],
                (String) values[10],
                (List<GlobalTableWitnessGroupUpdate>) values[11],
                (OnDemandThroughput) values[12],
                (WarmThroughput) values[13],
                (String) values[14],
                (List<VectorIndexUpdate>) values[15]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> attributeDefinitions;
            case 1 -> tableName;
            case 2 -> billingMode;
            case 3 -> provisionedThroughput;
            case 4 -> globalSecondaryIndexUpdates;
            case 5 -> streamSpecification;
            case 6 -> sseSpecification;
            case 7 -> replicaUpdates;
            case 8 -> tableClass;
            case 9 -> deletionProtectionEnabled;
            case 10 -> multiRegionConsistency;
            case 11 -> globalTableWitnessUpdates;
            case 12 -> onDemandThroughput;
            case 13 -> warmThroughput;
            case 14 -> globalTableSettingsReplicationMode;
            case 15 -> vectorIndexUpdates;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
