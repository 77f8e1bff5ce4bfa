package io.stator.engine.read;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.expression.Values;
import io.stator.core.key.KeyRange;
import io.stator.core.key.KeyRanges;
import io.stator.core.key.PartitionHash;
import io.stator.core.key.SortKeyCondition;
import io.stator.core.model.AttributeValue;
import io.stator.engine.table.IndexDefinition.KeyAttribute;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Query's key conditions, from a KeyConditionExpression or the legacy KeyConditions, in one
 * form (attribute to ComparisonOperator and values, as DynamoDB itself converts them), checked
 * with DynamoDB's messages: first their structure (only =, <, <=, >, >=, BETWEEN and
 * begins_with, joined by AND, one per key attribute, on the attribute itself), then against the
 * queried key, the table's or an index's (equality on the partition key, the sort key
 * optional), and the ExclusiveStartKey against both.
 */
public final class KeyConditions {

    /**
     * One key attribute's condition: a ComparisonOperator (EQ, LT, LE, GT, GE, BETWEEN,
     * BEGINS_WITH, and before {@link #resolve} any other DynamoDB knows) and its values.
     */
    public record KeyCondition(ComparisonOperator operator, List<AttributeValue> values) {}

    /**
     * What is read: the partition key's values, the values of the sort-key attributes compared by
     * equality before the last one with a condition, and that condition (or null).
     */
    record Resolved(List<AttributeValue> partitionKey, List<AttributeValue> sortKeyPrefix, SortKeyCondition sortKey) {

        /** The rows of the target these conditions select. */
        KeyRange range(ReadTarget target) {
            long tableId = target.table().id();
            PartitionHash hash = target.table().partitionHash();
            if (!target.isIndex()) return KeyRanges.partition(hash, tableId, target.indexId(), partitionKey.get(0), sortKey);
            return KeyRanges.indexPartition(hash, tableId, target.indexId(), partitionKey, sortKeyPrefix, sortKey);
        }
    }

    private KeyConditions() {}

    // ---- from the request ---------------------------------------------------------------------

    public static Map<String, KeyCondition> fromExpression(Condition condition) {
        Map<String, KeyCondition> conditions = new LinkedHashMap<>();
        convert(condition, conditions);
        return conditions;
    }

    private static void convert(Condition c, Map<String, KeyCondition> out) {
        switch (c) {
            case Condition.Or o -> throw invalidOperator("OR");
            case Condition.Not n -> throw invalidOperator("NOT");
            case Condition.In in -> throw invalidOperator("IN");
            case Condition.And a -> {
                convert(a.left(), out);
                convert(a.right(), out);
            }
            case Condition.Comparison cmp -> {
                if (cmp.comparator() == Condition.Comparator.NE) throw invalidOperator("<>");
                ComparisonOperator[] operators = switch (cmp.comparator()) {
                    case EQ -> new ComparisonOperator[] {ComparisonOperator.EQ, ComparisonOperator.EQ};
                    case LT -> new ComparisonOperator[] {ComparisonOperator.LT, ComparisonOperator.GT};
                    case LE -> new ComparisonOperator[] {ComparisonOperator.LE, ComparisonOperator.GE};
                    case GT -> new ComparisonOperator[] {ComparisonOperator.GT, ComparisonOperator.LT};
                    default -> new ComparisonOperator[] {ComparisonOperator.GE, ComparisonOperator.LE};
                };
                int keyAt = keyOperand(List.of(cmp.left(), cmp.right()));
                // ":v < k" is "k > :v".
                Operand value = keyAt == 0 ? cmp.right() : cmp.left();
                put(out, keyAt == 0 ? cmp.left() : cmp.right(), operators[keyAt], List.of(value));
            }
            case Condition.Between b -> {
                if (!(b.value() instanceof Operand.PathOperand)) {
                    throw invalidCondition("BETWEEN operator must have the key attribute as its first operand");
                }
                keyOperand(List.of(b.value(), b.lower(), b.upper()));
                put(out, b.value(), ComparisonOperator.BETWEEN, List.of(b.lower(), b.upper()));
            }
            case Condition.Function f -> {
                String name = f.call().name();
                if (!name.equals("begins_with")) throw invalidOperator(name);
                List<Operand> args = f.call().arguments();
                if (!(args.get(0) instanceof Operand.PathOperand)) {
                    throw invalidCondition("begins_with operator must have the key attribute as its first operand");
                }
                keyOperand(args);
                put(out, args.get(0), ComparisonOperator.BEGINS_WITH, List.of(args.get(1)));
            }
        }
    }

