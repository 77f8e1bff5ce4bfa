package io.stator.core.model;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Strings as DynamoDB stores, measures and orders them: their UTF-8 bytes.
 *
 * <p>A Java string may hold a lone surrogate, which has no UTF-8 form: Java's own encoder writes
 * '?' in its place, so that U+D800, U+DBFF and "?" would become one key, one attribute name,
 * one stored value. Requests never carry one (the server refuses them as it reads a request), and
 * every method here refuses one rather than encode, measure or compare it as '?': a lone surrogate
 * that reached storage would be a bug, and it fails loudly instead of turning into another string.
 *
 * <p>Counting bytes allocates nothing: DynamoDB measures names and strings in UTF-8 bytes on
 * every request.
 */
public final class Utf8 {

    private Utf8() {}

    /**
     * The length of {@code s} in UTF-8, exactly {@code s.getBytes(UTF_8).length} for a string
     * without lone surrogates.
     *
     * @throws IllegalArgumentException if {@code s} holds a lone surrogate
     */
    public static int encodedLength(String s) {
        int n = s.length();
        int len = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) continue;
            if (c < 0x800) {
                len += 1;
            } else if (!Character.isSurrogate(c)) {
                len += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                len += 2; // two chars, four bytes
                i++;
            } else {
                throw loneSurrogate(i);
            }
        }
        return len;
    }

    /**
     * The UTF-8 bytes of {@code s}.
     *
     * @throws IllegalArgumentException if {@code s} holds a lone surrogate
     */
    public static byte[] encode(String s) {
        encodedLength(s);
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * True if {@code bytes[off, off + len)} is the UTF-8 encoding of {@code s}.
     *
     * @throws IllegalArgumentException if {@code s} holds a lone surrogate (and is not ASCII up
     *     to the point where it differs from the bytes)
     */
    public static boolean equals(byte[] bytes, int off, int len, String s) {
        int n = s.length();
        if (len < n) return false; // a char never takes less than one byte
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                byte[] encoded = encode(s);
                return Arrays.equals(bytes, off, off + len, encoded, 0, encoded.length);
            }
            if (bytes[off + i] != (byte) c) return false;
        }
        return len == n;
    }

    private static IllegalArgumentException loneSurrogate(int index) {
        return new IllegalArgumentException("A string holds a lone surrogate at index " + index
                + ": it is not Unicode text and has no UTF-8 form");
    }
}
