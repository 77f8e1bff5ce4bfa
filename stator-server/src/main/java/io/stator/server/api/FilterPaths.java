package io.stator.server.api;

import io.stator.core.expression.Condition;
import io.stator.core.expression.Operand;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The top-level attributes a condition reads (for DynamoDB's rules on filters over keys). */
final class FilterPaths {

    private FilterPaths() {}

    static Set<String> topLevelNames(Condition condition) {
        Set<String> names = new LinkedHashSet<>();
        collect(condition, names);
        return names;
    }

    private static void collect(Condition c, Set<String> names) {
        switch (c) {
            case Condition.Comparison cmp -> collect(List.of(cmp.left(), cmp.right()), names);
            case Condition.Between b -> collect(List.of(b.value(), b.lower(), b.upper()), names);
            case Condition.In in -> {
                collect(List.of(in.value()), names);
                collect(in.candidates(), names);
            }
            case Condition.Function f -> collect(f.call().arguments(), names);
            case Condition.Not n -> collect(n.condition(), names);
            case Condition.And a -> {
                collect(a.left(), names);
                collect(a.right(), names);
            }
            case Condition.Or o -> {
                collect(o.left(), names);
                collect(o.right(), names);
            }
        }
    }

    private static void collect(List<Operand> operands, Set<String> names) {
        for (Operand o : operands) {
            if (o instanceof Operand.PathOperand p) names.add(p.path().topLevelName());
            if (o instanceof Operand.FunctionCall f) collect(f.arguments(), names);
        }
    }
}
