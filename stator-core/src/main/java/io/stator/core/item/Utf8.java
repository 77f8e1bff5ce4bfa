package io.stator.core.item;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * UTF-8 lengths and comparisons without encoding the string first: DynamoDB measures names and
 * strings in UTF-8 bytes, and counting them must not allocate on every request.
 */
public final class Utf8 {

    private Utf8() {}

    /**
     * The length of {@code s} in UTF-8, exactly {@code s.getBytes(UTF_8).length}: a lone surrogate
     * counts as the one-byte '?' that Java's encoder writes for it.
     */
    public static int encodedLength(String s) {
        int n = s.length();
        int len = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) continue;
            if (c < 0x800) {
                len += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                len += 2; // two chars, four bytes
                i++;
            } else if (!Character.isSurrogate(c)) {
                len += 2;
            }
        }
        return len;
    }

    /** True if {@code bytes[off, off + len)} is the UTF-8 encoding of {@code s}. */
    static boolean equals(byte[] bytes, int off, int len, String s) {
        int n = s.length();
        if (len < n) return false; // a char never takes less than one byte
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                byte[] encoded = s.getBytes(StandardCharsets.UTF_8);
                return Arrays.equals(bytes, off, off + len, encoded, 0, encoded.length);
            }
            if (bytes[off + i] != (byte) c) return false;
        }
        return len == n;
    }
}