    /** The position of the one key attribute among a condition's operands. */
    private static int keyOperand(List<Operand> operands) {
        int at = -1;
        for (int i = 0; i < operands.size(); i++) {
            Operand o = operands.get(i);
            if (o instanceof Operand.PathOperand p) {
                if (at >= 0) throw invalidCondition("Multiple attribute names used in one condition");
                if (!p.path().isTopLevel()) {
                    throw DynamoDbException.validation("KeyConditionExpressions cannot have conditions on nested attributes");
                }
                at = i;
            } else if (o instanceof Operand.FunctionCall) {
                throw DynamoDbException.validation("KeyConditionExpressions cannot contain nested operations");
            }
        }
        if (at < 0) throw invalidCondition("No key attribute specified");
        return at;
    }

    private static void put(Map<String, KeyCondition> out, Operand key, ComparisonOperator operator,
                            List<Operand> values) {
        String name = ((Operand.PathOperand) key).path().topLevelName();
        if (out.containsKey(name)) {
            throw DynamoDbException.validation("KeyConditionExpressions must only contain one condition per key");
        }
        List<AttributeValue> constants = values.stream().map(v -> ((Operand.Constant) v).value()).toList();
        out.put(name, new KeyCondition(operator, constants));
    }

    private static DynamoDbException invalidOperator(String operator) {
        return DynamoDbException.validation("Invalid operator used in KeyConditionExpression: " + operator);
    }

    private static DynamoDbException invalidCondition(String detail) {
        return DynamoDbException.validation("Invalid condition in KeyConditionExpression: " + detail);
    }

    /**
     * A table's key has one or two attributes, so a Query on it has one or two conditions. On an
     * index (which may have a multi-attribute key), only an empty set is refused before the
     * index is known; {@link #resolve} checks the rest.
     */
    public static void checkCount(Map<String, KeyCondition> conditions, boolean onIndex) {
        if (conditions.isEmpty() || (conditions.size() > 2 && !onIndex)) throw badLength();
    }

    private static DynamoDbException badLength() {
        return DynamoDbException.validation("Conditions can be of length 1 or 2 only");
    }

    // ---- against the queried key ---------------------------------------------------------------

    /**
     * Checks the conditions (and the ExclusiveStartKey, when given) against the queried key, in
     * DynamoDB's order: per key attribute, the start key's value, then the condition on it; then
     * the start key's table-key part (on an index), then the start key against the conditions.
     * Every partition attribute needs equality; sort attributes are optional, but every one
     * before the last one with a condition needs equality (DynamoDB's multi-attribute keys).
     */
    static Resolved resolve(ReadTarget target, Map<String, KeyCondition> conditions,
                            Map<String, AttributeValue> exclusiveStartKey) {
        if (conditions.size() > 2 && target.hasSingleAttributeKey()) throw badLength();
        if (exclusiveStartKey != null) target.checkStartKeyShape(exclusiveStartKey);
        List<KeyAttribute> hash = target.partitionKey();
        List<KeyAttribute> range = target.sortKey();
        Set<String> keyNames = target.keyNames();
        // Conditions on attributes that are not of the key: reported as a key attribute missed.
        boolean strays = !keyNames.containsAll(conditions.keySet());

        List<AttributeValue> partitionValues = new ArrayList<>(hash.size());
        for (KeyAttribute h : hash) {
            if (exclusiveStartKey != null) ReadTarget.checkStartKeyValue(h, true, exclusiveStartKey);
            if (range.isEmpty() && conditions.size() > hash.size()) throw notSupported();
            KeyCondition condition = conditions.get(h.name());
            if (condition == null) throw missed(h.name());
            checkOperator(condition, h.type());
            if (condition.operator() != ComparisonOperator.EQ) throw notSupported();
            partitionValues.add(condition.values().get(0));
        }
        int last = -1;
        for (int i = 0; i < range.size(); i++) if (conditions.containsKey(range.get(i).name())) last = i;
        for (int i = 0; i < range.size(); i++) {
            KeyAttribute r = range.get(i);
            if (exclusiveStartKey != null) ReadTarget.checkStartKeyValue(r, false, exclusiveStartKey);
            KeyCondition condition = conditions.get(r.name());
            if (condition == null && strays) throw missed(r.name());
            if (condition != null) checkOperator(condition, r.type());
            if (i < last && (condition == null || condition.operator() != ComparisonOperator.EQ)) {
                throw DynamoDbException.validation("RANGE key attributes " + r.name() + " must have equality conditions "
                        + "specified in the query because a condition is present on key attribute " + range.get(last).name());
            }
        }
        if (strays) throw notSupported();
        if (exclusiveStartKey != null) {
            target.checkStartKeyTablePart(exclusiveStartKey);
            checkStartKeyWithin(hash, range, conditions, exclusiveStartKey);
        }
        List<AttributeValue> sortPrefix = new ArrayList<>(Math.max(last, 0));
        for (int i = 0; i < last; i++) sortPrefix.add(conditions.get(range.get(i).name()).values().get(0));
        return new Resolved(partitionValues, sortPrefix,
                last < 0 ? null : sortKeyCondition(conditions.get(range.get(last).name())));
    }

