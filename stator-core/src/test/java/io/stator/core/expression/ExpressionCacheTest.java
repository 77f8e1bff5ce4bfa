package io.stator.core.expression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import org.junit.jupiter.api.Test;

/** A repeated expression is parsed once: the second request gets the first one's parse. */
class ExpressionCacheTest {

    @Test
    void theSameTextOfTheSameKindIsParsedOnce() {
        String text = "attribute_not_exists(cacheTest) AND v = :v";
        ParsedExpression first = ExpressionCache.parse(ExpressionKind.CONDITION, text);
        assertSame(first, ExpressionCache.parse(ExpressionKind.CONDITION, new String(text.toCharArray())));
        // The same text is another expression in another kind (its errors name the kind).
        assertNotSame(first, ExpressionCache.parse(ExpressionKind.FILTER, text));
    }

    @Test
    void syntaxErrorsAreNotCachedAndAreReportedEveryTime() {
        for (int i = 0; i < 2; i++) {
            DynamoDbException e = assertThrows(DynamoDbException.class,
                    () -> ExpressionCache.parse(ExpressionKind.UPDATE, "SET a = 3"));
            assertEquals("Invalid UpdateExpression: Syntax error; token: \"3\", near: \"= 3\"", e.getMessage());
        }
    }

    @Test
    void longExpressionsThatAreNeverRepeatedKeepTheCacheWithinItsCharacters() {
        // 4 KB each, all different: without a bound on characters, 10,000 of them would stay.
        String padding = "a, ".repeat(1_300);
        for (int i = 0; i < 1_000; i++) {
            ExpressionCache.parse(ExpressionKind.PROJECTION, padding + "b" + i);
            assertTrue(ExpressionCache.chars() <= ExpressionCache.MAX_CHARS, () -> "" + ExpressionCache.chars());
        }
    }
}
