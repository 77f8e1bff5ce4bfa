package io.stator.server.api;

import io.stator.core.expression.Condition;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The document paths a condition reads (for DynamoDB's rules on filters over keys). */
final class FilterPaths {

    private FilterPaths() {}

    /** Every path the condition reads, in the order it names them. */
    static List<Path> paths(Condition condition) {
        List<Path> paths = new ArrayList<>();
        collect(condition, paths);
        return paths;
    }

    static Set<String> topLevelNames(Condition condition) {
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
