// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code TableCreationParameters}, as a request carries it. */
public record TableCreationParameters(
        String tableName,
        List<AttributeDefinition> attributeDefinitions,
        List<KeySchemaElement> keySchema,
        String billingMode,
        ProvisionedThroughput provisionedThroughput,
        OnDemandThroughput onDemandThroughput,
        SSESpecification sseSpecification,
        List<GlobalSecondaryIndex> globalSecondaryIndexes,
        List<VectorIndex> vectorIndexes) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "AttributeDefinitions",
            "KeySchema",
            "BillingMode",
            "ProvisionedThroughput",
            "OnDemandThroughput",
            "SSESpecification",
            "GlobalSecondaryIndexes",
            "VectorIndexes");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static TableCreationParameters of(Object[] values) {
        return new TableCreationParameters(
                (String) values[0],
                (List<AttributeDefinition>) values[1],
                (List<KeySchemaElement>) values[2],
                (String) values[3],
                (ProvisionedThroughput) values[4],
                (OnDemandThroughput) values[5],
                (SSESpecification) values[6],
                (List<GlobalSecondaryIndex>) values[7],
                (List<VectorIndex>) values[8]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> attributeDefinitions;
            case 2 -> keySchema;
            case 3 -> billingMode;
            case 4 -> provisionedThroughput;
            case 5 -> onDemandThroughput;
            case 6 -> sseSpecification;
            case 7 -> globalSecondaryIndexes;
            case 8 -> vectorIndexes;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
