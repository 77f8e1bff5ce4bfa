package io.stator.core.expression;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The document paths a condition reads: for DynamoDB's rules on filters over key attributes, and
 * to know which attributes a filter needs of an item.
 */
public final class ConditionPaths {

    private ConditionPaths() {}

    /** Every path the condition reads, in the order it names them. */
    public static List<Path> paths(Condition condition) {
        List<Path> paths = new ArrayList<>();
        collect(condition, paths);
        return paths;
    }

    public static Set<String> topLevelNames(Condition condition) {
        Set<String> names = new LinkedHashSet<>();
        for (Path p : paths(condition)) names.add(p.topLevelName());
        return names;
    }

    private static void collect(Condition c, List<Path> paths) {
        switch (c) {
            case Condition.Comparison cmp -> collect(List.of(cmp.left(), cmp.right()), paths);
            case Condition.Between b -> collect(List.of(b.value(), b.lower(), b.upper()), paths);
            case Condition.In in -> {
                collect(List.of(in.value()), paths);
                collect(in.candidates(), paths);
            }
            case Condition.Function f -> collect(f.call().arguments(), paths);
            case Condition.Not n -> collect(n.condition(), paths);
            case Condition.And a -> {
                collect(a.left(), paths);
                collect(a.right(), paths);
            }
            case Condition.Or o -> {
                collect(o.left(), paths);
                collect(o.right(), paths);
            }
        }
    }

    private static void collect(List<Operand> operands, List<Path> paths) {
        for (Operand o : operands) {
            if (o instanceof Operand.PathOperand p) paths.add(p.path());
            if (o instanceof Operand.FunctionCall f) collect(f.arguments(), paths);
        }
    }
}
