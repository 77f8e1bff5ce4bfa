package io.stator.core.expression;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Operand.Arithmetic;
import io.stator.core.expression.Operand.Constant;
import io.stator.core.expression.Operand.FunctionCall;
import io.stator.core.expression.Operand.PathOperand;
import io.stator.core.expression.Operand.ValueRef;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.AttributeValue.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The checks between parsing and evaluation, and the resolution of placeholders. Each check is
 * one pass over the expression in the order it was written, and the passes run in the order of
 * DynamoDB's own priority (recorded from its responses by dynalite), so that of several problems
 * the one DynamoDB reports is reported:
 * <ul>
 *   <li>conditions: limits; redundant parentheses; unknown function names; functions used where
 *       they are not allowed; reserved words; undefined placeholders; operand counts; identical
 *       operands; operand types;</li>
 *   <li>updates: limits; reserved words; unknown functions; a repeated clause; undefined
 *       placeholders; overlapping, then conflicting paths; ADD and DELETE value types; function
 *       arguments;</li>
 *   <li>projections: limits; reserved words; undefined placeholders; overlapping, then
 *       conflicting paths.</li>
 * </ul>
 */
final class Semantics {

    static final int MAX_PATH_DEPTH = 32;
    static final int MAX_OPERATORS = 300;
    static final int MAX_IN_OPERANDS = 100;

    /** Functions of the condition grammar, with their operand counts. */
    private static final Map<String, Integer> CONDITION_FUNCTIONS = Map.of("attribute_exists", 1,
            "attribute_not_exists", 1, "attribute_type", 2, "begins_with", 2, "contains", 2, "size", 1);
    private static final Map<String, Integer> UPDATE_FUNCTIONS = Map.of("if_not_exists", 2, "list_append", 2);
    private static final Set<String> ATTRIBUTE_TYPES = Set.of("S", "N", "B", "NULL", "SS", "BOOL", "L", "BS", "NS", "M");

    private final ParsedExpression parsed;
    private final ExpressionContext context;
    private final String prefix;

    Semantics(ParsedExpression parsed, ExpressionContext context) {
        this.parsed = parsed;
        this.context = context;
        this.prefix = parsed.kind().errorPrefix();
    }

    private DynamoDbException invalid(String message) {
        return DynamoDbException.validation(prefix + message);
    }

    // ---- conditions ---------------------------------------------------------------------------

    Condition condition() {
        Condition c = parsed.condition();
        checkLimits();
        if (parsed.redundantParentheses()) throw invalid("The expression has redundant parentheses;");
        forEachFunction(c, call -> {
            // An update's function in a condition is known, only misplaced (issue 36).
            if (!CONDITION_FUNCTIONS.containsKey(call.name())) {
                throw UPDATE_FUNCTIONS.containsKey(call.name()) ? misused(call.name()) : unknownFunction(call.name());
            }
        });
        checkConditionFunctionUse(c);
        forEachPath(c, this::checkReserved);
        Condition resolved = resolve(c);
        checkOperandCounts(resolved);
        checkDistinct(resolved);
        checkTypes(resolved);
        return resolved;
    }

    private DynamoDbException unknownFunction(String name) {
        return invalid("Invalid function name; function: " + name);
    }

    private DynamoDbException misused(String name) {
        return invalid("The function is not allowed to be used this way in an expression; function: " + name);
    }

    /** size() only as an operand; every other function only as a condition. */
    private void checkConditionFunctionUse(Condition c) {
        switch (c) {
            case Condition.Function f -> {
                if (f.call().name().equals("size")) throw misused("size");
                f.call().arguments().forEach(this::checkOperandFunction);
            }
            case Condition.Comparison cmp -> {
                checkOperandFunction(cmp.left());
                checkOperandFunction(cmp.right());
            }
            case Condition.Between b -> {
                checkOperandFunction(b.value());
                checkOperandFunction(b.lower());
                checkOperandFunction(b.upper());
            }
            case Condition.In in -> {
                checkOperandFunction(in.value());
                in.candidates().forEach(this::checkOperandFunction);
            }
            case Condition.Not n -> checkConditionFunctionUse(n.condition());
            case Condition.And a -> {
                checkConditionFunctionUse(a.left());
                checkConditionFunctionUse(a.right());
            }
            case Condition.Or o -> {
                checkConditionFunctionUse(o.left());
                checkConditionFunctionUse(o.right());
            }
        }
    }

    private void checkOperandFunction(Operand o) {
        if (o instanceof FunctionCall call) {
            if (!call.name().equals("size")) throw misused(call.name());
            call.arguments().forEach(this::checkOperandFunction);
        }
    }

