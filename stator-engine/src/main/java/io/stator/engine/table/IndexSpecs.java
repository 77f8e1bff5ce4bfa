package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.table.IndexDefinition.IndexStatus;
import io.stator.engine.table.IndexDefinition.KeyAttribute;
import io.stator.engine.table.IndexDefinition.ProjectionType;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.ProvisionedThroughput;
import io.stator.engine.table.TableSpecs.IndexSpec;
import io.stator.engine.table.TableSpecs.KeyElement;
import io.stator.engine.table.TableSpecs.Throughput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Secondary-index definitions as CreateTable (and UpdateTable's Create) give them, checked as
 * DynamoDB checks them, in its order: per local index, its key against the definitions and the
 * table's key, then its projection; per global index, its key (up to four partition and four
 * sort key attributes, partition ones first), its projection and its throughput for the billing
 * mode; names unique across all indexes; at most 5 local and 20 global indexes, and 100
 * projected non-key attributes in all.
 */
final class IndexSpecs {

    static final int MAX_LOCAL_INDEXES = 5;
    static final int MAX_GLOBAL_INDEXES = 20;
    static final int MAX_KEY_ATTRIBUTES_PER_ROLE = 4;
    static final int MAX_PROJECTED_ATTRIBUTES = 100;

    private IndexSpecs() {}

    /** With indexes, every attribute definition must be some key's; checked before the indexes. */
    static void checkDefinitionsUsed(List<String> definedNames, KeySchema table, CreateTableSpec request) {
        Set<String> used = new LinkedHashSet<>();
        used.add(table.partitionKey());
        if (table.hasSortKey()) used.add(table.sortKey());
        for (List<IndexSpec> indexes : Arrays.asList(request.localIndexes(), request.globalIndexes())) {
            if (indexes == null) continue;
            for (IndexSpec index : indexes) {
                for (KeyElement k : index.keySchema()) used.add(k.attributeName());
            }
        }
        VectorIndexSpecs.addSchemaAttributes(request.vectorIndexes(), used);
        if (!used.containsAll(definedNames)) {
            throw DynamoDbException.invalidParameter("Some AttributeDefinitions are not used. AttributeDefinitions: ["
                    + String.join(", ", definedNames) + "], keys used: [" + String.join(", ", used) + "]");
        }
    }

    static List<IndexDefinition> localIndexes(List<IndexSpec> specs, KeySchema table,
                                              Map<String, AttributeValue.Type> types, Set<String> names, Instant now,
                                              int firstId) {
        if (specs == null) return List.of();
        if (specs.isEmpty()) throw DynamoDbException.invalidParameter("List of LocalSecondaryIndexes is empty");
        if (!table.hasSortKey()) {
            throw DynamoDbException.invalidParameter("Table KeySchema does not have a range key, which is required "
                    + "when specifying a LocalSecondaryIndex");
        }
        List<IndexDefinition> indexes = new ArrayList<>();
        for (IndexSpec spec : specs) {
            String name = spec.indexName();
            List<KeyElement> key = spec.keySchema();
            checkDefined(key, types);
            List<String> keyNames = keyNames(key);
            if (keyNames.size() == 2 && keyNames.get(0).equals(keyNames.get(1))) {
                throw DynamoDbException.validation(
                        "Both the Hash Key and the Range Key element in the KeySchema have the same name");
            }
            if (!"HASH".equals(key.get(0).keyType())) {
                throw DynamoDbException.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
            }
            if (key.size() == 2 && !"RANGE".equals(key.get(1).keyType())) {
                throw DynamoDbException.validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
            }
            if (key.size() != 2) {
                throw DynamoDbException.invalidParameter("Index KeySchema does not have a range key for index: " + name);
            }
            if (!keyNames.get(0).equals(table.partitionKey())) {
                throw DynamoDbException.invalidParameter("Index KeySchema does not have the same leading hash key as "
                        + "table KeySchema for index: " + name + ". index hash key: " + keyNames.get(0)
                        + ", table hash key: " + table.partitionKey());
            }
            Projection projection = projection(spec.projection());
            if (!names.add(name)) throw DynamoDbException.invalidParameter("Duplicate index name: " + name);
            indexes.add(new IndexDefinition(name, firstId + indexes.size(), false,
                    List.of(new KeyAttribute(keyNames.get(0), types.get(keyNames.get(0)))),
                    List.of(new KeyAttribute(keyNames.get(1), types.get(keyNames.get(1)))),
                    projection.type(), projection.nonKeyAttributes(), null, null, null, IndexStatus.ACTIVE, false, now, null));
        }
        if (indexes.size() > MAX_LOCAL_INDEXES) {
            throw DynamoDbException.invalidParameter("Number of LocalSecondaryIndexes exceeds per-table limit of "
                    + MAX_LOCAL_INDEXES);
        }
        return indexes;
    }

    static List<IndexDefinition> globalIndexes(List<IndexSpec> specs, Map<String, AttributeValue.Type> types,
                                               Set<String> names, BillingMode billingMode, Instant now, int firstId) {
        if (specs == null) return List.of();
        if (specs.isEmpty()) throw DynamoDbException.invalidParameter("List of GlobalSecondaryIndexes is empty");
        List<IndexDefinition> indexes = new ArrayList<>();
        for (IndexSpec spec : specs) {
            IndexDefinition index = globalIndex(spec, types, billingMode, now, firstId + indexes.size(),
                    IndexStatus.ACTIVE, false);
            if (!names.add(index.name())) {
                throw DynamoDbException.invalidParameter("Duplicate index name: " + index.name());
            }
            indexes.add(index);
        }
        if (indexes.size() > MAX_GLOBAL_INDEXES) {
            throw DynamoDbException.invalidParameter("GlobalSecondaryIndex count exceeds the per-table limit of "
                    + MAX_GLOBAL_INDEXES);
        }
        return indexes;
    }

