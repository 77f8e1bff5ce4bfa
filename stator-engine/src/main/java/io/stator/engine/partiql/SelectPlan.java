package io.stator.engine.partiql;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionPaths;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.Statement;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How ExecuteStatement reads a SELECT: which of the engine's reads it becomes, and how its WHERE
 * divides between them. The choice follows DynamoDB's SELECT reference ("the WHERE clause
 * condition must specify a partition key. Use the equality or IN operator", else a full scan):
 * <ul>
 *   <li>{@link Kind#QUERY}: WHERE fixes the partition key with {@code =}: a Query, a sort key
 *       condition among the AND terms its key condition;</li>
 *   <li>{@link Kind#QUERY_EACH_PARTITION}: {@code IN} (or equalities joined by OR): a Query of
 *       each partition in the order written, as one page;</li>
 *   <li>{@link Kind#QUERY_FETCHING_ITEMS}: a keyed read of a local index selecting attributes it
 *       does not project: its entries, then each one's item from the table, billed as GetItem;</li>
 *   <li>{@link Kind#SCAN}: anything else, WHERE the Scan's filter;</li>
 *   <li>{@link Kind#SCAN_FILTERING_INDEX}: an unkeyed read of a local index whose WHERE names
 *       attributes it does not project, filtered on the entries as the index holds them.</li>
 * </ul>
 * A Query's FilterExpression may not read key attributes, but WHERE may test them beyond the key
 * condition ({@code sk <> 3}, {@code sk IN (...)}, a second sort key term): those terms are the
 * plan's {@code keyFilter}, which the read plan applies with the filter (same items read, so the
 * same capacity and the same pages).
 *
 * @param index      the index read, or null for the table
 * @param keyTerms   the Query's key condition terms (for QUERY_EACH_PARTITION, without the IN)
 * @param partitions QUERY_EACH_PARTITION's partition key values, distinct, in the order written
 * @param filter     WHERE's terms on other attributes (a Scan's: the whole WHERE), or null
 * @param keyFilter  WHERE's terms on key attributes that no key condition took, or null
 */
public record SelectPlan(Kind kind, TableDefinition table, IndexDefinition index, Statement.Select statement,
                         List<Condition> keyTerms, List<AttributeValue> partitions, Condition filter,
                         Condition keyFilter) {

    public enum Kind { QUERY, QUERY_EACH_PARTITION, QUERY_FETCHING_ITEMS, SCAN, SCAN_FILTERING_INDEX }

    /** The plan of {@code s} on {@code table}, with every check of {@link #target} and {@link #plan}. */
    public static SelectPlan of(TableDefinition table, Statement.Select s, boolean consistentRead) {
        return plan(table, target(table, s, consistentRead), s);
    }

    /**
     * The index the statement reads (null for the table), checked: it exists, can be read by
     * PartiQL, and consistently only if local; ORDER BY names a key attribute of it.
     */
    public static IndexDefinition target(TableDefinition table, Statement.Select s, boolean consistentRead) {
        IndexDefinition index = null;
        if (s.indexName() != null) {
            index = table.index(s.indexName());
            if (index == null || index.status() == IndexDefinition.IndexStatus.DELETING) {
                // As recorded from DynamoDB by dynamodb-conformance: no index name appended
                // (Query's wording appends it), also when the qualifier names the table itself.
                throw DynamoDbException.validation("The table does not have the specified index");
            }
            // A vector index is read by SearchVectors only; DynamoDB answers PartiQL with its Scan
            // text (docs/dynamodb/vector-search.md §3.4).
            if (index.isVector()) throw DynamoDbException.validation("Scan operation not supported on this index type");
            if (index.global() && consistentRead) {
                // As recorded from DynamoDB by dynamodb-conformance (Query words it differently).
                throw DynamoDbException.validation("Strongly consistent read is not supported on Global Secondary Indexes");
            }
        }
        Path orderBy = s.orderBy();
        if (orderBy != null && !(orderBy.isTopLevel()
                && KeyAttributes.of(table, s.indexName()).all().contains(orderBy.topLevelName()))) {
            // DynamoDB Local's wording (ValidationExceptionMessages.INVALID_ATTRIBUTES_IN_ORDER_BY).
            throw DynamoDbException.validation("Variable reference " + orderBy.topLevelName()
                    + " in ORDER BY clause must be part of the primary key");
        }
        return index;
    }

    /** The plan of {@code s} on {@code index} (null for the table), checked by {@link #target}. */
    public static SelectPlan plan(TableDefinition table, IndexDefinition index, Statement.Select s) {
        KeyAttributes keys = KeyAttributes.of(table, s.indexName());
        List<Condition> terms = WhereTerms.terms(s.where());
        KeyTerms key = KeyTerms.of(terms, keys);
        List<Condition> keyTerms = new ArrayList<>(key.keyTerms());
        List<Condition> rest = new ArrayList<>(terms);
        rest.removeAll(keyTerms);
        List<Condition> keyFilter = new ArrayList<>();
        if (key.query()) {
            for (Condition t : rest) if (WhereTerms.mentions(t, keys.all())) keyFilter.add(t);
            rest.removeAll(keyFilter);
            if (index != null) checkFilterProjected(table, index, rest);
        }
        if (s.orderBy() != null && !key.query()) {
            // DynamoDB Local's wording (INCOMPLETE_KEY_IN_WHERE_CLAUSE_FOR_ORDER_BY).
            throw DynamoDbException.validation(
                    "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.");
        }
        boolean local = index != null && !index.global();
        Kind kind;
        if (key.partitionIn() != null) {
            kind = Kind.QUERY_EACH_PARTITION;
            keyTerms.remove(key.partitionInTerm());
        } else if (key.query()) {
            kind = local && !projects(table, index, s.projection()) ? Kind.QUERY_FETCHING_ITEMS : Kind.QUERY;
        } else {
            kind = local && s.where() != null && !unprojected(table, index, List.of(s.where())).isEmpty()
                    ? Kind.SCAN_FILTERING_INDEX : Kind.SCAN;
        }
        boolean scan = !key.query();
        return new SelectPlan(kind, table, index, s, keyTerms,
                kind == Kind.QUERY_EACH_PARTITION ? key.partitionKeyValues(keys) : List.of(),
                scan ? s.where() : WhereTerms.and(rest), scan ? null : WhereTerms.and(keyFilter));
    }

    /** The partition key attribute an IN list's values are of. */
    String partitionKey() {
        return KeyAttributes.of(table, statement.indexName()).partitionKey().get(0);
    }

    /**
     * A read keyed on an index may not filter on an attribute the index does not project, global
     * or local. The message is as recorded from DynamoDB by dynamodb-conformance ("Secondary
     * index", with neither Global nor Local, unlike the projection's).
     */
    private static void checkFilterProjected(TableDefinition table, IndexDefinition index, List<Condition> filter) {
        Set<String> missing = unprojected(table, index, filter);
        if (!missing.isEmpty()) {
            throw DynamoDbException.invalidParameter("Secondary index " + index.name()
                    + " does not project one or more filter attributes: [" + String.join(", ", missing) + "]");
        }
    }

    private static Set<String> unprojected(TableDefinition table, IndexDefinition index, List<Condition> terms) {
        Set<String> missing = new LinkedHashSet<>();
        for (Condition t : terms) {
            for (String name : ConditionPaths.topLevelNames(t)) {
                if (!index.projects(name, table.keySchema())) missing.add(name);
            }
        }
        return missing;
    }

    /** True when the index projects every attribute of the projection (or it is {@code *}). */
    static boolean projects(TableDefinition table, IndexDefinition index, List<Path> projection) {
        if (projection == null) return true;
        for (Path p : projection) if (!index.projects(p.topLevelName(), table.keySchema())) return false;
        return true;
    }
}