    /** The start key must lie in what the conditions select. */
    private static void checkStartKeyWithin(List<KeyAttribute> hash, List<KeyAttribute> range,
                                            Map<String, KeyCondition> conditions, Map<String, AttributeValue> start) {
        boolean samePartition = true;
        for (KeyAttribute h : hash) {
            samePartition &= Values.equal(conditions.get(h.name()).values().get(0), start.get(h.name()));
        }
        boolean sortConditions = false;
        for (KeyAttribute r : range) {
            KeyCondition condition = conditions.get(r.name());
            if (condition == null) continue;
            sortConditions = true;
            if (!ConditionEvaluator.matches(asCondition(r.name(), condition), start)) {
                throw DynamoDbException.validation("The provided starting key does not match the range key predicate");
            }
        }
        if (!samePartition) {
            throw DynamoDbException.validation(sortConditions
                    ? "The query can return at most one row and cannot be restarted"
                    : "The provided starting key is outside query boundaries based on provided conditions");
        }
    }

    private static void checkOperator(KeyCondition condition, AttributeValue.Type type) {
        switch (condition.operator()) {
            case NULL, NOT_NULL, NE, CONTAINS, NOT_CONTAINS, IN ->
                    throw DynamoDbException.validation("Attempted conditional constraint is not an indexable operation");
            default -> { }
        }
        for (AttributeValue v : condition.values()) {
            if (v.type() != type) {
                throw DynamoDbException.invalidParameter("Condition parameter type does not match schema type");
            }
        }
    }

    private static DynamoDbException missed(String attribute) {
        return DynamoDbException.validation("Query condition missed key schema element: " + attribute);
    }

    private static DynamoDbException notSupported() {
        return DynamoDbException.validation("Query key condition not supported");
    }

    /** The key condition as a condition on the attribute, to evaluate it on a start key. */
    private static Condition asCondition(String attribute, KeyCondition c) {
        Operand.PathOperand key = new Operand.PathOperand(Path.of(attribute));
        List<Operand> values = c.values().stream().<Operand>map(Operand.Constant::new).toList();
        return switch (c.operator()) {
            case EQ -> new Condition.Comparison(Condition.Comparator.EQ, key, values.get(0));
            case LT -> new Condition.Comparison(Condition.Comparator.LT, key, values.get(0));
            case LE -> new Condition.Comparison(Condition.Comparator.LE, key, values.get(0));
            case GT -> new Condition.Comparison(Condition.Comparator.GT, key, values.get(0));
            case GE -> new Condition.Comparison(Condition.Comparator.GE, key, values.get(0));
            case BETWEEN -> new Condition.Between(key, values.get(0), values.get(1));
            case BEGINS_WITH -> new Condition.Function(new Operand.FunctionCall("begins_with", List.of(key, values.get(0))));
            default -> throw new IllegalStateException("not a key condition: " + c.operator());
        };
    }

    private static SortKeyCondition sortKeyCondition(KeyCondition c) {
        List<AttributeValue> v = c.values();
        return switch (c.operator()) {
            case EQ -> new SortKeyCondition.Equal(v.get(0));
            case LT -> new SortKeyCondition.LessThan(v.get(0));
            case LE -> new SortKeyCondition.LessOrEqual(v.get(0));
            case GT -> new SortKeyCondition.GreaterThan(v.get(0));
            case GE -> new SortKeyCondition.GreaterOrEqual(v.get(0));
            case BETWEEN -> new SortKeyCondition.Between(v.get(0), v.get(1));
            case BEGINS_WITH -> new SortKeyCondition.BeginsWith(v.get(0));
            default -> throw new IllegalStateException("not a key condition: " + c.operator());
        };
    }
}