    /** One global index (CreateTable's GlobalSecondaryIndexes, or UpdateTable's Create). */
    static IndexDefinition globalIndex(IndexSpec spec, Map<String, AttributeValue.Type> types, BillingMode billingMode,
                                       Instant now, int id, IndexStatus status, boolean backfilling) {
        String name = spec.indexName();
        List<KeyElement> key = spec.keySchema();
        checkDefined(key, types);
        List<String> keyNames = keyNames(key);
        if (keyNames.size() == 2 && keyNames.get(0).equals(keyNames.get(1))) {
            throw DynamoDbException.validation("Both the Hash Key and the Range Key element in the KeySchema have the same name");
        }
        if (new HashSet<>(keyNames).size() != keyNames.size()) {
            throw DynamoDbException.validation("The KeySchema contains multiple key attributes with the same name");
        }
        if (!"HASH".equals(key.get(0).keyType())) {
            throw DynamoDbException.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
        }
        List<KeyAttribute> partition = new ArrayList<>();
        List<KeyAttribute> sort = new ArrayList<>();
        for (KeyElement k : key) {
            KeyAttribute attribute = new KeyAttribute(k.attributeName(), types.get(k.attributeName()));
            if ("HASH".equals(k.keyType())) {
                if (!sort.isEmpty()) {
                    throw DynamoDbException.invalidParameter(
                            "All HASH key attributes must precede RANGE key attributes in the KeySchema");
                }
                partition.add(attribute);
            } else {
                sort.add(attribute);
            }
        }
        if (partition.size() > MAX_KEY_ATTRIBUTES_PER_ROLE) {
            throw DynamoDbException.invalidParameter(
                    "The KeySchema exceeds the maximum allowed number of HASH key attributes");
        }
        if (sort.size() > MAX_KEY_ATTRIBUTES_PER_ROLE) {
            throw DynamoDbException.invalidParameter(
                    "The KeySchema exceeds the maximum allowed number of RANGE key attributes");
        }
        Projection projection = projection(spec.projection());
        Throughput throughput = spec.throughput();
        ProvisionedThroughput provisioned;
        if (billingMode == BillingMode.PAY_PER_REQUEST) {
            if (throughput != null) {
                throw DynamoDbException.invalidParameter("ProvisionedThroughput should not be specified for index: "
                        + name + " when BillingMode is PAY_PER_REQUEST");
            }
            provisioned = ProvisionedThroughput.ZERO;
        } else {
            if (throughput == null) {
                throw DynamoDbException.invalidParameter("ProvisionedThroughput is not specified for index: " + name);
            }
            provisioned = new ProvisionedThroughput(throughput.readCapacityUnits(), throughput.writeCapacityUnits(),
                    null, null, 0);
        }
        return new IndexDefinition(name, id, true, partition, sort, projection.type(), projection.nonKeyAttributes(),
                provisioned, null, null, status, backfilling, now, null);
    }

    /** At most 100 projected non-key attributes over all indexes (a name in two indexes counts twice). */
    static void checkProjectedAttributeCount(List<IndexDefinition> indexes) {
        int count = 0;
        for (IndexDefinition i : indexes) count += i.nonKeyAttributes().size();
        if (count > MAX_PROJECTED_ATTRIBUTES) {
            throw DynamoDbException.validation("Number of projected attributes in all indexes exceeds limit of "
                    + MAX_PROJECTED_ATTRIBUTES);
        }
    }

    record Projection(ProjectionType type, List<String> nonKeyAttributes) {}

    static Projection projection(TableSpecs.Projection projection) {
        String type = projection.projectionType();
        List<String> nonKey = projection.nonKeyAttributes();
        if (type == null) throw DynamoDbException.invalidParameter("Unknown ProjectionType: null");
        if (nonKey != null && !type.equals("INCLUDE")) {
            throw DynamoDbException.invalidParameter("ProjectionType is " + type + ", but NonKeyAttributes is specified");
        }
        if (type.equals("INCLUDE")) {
            if (nonKey == null) {
                throw DynamoDbException.invalidParameter("ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
            }
            Set<String> seen = new HashSet<>();
            for (String a : nonKey) {
                if (!seen.add(a)) throw DynamoDbException.invalidParameter("Duplicate element in NonKeyAttributes: " + a);
            }
        }
        // DynamoDB describes the projected attributes sorted by name.
        List<String> sorted = nonKey == null ? List.of() : nonKey.stream().sorted().toList();
        return new Projection(ProjectionType.valueOf(type), sorted);
    }

    private static void checkDefined(List<KeyElement> key, Map<String, AttributeValue.Type> types) {
        List<String> names = keyNames(key);
        if (!types.keySet().containsAll(names)) {
            throw DynamoDbException.invalidParameter("Some index key attributes are not defined in "
                    + "AttributeDefinitions. Keys: [" + String.join(", ", names) + "], AttributeDefinitions: ["
                    + String.join(", ", types.keySet()) + "]");
        }
    }

    private static List<String> keyNames(List<KeyElement> key) {
        List<String> names = new ArrayList<>(key.size());
        for (KeyElement k : key) names.add(k.attributeName());
        return names;
    }
}
