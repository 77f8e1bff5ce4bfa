package io.stator.engine.table;

import io.stator.core.model.AttributeValue;
import io.stator.engine.index.vector.Distance;
import io.stator.engine.table.TableDefinition.OnDemandThroughput;
import io.stator.engine.table.TableDefinition.ProvisionedThroughput;
import io.stator.engine.table.TableDefinition.WarmThroughput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A secondary index of a table: global (its own partition key, eventually consistent, own
 * throughput) or local (the table's partition key with another sort key, written with the
 * item). A global index's partition and sort keys may each have up to four attributes
 * (DynamoDB's multi-attribute keys); a local index has one of each.
 *
 * @param id               the index id in row keys (KeyLayout): 1 and up, never reused in a table
 * @param partitionKey     the index partition key's attributes, in order
 * @param sortKey          the sort key's attributes, in order (empty when there is none)
 * @param nonKeyAttributes for INCLUDE: the projected non-key attributes
 * @param throughput       global indexes only (0 and 0 on demand); null for local ones
 * @param status           global indexes: CREATING while being built, then ACTIVE
 * @param backfilling      global indexes: true while existing items are being copied in
 * @param vector           a vector index's own settings; null for global and local indexes. A
 *                         vector index is kept as a global one is (eventually consistent, built
 *                         when added), its search schema's HASH attribute as its partition key
 *                         (none, or one) and no sort key
 */
public record IndexDefinition(
        String name,
        int id,
        boolean global,
        List<KeyAttribute> partitionKey,
        List<KeyAttribute> sortKey,
        ProjectionType projectionType,
        List<String> nonKeyAttributes,
        ProvisionedThroughput throughput,
        OnDemandThroughput onDemandThroughput,
        WarmThroughput warmThroughput,
        IndexStatus status,
        boolean backfilling,
        Instant creationDateTime,
        Vector vector) {

    public record KeyAttribute(String name, AttributeValue.Type type) {}

    public enum ProjectionType { ALL, KEYS_ONLY, INCLUDE }

    public enum IndexStatus { CREATING, UPDATING, DELETING, ACTIVE }

    /**
     * What a vector index adds to an index: the item attribute holding the vector (a list of
     * {@code dimensions} numbers), how vectors are compared, and the search schema's INLINE_FILTER
     * attributes (its HASH, if any, is the index's partition key).
     */
    public record Vector(String attribute, int dimensions, Distance distanceFunction, List<KeyAttribute> inlineFilters) {
        public Vector {
            inlineFilters = List.copyOf(inlineFilters);
        }
    }

    /** True for a vector index. */
    public boolean isVector() { return vector != null; }

    public IndexDefinition {
        partitionKey = List.copyOf(partitionKey);
        sortKey = List.copyOf(sortKey);
        nonKeyAttributes = nonKeyAttributes == null ? List.of() : List.copyOf(nonKeyAttributes);
    }

    public boolean hasSortKey() { return !sortKey.isEmpty(); }

    /** The index's key attributes, partition key first. */
    public List<KeyAttribute> keyAttributes() {
        List<KeyAttribute> all = new ArrayList<>(partitionKey);
        all.addAll(sortKey);
        return all;
    }

    /** True when the index's entries carry the attribute (keys are always projected). */
    public boolean projects(String attribute, KeySchema tableKey) {
        if (projectionType == ProjectionType.ALL || tableKey.isKeyAttribute(attribute)) return true;
        for (KeyAttribute k : partitionKey) if (k.name().equals(attribute)) return true;
        for (KeyAttribute k : sortKey) if (k.name().equals(attribute)) return true;
        if (vector != null) for (KeyAttribute k : vector.inlineFilters()) if (k.name().equals(attribute)) return true;
        return projectionType == ProjectionType.INCLUDE && nonKeyAttributes.contains(attribute);
    }

    public IndexDefinition withStatus(IndexStatus newStatus, boolean newBackfilling) {
        return new IndexDefinition(name, id, global, partitionKey, sortKey, projectionType, nonKeyAttributes,
                throughput, onDemandThroughput, warmThroughput, newStatus, newBackfilling, creationDateTime, vector);
    }
}
