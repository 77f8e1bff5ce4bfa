package io.stator.core.expression;

import io.stator.core.model.AttributeValue;
import java.util.List;

/** A value in an expression: a document path, a value, a function call, or (in SET) arithmetic. */
public sealed interface Operand {

    record PathOperand(Path path) implements Operand {}

    /** A :placeholder, before resolution. */
    record ValueRef(String placeholder) implements Operand {}

    /** A value given in ExpressionAttributeValues, after resolution. */
    record Constant(AttributeValue value) implements Operand {}

    /** {@code name(args...)}; the name is kept as written (DynamoDB's function names are case-sensitive). */
    record FunctionCall(String name, List<Operand> arguments) implements Operand {
        public FunctionCall {
            arguments = List.copyOf(arguments);
        }
    }

    /** {@code left + right} or {@code left - right}, only in an UpdateExpression's SET. */
    record Arithmetic(boolean plus, Operand left, Operand right) implements Operand {}
}
