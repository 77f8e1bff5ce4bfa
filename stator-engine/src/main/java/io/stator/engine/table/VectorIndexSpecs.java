package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.index.vector.Distance;
import io.stator.engine.table.IndexDefinition.IndexStatus;
import io.stator.engine.table.IndexDefinition.KeyAttribute;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.ProvisionedThroughput;
import io.stator.engine.table.TableSpecs.SearchSchemaElement;
import io.stator.engine.table.TableSpecs.VectorIndexSpec;
import io.stator.engine.table.TableSpecs.VectorIndexUpdate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Vector indexes as CreateTable's VectorIndexes and UpdateTable's VectorIndexUpdates give them,
 * checked as DynamoDB checks them (texts measured against the service, with their sources, in
 * docs/dynamodb/vector-search.md §3). The order, which DynamoDB's clients make unobservable for
 * most faults (§11 U1): the attribute definitions first (the vector attribute must not be
 * declared, the search schema's must be), then per index in list order its search schema's
 * shape, dimensions and projection, then the billing mode and the count.
 *
 * <p>A vector index is kept as a global index is: eventually consistent, built in the background
 * when added, dropped in the background; its search schema's HASH attribute is its partition key.
 */
final class VectorIndexSpecs {

    static final int MAX_VECTOR_INDEXES = 5;
    static final int MAX_DIMENSIONS = 4096;
    static final int MAX_INLINE_FILTERS = 18;
    private static final String ONLY_ON_DEMAND = "Vector indexes are only supported for PAY_PER_REQUEST tables";

    private VectorIndexSpecs() {}

    /** CreateTable's attribute-definition rules for its vector indexes (checked before the indexes). */
    static void checkDefinitions(List<VectorIndexSpec> specs, Map<String, AttributeValue.Type> types) {
        if (specs == null) return;
        for (VectorIndexSpec spec : specs) checkDefinitions(spec, types);
    }

    private static void checkDefinitions(VectorIndexSpec spec, Map<String, AttributeValue.Type> types) {
        if (types.containsKey(spec.vectorAttribute())) {
            throw DynamoDbException.invalidParameter("Conflicting attribute definition for '" + spec.vectorAttribute()
                    + "'. An attribute cannot be defined in AttributeDefinitions when used as a VectorAttribute.");
        }
        if (spec.searchSchema() == null) return;
        for (SearchSchemaElement e : spec.searchSchema()) {
            if (!types.containsKey(e.attributeName())) {
                throw DynamoDbException.invalidParameter("One element in SearchSchema is not defined in attribute definitions");
            }
        }
    }

    /** The search schema's attributes, which count as used attribute definitions. */
    static void addSchemaAttributes(List<VectorIndexSpec> specs, Set<String> used) {
        if (specs == null) return;
        for (VectorIndexSpec spec : specs) {
            if (spec.searchSchema() != null) spec.searchSchema().forEach(e -> used.add(e.attributeName()));
        }
    }

    /** CreateTable's vector indexes, ACTIVE with the table. */
    static List<IndexDefinition> vectorIndexes(List<VectorIndexSpec> specs, Map<String, AttributeValue.Type> types,
                                               Set<String> names, BillingMode billingMode, Instant now, int firstId) {
        if (specs == null) return List.of();
        List<IndexDefinition> indexes = new ArrayList<>(specs.size());
        for (VectorIndexSpec spec : specs) {
            IndexDefinition index = index(spec, types, now, firstId + indexes.size(), IndexStatus.ACTIVE, false);
            if (!names.add(spec.indexName())) {
                throw DynamoDbException.invalidParameter("Duplicate index name: " + spec.indexName());
            }
            for (IndexDefinition other : indexes) checkSameDimensions(other, index);
            indexes.add(index);
        }
        if (billingMode != BillingMode.PAY_PER_REQUEST) throw DynamoDbException.invalidParameter(ONLY_ON_DEMAND);
        if (indexes.size() > MAX_VECTOR_INDEXES) {
            throw DynamoDbException.invalidParameter("VectorIndex count exceeds the per-table limit of " + MAX_VECTOR_INDEXES);
        }
        return indexes;
    }

    /** One index's own rules: its search schema's shape, its dimensions and its projection. */
    private static IndexDefinition index(VectorIndexSpec spec, Map<String, AttributeValue.Type> types, Instant now,
                                         int id, IndexStatus status, boolean backfilling) {
        List<KeyAttribute> hash = new ArrayList<>(1);
        List<KeyAttribute> inline = new ArrayList<>();
        if (spec.searchSchema() != null) {
            for (SearchSchemaElement e : spec.searchSchema()) {
                KeyAttribute k = new KeyAttribute(e.attributeName(), types.get(e.attributeName()));
                ("HASH".equals(e.type()) ? hash : inline).add(k);
            }
        }
        if (hash.size() > 1) throw schemaCount(hash.size(), "HASH", 1);
        if (inline.size() > MAX_INLINE_FILTERS) throw schemaCount(inline.size(), "INLINE_FILTER", MAX_INLINE_FILTERS);
        long dimensions = spec.dimensions();
        if (dimensions < 1 || dimensions > MAX_DIMENSIONS) {
            throw DynamoDbException.invalidParameter("Number of dimensions must be between 1 and " + MAX_DIMENSIONS
                    + " inclusive.");
        }
        IndexSpecs.Projection projection = IndexSpecs.projection(spec.projection());
        return new IndexDefinition(spec.indexName(), id, true, hash, List.of(), projection.type(),
                projection.nonKeyAttributes(), ProvisionedThroughput.ZERO, null, null, status, backfilling, now,
                new IndexDefinition.Vector(spec.vectorAttribute(), (int) dimensions,
                        Distance.valueOf(spec.distanceFunction()), inline));
    }

    private static DynamoDbException schemaCount(int count, String type, int max) {
        return DynamoDbException.invalidParameter("Value '" + count + "' at 'SearchSchema' failed to satisfy constraint: "
                + "Member must have " + type + " count less than or equal to " + max);
    }

    /** Indexes on one vector attribute agree on its dimensions (API_CreateVectorIndexAction). */
    private static void checkSameDimensions(IndexDefinition existing, IndexDefinition index) {
        IndexDefinition.Vector a = existing.vector();
        IndexDefinition.Vector b = index.vector();
        if (a.attribute().equals(b.attribute()) && a.dimensions() != b.dimensions()) {
            throw redefined("VectorIndexSchema:[VectorAttribute: key{" + a.attribute() + ":L:" + a.dimensions() + "}]", b);
        }
    }

    private static DynamoDbException redefined(String existing, IndexDefinition.Vector v) {
        return DynamoDbException.invalidParameter("Attributes cannot be redefined. Please check that your attribute has "
                + "the same type as previously defined. Existing schema: " + existing + " New schema: "
                + "VectorIndexSchema:[VectorAttribute: key{" + v.attribute() + ":L:" + v.dimensions() + "}]");
    }

    // ---- UpdateTable ------------------------------------------------------------------------

    /** The request's own rules: one action per entry, one index created or deleted per request. */
    static void checkRequest(List<VectorIndexUpdate> entries, int globalCreatesAndDeletes) {
        if (entries == null) return;
        int actions = 0;
        for (VectorIndexUpdate entry : entries) {
            if (entry.create() == null && entry.delete() == null) {
                throw DynamoDbException.invalidParameter(
                        "One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must not be null");
            }
            if (entry.create() != null && entry.delete() != null) {
                throw DynamoDbException.invalidParameter(
                        "Only one vector index action is allowed per VectorIndexUpdate object");
            }
            actions++;
        }
        if (actions + globalCreatesAndDeletes > 1) throw GlobalIndexUpdates.onlyOneOnlineIndex();
    }

    /**
     * Applies the creates and deletes to the table's new definition (under the catalog lock), and
     * adds what they started to {@code created} and {@code deleted}.
     */
    static void apply(UpdateTableSpec request, TableDefinition table, TableDefinition.Builder changed, Instant now,
                      List<String> created, List<String> deleted) {
        List<VectorIndexUpdate> entries = request.vectorIndexUpdates();
        boolean hasVectors = !table.vectorIndexes().isEmpty();
        if (changed.billingMode != BillingMode.PAY_PER_REQUEST && (hasVectors || entries != null && !entries.isEmpty())) {
            throw DynamoDbException.invalidParameter(entries != null && !entries.isEmpty()
                    ? "Tables with vector indexes must be in PAY_PER_REQUEST mode" : ONLY_ON_DEMAND);
        }
        if (entries == null || entries.isEmpty()) return;
        List<IndexDefinition> vectors = new ArrayList<>(changed.vectorIndexes);
        for (VectorIndexUpdate entry : entries) {
            if (entry.create() != null) {
                vectors.add(create(request, table, changed, entry.create(), now));
                created.add(entry.create().indexName());
            } else {
                String name = entry.delete();
                int at = -1;
                for (int i = 0; i < vectors.size(); i++) if (vectors.get(i).name().equals(name)) at = i;
                if (at < 0) {
                    throw DynamoDbException.resourceNotFound("Requested resource not found: Index " + name
                            + " for table " + table.name());
                }
                IndexDefinition index = vectors.get(at);
                if (index.status() == IndexStatus.DELETING) {
                    throw DynamoDbException.resourceInUse("Attempt to change a resource which is still in use: Index is "
                            + "being deleted. Table: " + table.name() + " Index: " + name);
                }
                if (busy(table, index)) throw GlobalIndexUpdates.onlyOneOnlineIndex();
                vectors.set(at, index.withStatus(IndexStatus.DELETING, false));
                deleted.add(name);
            }
        }
        changed.vectorIndexes = vectors;
    }

    /** Whether another index of the table is being created or deleted. */
    private static boolean busy(TableDefinition table, IndexDefinition except) {
        for (IndexDefinition i : table.globalIndexes()) if (i.status() != IndexStatus.ACTIVE) return true;
        for (IndexDefinition i : table.vectorIndexes()) if (i != except && i.status() != IndexStatus.ACTIVE) return true;
        return false;
    }

    private static IndexDefinition create(UpdateTableSpec request, TableDefinition table, TableDefinition.Builder changed,
                                          VectorIndexSpec spec, Instant now) {
        String name = spec.indexName();
        IndexDefinition existing = table.index(name);
        if (existing != null && existing.isVector() && existing.status() == IndexStatus.CREATING) {
            throw DynamoDbException.resourceInUse("Attempt to change a resource which is still in use: Index is being "
                    + "created.  Table: " + table.name() + " Index: " + name);
        }
        if (existing != null) throw DynamoDbException.validation("Attempting to create an index which already exists");
        if (table.vectorIndexes().size() >= MAX_VECTOR_INDEXES) {
            throw DynamoDbException.limitExceeded("Subscriber limit exceeded: Number of vector secondary indexes exceeds "
                    + "per-table limit of " + MAX_VECTOR_INDEXES);
        }
        if (busy(table, null)) throw GlobalIndexUpdates.onlyOneOnlineIndex();
        // The search schema's attributes are declared in this request, even when the table already
        // declares them (measured, docs/dynamodb/vector-search.md §3.3 rule 2).
        Map<String, AttributeValue.Type> given = new java.util.LinkedHashMap<>();
        if (request.attributeDefinitions() != null) {
            for (AttributeDefinition d : request.attributeDefinitions()) given.put(d.name(), d.type());
        }
        checkDefinitions(spec, given);
        int id = changed.lastIndexId + 1;
        changed.lastIndexId = id;
        IndexDefinition index = index(spec, given, now, id, IndexStatus.CREATING, true);
        KeySchema key = table.keySchema();
        String vectorAttribute = index.vector().attribute();
        if (key.isKeyAttribute(vectorAttribute)) {
            boolean partition = vectorAttribute.equals(key.partitionKey());
            AttributeValue.Type type = partition ? key.partitionKeyType() : key.sortKeyType();
            throw redefined("Schema:[SchemaElement: key{" + vectorAttribute + ":" + type + ":"
                    + (partition ? "HASH" : "RANGE") + "}]", index.vector());
        }
        for (IndexDefinition other : table.vectorIndexes()) checkSameDimensions(other, index);
        List<AttributeDefinition> definitions = new ArrayList<>(changed.attributeDefinitions);
        for (Map.Entry<String, AttributeValue.Type> d : given.entrySet()) {
            if (definitions.stream().noneMatch(x -> x.name().equals(d.getKey()))) {
                definitions.add(new AttributeDefinition(d.getKey(), d.getValue()));
            }
        }
        changed.attributeDefinitions = definitions;
        return index;
    }
}
