package io.stator.core.model;

import io.stator.core.error.DynamoDbException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A DynamoDB number: an exact decimal of at most 38 significant digits whose magnitude is zero or
 * lies between 1E-130 and 9.99...E+125.
 *
 * <p>Parsing follows DynamoDB: the text is a plain or scientific decimal ({@code -12.5},
 * {@code .5}, {@code 5.}, {@code 1E+3}); no leading '+', no spaces, no hex, no NaN. Leading and
 * trailing zeros do not count as significant digits. The number is kept in its canonical form,
 * which is also what DynamoDB sends back: plain notation, no trailing zeros, no exponent
 * ({@code "1.50"} and {@code "15E-1"} both become {@code "1.5"}, {@code "-0"} becomes {@code "0"}).
 */
public final class DynamoNumber implements Comparable<DynamoNumber> {

    public static final int MAX_DIGITS = 38;
    public static final int MAX_EXPONENT = 125;
    public static final int MIN_EXPONENT = -130;

    public static final DynamoNumber ZERO = new DynamoNumber(BigDecimal.ZERO, "0");

    private final BigDecimal value;
    private final String text;

    private DynamoNumber(BigDecimal value, String text) {
        this.value = value;
        this.text = text;
    }

    /** The number as an exact decimal, without trailing zeros. */
    public BigDecimal bigDecimal() { return value; }

    /** The canonical text, as DynamoDB returns it. */
    @Override public String toString() { return text; }

    @Override public int compareTo(DynamoNumber o) { return value.compareTo(o.value); }

    @Override public boolean equals(Object o) {
        return o instanceof DynamoNumber other && text.equals(other.text);
    }

    @Override public int hashCode() { return text.hashCode(); }

    /** Builds a number from an exact decimal, checking DynamoDB's range and precision. */
    public static DynamoNumber of(BigDecimal decimal) {
        if (decimal.signum() == 0) return ZERO;
        BigDecimal stripped = decimal.stripTrailingZeros();
        int digits = stripped.precision();
        long exponent = (long) digits - 1 - stripped.scale(); // of d.ddd x 10^exponent
        check(exponent, digits);
        return new DynamoNumber(stripped, stripped.toPlainString());
    }

    public static DynamoNumber of(long value) {
        return of(BigDecimal.valueOf(value));
    }

    /**
     * Parses a number as DynamoDB does, throwing DynamoDB's ValidationException for text that is
     * not a number, or a number out of range or too precise. A leading '+' is a sign, as on
     * DynamoDB, which stores the number normalised ("+5" reads back as "5": nubo-db/dynoxide#109,
     * captured against DynamoDB; scylladb test/alternator/test_number.py accepts "+3" there too);
     * spaces, "NaN" and "Infinity" are not numbers.
     */
    public static DynamoNumber parse(String text) {
        if (text == null || text.isEmpty()) {
            throw DynamoDbException.validation("The parameter cannot be converted to a numeric value");
        }
        int n = text.length();
        int i = 0;
        boolean negative = false;
        if (text.charAt(0) == '-' || text.charAt(0) == '+') {
            negative = text.charAt(0) == '-';
            i++;
        }
        int intStart = i;
        while (i < n && isDigit(text.charAt(i))) i++;
        int intEnd = i;
        int fracStart = i, fracEnd = i;
        if (i < n && text.charAt(i) == '.') {
            i++;
            fracStart = i;
            while (i < n && isDigit(text.charAt(i))) i++;
            fracEnd = i;
        }
        if (intEnd == intStart && fracEnd == fracStart) throw notANumber(text);
        long exponent = 0;
        if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            i++;
            boolean expNegative = false;
            if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
                expNegative = text.charAt(i) == '-';
                i++;
            }
            int expStart = i;
            while (i < n && isDigit(text.charAt(i))) {
                // Saturate: any exponent this large is out of range whatever the digits.
                if (exponent < 1_000_000_000L) exponent = exponent * 10 + (text.charAt(i) - '0');
                i++;
            }
            if (i == expStart) throw notANumber(text);
            if (expNegative) exponent = -exponent;
        }
        if (i != n) throw notANumber(text);

        // The significant digits: integer and fraction digits without leading and trailing zeros.
        StringBuilder digits = new StringBuilder(n);
        digits.append(text, intStart, intEnd).append(text, fracStart, fracEnd);
        int first = 0;
        while (first < digits.length() && digits.charAt(first) == '0') first++;
        if (first == digits.length()) return ZERO;
        int last = digits.length();
        while (digits.charAt(last - 1) == '0') last--;
        int significant = last - first;
        // Position of the first significant digit relative to the decimal point.
        long adjustedExponent = (long) (intEnd - intStart) - 1 - first + exponent;
        check(adjustedExponent, significant);

        BigInteger unscaled = new BigInteger(digits.substring(first, last));
        if (negative) unscaled = unscaled.negate();
        int scale = (int) (significant - 1 - adjustedExponent);
        BigDecimal value = new BigDecimal(unscaled, scale);
        return new DynamoNumber(value, value.toPlainString());
    }

    private static void check(long exponent, int digits) {
        if (exponent > MAX_EXPONENT) {
            throw DynamoDbException.validation(
                    "Number overflow. Attempting to store a number with magnitude larger than supported range");
        }
        if (exponent < MIN_EXPONENT) {
            throw DynamoDbException.validation(
                    "Number underflow. Attempting to store a number with magnitude smaller than supported range");
        }
        if (digits > MAX_DIGITS) {
            throw DynamoDbException.validation("Attempting to store more than 38 significant digits in a Number");
        }
    }

    private static DynamoDbException notANumber(String text) {
        return DynamoDbException.validation("The parameter cannot be converted to a numeric value: " + text);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
