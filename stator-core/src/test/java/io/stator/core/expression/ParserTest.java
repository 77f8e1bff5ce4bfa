package io.stator.core.expression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParserTest {

    /** token/near pairs recorded from DynamoDB (and moto's tests modelled on it). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "UPDATE|INVALID SYNTAX HERE|INVALID|INVALID SYNTAX",
        "PROJECTION|!!! INVALID !!!|!|!!",
        "UPDATE|SET _123 = :v|_|SET _123",
        "UPDATE|ADD hits : incr|:|hits : incr",
        "CONDITION|ADD #v :i|ADD|ADD #v",
        "UPDATE|SET attrName = 3|3|= 3",
        "UPDATE|SET MyStr[ 3|<EOF>|3",
        "UPDATE|'SET MyStr[ 3 '|<EOF>|'3 '",
        "UPDATE|SET MyStr[3 )|)|3 )",
        "UPDATE|SET 2|2|SET 2",
        "UPDATE|SET )|)|SET )",
        "UPDATE|SET MyStr = (:_val|<EOF>|:_val",
        "UPDATE|'SET MyStr = [:_val  '|[|= [:_val",
        "UPDATE|RESET NonExistent value|RESET|RESET NonExistent",
        "UPDATE|'  RESET NonExistent value'|RESET|'  RESET NonExistent'",
        "UPDATE|SET a [  [2] ]. b = 5|[|'[  [2'",
        "UPDATE|SET a [2 1]. b = 5|1|2 1]",
        "UPDATE|SET #a a = 5|a|#a a =",
        "UPDATE|'SET MyStr = NoExist + + :_val '|+|+ + :_val",
        "UPDATE|'REMOVE NoExist + '|+|'NoExist + '",
        "UPDATE|ADD attr val foobar|val|attr val foobar",
        "UPDATE|DELETE attr :val foobar|foobar|:val foobar",
        "UPDATE|SET path = VALUE 1|1|VALUE 1",
        "UPDATE|'REMOVE if_not_exists(a,b)'|(|if_not_exists(a",
    })
    void syntaxErrorsQuoteTokenAndNearTextAsDynamoDbDoes(ExpressionKind kind, String expression, String token,
                                                         String near) {
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> Parser.parse(kind, expression));
        assertEquals(kind.errorPrefix() + "Syntax error; token: \"" + token + "\", near: \"" + near + "\"",
                e.getMessage());
    }

    /**
     * Found by ExpressionFuzzTest: a path or :value expected at the end of the text was reported
     * at the token before the end, and with no token before it (a ProjectionExpression of white
     * space only) the parser failed with ArrayIndexOutOfBoundsException, a 500 from the server.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "PROJECTION|'  '|'  '",
        "PROJECTION|'\\n\\n'|'\\n\\n'",
        "PROJECTION|a.|.",
        "PROJECTION|'a, '|', '",
        "UPDATE|REMOVE|REMOVE",
        "UPDATE|ADD a|a",
        "UPDATE|SET a[|[",
    })
    void aPathOrValueMissingAtTheEndIsASyntaxErrorAtTheEnd(ExpressionKind kind, String expression, String near) {
        String text = expression.replace("\\n", "\n");
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> Parser.parse(kind, text));
        assertEquals(kind.errorPrefix() + "Syntax error; token: \"<EOF>\", near: \"" + near.replace("\\n", "\n") + "\"",
                e.getMessage());
    }

    @Test
    void parsesEveryConditionForm() {
        ParsedExpression p = Parser.parse(ExpressionKind.CONDITION,
                "(a.b[2].c = :v OR NOT attribute_exists(#x)) AND size(l) BETWEEN :lo AND :hi AND k IN (:a, :b)"
                        + " AND begins_with(s, :p) AND (a) <> :q");
        assertNotNull(p.condition());
        assertEquals(10, p.operatorCount());
        assertEquals(2, p.largestInList());
    }

    @Test
    void marksRedundantParentheses() {
        assertTrue(Parser.parse(ExpressionKind.CONDITION, "a > ((b))").redundantParentheses());
        assertTrue(Parser.parse(ExpressionKind.CONDITION, "((a = b))").redundantParentheses());
        assertTrue(!Parser.parse(ExpressionKind.CONDITION, "(a = b) AND (c = d)").redundantParentheses());
    }

    @Test
    void deepNestingIsRefusedWithoutOverflowingTheStack() {
        String deep = "(".repeat(5000) + "a = b" + ")".repeat(5000);
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> Parser.parse(ExpressionKind.CONDITION, deep));
        assertTrue(e.getMessage().startsWith("Invalid ConditionExpression: Syntax error; token: \"(\""), e.getMessage());
        String deepNot = "NOT ".repeat(5000) + "a = b";
        assertThrows(DynamoDbException.class, () -> Parser.parse(ExpressionKind.CONDITION, deepNot));
        String nestedWithinLimit = "(".repeat(Parser.MAX_DEPTH - 1) + "a = b" + ")".repeat(Parser.MAX_DEPTH - 1);
        assertTrue(Parser.parse(ExpressionKind.CONDITION, nestedWithinLimit).redundantParentheses());
    }
}
