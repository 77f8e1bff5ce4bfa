// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ReplicaGlobalSecondaryIndexSettingsUpdate}, as a request carries it. */
public record ReplicaGlobalSecondaryIndexSettingsUpdate(
        String indexName,
        Long provisionedReadCapacityUnits,
        AutoScalingSettingsUpdate provisionedReadCapacityAutoScalingSettingsUpdate) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "IndexName",
            "ProvisionedReadCapacityUnits",
            "ProvisionedReadCapacityAutoScalingSettingsUpdate");

    /** The record of the members' values, in the model's order. */
    static ReplicaGlobalSecondaryIndexSettingsUpdate of(Object[] values) {
        return new ReplicaGlobalSecondaryIndexSettingsUpdate(
                (String) values[0],
                (Long) values[1],
                (AutoScalingSettingsUpdate) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> indexName;
            case 1 -> provisionedReadCapacityUnits;
            case 2 -> provisionedReadCapacityAutoScalingSettingsUpdate;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
