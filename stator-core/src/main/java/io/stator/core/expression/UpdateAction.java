package io.stator.core.expression;

/** One action of an UpdateExpression, in the order written. */
public sealed interface UpdateAction {

    Path path();

    record Set(Path path, Operand value) implements UpdateAction {}

    record Remove(Path path) implements UpdateAction {}

    /** ADD: to a number, or elements to a set. The value is a :placeholder. */
    record Add(Path path, Operand value) implements UpdateAction {}

    /** DELETE: elements from a set. The value is a :placeholder. */
    record Delete(Path path, Operand value) implements UpdateAction {}
}