    private void checkOperandCounts(Condition c) {
        forEachFunction(c, call -> {
            Integer expected = CONDITION_FUNCTIONS.get(call.name());
            if (expected != call.arguments().size()) {
                throw invalid("Incorrect number of operands for operator or function; operator or function: "
                        + call.name() + ", number of operands: " + call.arguments().size());
            }
        });
    }

    private void checkDistinct(Condition c) {
        forEachCondition(c, node -> {
            if (node instanceof Condition.Comparison cmp) {
                checkDistinct(cmp.comparator().symbol(), cmp.left(), cmp.right());
            }
        });
        forEachFunction(c, call -> {
            if (call.arguments().size() == 2) checkDistinct(call.name(), call.arguments().get(0), call.arguments().get(1));
        });
    }

    private void checkDistinct(String operator, Operand first, Operand second) {
        if (first instanceof PathOperand p1 && second instanceof PathOperand p2 && p1.path().equals(p2.path())) {
            throw invalid("The first operand must be distinct from the remaining operands for this operator or "
                    + "function; operator: " + operator + ", first operand: " + p1.path());
        }
    }

    private void checkTypes(Condition c) {
        forEachFunction(c, this::checkFunctionTypes);
        forEachCondition(c, node -> {
            switch (node) {
                case Condition.Comparison cmp -> {
                    if (cmp.comparator() != Condition.Comparator.EQ && cmp.comparator() != Condition.Comparator.NE) {
                        for (Operand o : List.of(cmp.left(), cmp.right())) {
                            Type t = staticType(o);
                            if (t != null && !t.isScalarKeyType()) {
                                throw invalid("Incorrect operand type for operator or function; operator or function: "
                                        + cmp.comparator().symbol() + ", operand type: " + t);
                            }
                        }
                    }
                }
                case Condition.Between b -> {
                    if (b.lower() instanceof Constant lo && b.upper() instanceof Constant hi) {
                        String bounds = "lower bound operand: AttributeValue: {" + shortForm(lo.value())
                                + "}, upper bound operand: AttributeValue: {" + shortForm(hi.value()) + "}";
                        if (lo.value().type() != hi.value().type()) {
                            throw invalid("The BETWEEN operator requires same data type for lower and upper bounds; "
                                    + bounds);
                        }
                        if (Values.isOrderable(lo.value()) && Values.compare(lo.value(), hi.value()) > 0) {
                            throw invalid("The BETWEEN operator requires upper bound to be greater than or equal to "
                                    + "lower bound; " + bounds);
                        }
                    }
                    // Values of a type without an order (lists, maps, sets, booleans, nulls) are no
                    // bounds: refused as the ordering comparators refuse them, not a failed condition.
                    for (Operand o : List.of(b.value(), b.lower(), b.upper())) {
                        Type t = staticType(o);
                        if (t != null && !t.isScalarKeyType()) {
                            throw invalid("Incorrect operand type for operator or function; operator or function: "
                                    + "BETWEEN, operand type: " + t);
                        }
                    }
                }
                default -> { }
            }
        });
    }

