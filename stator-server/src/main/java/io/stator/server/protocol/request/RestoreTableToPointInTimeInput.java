// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code RestoreTableToPointInTimeInput}, as a request carries it. */
public record RestoreTableToPointInTimeInput(
        String sourceTableArn,
        String sourceTableName,
        String targetTableName,
        Boolean useLatestRestorableTime,
        Double restoreDateTime,
        String billingModeOverride,
        List<GlobalSecondaryIndex> globalSecondaryIndexOverride,
        List<LocalSecondaryIndex> localSecondaryIndexOverride,
        ProvisionedThroughput provisionedThroughputOverride,
        OnDemandThroughput onDemandThroughputOverride,
        SSESpecification sseSpecificationOverride,
        List<VectorIndex> vectorIndexOverride) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "SourceTableArn",
            "SourceTableName",
            "TargetTableName",
            "UseLatestRestorableTime",
            "RestoreDateTime",
            "BillingModeOverride",
            "GlobalSecondaryIndexOverride",
            "LocalSecondaryIndexOverride",
            "ProvisionedThroughputOverride",
            "OnDemandThroughputOverride",
            "SSESpecificationOverride",
            "VectorIndexOverride");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static RestoreTableToPointInTimeInput of(Object[] values) {
        return new RestoreTableToPointInTimeInput(
                (String) values[0],
                (String) values[1],
                (String) values[2],
                (Boolean) values[3],
                (Double) values[4],
                (String) values[5],
                (List<GlobalSecondaryIndex>) values[6],
                (List<LocalSecondaryIndex>) values[7],
                (ProvisionedThroughput) values[8],
                (OnDemandThroughput) values[9],
                (SSESpecification) values[10],
                (List<VectorIndex>) values[11]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> sourceTableArn;
            case 1 -> sourceTableName;
            case 2 -> targetTableName;
            case 3 -> useLatestRestorableTime;
            case 4 -> restoreDateTime;
            case 5 -> billingModeOverride;
            case 6 -> globalSecondaryIndexOverride;
            case 7 -> localSecondaryIndexOverride;
            case 8 -> provisionedThroughputOverride;
            case 9 -> onDemandThroughputOverride;
            case 10 -> sseSpecificationOverride;
            case 11 -> vectorIndexOverride;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
