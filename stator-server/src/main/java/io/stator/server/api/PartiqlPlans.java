package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.expression.ConditionPaths;
import io.stator.core.expression.Paths;
import io.stator.core.model.AttributeValue;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a PartiQL statement's WHERE clause becomes the engine's terms: its top-level AND terms
 * are split into those that fix key attributes (an equality on the partition key makes a SELECT
 * a Query, and an UPDATE or DELETE needs one on every key attribute) and the rest, which stay a
 * condition for the same evaluator as FilterExpression and ConditionExpression.
 */
final class PartiqlPlans {

    private PartiqlPlans() {}

    /** The AND terms of a condition, in the order written; an absent condition has none. */
    static List<Condition> terms(Condition where) {
        List<Condition> terms = new ArrayList<>();
        if (where != null) collect(where, terms);
        return terms;
    }

    private static void collect(Condition c, List<Condition> terms) {
        if (c instanceof Condition.And and) {
            collect(and.left(), terms);
            collect(and.right(), terms);
        } else {
            terms.add(c);
        }
    }

    /** The terms joined by AND again, or null for none. */
    static Condition and(List<Condition> terms) {
        Condition c = null;
        for (Condition t : terms) c = c == null ? t : new Condition.And(c, t);
        return c;
    }

    /** The value {@code term} fixes {@code attribute} to ({@code attribute = v} or {@code v = attribute}), or null. */
    static AttributeValue equality(Condition term, String attribute) {
        if (!(term instanceof Condition.Comparison cmp) || cmp.comparator() != Condition.Comparator.EQ) return null;
        if (isAttribute(cmp.left(), attribute) && cmp.right() instanceof Operand.Constant c) return c.value();
        if (isAttribute(cmp.right(), attribute) && cmp.left() instanceof Operand.Constant c) return c.value();
        return null;
    }

    /**
     * True when {@code term} can be a sort key condition on {@code attribute}: a comparison other
     * than {@code <>}, BETWEEN or begins_with, with the attribute on the left and constants on the right.
     */
    static boolean sortKeyCondition(Condition term, String attribute) {
        return switch (term) {
            case Condition.Comparison cmp -> cmp.comparator() != Condition.Comparator.NE
                    && isAttribute(cmp.left(), attribute) && cmp.right() instanceof Operand.Constant;
            case Condition.Between b -> isAttribute(b.value(), attribute) && b.lower() instanceof Operand.Constant
                    && b.upper() instanceof Operand.Constant;
            case Condition.Function f -> f.call().name().equals("begins_with")
                    && isAttribute(f.call().arguments().get(0), attribute)
                    && f.call().arguments().get(1) instanceof Operand.Constant;
            default -> false;
        };
    }

    /** True when {@code term} is {@code attribute IN (constants)}. */
    static boolean isIn(Condition term, String attribute) {
        return term instanceof Condition.In in && isAttribute(in.value(), attribute)
                && in.candidates().stream().allMatch(o -> o instanceof Operand.Constant);
    }

    /**
     * The partition keys {@code term} selects: the term itself if it is {@code attribute IN
     * (constants)}; for equalities joined by OR ({@code pk = 1 OR pk = 2}), the IN they amount
     * to, which DynamoDB's SELECT reference counts among the WHERE clauses that are no full scan;
     * else null.
     */
    static Condition.In partitionIn(Condition term, String attribute) {
        if (isIn(term, attribute)) return (Condition.In) term;
        if (!(term instanceof Condition.Or)) return null;
        List<Operand> values = new ArrayList<>();
        if (!equalities(term, attribute, values)) return null;
        return new Condition.In(new Operand.PathOperand(Path.of(attribute)), values);
    }

    private static boolean equalities(Condition c, String attribute, List<Operand> values) {
        if (c instanceof Condition.Or or) {
            return equalities(or.left(), attribute, values) && equalities(or.right(), attribute, values);
        }
        AttributeValue v = equality(c, attribute);
        if (v == null) return false;
        values.add(new Operand.Constant(v));
        return true;
    }

    /**
     * The key attributes a SELECT reads by: the partition key and sort key of the table, or of
     * the index it names ({@code FROM "t"."i"}); null when the index does not exist or is a
     * vector index (which PartiQL cannot read).
     */
    record KeyAttributes(List<String> partitionKey, List<String> sortKey) {
        static KeyAttributes of(TableDefinition table, String indexName) {
            if (indexName == null) {
                KeySchema keys = table.keySchema();
                return new KeyAttributes(List.of(keys.partitionKey()),
                        keys.hasSortKey() ? List.of(keys.sortKey()) : List.of());
            }
            IndexDefinition index = table.index(indexName);
            if (index == null || index.isVector()) return null;
            return new KeyAttributes(index.partitionKey().stream().map(IndexDefinition.KeyAttribute::name).toList(),
                    index.sortKey().stream().map(IndexDefinition.KeyAttribute::name).toList());
        }