    private void checkFunctionTypes(FunctionCall call) {
        List<Operand> args = call.arguments();
        switch (call.name()) {
            case "attribute_exists", "attribute_not_exists" -> {
                if (!(args.get(0) instanceof PathOperand)) {
                    throw invalid("Operator or function requires a document path; operator or function: " + call.name());
                }
            }
            case "begins_with" -> {
                for (Operand o : args) {
                    Type t = staticType(o);
                    if (t != null && t != Type.S && t != Type.B) throw operandType(call.name(), t.name());
                }
            }
            case "attribute_type" -> {
                Type t = staticType(args.get(1));
                if (t != Type.S) throw operandType(call.name(), t == null ? "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}" : t.name());
                String name = ((AttributeValue.S) ((Constant) args.get(1)).value()).value();
                if (!ATTRIBUTE_TYPES.contains(name)) {
                    throw invalid("Invalid attribute type name found; type: " + name
                            + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
                }
            }
            case "size" -> {
                Type t = staticType(args.get(0));
                if (t == Type.N || t == Type.BOOL || t == Type.NULL) throw operandType(call.name(), t.name());
            }
            default -> { }
        }
    }

    private DynamoDbException operandType(String function, String type) {
        return invalid("Incorrect operand type for operator or function; operator or function: " + function
                + ", operand type: " + type);
    }

    /** The type an operand is known to have before evaluation: a constant's, or N for size(). */
    private static Type staticType(Operand o) {
        if (o instanceof Constant c) return c.value().type();
        if (o instanceof FunctionCall f && f.name().equals("size")) return Type.N;
        return null;
    }

    /** DynamoDB's short rendering of a value in BETWEEN messages: {@code N:1}, {@code S:a}. */
    private static String shortForm(AttributeValue v) {
        return switch (v) {
            case AttributeValue.S s -> "S:" + s.value();
            case AttributeValue.N n -> "N:" + n.value();
            case AttributeValue.B b -> "B:" + java.util.Base64.getEncoder().encodeToString(b.value());
            default -> v.type() + ":" + v;
        };
    }

    // ---- updates ------------------------------------------------------------------------------

    List<UpdateAction> update() {
        List<UpdateAction> actions = parsed.updateActions();
        checkLimits();
        for (UpdateAction a : actions) {
            checkReserved(a.path());
            if (a instanceof UpdateAction.Set s) forEachOperandPath(s.value(), this::checkReserved);
        }
        for (UpdateAction a : actions) {
            if (a instanceof UpdateAction.Set s) checkUpdateFunctionNames(s.value(), false);
        }
        if (parsed.repeatedClause() != null) {
            throw invalid("The \"" + parsed.repeatedClause() + "\" section can only be used once in an update expression;");
        }
        // DynamoDB reports an undefined #name before any undefined :value.
        for (UpdateAction a : actions) {
            resolve(a.path());
            if (a instanceof UpdateAction.Set s) forEachOperandPath(s.value(), this::resolve);
        }
        List<UpdateAction> resolved = new ArrayList<>(actions.size());
        for (UpdateAction a : actions) {
            resolved.add(switch (a) {
                case UpdateAction.Set s -> {
                    Path p = resolve(s.path());
                    yield new UpdateAction.Set(p, resolve(s.value()));
                }
                case UpdateAction.Remove r -> new UpdateAction.Remove(resolve(r.path()));
                case UpdateAction.Add add -> {
                    Path p = resolve(add.path());
                    yield new UpdateAction.Add(p, resolve(add.value()));
                }
                case UpdateAction.Delete d -> {
                    Path p = resolve(d.path());
                    yield new UpdateAction.Delete(p, resolve(d.value()));
                }
            });
        }
        List<Path> targets = new ArrayList<>(resolved.size());
        for (UpdateAction a : resolved) targets.add(a.path());
        checkOverlaps(targets);
        for (UpdateAction a : resolved) {
            if (a instanceof UpdateAction.Add add) checkAddOrDelete("ADD", add.value());
            if (a instanceof UpdateAction.Delete d) checkAddOrDelete("DELETE", d.value());
        }
        for (UpdateAction a : resolved) {
            if (a instanceof UpdateAction.Set s) checkSetValue(s.value());
        }
        return resolved;
    }

    /** Names in SET values: if_not_exists and list_append; no list_append inside list_append. */
    private void checkUpdateFunctionNames(Operand o, boolean insideListAppend) {
        switch (o) {
            case FunctionCall call -> {
                if (!UPDATE_FUNCTIONS.containsKey(call.name())) {
                    if (CONDITION_FUNCTIONS.containsKey(call.name())) throw misused(call.name());
                    throw unknownFunction(call.name());
                }
                boolean listAppend = call.name().equals("list_append");
                if (listAppend && insideListAppend) throw misused(call.name());
                for (Operand arg : call.arguments()) checkUpdateFunctionNames(arg, insideListAppend || listAppend);
            }
            case Arithmetic a -> {
                checkUpdateFunctionNames(a.left(), insideListAppend);
                checkUpdateFunctionNames(a.right(), insideListAppend);
            }
            default -> { }
        }
    }

    private void checkAddOrDelete(String operator, Operand value) {
        Type t = ((Constant) value).value().type();
        boolean ok = switch (t) {
            case SS, NS, BS -> true;
            case N -> operator.equals("ADD");
            default -> false;
        };
        if (!ok) {
            throw invalid("Incorrect operand type for operator or function; operator: " + operator
                    + ", operand type: " + typeWord(t));
        }
    }

    private static String typeWord(Type t) {
        return switch (t) {
            case S -> "STRING";
            case N -> "NUMBER";
            case B -> "BINARY";
            case NULL -> "NULL";
            case BOOL -> "BOOLEAN";
            case L -> "LIST";
            case M -> "MAP";
            default -> t.name();
        };
    }

    private void checkSetValue(Operand o) {
        switch (o) {
            case FunctionCall call -> {
                int expected = UPDATE_FUNCTIONS.get(call.name());
                if (call.arguments().size() != expected) {
                    throw invalid("Incorrect number of operands for operator or function; operator or function: "
                            + call.name() + ", number of operands: " + call.arguments().size());
                }
                if (call.name().equals("if_not_exists") && !(call.arguments().get(0) instanceof PathOperand)) {
                    throw invalid("Operator or function requires a document path; operator or function: if_not_exists");
                }
                if (call.name().equals("list_append")) {
                    for (Operand arg : call.arguments()) {
                        if (arg instanceof Constant c && c.value().type() != Type.L) {
                            throw operandType("list_append", c.value().type().name());
                        }
                    }
                }
                call.arguments().forEach(this::checkSetValue);
            }
            case Arithmetic a -> {
                for (Operand side : List.of(a.left(), a.right())) {
                    if (side instanceof Constant c && c.value().type() != Type.N) {
                        throw operandType(a.plus() ? "+" : "-", c.value().type().name());
                    }
                    checkSetValue(side);
                }
            }
            default -> { }
        }
    }

    // ---- projections --------------------------------------------------------------------------

    List<Path> projection() {
        List<Path> paths = parsed.projection();
        checkLimits();
        paths.forEach(this::checkReserved);
        List<Path> resolved = new ArrayList<>(paths.size());
        for (Path p : paths) resolved.add(resolve(p));
        checkOverlaps(resolved);
        return resolved;
    }

    // ---- shared checks ------------------------------------------------------------------------

    private void checkLimits() {
        Consumer<Path> depth = p -> {
            if (p.size() > MAX_PATH_DEPTH) {
                throw invalid("The document path has too many nesting levels; nesting levels: " + p.size());
            }
        };
        if (parsed.condition() != null) forEachPath(parsed.condition(), depth);
        if (parsed.projection() != null) parsed.projection().forEach(depth);
        if (parsed.updateActions() != null) {
            for (UpdateAction a : parsed.updateActions()) {
                depth.accept(a.path());
                if (a instanceof UpdateAction.Set s) forEachOperandPath(s.value(), depth);
            }
        }
        if (parsed.operatorCount() > MAX_OPERATORS) {
            // DynamoDB stops counting at the first operator too many: an expression of 909
            // operators is reported as "operator count: 301" (Scylla's test_limits.py).
            throw invalid("The expression contains too many operators; operator count: " + (MAX_OPERATORS + 1));
        }
        if (parsed.largestInList() > MAX_IN_OPERANDS) {
            throw invalid("The IN operator is provided with too many operands; number of operands: "
                    + parsed.largestInList());
        }
    }

    private void checkReserved(Path path) {
        for (Path.Element e : path.elements()) {
            if (e instanceof Path.Name n && n.bare() && ReservedWords.isReserved(n.name())) {
                throw invalid("Attribute name is a reserved keyword; reserved keyword: " + n.name());
            }
        }
    }

    /**
     * Two target paths may not overlap (one inside or equal to the other) or conflict (the same
     * place read as a map by one and as a list by the other). Overlaps are reported first.
     */
    private void checkOverlaps(List<Path> paths) {
        String conflict = null;
        for (int j = 1; j < paths.size(); j++) {
            for (int i = 0; i < j; i++) {
                Path one = paths.get(i);
                Path two = paths.get(j);
                int common = Math.min(one.size(), two.size());
                boolean diverged = false;
                for (int k = 0; k < common && !diverged; k++) {
                    Path.Element a = one.elements().get(k);
                    Path.Element b = two.elements().get(k);
                    if (a.getClass() != b.getClass()) {
                        if (conflict == null) {
                            conflict = "Two document paths conflict with each other; must remove or rewrite one of "
                                    + "these paths; path one: " + one + ", path two: " + two;
                        }
                        diverged = true;
                    } else if (!sameElement(a, b)) {
                        diverged = true;
                    }
                }
                if (!diverged) {
                    throw invalid("Two document paths overlap with each other; must remove or rewrite one of these "
                            + "paths; path one: " + one + ", path two: " + two);
                }
            }
        }
        if (conflict != null) throw invalid(conflict);
    }

    private static boolean sameElement(Path.Element a, Path.Element b) {
        if (a instanceof Path.Name n1 && b instanceof Path.Name n2) return n1.name().equals(n2.name());
        return a.equals(b);
    }

    // ---- resolution ---------------------------------------------------------------------------

    /**
     * Replaces #names and :values, in the order written; the first one not defined is reported.
     */
    private Condition resolve(Condition c) {
        return switch (c) {
            case Condition.Comparison cmp -> {
                Operand l = resolve(cmp.left());
                yield new Condition.Comparison(cmp.comparator(), l, resolve(cmp.right()));
            }
            case Condition.Between b -> {
                Operand v = resolve(b.value());
                Operand lo = resolve(b.lower());
                yield new Condition.Between(v, lo, resolve(b.upper()));
            }
            case Condition.In in -> {
                Operand v = resolve(in.value());
                List<Operand> candidates = new ArrayList<>(in.candidates().size());
                for (Operand o : in.candidates()) candidates.add(resolve(o));
                yield new Condition.In(v, candidates);
            }
            case Condition.Function f -> new Condition.Function((FunctionCall) resolve(f.call()));
            case Condition.Not n -> new Condition.Not(resolve(n.condition()));
            case Condition.And a -> {
                Condition l = resolve(a.left());
                yield new Condition.And(l, resolve(a.right()));
            }
            case Condition.Or o -> {
                Condition l = resolve(o.left());
                yield new Condition.Or(l, resolve(o.right()));
            }
        };
    }

    private Operand resolve(Operand o) {
        return switch (o) {
            case PathOperand p -> new PathOperand(resolve(p.path()));
            case ValueRef v -> {
                AttributeValue value = context.value(v.placeholder());
                if (value == null) {
                    throw invalid("An expression attribute value used in expression is not defined; attribute value: "
                            + v.placeholder());
                }
                yield new Constant(value);
            }
            case Constant c -> c;
            case FunctionCall f -> {
                List<Operand> args = new ArrayList<>(f.arguments().size());
                for (Operand a : f.arguments()) args.add(resolve(a));
                yield new FunctionCall(f.name(), args);
            }
            case Arithmetic a -> {
                Operand l = resolve(a.left());
                yield new Arithmetic(a.plus(), l, resolve(a.right()));
            }
        };
    }

    private Path resolve(Path path) {
        List<Path.Element> elements = new ArrayList<>(path.size());
        for (Path.Element e : path.elements()) {
            if (e instanceof Path.Placeholder p) {
                String name = context.name(p.placeholder());
                if (name == null) {
                    throw invalid("An expression attribute name used in the document path is not defined; attribute name: "
                            + p.placeholder());
                }
                elements.add(new Path.Name(name, false));
            } else {
                elements.add(e);
            }
        }
        return new Path(elements);
    }

    // ---- traversal, in the order written ------------------------------------------------------

    private static void forEachCondition(Condition c, Consumer<Condition> visit) {
        visit.accept(c);
        switch (c) {
            case Condition.Not n -> forEachCondition(n.condition(), visit);
            case Condition.And a -> {
                forEachCondition(a.left(), visit);
                forEachCondition(a.right(), visit);
            }
            case Condition.Or o -> {
                forEachCondition(o.left(), visit);
                forEachCondition(o.right(), visit);
            }
            default -> { }
        }
    }

    private static void forEachOperand(Condition c, Consumer<Operand> visit) {
        forEachCondition(c, node -> {
            switch (node) {
                case Condition.Comparison cmp -> {
                    visit.accept(cmp.left());
                    visit.accept(cmp.right());
                }
                case Condition.Between b -> {
                    visit.accept(b.value());
                    visit.accept(b.lower());
                    visit.accept(b.upper());
                }
                case Condition.In in -> {
                    visit.accept(in.value());
                    in.candidates().forEach(visit);
                }
                case Condition.Function f -> visit.accept(f.call());
                default -> { }
            }
        });
    }

    private static void forEachFunction(Condition c, Consumer<FunctionCall> visit) {
        forEachOperand(c, o -> forEachFunction(o, visit));
    }

    private static void forEachFunction(Operand o, Consumer<FunctionCall> visit) {
        if (o instanceof FunctionCall f) {
            for (Operand arg : f.arguments()) forEachFunction(arg, visit);
            visit.accept(f);
        } else if (o instanceof Arithmetic a) {
            forEachFunction(a.left(), visit);
            forEachFunction(a.right(), visit);
        }
    }

    private static void forEachPath(Condition c, Consumer<Path> visit) {
        forEachOperand(c, o -> forEachOperandPath(o, visit));
    }

    private static void forEachOperandPath(Operand o, Consumer<Path> visit) {
        switch (o) {
            case PathOperand p -> visit.accept(p.path());
            case FunctionCall f -> f.arguments().forEach(a -> forEachOperandPath(a, visit));
            case Arithmetic a -> {
                forEachOperandPath(a.left(), visit);
                forEachOperandPath(a.right(), visit);
            }
            default -> { }
        }
    }
}
