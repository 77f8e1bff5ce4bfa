package io.stator.core.expression;

import static io.stator.core.expression.ExpressionTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * What a condition or an update costs grows with its values, never with their product: the
 * inputs that made it quadratic (a needle of "a...ab" in "aaa...a", sets taken from sets) finish
 * at once, and the answers are the ones the naive methods gave.
 */
class LinearWorkTest {

    /** The probe's case: 15 s for a needle of 20,001 characters in a 390 KB string, before. */
    private static final Duration AT_ONCE = Duration.ofSeconds(2);
    private static final Supplier<DynamoDbException> MISMATCH = () -> {
        throw new AssertionError("the sets' types match");
    };

    @Test
    void containsOfALongNeedleInARepetitiveStringIsLinear() {
        String haystack = "a".repeat(390 * 1024);
        for (int needle : new int[] {17, 1_001, 20_001, 150_001}) {
            String absent = "a".repeat(needle - 1) + "b";
            String present = "a".repeat(needle);
            assertTimeoutPreemptively(AT_ONCE, () -> {
                assertEquals(false, Values.contains(s(haystack), s(absent)), "needle of " + needle);
                assertEquals(true, Values.contains(s(haystack), s(present)), "needle of " + needle);
                assertEquals(false, Values.contains(b(haystack), b(absent)), "binary needle of " + needle);
                assertEquals(true, Values.contains(b(haystack), b(present)), "binary needle of " + needle);
            });
        }
    }

    @Test
    void linearSearchFindsWhatStringIndexOfFinds() {
        Random random = new Random(29);
        for (int i = 0; i < 20_000; i++) {
            // A small alphabet, so that needles of every length occur and nearly occur.
            String haystack = text(random, random.nextInt(200), "ab\uD83D\uDE00");
            String needle;
            if (random.nextBoolean() && !haystack.isEmpty()) {
                int from = random.nextInt(haystack.length());
                needle = haystack.substring(from, from + random.nextInt(haystack.length() - from + 1));
            } else {
                needle = text(random, random.nextInt(40), "ab\uD83D\uDE00");
            }
            assertEquals(haystack.indexOf(needle), Values.indexOf(haystack, needle), () -> needle + " in " + haystack);
            byte[] h = haystack.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] n = needle.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(naiveIndexOf(h, n) >= 0, Values.indexOf(h, n) >= 0, () -> needle + " in " + haystack);
        }
    }

    @Test
    void deletingAndAddingLargeSetsIsLinear() {
        List<String> strings = new ArrayList<>();
        List<String> numbers = new ArrayList<>();
        List<byte[]> binaries = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            strings.add(Integer.toString(i, 36));
            numbers.add(Integer.toString(i));
            binaries.add(Integer.toString(i, 36).getBytes());
        }
        AttributeValue stringSet = ss(strings.toArray(String[]::new));
        AttributeValue numberSet = ns(numbers.toArray(String[]::new));
        AttributeValue binarySet = new AttributeValue.BS(binaries);
        assertTimeoutPreemptively(AT_ONCE, () -> {
            assertEquals(null, UpdateApplier.delete(stringSet, stringSet, MISMATCH));
            assertEquals(null, UpdateApplier.delete(numberSet, numberSet, MISMATCH));
            assertEquals(null, UpdateApplier.delete(binarySet, binarySet, MISMATCH));
        });
        AttributeValue.BS half = new AttributeValue.BS(binaries.subList(0, 50_000));
        AttributeValue.BS rest = (AttributeValue.BS) assertTimeoutPreemptively(AT_ONCE,
                () -> UpdateApplier.delete(binarySet, half, MISMATCH));
        assertEquals(50_000, rest.values().size());
        assertTrue(Arrays.equals(binaries.get(50_000), rest.values().get(0)));
        ExpressionContext context = new ExpressionContext(null, Map.of(":all", binarySet));
        var update = context.update("ADD bs :all");
        Map<String, AttributeValue> updated = assertTimeoutPreemptively(AT_ONCE,
                () -> UpdateApplier.apply(update, map("bs", half)));
        assertEquals(100_000, ((AttributeValue.BS) updated.get("bs")).values().size());
    }

    @Test
    void whatReadsNoAttributeIsFoldedOnceIntoItsOutcome() {
        String big = "a".repeat(1 << 20);
        ExpressionContext context = new ExpressionContext(null, Map.of(":a", s(big), ":b", s(big + "b"),
                ":c", s(big), ":one", n("1")));
        Condition filter = ConditionEvaluator.folded(context.condition(ExpressionKind.FILTER,
                "(contains(:a, :b) OR :a = :c) AND n = :one"));
        Map<String, AttributeValue> item = map("n", n("1"));
        assertTimeoutPreemptively(AT_ONCE, () -> {
            for (int i = 0; i < 100_000; i++) assertEquals(true, ConditionEvaluator.matches(filter, item));
        });
        assertEquals(false, ConditionEvaluator.matches(filter, map("n", n("2"))));
        assertEquals(false, ConditionEvaluator.matches(ConditionEvaluator.folded(
                context.condition(ExpressionKind.FILTER, "contains(:a, :b)")), item));
    }

    private static AttributeValue b(String ascii) {
        return new AttributeValue.B(ascii.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    private static String text(Random random, int length, String alphabet) {
        int[] codePoints = alphabet.codePoints().toArray();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) sb.appendCodePoint(codePoints[random.nextInt(codePoints.length)]);
        return sb.toString();
    }

    private static int naiveIndexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) if (haystack[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }
}
