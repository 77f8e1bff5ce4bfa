package io.stator.engine.partiql;

import io.stator.core.expression.Condition;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A PartiQL WHERE clause as the planner reads it: its top-level AND terms, in the order written,
 * and what each says about key attributes (an equality fixing one, a sort key condition, an IN
 * list of partitions). Terms that fix no key stay a condition for the same evaluator as
 * FilterExpression and ConditionExpression.
 */
public final class WhereTerms {

    private WhereTerms() {}

    /** The AND terms of a condition, in the order written; an absent condition has none. */
    public static List<Condition> terms(Condition where) {
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
    public static Condition and(List<Condition> terms) {
        Condition c = null;
        for (Condition t : terms) c = c == null ? t : new Condition.And(c, t);
        return c;
    }

    /** The value {@code term} fixes {@code attribute} to ({@code attribute = v} or {@code v = attribute}), or null. */
    public static AttributeValue equality(Condition term, String attribute) {
        if (!(term instanceof Condition.Comparison cmp) || cmp.comparator() != Condition.Comparator.EQ) return null;
        if (isAttribute(cmp.left(), attribute) && cmp.right() instanceof Operand.Constant c) return c.value();
        if (isAttribute(cmp.right(), attribute) && cmp.left() instanceof Operand.Constant c) return c.value();
        return null;
    }

    /**
     * The primary key an UPDATE, DELETE or single-item SELECT names: one equality on each key
     * attribute. Removes those terms from {@code terms}, leaving the statement's condition.
     */
    public static Map<String, AttributeValue> primaryKey(List<Condition> terms, List<String> keyAttributes) {
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

    /**
     * The partition keys {@code term} selects: the term itself if it is {@code attribute IN
     * (constants)}; for equalities joined by OR ({@code pk = 1 OR pk = 2}), the IN they amount
     * to, which DynamoDB's SELECT reference counts among the WHERE clauses that are no full scan;
     * else null.
     */
    static Condition.In partitionIn(Condition term, String attribute) {
        if (term instanceof Condition.In in && isAttribute(in.value(), attribute)
                && in.candidates().stream().allMatch(o -> o instanceof Operand.Constant)) {
            return in;
        }
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
}
