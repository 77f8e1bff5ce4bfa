package io.stator.core.expression;

import io.stator.core.expression.Operand.Constant;
import io.stator.core.expression.Operand.FunctionCall;
import io.stator.core.expression.Operand.PathOperand;
import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * Evaluates a resolved condition against an item, with DynamoDB's semantics: a missing
 * attribute or a comparison between different types makes a comparison false (and {@code <>}
 * true), never an error; an absent item is an item with no attributes. The condition was
 * checked before, so evaluation cannot fail.
 */
public final class ConditionEvaluator {

    private ConditionEvaluator() {}

    /** @param item the item, or null when there is none */
    public static boolean matches(Condition condition, Map<String, AttributeValue> item) {
        return evaluate(condition, item == null ? Map.of() : item);
    }

    private static final Operand.Constant TRUE_VALUE = new Operand.Constant(AttributeValue.BOOL.TRUE);
    /** What a part of a condition that reads no attribute folds to: true, or false; cheap to evaluate. */
    private static final Condition TRUE = new Condition.Comparison(Condition.Comparator.EQ, TRUE_VALUE, TRUE_VALUE);
    private static final Condition FALSE = new Condition.Comparison(Condition.Comparator.NE, TRUE_VALUE, TRUE_VALUE);

    /**
     * The condition with each part that reads no attribute (such as {@code contains(:a, :b)})
     * replaced by its outcome, computed once here: a filter is evaluated on every item a page
     * reads, and a comparison of two 1 MB values computed again for each of ten thousand small
     * items would cost a request seconds. What is left costs, per item, at most the item's own
     * values scanned once per operator (see {@link Values}).
     */
    public static Condition folded(Condition condition) {
        if (ConditionPaths.paths(condition).isEmpty()) return matches(condition, null) ? TRUE : FALSE;
        return switch (condition) {
            case Condition.Not n -> new Condition.Not(folded(n.condition()));
            case Condition.And a -> new Condition.And(folded(a.left()), folded(a.right()));
            case Condition.Or o -> new Condition.Or(folded(o.left()), folded(o.right()));
            default -> condition;
        };
    }

    private static boolean evaluate(Condition c, Map<String, AttributeValue> item) {
        return switch (c) {
            case Condition.Comparison cmp -> compare(cmp.comparator(), value(cmp.left(), item), value(cmp.right(), item));
            case Condition.Between b -> {
                AttributeValue v = value(b.value(), item);
                AttributeValue lo = value(b.lower(), item);
                AttributeValue hi = value(b.upper(), item);
                yield v != null && lo != null && hi != null
                        && compare(Condition.Comparator.GE, v, lo) && compare(Condition.Comparator.LE, v, hi);
            }
            case Condition.In in -> {
                AttributeValue v = value(in.value(), item);
                if (v == null) yield false;
                for (Operand candidate : in.candidates()) {
                    AttributeValue x = value(candidate, item);
                    if (x != null && Values.equal(v, x)) yield true;
                }
                yield false;
            }
            case Condition.Function f -> function(f.call(), item);
            case Condition.Not n -> !evaluate(n.condition(), item);
            case Condition.And a -> evaluate(a.left(), item) && evaluate(a.right(), item);
            case Condition.Or o -> evaluate(o.left(), item) || evaluate(o.right(), item);
        };
    }

    static boolean compare(Condition.Comparator comparator, AttributeValue a, AttributeValue b) {
        if (a == null || b == null) return comparator == Condition.Comparator.NE;
        return switch (comparator) {
            case EQ -> Values.equal(a, b);
            case NE -> !Values.equal(a, b);
            default -> {
                if (a.type() != b.type() || !Values.isOrderable(a)) yield false;
                int order = Values.compare(a, b);
                yield switch (comparator) {
                    case LT -> order < 0;
                    case LE -> order <= 0;
                    case GT -> order > 0;
                    default -> order >= 0;
                };
            }
        };
    }

    private static boolean function(FunctionCall call, Map<String, AttributeValue> item) {
        List<Operand> args = call.arguments();
        return switch (call.name()) {
            case "attribute_exists" -> value(args.get(0), item) != null;
            case "attribute_not_exists" -> value(args.get(0), item) == null;
            case "attribute_type" -> {
                AttributeValue v = value(args.get(0), item);
                AttributeValue type = value(args.get(1), item);
                yield v != null && type instanceof AttributeValue.S s && v.type().name().equals(s.value());
            }
            case "begins_with" -> {
                AttributeValue v = value(args.get(0), item);
                AttributeValue prefix = value(args.get(1), item);
                yield v != null && prefix != null && Values.beginsWith(v, prefix);
            }
            case "contains" -> {
                AttributeValue v = value(args.get(0), item);
                AttributeValue element = value(args.get(1), item);
                yield v != null && element != null && Values.contains(v, element);
            }
            default -> throw new IllegalStateException("not a condition function: " + call.name());
        };
    }

    /** An operand's value in the item, or null when it has none (a missing path, size of a number). */
    static AttributeValue value(Operand operand, Map<String, AttributeValue> item) {
        return switch (operand) {
            case PathOperand p -> Paths.get(item, p.path());
            case Constant c -> c.value();
            case FunctionCall f when f.name().equals("size") -> {
                AttributeValue v = value(f.arguments().get(0), item);
                yield v == null ? null : Values.size(v);
            }
            default -> throw new IllegalStateException("not a condition operand: " + operand);
        };
    }
}
