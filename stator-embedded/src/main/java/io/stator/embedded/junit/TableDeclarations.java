package io.stator.embedded.junit;

import io.stator.embedded.EmbeddedStator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;

/** {@link StatorTable} declarations made into CreateTable (and UpdateTimeToLive) requests. */
final class TableDeclarations {

    private TableDeclarations() {}

    /** Creates the table through the SDK, waits until it is ACTIVE, and turns on its Time to Live. */
    static void create(EmbeddedStator stator, StatorTable table) {
        stator.client().createTable(request(table));
        stator.awaitActive(table.name());
        if (!table.ttlAttribute().isEmpty()) {
            stator.client().updateTimeToLive(b -> b.tableName(table.name())
                    .timeToLiveSpecification(t -> t.enabled(true).attributeName(table.ttlAttribute())));
        }
    }

    static CreateTableRequest request(StatorTable table) {
        Map<String, ScalarAttributeType> attributes = new LinkedHashMap<>();
        CreateTableRequest.Builder b = CreateTableRequest.builder().tableName(table.name())
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(keys(attributes, table.partitionKey(), table.partitionKeyType(), table.sortKey(),
                        table.sortKeyType()));
        List<GlobalSecondaryIndex> globals = new ArrayList<>();
        for (StatorIndex index : table.globalIndexes()) {
            if (index.partitionKey().isEmpty()) {
                throw new IllegalArgumentException("global index " + index.name() + " of " + table.name()
                        + " needs a partitionKey");
            }
            globals.add(GlobalSecondaryIndex.builder().indexName(index.name())
                    .keySchema(keys(attributes, index.partitionKey(), index.partitionKeyType(), index.sortKey(),
                            index.sortKeyType()))
                    .projection(projection(index)).build());
        }
        List<LocalSecondaryIndex> locals = new ArrayList<>();
        for (StatorIndex index : table.localIndexes()) {
            locals.add(LocalSecondaryIndex.builder().indexName(index.name())
                    .keySchema(keys(attributes, table.partitionKey(), table.partitionKeyType(), index.sortKey(),
                            index.sortKeyType()))
                    .projection(projection(index)).build());
        }
        if (!globals.isEmpty()) b.globalSecondaryIndexes(globals);
        if (!locals.isEmpty()) b.localSecondaryIndexes(locals);
        if (!table.streamView().isEmpty()) {
            b.streamSpecification(StreamSpecification.builder().streamEnabled(true)
                    .streamViewType(table.streamView()).build());
        }
        return b.attributeDefinitions(attributes.entrySet().stream().map(e -> AttributeDefinition.builder()
                .attributeName(e.getKey()).attributeType(e.getValue()).build()).toList()).build();
    }

    /** A key schema, its attributes added to {@code attributes} (once each, as DynamoDB wants them). */
    private static List<KeySchemaElement> keys(Map<String, ScalarAttributeType> attributes, String partitionKey,
                                               ScalarAttributeType partitionType, String sortKey,
                                               ScalarAttributeType sortType) {
        List<KeySchemaElement> keys = new ArrayList<>();
        keys.add(KeySchemaElement.builder().attributeName(partitionKey).keyType(KeyType.HASH).build());
        attributes.put(partitionKey, partitionType);
        if (!sortKey.isEmpty()) {
            keys.add(KeySchemaElement.builder().attributeName(sortKey).keyType(KeyType.RANGE).build());
            attributes.put(sortKey, sortType);
        }
        return keys;
    }

    private static Projection projection(StatorIndex index) {
        Projection.Builder p = Projection.builder().projectionType(index.projection());
        if (index.projection() == ProjectionType.INCLUDE) p.nonKeyAttributes(index.nonKeyAttributes());
        return p.build();
    }
}
