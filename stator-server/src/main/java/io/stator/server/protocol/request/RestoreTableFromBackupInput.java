// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code RestoreTableFromBackupInput}, as a request carries it. */
public record RestoreTableFromBackupInput(
        String targetTableName,
        String backupArn,
        String billingModeOverride,
        List<GlobalSecondaryIndex> globalSecondaryIndexOverride,
        List<LocalSecondaryIndex> localSecondaryIndexOverride,
        ProvisionedThroughput provisionedThroughputOverride,
        OnDemandThroughput onDemandThroughputOverride,
        SSESpecification sseSpecificationOverride,
        List<VectorIndex> vectorIndexOverride) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TargetTableName",
            "BackupArn",
            "BillingModeOverride",
            "GlobalSecondaryIndexOverride",
            "LocalSecondaryIndexOverride",
            "ProvisionedThroughputOverride",
            "OnDemandThroughputOverride",
            "SSESpecificationOverride",
            "VectorIndexOverride");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static RestoreTableFromBackupInput of(Object[] values) {
        return new RestoreTableFromBackupInput(
                (String) values[0],
                (String) values[1],
                (String) values[2],
                (List<GlobalSecondaryIndex>) values[3],
                (List<LocalSecondaryIndex>) values[4],
                (ProvisionedThroughput) values[5],
                (OnDemandThroughput) values[6],
                (SSESpecification) values[7],
                (List<VectorIndex>) values[8]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> targetTableName;
            case 1 -> backupArn;
            case 2 -> billingModeOverride;
            case 3 -> globalSecondaryIndexOverride;
            case 4 -> localSecondaryIndexOverride;
            case 5 -> provisionedThroughputOverride;
            case 6 -> onDemandThroughputOverride;
            case 7 -> sseSpecificationOverride;
            case 8 -> vectorIndexOverride;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
