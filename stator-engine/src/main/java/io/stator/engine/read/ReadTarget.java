package io.stator.engine.read;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.Path;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.core.expression.ConditionPaths;
import io.stator.engine.index.IndexEntries;
import io.stator.engine.item.KeyPaths;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.item.RowKeys;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.IndexDefinition.IndexStatus;
import io.stator.engine.table.IndexDefinition.KeyAttribute;
import io.stator.engine.table.IndexDefinition.ProjectionType;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
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
 * <p>The queried key's attributes are worked out on first use: a single-item read never needs
 * them, a Query consults them several times.
 */
public final class ReadTarget {

    private final TableDefinition table;
    private final IndexDefinition index;
    private List<KeyAttribute> partitionKey;
    private List<KeyAttribute> sortKey;
    private Set<String> keyNames;

    private ReadTarget(TableDefinition table, IndexDefinition index) {
        this.table = table;
        this.index = index;
    }

    /** The table itself (the base table is index 0 of the key layout). */
    public static ReadTarget table(TableDefinition table) {
        return new ReadTarget(table, null);
    }

    public TableDefinition table() { return table; }

    /** The index read, or null when the table itself is read. */
    public IndexDefinition index() { return index; }

    /**
     * The queried key's partition attributes (several only on a global index with a
     * multi-attribute key).
     */
    List<KeyAttribute> partitionKey() {
        if (partitionKey == null) {
            KeySchema key = table.keySchema();
            partitionKey = index != null ? index.partitionKey()
                    : List.of(new KeyAttribute(key.partitionKey(), key.partitionKeyType()));
        }
        return partitionKey;
    }

    /** The queried key's sort attributes, in order (empty when there is none). */
    List<KeyAttribute> sortKey() {
        if (sortKey == null) {
            KeySchema key = table.keySchema();
            sortKey = index != null ? index.sortKey()
                    : key.hasSortKey() ? List.of(new KeyAttribute(key.sortKey(), key.sortKeyType())) : List.of();
        }
        return sortKey;
    }

    /** The names of the queried key's attributes, partition key first. */
    Set<String> keyNames() {
        if (keyNames == null) {
            Set<String> names = new LinkedHashSet<>();
            for (KeyAttribute k : partitionKey()) names.add(k.name());
            for (KeyAttribute k : sortKey()) names.add(k.name());
            keyNames = Collections.unmodifiableSet(names);
        }
        return keyNames;
    }

    /**
     * The table, or the index a request names (null for none), checked in DynamoDB's order: the
     * index exists, is not read consistently if global, and is not being backfilled.
     */
    public static ReadTarget of(TableDefinition table, String indexName, boolean consistentRead, boolean query) {
        if (indexName == null) return table(table);
        IndexDefinition index = table.index(indexName);
        // An index being deleted is already gone for readers (its entries are being dropped).
        if (index == null || index.status() == IndexStatus.DELETING) {
            throw DynamoDbException.validation("The table does not have the specified index: " + indexName);
        }
        // A vector index is read by SearchVectors only (texts measured against DynamoDB,
        // docs/dynamodb/vector-search.md §3.4); a backfilling one answers Scan as a GSI would.
        if (index.isVector() && (query || index.status() != IndexStatus.CREATING)) {
            throw DynamoDbException.validation(query ? "Query operation not supported on this index type."
                    : "Scan operation not supported on this index type");
        }
        if (index.global() && consistentRead) {
            throw DynamoDbException.validation("Consistent reads are not supported on global secondary indexes");
        }
        if (index.global() && index.status() == IndexStatus.CREATING) {
            throw DynamoDbException.validation("Cannot read from backfilling global secondary index: " + indexName);
        }
        return new ReadTarget(table, index);
    }

    public boolean isIndex() {
        return index != null;
    }

