// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code CreateGlobalSecondaryIndexAction}, as a request carries it. */
public record CreateGlobalSecondaryIndexAction(
        String indexName,
        List<KeySchemaElement> keySchema,
        Projection projection,
        ProvisionedThroughput provisionedThroughput,
        OnDemandThroughput onDemandThroughput,
        WarmThroughput warmThroughput) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "IndexName",
            "KeySchema",
            "Projection",
            "ProvisionedThroughput",
            "OnDemandThroughput",
            "WarmThroughput");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static CreateGlobalSecondaryIndexAction of(Object[] values) {
        return new CreateGlobalSecondaryIndexAction(
                (String) values[0],
                (List<KeySchemaElement>) values[1],
                (Projection) values[2],
                (ProvisionedThroughput) values[3],
                (OnDemandThroughput) values[4],
                (WarmThroughput) values[5]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> indexName;
            case 1 -> keySchema;
            case 2 -> projection;
            case 3 -> provisionedThroughput;
            case 4 -> onDemandThroughput;
            case 5 -> warmThroughput;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
