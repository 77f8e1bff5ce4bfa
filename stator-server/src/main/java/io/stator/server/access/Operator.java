package io.stator.server.access;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.function.BiPredicate;

/**
 * IAM's condition operators (IAM User Guide, "IAM JSON policy elements: Condition operators"):
 * each compares one value of the request's key with one value of the policy. The negated ones
 * ({@code StringNotEquals}, ...) are true when the key's value matches none of the policy's.
 * {@code Null} is special: it tests whether the key is absent, and is evaluated by
 * {@link Evaluation} itself.
 */
public enum Operator {
    StringEquals(false, String::equals),
    StringNotEquals(true, String::equals),
    StringEqualsIgnoreCase(false, String::equalsIgnoreCase),
    StringNotEqualsIgnoreCase(true, String::equalsIgnoreCase),
    StringLike(false, (value, pattern) -> Wildcards.matches(pattern, value, false)),
    StringNotLike(true, (value, pattern) -> Wildcards.matches(pattern, value, false)),
    NumericEquals(false, (v, p) -> compareNumbers(v, p, c -> c == 0)),
    NumericNotEquals(true, (v, p) -> compareNumbers(v, p, c -> c == 0)),
    NumericLessThan(false, (v, p) -> compareNumbers(v, p, c -> c < 0)),
    NumericLessThanEquals(false, (v, p) -> compareNumbers(v, p, c -> c <= 0)),
    NumericGreaterThan(false, (v, p) -> compareNumbers(v, p, c -> c > 0)),
    NumericGreaterThanEquals(false, (v, p) -> compareNumbers(v, p, c -> c >= 0)),
    DateEquals(false, (v, p) -> compareDates(v, p, c -> c == 0)),
    DateNotEquals(true, (v, p) -> compareDates(v, p, c -> c == 0)),
    DateLessThan(false, (v, p) -> compareDates(v, p, c -> c < 0)),
    DateLessThanEquals(false, (v, p) -> compareDates(v, p, c -> c <= 0)),
    DateGreaterThan(false, (v, p) -> compareDates(v, p, c -> c > 0)),
    DateGreaterThanEquals(false, (v, p) -> compareDates(v, p, c -> c >= 0)),
    Bool(false, String::equalsIgnoreCase),
    BinaryEquals(false, String::equals),
    ArnEquals(false, (value, pattern) -> Wildcards.matchesArn(pattern, value)),
    ArnLike(false, (value, pattern) -> Wildcards.matchesArn(pattern, value)),
    ArnNotEquals(true, (value, pattern) -> Wildcards.matchesArn(pattern, value)),
    ArnNotLike(true, (value, pattern) -> Wildcards.matchesArn(pattern, value)),
    Null(false, (v, p) -> false);

    private final boolean negated;
    private final BiPredicate<String, String> matches;

    Operator(boolean negated, BiPredicate<String, String> matches) {
        this.negated = negated;
        this.matches = matches;
    }

    /** The operator of that name (case-sensitive, as IAM's are), or null. */
    static Operator named(String name) {
        for (Operator o : values()) if (o.name().equals(name)) return o;
        return null;
    }

    /** True for the operators that hold when the key's value matches none of the policy's values. */
    boolean negated() { return negated; }

    /** The positive comparison (for a negated operator, the one it negates). */
    boolean matches(String requestValue, String policyValue) {
        return matches.test(requestValue, policyValue);
    }

    private interface Comparison {
        boolean test(int compared);
    }

    private static boolean compareNumbers(String value, String policy, Comparison c) {
        try {
            return c.test(new BigDecimal(value.trim()).compareTo(new BigDecimal(policy.trim())));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean compareDates(String value, String policy, Comparison c) {
        Instant v = instant(value);
        Instant p = instant(policy);
        return v != null && p != null && c.test(v.compareTo(p));
    }

    /** ISO 8601 (with or without an offset) or epoch seconds, as IAM takes dates. */
    private static Instant instant(String text) {
        String t = text.trim();
        try {
            if (t.chars().allMatch(Character::isDigit) && !t.isEmpty()) return Instant.ofEpochSecond(Long.parseLong(t));
            if (t.length() == 10) return Instant.parse(t + "T00:00:00Z");
            try {
                return OffsetDateTime.parse(t).toInstant();
            } catch (DateTimeParseException e) {
                return Instant.parse(t.toUpperCase(Locale.ROOT));
            }
        } catch (RuntimeException e) {
            return null;
        }
    }
}
