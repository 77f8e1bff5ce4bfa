package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.Path;
import io.stator.core.key.KeyLayout;
import io.stator.core.key.PartitionHash;
import io.stator.core.model.AttributeValue;
import io.stator.engine.index.IndexEntries;
import io.stator.engine.item.PageReader.Page;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.IndexDefinition.IndexStatus;
import io.stator.engine.table.IndexDefinition.KeyAttribute;
import io.stator.engine.table.IndexDefinition.ProjectionType;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.Struct;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a Query or Scan reads: the table, or one of its secondary indexes (IndexName), and the
 * rules that differ between the two: which key it is queried by, what an ExclusiveStartKey
 * holds (on an index, the index key and the table key), what an index projects, and when a
 * local index must fetch the item from the table.
 *
 * @param index        null when the table itself is read
 * @param partitionKey the queried key's partition attributes (several only on a global index
 *                     with a multi-attribute key)
 * @param sortKey      the queried key's sort attributes, in order (empty when there is none)
 * @param keyNames     the names of the queried key's attributes, partition key first (made once:
 *                     a Query consults them several times)
 */
record ReadTarget(TableDefinition table, IndexDefinition index, List<KeyAttribute> partitionKey,
                  List<KeyAttribute> sortKey, Set<String> keyNames) {

    ReadTarget(TableDefinition table, IndexDefinition index, List<KeyAttribute> partitionKey, List<KeyAttribute> sortKey) {
        this(table, index, partitionKey, sortKey, names(partitionKey, sortKey));
    }

    private static Set<String> names(List<KeyAttribute> partitionKey, List<KeyAttribute> sortKey) {
        Set<String> names = new LinkedHashSet<>();
        for (KeyAttribute k : partitionKey) names.add(k.name());
        for (KeyAttribute k : sortKey) names.add(k.name());
        return Collections.unmodifiableSet(names);
    }

    /**
     * The target the request names, checked in DynamoDB's order: the index exists, is not read
     * consistently if global, and is not being backfilled.
     */
    static ReadTarget of(TableDefinition table, Struct request) {
        String indexName = request.string("IndexName");
        if (indexName == null) {
            KeySchema key = table.keySchema();
            return new ReadTarget(table, null, List.of(new KeyAttribute(key.partitionKey(), key.partitionKeyType())),
                    key.hasSortKey() ? List.of(new KeyAttribute(key.sortKey(), key.sortKeyType())) : List.of());
        }
        IndexDefinition index = table.index(indexName);
        // An index being deleted is already gone for readers (its entries are being dropped).
        if (index == null || index.status() == IndexStatus.DELETING) {
            throw DynamoDbException.validation("The table does not have the specified index: " + indexName);
        }
        if (index.global() && request.bool("ConsistentRead", false)) {
            throw DynamoDbException.validation("Consistent reads are not supported on global secondary indexes");
        }
        if (index.global() && index.status() == IndexStatus.CREATING) {
            throw DynamoDbException.validation("Cannot read from backfilling global secondary index: " + indexName);
        }
        return new ReadTarget(table, index, index.partitionKey(), index.sortKey());
    }

    boolean isIndex() {
        return index != null;
    }

    /** True for a table or an index whose key has at most one partition and one sort attribute. */
    boolean hasSingleAttributeKey() {
        return partitionKey.size() == 1 && sortKey.size() <= 1;
    }

    // ---- ExclusiveStartKey ------------------------------------------------------------------

    /** What an ExclusiveStartKey (and a LastEvaluatedKey) holds: the table key, and on an index its key too. */
    private Set<String> startKeyNames() {
        KeySchema t = table.keySchema();
        Set<String> names = new LinkedHashSet<>();
        names.add(t.partitionKey());
        if (t.hasSortKey()) names.add(t.sortKey());
        if (index != null) names.addAll(keyNames());
        return names;
    }

    /** The start key holds exactly the attributes it must. */
    void checkStartKeyShape(Map<String, AttributeValue> start) {
        Set<String> names = startKeyNames();
        if (start.size() != names.size() || !start.keySet().containsAll(names)) {
            throw DynamoDbException.validation("The provided starting key is invalid");
        }
    }

    /** One queried key attribute's value in the start key (DynamoDB words these errors bare). */
    static void checkStartKeyValue(KeyAttribute attribute, boolean partition, Map<String, AttributeValue> start) {
        PrimaryKeys.checkKeyValue(attribute.name(), attribute.type(), start.get(attribute.name()), partition);
    }

    /** On an index, the table key's part of the start key (its errors prefixed, as DynamoDB words them). */
    void checkStartKeyTablePart(Map<String, AttributeValue> start) {
        if (index == null) return;
        KeySchema t = table.keySchema();
        Set<String> queried = keyNames();
        try {
            if (!queried.contains(t.partitionKey())) {
                PrimaryKeys.checkKeyValue(t.partitionKey(), t.partitionKeyType(), start.get(t.partitionKey()), true);
            }
            if (t.hasSortKey() && !queried.contains(t.sortKey())) {
                PrimaryKeys.checkKeyValue(t.sortKey(), t.sortKeyType(), start.get(t.sortKey()), false);
            }
        } catch (DynamoDbException e) {
            throw DynamoDbException.validation("The provided starting key is invalid: " + e.getMessage());
        }
    }

    /** A Scan's start key: a key of what is scanned, in the segment being scanned. */
    void checkScanStartKey(Map<String, AttributeValue> start, int segment, int totalSegments) {
        long hash;
        if (index == null) {
            KeySchema schema = table.keySchema();
            try {
                PrimaryKeys.checkKey(schema, start);
            } catch (DynamoDbException e) {
                throw DynamoDbException.validation("The provided starting key is invalid: " + e.getMessage());
            }
            hash = PartitionHash.of(start.get(schema.partitionKey()));
        } else {
            checkStartKeyShape(start);
            for (KeyAttribute k : partitionKey) checkStartKeyValue(k, true, start);
            for (KeyAttribute k : sortKey) checkStartKeyValue(k, false, start);
            checkStartKeyTablePart(start);
            List<AttributeValue> parts = new ArrayList<>(partitionKey.size());
            for (KeyAttribute k : partitionKey) parts.add(start.get(k.name()));
            hash = PartitionHash.hash(KeyLayout.indexPartitionBytes(parts));
        }
        if (KeyLayout.segmentOf(hash, totalSegments) != segment) {
            throw DynamoDbException.validation("The provided starting key is invalid: Invalid ExclusiveStartKey. "
                    + "Please use ExclusiveStartKey with correct Segment. TotalSegments: " + totalSegments
                    + " Segment: " + segment);
        }
    }

    // ---- what is returned -------------------------------------------------------------------

    /** A global index returns only what it projects: all of the item only if it projects ALL. */
    void checkSelect(String select) {
        if ("ALL_ATTRIBUTES".equals(select) && index != null && index.global()
                && index.projectionType() != ProjectionType.ALL) {
            throw DynamoDbException.invalidParameter("Select type ALL_ATTRIBUTES is not supported for global "
                    + "secondary index " + index.name() + " because its projection type is not ALL");
        }
    }

    /**
     * No expression may reach inside a key attribute: the table's ("Key") or the index's
     * ("IndexKey"), as DynamoDB names them.
     */
    void checkNoNestedKeyPaths(Collection<Path> paths) {
        KeySchema t = table.keySchema();
        Set<String> indexKey = index == null ? Set.of() : keyNames();
        KeyPaths.checkNoNestedKeyPaths(paths,
                name -> t.isKeyAttribute(name) ? "Key" : indexKey.contains(name) ? "IndexKey" : null);
    }

    /** A global index cannot fetch from the table: what a projection names, it must project. */
    void checkProjected(List<Path> projection) {
        if (index == null || !index.global()) return;
        Set<String> missing = new LinkedHashSet<>();
        for (Path p : projection) {
            if (!index.projects(p.topLevelName(), table.keySchema())) missing.add(p.topLevelName());
        }
        if (!missing.isEmpty()) {
            throw DynamoDbException.invalidParameter("Global secondary index " + index.name() + " does not project "
                    + "[" + String.join(", ", missing) + "]");
        }
    }

    /**
     * A local index reads each item from the table when asked for attributes it does not
     * project (ALL_ATTRIBUTES, a projection or a filter naming one), billed to the table.
     */
    boolean fetchesFromTable(String select, List<Path> projection, Condition filter) {
        if (index == null || index.global() || index.projectionType() == ProjectionType.ALL) return false;
        if ("ALL_ATTRIBUTES".equals(select)) return true;
        if (projection != null && !allProjected(projection)) return true;
        return filter != null && !allProjected(FilterPaths.paths(filter));
    }

    /**
     * A page as returned. Items a local index fetched from the table only for its filter go
     * back to what the index projects: Select ALL_PROJECTED_ATTRIBUTES, the default on an index,
     * "retrieves all attributes that have been projected into the index" (Select's API
     * documentation); only ALL_ATTRIBUTES or a projection returns more.
     */
    Page returned(Page page, boolean fetched, String select, List<Path> projection) {
        if (!fetched || projection != null || "ALL_ATTRIBUTES".equals(select)) return page;
        List<Map<String, AttributeValue>> items = new ArrayList<>(page.items().size());
        for (Map<String, AttributeValue> item : page.items()) items.add(IndexEntries.project(table, index, item));
        return new Page(items, page.scannedCount(), page.lastEvaluatedKey(), page.consumed());
    }

    private boolean allProjected(List<Path> paths) {
        for (Path p : paths) if (!index.projects(p.topLevelName(), table.keySchema())) return false;
        return true;
    }
}