        List<String> all() {
            List<String> all = new ArrayList<>(partitionKey);
            all.addAll(sortKey);
            return all;
        }
    }

    /**
     * How a SELECT's WHERE reads: a Query when its AND terms fix the partition key (an equality
     * on each partition key attribute, or for a single one an IN or ORed equalities listing its
     * partitions, {@code partitionIn}), with a sort key condition among the terms if there is
     * one; else a Scan of the whole table or index. DynamoDB's SELECT reference: "To ensure that
     * a SELECT statement does not result in a full table scan, the WHERE clause condition must
     * specify a partition key. Use the equality or IN operator." The authorization (its
     * dynamodb:FullTableScan and dynamodb:LeadingKeys) and the read are planned by this one rule.
     *
     * @param keyTerms       the terms a Query's key condition takes (with {@code partitionIn}'s term)
     * @param partitionIn    the partitions an IN (or ORed equalities) lists, or null
     * @param partitionInTerm the term {@code partitionIn} came from, or null
     */
    record SelectPlan(List<Condition> keyTerms, Condition.In partitionIn, Condition partitionInTerm, boolean query) {

        /**
         * The values of the (first) partition key attribute the statement reads, as
         * dynamodb:LeadingKeys gives them; none for a Scan.
         */
        List<AttributeValue> partitionKeyValues(KeyAttributes keys) {
            List<AttributeValue> values = new ArrayList<>();
            if (!query) return values;
            if (partitionIn != null) {
                for (Operand candidate : partitionIn.candidates()) {
                    AttributeValue v = ((Operand.Constant) candidate).value();
                    if (!values.contains(v)) values.add(v);
                }
                return values;
            }
            for (Condition t : keyTerms) {
                AttributeValue v = equality(t, keys.partitionKey().get(0));
                if (v != null) {
                    values.add(v);
                    break;
                }
            }
            return values;
        }
    }

    /** The plan of a SELECT whose WHERE has these AND terms, on a target with these keys. */
    static SelectPlan selectPlan(List<Condition> terms, KeyAttributes keys) {
        List<Condition> keyTerms = new ArrayList<>();
        for (String attribute : keys.partitionKey()) {
            for (Condition t : terms) {
                if (equality(t, attribute) != null) {
                    keyTerms.add(t);
                    break;
                }
            }
        }
        boolean query = keyTerms.size() == keys.partitionKey().size();
        Condition.In partitionIn = null;
        Condition partitionInTerm = null;
        if (!query && keys.partitionKey().size() == 1) {
            for (Condition t : terms) {
                Condition.In in = partitionIn(t, keys.partitionKey().get(0));
                if (in != null) {
                    partitionIn = in;
                    partitionInTerm = t;
                    keyTerms.add(t);
                    query = true;
                    break;
                }
            }
        }
        if (query && keys.sortKey().size() == 1) {
            for (Condition t : terms) {
                if (!keyTerms.contains(t) && sortKeyCondition(t, keys.sortKey().get(0))) {
                    keyTerms.add(t);
                    break;
                }
            }
        }
        return new SelectPlan(keyTerms, partitionIn, partitionInTerm, query);
    }

    /** True when {@code projection} names {@code attribute} itself. */
    static boolean projects(List<Path> projection, String attribute) {
        return projection.stream().anyMatch(p -> p.isTopLevel() && p.topLevelName().equals(attribute));
    }

    /** True when {@code term} reads any of {@code attributes} (at the top level or inside). */
    static boolean mentions(Condition term, List<String> attributes) {
        return switch (term) {
            case Condition.Comparison cmp -> mentions(cmp.left(), attributes) || mentions(cmp.right(), attributes);
            case Condition.Between b -> mentions(b.value(), attributes) || mentions(b.lower(), attributes)
                    || mentions(b.upper(), attributes);
            case Condition.In in -> mentions(in.value(), attributes)
                    || in.candidates().stream().anyMatch(o -> mentions(o, attributes));
            case Condition.Function f -> mentions(f.call(), attributes);
            case Condition.Not n -> mentions(n.condition(), attributes);
            case Condition.And a -> mentions(a.left(), attributes) || mentions(a.right(), attributes);
            case Condition.Or o -> mentions(o.left(), attributes) || mentions(o.right(), attributes);
        };
    }

