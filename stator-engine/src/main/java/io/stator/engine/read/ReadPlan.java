package io.stator.engine.read;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.ConditionPaths;
import io.stator.core.expression.Path;
import io.stator.core.key.KeyLayout;
import io.stator.core.key.KeyRange;
import io.stator.core.key.KeyRanges;
import io.stator.core.model.AttributeValue;
import io.stator.engine.item.KeyPaths;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.item.RowKeys;
import io.stator.engine.table.TableDefinition;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every read, as one value: GetItem, each key of BatchGetItem and TransactGetItems, a Query
 * and a Scan page, over the table or any index, are a walk of one range of row keys of one
 * {@link ReadTarget} ({@link Reads} runs it). The base table is a target like the indexes,
 * index 0 of the key layout.
 *
 * <p>The factories plan a read from what an operation asks, with DynamoDB's checks in its order:
 * the target (an index must exist, be readable, not consistently if global), the key range
 * (from the key conditions and the start key), what may be selected and projected, what a
 * filter may name.
 *
 * @param range             the rows to read ({@link KeyRanges})
 * @param singleItem        the range is one item's key: read it with a point lookup
 * @param forward           ascending key order (a Query may read backwards)
 * @param exclusiveStartKey null, or the key to continue after (a previous page's LastEvaluatedKey)
 * @param limit             the most items to read (before the filter): Limit, or Integer.MAX_VALUE
 * @param filter            null, or what an item must match to be returned (it is read, and
 *                          billed, either way)
 * @param projection        null for whole items as the target holds them, else the paths to return
 * @param transactional     part of TransactGetItems (billed twice)
 * @param fetchFromTable    a local index reads each entry's item from the table
 * @param reprojectFetched  items fetched only for the filter go back to what the index projects
 * @param countOnly         only count the items that pass the filter (Select COUNT)
 * @param scan              a Scan, which reads across partitions (else one partition key's rows)
 */
public record ReadPlan(ReadTarget target, KeyRange range, boolean singleItem, boolean forward,
                       Map<String, AttributeValue> exclusiveStartKey, int limit, Condition filter,
                       List<Path> projection, boolean consistentRead, boolean transactional, boolean fetchFromTable,
                       boolean reprojectFetched, boolean countOnly, boolean scan) {

    /** The filter is evaluated on every item read: what in it reads no attribute is computed once, here. */
    public ReadPlan {
        if (filter != null) filter = ConditionEvaluator.folded(filter);
    }

    /**
     * The hash of the one partition key this read stays in (GetItem, Query; every row of its
     * range starts with it), which is the partition the capacity meter admits it in. Not for a Scan.
     */
    public long partitionHash() {
        return KeyLayout.hashOf(range.from());
    }

    /**
     * One item of the table, by its key (GetItem, a key of BatchGetItem or TransactGetItems).
     * The key must fit the table's key schema (checked here).
     */
    public static ReadPlan item(TableDefinition table, Map<String, AttributeValue> key, boolean consistentRead,
                                List<Path> projection, boolean transactional) {
        PrimaryKeys.checkKey(table.keySchema(), key);
        return new ReadPlan(ReadTarget.table(table), KeyRanges.item(RowKeys.of(table, key)), true, true, null, 1,
                null, projection, consistentRead, transactional, false, false, false, false);
    }

    /**
     * A Query: one partition's items, of the table or of an index, in sort-key order (or
     * reversed), narrowed by a sort-key condition. The checks, in DynamoDB's order: the index;
     * the key conditions and the start key against the queried key; Select; the projection's
     * and the filter's use of key attributes (a Query may not filter on the key it queries by).
     */
    public static ReadPlan query(TableDefinition table, QuerySpec q) {
        ReadTarget target = ReadTarget.of(table, q.indexName(), q.consistentRead(), true);
        KeyConditions.Resolved key = KeyConditions.resolve(target, q.keyConditions(), q.exclusiveStartKey());
        target.checkSelect(q.select());
        if (q.projection() != null) {
            target.checkNoNestedKeyPaths(q.projection());
            target.checkProjected(q.projection());
        }
        if (q.filter() != null) {
            checkFilterAvoidsKeys(target, q.filter(), q.legacyFilter());
            target.checkNoNestedKeyPaths(ConditionPaths.paths(q.filter()));
        }
        boolean fetch = target.fetchesFromTable(q.select(), q.projection(), q.filter());
        return new ReadPlan(target, key.range(target), false, q.forward(), q.exclusiveStartKey(), q.limit(), q.filter(),
                q.projection(), q.consistentRead(), false, fetch, target.reprojectsFetched(fetch, q.select(), q.projection()),
                q.select() == Select.COUNT, false);
    }

    /**
     * A Scan: the whole table or index in partition-hash order, or one segment of a parallel
     * scan (segments are disjoint hash ranges that together cover it once). Checks in
     * DynamoDB's order: the index, the start key against the key schema and the segment,
     * Select, the projection's use of key attributes; a Scan may filter on key attributes, but
     * not reach inside one (as a Query may not at all).
     */
    public static ReadPlan scan(TableDefinition table, ScanSpec s) {
        return scan(table, s, io.stator.core.key.KeyLayout::hashOf);
    }

    /**
     * As {@link #scan(TableDefinition, ScanSpec)}, with the storage's scan positions (segments
     * divide them, and a start key must lie in its segment): the row key's hash on an ordered
     * store, the backend's own on shared storage.
     */
    public static ReadPlan scan(TableDefinition table, ScanSpec s, java.util.function.ToLongFunction<byte[]> positions) {
        ReadTarget target = ReadTarget.of(table, s.indexName(), s.consistentRead(), false);
        if (s.exclusiveStartKey() != null) {
            target.checkScanStartKey(s.exclusiveStartKey(), s.segment(), s.totalSegments(), positions);
        }
        target.checkSelect(s.select());
        if (s.projection() != null) {
            target.checkNoNestedKeyPaths(s.projection());
            target.checkProjected(s.projection());
        }
        if (s.filter() != null) target.checkNoNestedKeyPaths(ConditionPaths.paths(s.filter()));
        boolean fetch = target.fetchesFromTable(s.select(), s.projection(), s.filter());
        KeyRange range = KeyRanges.segment(table.id(), target.indexId(), s.segment(), s.totalSegments());
        return new ReadPlan(target, range, false, true, s.exclusiveStartKey(), s.limit(), s.filter(), s.projection(),
                s.consistentRead(), false, fetch, target.reprojectsFetched(fetch, s.select(), s.projection()),
                s.select() == Select.COUNT, true);
    }

    /**
     * The plan with further terms on the queried key's attributes, applied with its filter (to
     * the items read, after Limit): PartiQL's WHERE may test the key beyond its key condition
     * ({@code sk <> 3}, a second sort key term), which a FilterExpression may not.
     */
    public ReadPlan filteringKeys(Condition keyTerms) {
        if (keyTerms == null) return this;
        return new ReadPlan(target, range, singleItem, forward, exclusiveStartKey, limit,
                filter == null ? keyTerms : new Condition.And(filter, keyTerms), projection, consistentRead,
                transactional, fetchFromTable, reprojectFetched, countOnly, scan);
    }

    /** A Query may not filter on the key it queries by (on an index, the index's key). */
    private static void checkFilterAvoidsKeys(ReadTarget target, Condition filter, boolean legacy) {
        Set<String> names = ConditionPaths.topLevelNames(filter);
        for (String key : target.keyNames()) {
            if (names.contains(key)) {
                throw DynamoDbException.validation((legacy ? "QueryFilter" : "Filter Expression")
                        + " can only contain non-primary key attributes: Primary key attribute: " + key);
            }
        }
    }

    /** A single-item read's projection must not reach inside a key attribute. */
    public static void checkProjection(TableDefinition table, List<Path> projection) {
        if (projection != null) KeyPaths.checkNoNestedKeyPaths(table.keySchema(), projection);
    }
}