    /** True for a table or an index whose key has at most one partition and one sort attribute. */
    boolean hasSingleAttributeKey() {
        return partitionKey().size() == 1 && sortKey().size() <= 1;
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
    void checkScanStartKey(Map<String, AttributeValue> start, int segment, int totalSegments,
                           java.util.function.ToLongFunction<byte[]> positions) {
        if (index == null) {
            KeySchema schema = table.keySchema();
            try {
                PrimaryKeys.checkKey(schema, start);
            } catch (DynamoDbException e) {
                throw DynamoDbException.validation("The provided starting key is invalid: " + e.getMessage());
            }
        } else {
            checkStartKeyShape(start);
            for (KeyAttribute k : partitionKey()) checkStartKeyValue(k, true, start);
            for (KeyAttribute k : sortKey()) checkStartKeyValue(k, false, start);
            checkStartKeyTablePart(start);
        }
        if (KeyLayout.segmentOf(positions.applyAsLong(rowKey(start)), totalSegments) != segment) {
            throw DynamoDbException.validation("The provided starting key is invalid: Invalid ExclusiveStartKey. "
                    + "Please use ExclusiveStartKey with correct Segment. TotalSegments: " + totalSegments
                    + " Segment: " + segment);
        }
    }

    /** The row key a start key names: an item's, or an index entry's (index key, then table key). */
    byte[] rowKey(Map<String, AttributeValue> key) {
        KeySchema t = table.keySchema();
        if (index == null) {
            return KeyLayout.encodeItemKey(table.partitionHash(), table.id(), KeyLayout.BASE_TABLE_INDEX_ID, key.get(t.partitionKey()),
                    t.hasSortKey() ? key.get(t.sortKey()) : null);
        }
        return KeyLayout.encodeIndexEntryKey(table.partitionHash(), table.id(), index.id(), values(partitionKey(), key), values(sortKey(), key),
                key.get(t.partitionKey()), t.hasSortKey() ? key.get(t.sortKey()) : null);
    }

    /** A LastEvaluatedKey: the table's key, and on an index the index's key too. */
    Map<String, AttributeValue> lastEvaluatedKey(Map<String, AttributeValue> row) {
        Map<String, AttributeValue> key = RowKeys.keyOf(table.keySchema(), row);
        if (index != null) {
            for (KeyAttribute k : index.keyAttributes()) key.put(k.name(), row.get(k.name()));
        }
        return key;
    }

    private static List<AttributeValue> values(List<KeyAttribute> keys, Map<String, AttributeValue> item) {
        List<AttributeValue> values = new ArrayList<>(keys.size());
        for (KeyAttribute k : keys) values.add(item.get(k.name()));
        return values;
    }

    // ---- what is returned -------------------------------------------------------------------

    /** The index id of the rows read (0 for the table). */
    int indexId() {
        return index == null ? KeyLayout.BASE_TABLE_INDEX_ID : index.id();
    }

    /** A global index returns only what it projects: all of the item only if it projects ALL. */
    void checkSelect(Select select) {
        if (select == Select.ALL_ATTRIBUTES && index != null && index.global()
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
    boolean fetchesFromTable(Select select, List<Path> projection, Condition filter) {
        if (index == null || index.global() || index.projectionType() == ProjectionType.ALL) return false;
        if (select == Select.ALL_ATTRIBUTES) return true;
        if (projection != null && !allProjected(projection)) return true;
        return filter != null && !allProjected(ConditionPaths.paths(filter));
    }

    /**
     * Whether items a local index fetched from the table go back to what the index projects:
     * those fetched only for the filter do. Select ALL_PROJECTED_ATTRIBUTES, the default on an
     * index, "retrieves all attributes that have been projected into the index" (Select's API
     * documentation); only ALL_ATTRIBUTES or a projection returns more.
     */
    boolean reprojectsFetched(boolean fetched, Select select, List<Path> projection) {
        return fetched && projection == null && select != Select.ALL_ATTRIBUTES;
    }

    /** A fetched item as the index projects it. */
    Map<String, AttributeValue> projectedByIndex(Map<String, AttributeValue> item) {
        return IndexEntries.project(table, index, item);
    }

    private boolean allProjected(List<Path> paths) {
        for (Path p : paths) if (!index.projects(p.topLevelName(), table.keySchema())) return false;
        return true;
    }
}
