// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code CreateTableInput}, as a request carries it. */
public record CreateTableInput(
        List<AttributeDefinition> attributeDefinitions,
        String tableName,
        List<KeySchemaElement> keySchema,
        List<LocalSecondaryIndex> localSecondaryIndexes,
        List<GlobalSecondaryIndex> globalSecondaryIndexes,
        String billingMode,
        ProvisionedThroughput provisionedThroughput,
        StreamSpecification streamSpecification,
        SSESpecification sseSpecification,
        List<Tag> tags,
        String tableClass,
        Boolean deletionProtectionEnabled,
        WarmThroughput warmThroughput,
        String resourcePolicy,
        OnDemandThroughput onDemandThroughput,
        String globalTableSourceArn,
        String globalTableSettingsReplicationMode,
        List<VectorIndex> vectorIndexes) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "AttributeDefinitions",
            "TableName",
            "KeySchema",
            "LocalSecondaryIndexes",
            "GlobalSecondaryIndexes",
            "BillingMode",
            "ProvisionedThroughput",
            "StreamSpecification",
            "SSESpecification",
            "Tags",
            "TableClass",
            "DeletionProtectionEnabled",
            "WarmThroughput",
            "ResourcePolicy",
            "OnDemandThroughput",
            "GlobalTableSourceArn",
            "GlobalTableSettingsReplicationMode",
            "VectorIndexes");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static CreateTableInput of(Object[] values) {
        return new CreateTableInput(
                (List<AttributeDefinition>) values[0],
                (String) values[1],
                (List<KeySchemaElement>) values[2],
                (List<LocalSecondaryIndex>) values[3],
                (List<GlobalSecondaryIndex>) values[4],
                (String) values[5],
                (ProvisionedThroughput) values[6],
                (StreamSpecification) values[7],
                (SSESpecification) values[8],
                (List<Tag>) values[9],
                (String) values[10],
                (Boolean) values[11],
                (WarmThroughput) values[12],
                (String) values[13],
                (OnDemandThroughput) values[14],
                (String) values[15],
                (String) values[16],
                (List<VectorIndex>) values[17]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> attributeDefinitions;
            case 1 -> tableName;
            case 2 -> keySchema;
            case 3 -> localSecondaryIndexes;
            case 4 -> globalSecondaryIndexes;
            case 5 -> billingMode;
            case 6 -> provisionedThroughput;
            case 7 -> streamSpecification;
            case 8 -> sseSpecification;
            case 9 -> tags;
            case 10 -> tableClass;
            case 11 -> deletionProtectionEnabled;
            case 12 -> warmThroughput;
            case 13 -> resourcePolicy;
            case 14 -> onDemandThroughput;
            case 15 -> globalTableSourceArn;
            case 16 -> globalTableSettingsReplicationMode;
            case 17 -> vectorIndexes;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
