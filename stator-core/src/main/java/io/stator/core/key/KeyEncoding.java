package io.stator.core.key;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.core.model.Utf8;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Order-preserving byte encodings of key attribute values (S, N, B): comparing two encodings as
 * unsigned bytes gives DynamoDB's order of the values they encode.
 *
 * <p>Why this matters: storage keeps rows sorted by unsigned bytes, and Query must return items
 * in DynamoDB's sort-key order, so the order has to live in the bytes themselves. S and B already
 * compare as unsigned bytes in DynamoDB (UTF-8 for S; UTF-8 byte order is code point order, which
 * is <em>not</em> Java's {@code String.compareTo} order for characters beyond U+FFFF), so they
 * are written raw. N needs an encoding of its own, below.
 *
 * <p>Self-delimiting: a component that is followed by another one must tell where it ends.
 * The N encoding always does. Raw S and B do not, so they are only written raw when they are the
 * last component of a key (the sort key of a base-table row); elsewhere they use the escaped,
 * terminated form of {@link #writeDelimited}.
 *
 * <h2>Stored format (version 1). Versioned: it must never change silently.</h2>
 * Every row key in every table is built from these bytes; changing a single one reorders or
 * orphans stored data. A change needs a new format version and a migration.
 * <pre>
 * S (raw)        UTF-8 bytes of the string (String.getBytes(UTF_8)).
 * B (raw)        the bytes themselves.
 * S/B delimited  each 0x00 byte written as 0x00 0xFF, every other byte as is, then 0x00 0x01.
 *                Order-preserving: the terminator 0x00 0x01 sorts below any continuation
 *                (0x00 0xFF or a byte >= 0x01), so a value sorts before its extensions.
 *
 * N zero         0x02                                            (1 byte)
 * N positive     0x03, E, M1 .. Mk                               (2 + k bytes, k <= 19)
 * N negative     0x01, ~E, ~M1 .. ~Mk                            (every byte after the first inverted)
 *   E  = adjusted exponent + 130, one unsigned byte: DynamoDB's range -130..125 is exactly 0..255.
 *        The adjusted exponent is that of the first significant digit: 1234.5 = 1.2345E3 -> 3.
 *   Mi = the significant digits (no leading or trailing zeros, at most 38), taken in pairs from
 *        the first: pair value v = 10 * d1 + d2 (0..99; a final lone digit is paired with 0).
 *        Mi = 2v + 1 for every pair but the last, Mk = 2v for the last. The low bit says "more
 *        follows", which makes the encoding self-delimiting, and makes a shorter mantissa sort
 *        below a longer one that extends it (1.23 < 1.2301). Since the last digit is never 0,
 *        the final pair is never 00; no mantissa byte is 0x00.
 * Order: negatives (0x01) < zero (0x02) < positives (0x03). Among positives a larger exponent
 * means a larger number (the first digit is never 0), then the digits decide. Negatives invert
 * both, which reverses their order as it must.
 * Examples: 1 -> 03 82 14;  -1 -> 01 7D EB;  12.5 -> 03 83 19 64;  1E-130 -> 03 00 14.
 * </pre>
 */
public final class KeyEncoding {

    /** Sign byte of a negative number. */
    static final int NEGATIVE = 0x01;
    /** The whole encoding of zero. */
    static final int ZERO = 0x02;
    /** Sign byte of a positive number. */
    static final int POSITIVE = 0x03;

    /** The longest N encoding: sign, exponent and 19 digit pairs. */
    public static final int MAX_NUMBER_LENGTH = 2 + (DynamoNumber.MAX_DIGITS + 1) / 2;

    private static final int MAX_PAIRS = (DynamoNumber.MAX_DIGITS + 1) / 2;

    private KeyEncoding() {}

    // ---------------------------------------------------------------------------------------
    // Whole values

    /**
     * The order-preserving bytes of a key value: UTF-8 for S, the bytes for B, the N encoding
     * for N. For B this is the value's own array, not a copy: do not modify it.
     *
     * @throws IllegalArgumentException for an S holding a lone surrogate, which has no UTF-8 form
     */
    public static byte[] encode(AttributeValue keyValue) {
        if (keyValue instanceof AttributeValue.S s) return Utf8.encode(s.value());
        if (keyValue instanceof AttributeValue.B b) return b.value();
        if (keyValue instanceof AttributeValue.N n) return encodeNumber(n.value());
        throw notAKeyType(keyValue);
    }

    /**
     * Decodes a key value written by {@link #encode} that fills {@code src[off, off + len)}
     * exactly (a raw last component, or a partition key whose length is known).
     */
    public static AttributeValue decode(AttributeValue.Type type, byte[] src, int off, int len) {
        checkRange(src, off, len);
        switch (type) {
            case S:
                return new AttributeValue.S(new String(src, off, len, StandardCharsets.UTF_8));
            case B:
                return new AttributeValue.B(java.util.Arrays.copyOfRange(src, off, off + len));
            case N: {
                int end = numberEnd(src, off, off + len);
                if (end != off + len) {
                    throw malformed("number encoding ends at " + (end - off) + " of " + len + " bytes");
                }
                return new AttributeValue.N(decodeNumber(src, off, end));
            }
            default:
                throw new IllegalArgumentException("Not a key attribute type: " + type);
        }
    }

    // ---------------------------------------------------------------------------------------
    // N

    public static byte[] encodeNumber(DynamoNumber number) {
        byte[] out = new byte[numberLength(number)];
        writeNumber(number, out, 0);
        return out;
    }

    /** The length of {@code number}'s encoding. */
    public static int numberLength(DynamoNumber number) {
        BigDecimal d = number.bigDecimal();
        if (d.signum() == 0) return 1;
        return 2 + (d.precision() + 1) / 2;
    }

    /**
     * Writes {@code number}'s encoding at {@code dst[off]} and returns the offset after it.
     * Allocation-free: the digits are read from the number's canonical text.
     */
    public static int writeNumber(DynamoNumber number, byte[] dst, int off) {
        BigDecimal d = number.bigDecimal();
        int signum = d.signum();
        if (signum == 0) {
            dst[off] = (byte) ZERO;
            return off + 1;
        }
        int digits = d.precision();
        int exponent = digits - 1 - d.scale();
        int flip = signum < 0 ? 0xFF : 0;
        dst[off++] = (byte) (signum < 0 ? NEGATIVE : POSITIVE);
        dst[off++] = (byte) ((exponent - DynamoNumber.MIN_EXPONENT) ^ flip);

        // The canonical text is plain notation ("-0.0012", "1200"): skip the sign, the point and
        // the leading zeros, then the next `digits` digit characters are the significant digits.
        String text = number.toString();
        int i = 0;
        char c = text.charAt(i);
        while (c < '1' || c > '9') c = text.charAt(++i);
        int remaining = digits;
        while (remaining > 0) {
            int hi = text.charAt(i++) - '0';
            remaining--;
            int lo = 0;
            if (remaining > 0) {
                c = text.charAt(i++);
                if (c == '.') c = text.charAt(i++);
                lo = c - '0';
                remaining--;
            }
            if (remaining > 0 && text.charAt(i) == '.') i++;
            int pair = hi * 10 + lo;
            dst[off++] = (byte) ((remaining > 0 ? 2 * pair + 1 : 2 * pair) ^ flip);
        }
        return off;
    }

    /**
     * The offset just past the N encoding that starts at {@code src[off]}, reading no further
     * than {@code limit}.
     *
     * @throws IllegalArgumentException if the bytes are not a well-formed encoding
     */
    public static int numberEnd(byte[] src, int off, int limit) {
        if (off >= limit) throw malformed("empty number encoding");
        int sign = src[off] & 0xFF;
        if (sign == ZERO) return off + 1;
        if (sign != POSITIVE && sign != NEGATIVE) throw malformed("bad number sign byte " + sign);
        int flip = sign == NEGATIVE ? 0xFF : 0;
        int p = off + 2;
        for (int pairs = 1; pairs <= MAX_PAIRS; pairs++, p++) {
            if (p >= limit) throw malformed("truncated number encoding");
            if ((((src[p] & 0xFF) ^ flip) & 1) == 0) return p + 1;
        }
        throw malformed("number encoding has more than " + DynamoNumber.MAX_DIGITS + " digits");
    }

    /**
     * Decodes the N encoding that fills {@code src[off, end)} exactly ({@code end} as found by
     * {@link #numberEnd}).
     *
     * @throws IllegalArgumentException if the bytes are not a well-formed encoding
     */
    public static DynamoNumber decodeNumber(byte[] src, int off, int end) {
        if (off < 0 || end > src.length || off >= end) throw malformed("empty number encoding");
        int sign = src[off] & 0xFF;
        if (sign == ZERO) {
            if (end != off + 1) throw malformed("zero followed by " + (end - off - 1) + " bytes");
            return DynamoNumber.ZERO;
        }
        if (sign != POSITIVE && sign != NEGATIVE) throw malformed("bad number sign byte " + sign);
        int pairs = end - off - 2;
        if (pairs < 1 || pairs > MAX_PAIRS) throw malformed("number encoding of " + (end - off) + " bytes");
        int flip = sign == NEGATIVE ? 0xFF : 0;
        int exponent = ((src[off + 1] & 0xFF) ^ flip) + DynamoNumber.MIN_EXPONENT;

        // Accumulate up to 18 digits in a long, spilling into a BigInteger only past that.
        long chunk = 0;
        int chunkDigits = 0;
        BigInteger big = null;
        int digits = 0;
        for (int k = 0; k < pairs; k++) {
            int b = (src[off + 2 + k] & 0xFF) ^ flip;
            boolean last = k == pairs - 1;
            if (((b & 1) == 0) != last) throw malformed("bad continuation bit in number encoding");
            int pair = b >>> 1;
            if (pair > 99) throw malformed("bad digit pair " + pair + " in number encoding");
            if (k == 0 && pair < 10) throw malformed("number encoding starts with digit 0");
            int hi = pair / 10, lo = pair % 10;
            if (chunkDigits > 16) { // another pair could overflow the long
                big = big == null ? BigInteger.valueOf(chunk)
                        : big.multiply(BigInteger.TEN.pow(chunkDigits)).add(BigInteger.valueOf(chunk));
                chunk = 0;
                chunkDigits = 0;
            }
            if (last && lo == 0) {
                if (hi == 0) throw malformed("number encoding ends with digit 0");
                chunk = chunk * 10 + hi;
                chunkDigits++;
                digits++;
            } else {
                chunk = chunk * 100 + pair;
                chunkDigits += 2;
                digits += 2;
            }
        }
        int scale = digits - 1 - exponent;
        BigDecimal value;
        if (big == null) {
            value = BigDecimal.valueOf(flip == 0 ? chunk : -chunk, scale);
        } else {
            BigInteger unscaled = big.multiply(BigInteger.TEN.pow(chunkDigits)).add(BigInteger.valueOf(chunk));
            value = new BigDecimal(flip == 0 ? unscaled : unscaled.negate(), scale);
        }
        return DynamoNumber.of(value);
    }

    // ---------------------------------------------------------------------------------------
    // Delimited S and B, for a component that is not last

    /** The length of the delimited form of {@code raw}. */
    public static int delimitedLength(byte[] raw) {
        int len = raw.length + 2;
        for (byte b : raw) {
            if (b == 0) len++;
        }
        return len;
    }

    /** Writes the delimited form of {@code raw} at {@code dst[off]}; returns the offset after it. */
    public static int writeDelimited(byte[] raw, byte[] dst, int off) {
        for (byte b : raw) {
            dst[off++] = b;
            if (b == 0) dst[off++] = (byte) 0xFF;
        }
        dst[off++] = 0;
        dst[off++] = 1;
        return off;
    }

    /**
     * The offset just past the delimited value that starts at {@code src[off]}, reading no
     * further than {@code limit}.
     *
     * @throws IllegalArgumentException if the bytes are not a well-formed delimited value
     */
    public static int delimitedEnd(byte[] src, int off, int limit) {
        int p = off;
        while (p < limit) {
            if (src[p] != 0) {
                p++;
                continue;
            }
            if (p + 1 >= limit) break;
            int next = src[p + 1] & 0xFF;
            if (next == 0x01) return p + 2;
            if (next != 0xFF) throw malformed("bad escape 0x00 0x" + Integer.toHexString(next));
            p += 2;
        }
        throw malformed("unterminated delimited value");
    }

    /** The raw bytes of the delimited value in {@code src[off, end)} (end from {@link #delimitedEnd}). */
    public static byte[] decodeDelimited(byte[] src, int off, int end) {
        int rawLen = end - off - 2;
        for (int p = off; p < end - 2; p++) {
            if (src[p] == 0) {
                rawLen--;
                p++;
            }
        }
        byte[] raw = new byte[rawLen];
        int q = 0;
        for (int p = off; p < end - 2; p++) {
            raw[q++] = src[p];
            if (src[p] == 0) p++;
        }
        return raw;
    }

    /** Decodes a delimited S or B value in {@code src[off, end)}. */
    static AttributeValue decodeDelimitedValue(AttributeValue.Type type, byte[] src, int off, int end) {
        byte[] raw = decodeDelimited(src, off, end);
        if (type == AttributeValue.Type.S) return new AttributeValue.S(new String(raw, StandardCharsets.UTF_8));
        return new AttributeValue.B(raw);
    }

    // ---------------------------------------------------------------------------------------

    static IllegalArgumentException notAKeyType(AttributeValue v) {
        return new IllegalArgumentException(
                "Not a key attribute value (S, N or B): " + (v == null ? "null" : v.type()));
    }

    static IllegalArgumentException malformed(String detail) {
        return new IllegalArgumentException("Malformed key encoding: " + detail);
    }

    private static void checkRange(byte[] src, int off, int len) {
        if (off < 0 || len < 0 || off > src.length - len) {
            throw malformed("range [" + off + ", " + off + "+" + len + ") outside " + src.length + " bytes");
        }
    }
}
