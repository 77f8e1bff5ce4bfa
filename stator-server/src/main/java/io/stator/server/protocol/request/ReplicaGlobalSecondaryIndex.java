// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ReplicaGlobalSecondaryIndex}, as a request carries it. */
public record ReplicaGlobalSecondaryIndex(
        String indexName,
        ProvisionedThroughputOverride provisionedThroughputOverride,
        OnDemandThroughputOverride onDemandThroughputOverride) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "IndexName",
            "ProvisionedThroughputOverride",
            "OnDemandThroughputOverride");

    /** The record of the members' values, in the model's order. */
    static ReplicaGlobalSecondaryIndex of(Object[] values) {
        return new ReplicaGlobalSecondaryIndex(
                (String) values[0],
                (ProvisionedThroughputOverride) values[1],
                (OnDemandThroughputOverride) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> indexName;
            case 1 -> provisionedThroughputOverride;
            case 2 -> onDemandThroughputOverride;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
