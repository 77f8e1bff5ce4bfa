package io.stator.engine.advisor;

import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionPaths;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.read.KeyConditions.KeyCondition;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * An access pattern: what a request asked, with its values left out, the way pg_stat_statements
 * normalises SQL (advisor.md, section 4). Two requests with the same signature differ only in
 * their keys and values, so the advisor can say what each pattern costs, how often it runs and
 * how much of what it reads it keeps.
 *
 * @param operation      the DynamoDB operation (PartiQL's included)
 * @param action         what the engine did for it: GetItem, Query, Scan, PutItem, UpdateItem,
 *                       DeleteItem or ConditionCheck (a PartiQL SELECT is one of the first three)
 * @param index          the index read, or null for the table
 * @param keyCondition   the key condition's shape, values as {@code :v}, a begins_with prefix
 *                       kept (it names an entity type in a single-table design): {@code pk = :v AND
 *                       begins_with(sk, 'ORDER#')}; empty for a Scan
 * @param filter         the attributes a read's filter names, sorted (empty for none)
 * @param projection     the top-level attributes projected, sorted; null for whole items
 * @param countOnly      Select COUNT
 * @param consistentRead a strongly consistent read
 * @param segments       a Scan's TotalSegments (1 for a whole Scan; 0 for other actions)
 * @param condition      the attributes a write's condition names, sorted
 * @param update         an update's actions as {@code ACTION attribute} (SET, REMOVE, ADD, DELETE, or
 *                       the legacy PUT), sorted
 */
public record Signature(Operation operation, String action, String index, String keyCondition, List<String> filter,
                        List<String> projection, boolean countOnly, boolean consistentRead, int segments,
                        List<String> condition, List<String> update) {

    /** A begins_with prefix is kept up to this many characters. */
    static final int MAX_PREFIX = 64;

    /** True for TransactGetItems, TransactWriteItems and ExecuteTransaction. */
    public boolean transactional() {
        return operation.transactional();
    }

    /** One line that says it all, for people and logs: {@code Query ByGame: game = :v | filter: status}. */
    public String describe() {
        StringBuilder s = new StringBuilder(operation.dynamoDbName());
        if (!action.equals(operation.dynamoDbName())) s.append(' ').append(action);
        if (index != null) s.append(" index ").append(index);
        if (!keyCondition.isEmpty()) s.append(": ").append(keyCondition);
        if (segments > 1) s.append(" | segments: ").append(segments);
        if (!filter.isEmpty()) s.append(" | filter: ").append(String.join(", ", filter));
        if (countOnly) s.append(" | select: COUNT");
        else if (projection != null) s.append(" | projection: ").append(String.join(", ", projection));
        if (!condition.isEmpty()) s.append(" | condition: ").append(String.join(", ", condition));
        if (!update.isEmpty()) s.append(" | update: ").append(String.join(", ", update));
        if (consistentRead && !operation.transactional()) s.append(" | consistent");
        return s.toString();
    }

    // ---- how requests become signatures ----------------------------------------------------------

    /** A single item read (GetItem, a batch's or a transaction's get). */
    static Signature get(Operation operation, String itemKey, List<Path> projection, boolean consistentRead) {
        return new Signature(operation, "GetItem", null, itemKey, List.of(), names(projection), false,
                consistentRead, 0, List.of(), List.of());
    }

    /** A Query (index null for the table). */
    static Signature query(Operation operation, TableDefinition table, IndexDefinition index,
                           Map<String, KeyCondition> keyConditions, Condition filter, List<Path> projection,
                           boolean countOnly, boolean consistentRead) {
        return new Signature(operation, "Query", index == null ? null : index.name(),
                keyCondition(table, index, keyConditions), names(filter), names(projection), countOnly, consistentRead,
                0, List.of(), List.of());
    }

    /** A Scan, or one segment of a parallel Scan. */
    static Signature scan(Operation operation, IndexDefinition index, Condition filter, List<Path> projection,
                          boolean countOnly, boolean consistentRead, int totalSegments) {
        return new Signature(operation, "Scan", index == null ? null : index.name(), "", names(filter),
                names(projection), countOnly, consistentRead, Math.max(1, totalSegments), List.of(), List.of());
    }

    /** One item's write: PutItem, UpdateItem, DeleteItem or ConditionCheck. */
    static Signature write(Operation operation, String action, String itemKey, Condition condition,
                           List<String> update) {
        return new Signature(operation, action, null, itemKey, List.of(), null, false, false, 0,
                names(condition), update == null ? List.of() : update);
    }

    /** A table's item key shape, {@code pk = :v AND sk = :v} (made once per definition, not per request). */
    static String itemKey(TableDefinition table) {
        String pk = table.keySchema().partitionKey() + " = :v";
        return table.keySchema().hasSortKey() ? pk + " AND " + table.keySchema().sortKey() + " = :v" : pk;
    }

    /** The key conditions in key order (partition key first), values as :v. */
    private static String keyCondition(TableDefinition table, IndexDefinition index, Map<String, KeyCondition> conditions) {
        if (conditions == null || conditions.isEmpty()) return "";
        List<String> order = new ArrayList<>();
        if (index == null) {
            order.add(table.keySchema().partitionKey());
            if (table.keySchema().hasSortKey()) order.add(table.keySchema().sortKey());
        } else {
            for (IndexDefinition.KeyAttribute k : index.keyAttributes()) order.add(k.name());
        }
        for (String name : conditions.keySet()) if (!order.contains(name)) order.add(name);
        StringBuilder s = new StringBuilder();
        for (String name : order) {
            KeyCondition c = conditions.get(name);
            if (c == null) continue;
            if (!s.isEmpty()) s.append(" AND ");
            s.append(term(name, c));
        }
        return s.toString();
    }

    private static String term(String name, KeyCondition c) {
        return switch (c.operator()) {
            case EQ -> name + " = :v";
            case LT -> name + " < :v";
            case LE -> name + " <= :v";
            case GT -> name + " > :v";
            case GE -> name + " >= :v";
            case BETWEEN -> name + " BETWEEN :v AND :v";
            case BEGINS_WITH -> "begins_with(" + name + ", " + prefix(c.values().isEmpty() ? null : c.values().get(0)) + ")";
            default -> name + " " + c.operator() + " :v";
        };
    }

    private static String prefix(AttributeValue value) {
        String text = switch (value) {
            case AttributeValue.S s -> s.value();
            case AttributeValue.B b -> Base64.getEncoder().encodeToString(b.value());
            case null, default -> null;
        };
        if (text == null) return ":v";
        if (text.length() > MAX_PREFIX) text = text.substring(0, MAX_PREFIX) + "...";
        return "'" + text.replace("'", "''") + "'";
    }

    private static List<String> names(Condition condition) {
        if (condition == null) return List.of();
        return List.copyOf(new TreeSet<>(ConditionPaths.topLevelNames(condition)));
    }

    private static List<String> names(List<Path> paths) {
        if (paths == null) return null;
        TreeSet<String> names = new TreeSet<>();
        for (Path p : paths) names.add(p.topLevelName());
        return List.copyOf(names);
    }
}
