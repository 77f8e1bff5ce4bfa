// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code UpdateGlobalSecondaryIndexAction}, as a request carries it. */
public record UpdateGlobalSecondaryIndexAction(
        String indexName,
        ProvisionedThroughput provisionedThroughput,
        OnDemandThroughput onDemandThroughput,
        WarmThroughput warmThroughput) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "IndexName",
            "ProvisionedThroughput",
            "OnDemandThroughput",
            "WarmThroughput");

    /** The record of the members' values, in the model's order. */
    static UpdateGlobalSecondaryIndexAction of(Object[] values) {
        return new UpdateGlobalSecondaryIndexAction(
                (String) values[0],
                (ProvisionedThroughput) values[1],
                (OnDemandThroughput) values[2],
                (WarmThroughput) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> indexName;
            case 1 -> provisionedThroughput;
            case 2 -> onDemandThroughput;
            case 3 -> warmThroughput;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
