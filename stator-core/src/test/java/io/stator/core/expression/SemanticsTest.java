package io.stator.core.expression;

import static io.stator.core.expression.ExpressionTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Semantic errors, each with DynamoDB's exact text (sources in the notes of the expression issue). */
class SemanticsTest {

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "CONDITION|a > ((b))|The expression has redundant parentheses;",
        "CONDITION|foo(a)|Invalid function name; function: foo",
        "CONDITION|attRIbute_exIsts(a)|Invalid function name; function: attRIbute_exIsts",
        "CONDITION|size(a)|The function is not allowed to be used this way in an expression; function: size",
        "CONDITION|a = attribute_exists(b)|The function is not allowed to be used this way in an expression; function: attribute_exists",
        "CONDITION|abOrT = :v|Attribute name is a reserved keyword; reserved keyword: abOrT",
        "CONDITION|#a = :v|An expression attribute name used in the document path is not defined; attribute name: #a",
        "CONDITION|a = :nope|An expression attribute value used in expression is not defined; attribute value: :nope",
        "CONDITION|attribute_exists(a, b)|Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2",
        "CONDITION|a = a|The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [a]",
        "CONDITION|contains(a.b, a.b)|The first operand must be distinct from the remaining operands for this operator or function; operator: contains, first operand: [a, b]",
        "CONDITION|attribute_exists(:v)|Operator or function requires a document path; operator or function: attribute_exists",
        "CONDITION|begins_with(a, :n)|Incorrect operand type for operator or function; operator or function: begins_with, operand type: N",
        "CONDITION|size(:n) = :n|Incorrect operand type for operator or function; operator or function: size, operand type: N",
        "CONDITION|attribute_type(a, :n)|Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N",
        "CONDITION|attribute_type(a, :v)|Invalid attribute type name found; type: x, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}",
        "CONDITION|a BETWEEN :n AND :v|The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:x}",
        "CONDITION|a BETWEEN :n AND :zero|The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {N:0}",
        "CONDITION|a < :t|Incorrect operand type for operator or function; operator or function: <, operand type: BOOL",
        "UPDATE|SET a = :v SET b = :v|The \"SET\" section can only be used once in an update expression;",
        "UPDATE|SET a = :v, a.b = :v|Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]",
        "UPDATE|SET a.b = :v, a[1] = :v|Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a, [1]]",
        "UPDATE|ADD a :v|Incorrect operand type for operator or function; operator: ADD, operand type: STRING",
        "UPDATE|DELETE a :n|Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER",
        "UPDATE|SET a = b + :v|Incorrect operand type for operator or function; operator or function: +, operand type: S",
        "UPDATE|SET a = list_append(a, :v)|Incorrect operand type for operator or function; operator or function: list_append, operand type: S",
        "UPDATE|SET a = if_not_exists(:v, a)|Operator or function requires a document path; operator or function: if_not_exists",
        "UPDATE|SET a = if_not_exists(a)|Incorrect number of operands for operator or function; operator or function: if_not_exists, number of operands: 1",
        "UPDATE|SET a = foo(b)|Invalid function name; function: foo",
        "UPDATE|SET a = list_append(list_append(a, :l), :l)|The function is not allowed to be used this way in an expression; function: list_append",
        "UPDATE|SET #x = :v|An expression attribute name used in the document path is not defined; attribute name: #x",
        "PROJECTION|a, a|Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]",
        "PROJECTION|a.b, a[0]|Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a, [0]]",
        "PROJECTION|name|Attribute name is a reserved keyword; reserved keyword: name",
    })
    void reportsDynamoDbsMessage(ExpressionKind kind, String expression, String message) {
        ExpressionContext context = new ExpressionContext(null, map(":v", s("x"), ":n", n("1"), ":zero", n("0"),
                ":t", bool(true), ":l", l(n("1"))));
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> {
            switch (kind) {
                case UPDATE -> context.update(expression);
                case PROJECTION -> context.projection(expression);
                default -> context.condition(kind, expression);
            }
        });
        assertEquals(kind.errorPrefix() + message, e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "4096|true", "4097|false",
    })
    void expressionsAreLimitedTo4KB(int length, boolean accepted) {
        String expression = "a = :v AND b" + "x".repeat(length - "a = :v AND b = :v".length()) + " = :v";
        assertEquals(length, expression.length());
        ExpressionContext context = new ExpressionContext(null, map(":v", s("x")));
        if (accepted) {
            context.condition(ExpressionKind.CONDITION, expression);
        } else {
            DynamoDbException e = assertThrows(DynamoDbException.class,
                    () -> context.condition(ExpressionKind.CONDITION, expression));
            assertEquals("Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; "
                    + "expression size: 4097", e.getMessage());
        }
    }

    @ParameterizedTest
    @CsvSource({"32,true", "33,false"})
    void pathsNestAtMost32Levels(int depth, boolean accepted) {
        String path = "a" + ".b".repeat(depth - 1);
        ExpressionContext context = new ExpressionContext(null, null);
        if (accepted) {
            context.projection(path);
        } else {
            DynamoDbException e = assertThrows(DynamoDbException.class, () -> context.projection(path));
            assertEquals("Invalid ProjectionExpression: The document path has too many nesting levels; nesting levels: 33",
                    e.getMessage());
        }
    }

    @ParameterizedTest
    @CsvSource({"100,true", "101,false"})
    void inTakesAtMost100Operands(int operands, boolean accepted) {
        String list = String.join(", ", java.util.Collections.nCopies(operands, ":v"));
        ExpressionContext context = new ExpressionContext(null, map(":v", s("x")));
        if (accepted) {
            context.condition(ExpressionKind.CONDITION, "a IN (" + list + ")");
        } else {
            DynamoDbException e = assertThrows(DynamoDbException.class,
                    () -> context.condition(ExpressionKind.CONDITION, "a IN (" + list + ")"));
            assertEquals("Invalid ConditionExpression: The IN operator is provided with too many operands; number of "
                    + "operands: 101", e.getMessage());
        }
    }

    @ParameterizedTest
    @CsvSource({"300,true", "301,false"})
    void expressionsHaveAtMost300Operators(int operators, boolean accepted) {
        String expression = String.join(" AND ", java.util.Collections.nCopies((operators + 1) / 2, "a = :v"));
        if (operators % 2 == 0) expression = "NOT " + expression;
        ExpressionContext context = new ExpressionContext(null, map(":v", s("x")));
        String e2 = expression;
        if (accepted) {
            context.condition(ExpressionKind.CONDITION, e2);
        } else {
            DynamoDbException e = assertThrows(DynamoDbException.class,
                    () -> context.condition(ExpressionKind.CONDITION, e2));
            assertEquals("Invalid ConditionExpression: The expression contains too many operators; operator count: 301",
                    e.getMessage());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "#a = :v|Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}",
        "#a = #b|Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}",
    })
    void unusedPlaceholdersAreReported(String expression, String message) {
        ExpressionContext context = new ExpressionContext(names("#a", "x", "#b", "y"), map(":v", s("x")));
        context.condition(ExpressionKind.CONDITION, expression);
        DynamoDbException e = assertThrows(DynamoDbException.class, context::checkAllUsed);
        assertEquals(message, e.getMessage());
    }
}
