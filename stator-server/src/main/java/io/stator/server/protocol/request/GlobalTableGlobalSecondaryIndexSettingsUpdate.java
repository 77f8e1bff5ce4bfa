// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code GlobalTableGlobalSecondaryIndexSettingsUpdate}, as a request carries it. */
public record GlobalTableGlobalSecondaryIndexSettingsUpdate(
        String indexName,
        Long provisionedWriteCapacityUnits,
        AutoScalingSettingsUpdate provisionedWriteCapacityAutoScalingSettingsUpdate) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "IndexName",
            "ProvisionedWriteCapacityUnits",
            "ProvisionedWriteCapacityAutoScalingSettingsUpdate");

    /** The record of the members' values, in the model's order. */
    static GlobalTableGlobalSecondaryIndexSettingsUpdate of(Object[] values) {
        return new GlobalTableGlobalSecondaryIndexSettingsUpdate(
                (String) values[0],
                (Long) values[1],
                (AutoScalingSettingsUpdate) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> indexName;
            case 1 -> provisionedWriteCapacityUnits;
            case 2 -> provisionedWriteCapacityAutoScalingSettingsUpdate;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
