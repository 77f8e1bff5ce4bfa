package io.stator.core.expression;

import java.util.List;

/** A condition: what ConditionExpression, FilterExpression and KeyConditionExpression are written in. */
public sealed interface Condition {

    enum Comparator {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

        private final String symbol;

        Comparator(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() { return symbol; }
    }

    record Comparison(Comparator comparator, Operand left, Operand right) implements Condition {}

    record Between(Operand value, Operand lower, Operand upper) implements Condition {}

    record In(Operand value, List<Operand> candidates) implements Condition {
        public In {
            candidates = List.copyOf(candidates);
        }
    }

    /** A function used as a condition: attribute_exists, begins_with, contains, ... */
    record Function(Operand.FunctionCall call) implements Condition {}

    record Not(Condition condition) implements Condition {}

    record And(Condition left, Condition right) implements Condition {}

    record Or(Condition left, Condition right) implements Condition {}
}