    private static boolean mentions(Operand o, List<String> attributes) {
        return switch (o) {
            case Operand.PathOperand p -> attributes.contains(p.path().topLevelName());
            case Operand.FunctionCall f -> f.arguments().stream().anyMatch(a -> mentions(a, attributes));
            case Operand.Arithmetic a -> mentions(a.left(), attributes) || mentions(a.right(), attributes);
            default -> false;
        };
    }

    private static boolean isAttribute(Operand o, String attribute) {
        return o instanceof Operand.PathOperand p && p.path().isTopLevel() && p.path().topLevelName().equals(attribute);
    }

    /**
     * A WHERE clause that does not name one item by its whole primary key, where a statement must:
     * a ValidationException apart, because ExecuteTransaction reports it as the statement's
     * cancellation reason (ValidationError) as it does a key of the wrong type (DynamoDB Local
     * does so; DynamoDB's own answer is not recorded).
     */
    static final class IncompleteKeyException extends DynamoDbException {
        IncompleteKeyException(String message) {
            super(io.stator.core.error.ErrorType.VALIDATION, message);
        }
    }

    /**
     * The primary key an UPDATE or DELETE names: one equality on each key attribute. Removes
     * those terms from {@code terms}, leaving the write's condition.
     */
    static Map<String, AttributeValue> primaryKey(List<Condition> terms, List<String> keyAttributes) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        for (String attribute : keyAttributes) {
            Condition found = null;
            for (Condition t : terms) {
                if (equality(t, attribute) == null) continue;
                if (found != null) {
                    // DynamoDB Local's wording (ValidationExceptionMessages.MULTIPLE_CONDITIONS_ON_SAME_KEY).
                    throw new IncompleteKeyException("Multiple conditions on same key " + attribute
                            + ". Only single item Update/Insert/Delete are supported");
                }
                found = t;
            }
            if (found == null) {
                throw new IncompleteKeyException("Where clause does not contain a mandatory equality on all key attributes");
            }
            key.put(attribute, equality(found, attribute));
            terms.remove(found);
        }
        return key;
    }

    /** True when every attribute {@code condition} reads is one {@code index} projects. */
    static boolean projectsAll(TableDefinition table, IndexDefinition index, Condition condition) {
        return unprojected(table, index, List.of(condition)).isEmpty();
    }

    /**
     * A read keyed on an index may not filter on an attribute the index does not project, global
     * or local. The message is as recorded from DynamoDB by dynamodb-conformance ("Secondary
     * index", with neither Global nor Local, unlike the projection's).
     */
    static void checkFilterProjected(TableDefinition table, IndexDefinition index, List<Condition> filter) {
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

    /**
     * A projected item as SELECT returns it: an attribute named by a nested path of names comes
     * back under the path's last name ({@code SELECT m.nested} answers {@code {"nested": ...}}),
     * as recorded from DynamoDB by dynamodb-conformance. Top-level paths, and paths through a list
     * index (whose naming is not recorded), are left as the projection made them.
     */
    static Map<String, AttributeValue> named(Map<String, AttributeValue> item, List<Path> projection) {
        if (projection == null || projection.stream().noneMatch(PartiqlPlans::renamed)) return item;
        Map<String, AttributeValue> named = item;
        for (Path p : projection) {
            if (renamed(p)) named = without(named, p.elements(), 0);
        }
        named = new LinkedHashMap<>(named);
        for (Path p : projection) {
            if (!renamed(p)) continue;
            AttributeValue v = Paths.get(item, p);
            if (v != null) named.put(((Path.Name) p.last()).name(), v);
        }
        return named;
    }

    private static boolean renamed(Path p) {
        return !p.isTopLevel() && p.elements().stream().allMatch(e -> e instanceof Path.Name);
    }

    /** The item without the value at a path of names, and without the maps that leaves empty. */
    private static Map<String, AttributeValue> without(Map<String, AttributeValue> item, List<Path.Element> path, int at) {
        String name = ((Path.Name) path.get(at)).name();
        Map<String, AttributeValue> copy = new LinkedHashMap<>(item);
        if (at == path.size() - 1) {
            copy.remove(name);
        } else if (copy.get(name) instanceof AttributeValue.M m) {
            Map<String, AttributeValue> rest = without(m.values(), path, at + 1);
            if (rest.isEmpty()) copy.remove(name);
            else copy.put(name, new AttributeValue.M(rest));
        }
        return copy;
    }

    /** True when {@code path} is one of the key attributes itself (ORDER BY may name only those). */
    static boolean isKeyPath(Path path, List<String> keyAttributes) {
        return path.isTopLevel() && keyAttributes.contains(path.topLevelName());
    }
}
