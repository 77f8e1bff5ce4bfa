package io.stator.server.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Whether a request body is Unicode text: UTF-8 (RFC 3629) in which every {@code \\u} escape of a
 * surrogate is one half of a pair. Anything else would reach the request as a string that is not
 * Unicode (a lone surrogate), or as another string than the one sent: Jackson's decoder reads an
 * overlong form ({@code C1 81}) as the character it spells ('A'), a surrogate encoded as bytes
 * ({@code ED A0 80}) as a lone surrogate, a pair encoded one surrogate at a time (CESU-8) as the
 * character of the four-byte form, and a body in UTF-16 or UTF-32 as if it were UTF-8; and a lone
 * surrogate becomes '?' once encoded, so that U+D800, U+DBFF and "?" would be one key.
 *
 * <p>Why the body, and not each string: one pass over the bytes decides for every string of the
 * request at once (values, names, map keys, expressions, members Stator does not know), with no
 * copy and no work per string. ASCII goes eight bytes at a time: only a byte with its high bit set
 * (a multi-byte character), a backslash (an escape) or a NUL (a UTF-16 or UTF-32 body; JSON text
 * never holds a raw NUL) leaves the fast path. Escapes other than surrogates, and the JSON grammar,
 * are the parser's to check.
 */
public final class JsonText {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long BACKSLASHES = ONES * '\\';
    private static final long QUOTES = ONES * '"';
    private static final long SPACES = ONES * ' ';

    private JsonText() {}

    /** True if {@code body[offset, offset + length)} is UTF-8 whose escapes pair every surrogate. */
    public static boolean isUnicode(byte[] body, int offset, int length) {
        int i = offset;
        int end = offset + length;
        while (i < end) {
            if (end - i >= 8) {
                long word = (long) LONGS.get(body, i);
                if (((word | zeroBytes(word) | zeroBytes(word ^ BACKSLASHES)) & HIGH_BITS) == 0) {
                    i += 8;
                    continue;
                }
            }
            int b = body[i];
            if (b > 0) {
                i = b == '\\' ? escapeEnd(body, i, end) : i + 1;
                if (i < 0) return false;
            } else if (b == 0) {
                return false;
            } else {
                do { // a run of characters beyond ASCII, without going back to the word test for each
                    i = characterEnd(body, i, end);
                    if (i < 0) return false;
                } while (i < end && body[i] < 0);
            }
        }
        return true;
    }

    /**
     * Whether a UTF-8 string must be escaped to stand in JSON text: it holds a control character
     * (below U+0020), a quote or a backslash, the characters JSON requires escaped (RFC 8259
     * section 7) and the only ones Jackson's generator escapes by default. A reply writes a string
     * that needs none as the bytes it is stored as, with no pass over it but this one, eight bytes
     * at a time (Jackson's own escaping loop was an eighth of a Query's time for 1 KB strings).
     */
    public static boolean needsEscape(byte[] utf8, int offset, int length) {
        int i = offset;
        int end = offset + length;
        for (; end - i >= 8; i += 8) {
            long word = (long) LONGS.get(utf8, i);
            // A byte below 0x20 borrows in word - SPACES and has its high bit clear in ~word; a byte
            // with its high bit set (part of a multi-byte character) is never flagged.
            long controls = (word - SPACES) & ~word;
            if (((controls | zeroBytes(word ^ QUOTES) | zeroBytes(word ^ BACKSLASHES)) & HIGH_BITS) != 0) return true;
        }
        for (; i < end; i++) {
            int b = utf8[i];
            if (b >= 0 && (b < ' ' || b == '"' || b == '\\')) return true;
        }
        return false;
    }

    /** High bit set in each byte of {@code word} that is zero (and possibly above one): none if none is. */
    private static long zeroBytes(long word) {
        return (word - ONES) & ~word;
    }

    /**
     * Where the escape at {@code i} (a backslash) ends, or -1 if it is a lone surrogate. A high
     * surrogate must be followed at once by an escaped low one; a low one must not stand alone.
     * Anything that is not a valid escape is left to the parser, which refuses it.
     */
    private static int escapeEnd(byte[] b, int i, int end) {
        if (i + 1 >= end || b[i + 1] != 'u') return i + 2;
        int unit = hex4(b, i + 2, end);
        if (unit < 0) return i + 2; // not an escape: the parser refuses it
        if (unit < 0xD800 || unit > 0xDFFF) return i + 6;
        if (unit >= 0xDC00) return -1; // a low surrogate with no high one before it
        int next = i + 6;
        if (next + 1 >= end || b[next] != '\\' || b[next + 1] != 'u') return -1;
        int low = hex4(b, next + 2, end);
        return low >= 0xDC00 && low <= 0xDFFF ? next + 6 : -1;
    }

    /** The value of four hex digits at {@code i}, or -1. */
    private static int hex4(byte[] b, int i, int end) {
        if (i + 4 > end) return -1;
        int value = 0;
        for (int k = i; k < i + 4; k++) {
            int c = b[k];
            int digit = c >= '0' && c <= '9' ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (digit < 0) return -1;
            value = value << 4 | digit;
        }
        return value;
    }

    /**
     * Where the multi-byte character starting at {@code i} ends, or -1 if the bytes are not one
     * (RFC 3629 section 4: no overlong form, no surrogate, nothing past U+10FFFF).
     */
    private static int characterEnd(byte[] b, int i, int end) {
        int lead = b[i] & 0xFF;
        if (lead < 0xE0) {
            // C0 and C1 would be overlong; 80 to BF are continuation bytes, not leads.
            return lead >= 0xC2 && i + 1 < end && (b[i + 1] & 0xC0) == 0x80 ? i + 2 : -1;
        }
        if (lead < 0xF0) {
            if (i + 2 >= end) return -1;
            int second = b[i + 1] & 0xFF;
            // E0 needs A0 and up (else overlong); ED needs 9F and down (else a surrogate).
            int min = lead == 0xE0 ? 0xA0 : 0x80;
            int max = lead == 0xED ? 0x9F : 0xBF;
            return second >= min && second <= max && (b[i + 2] & 0xC0) == 0x80 ? i + 3 : -1;
        }
        if (lead < 0xF5) {
            if (i + 3 >= end) return -1;
            int second = b[i + 1] & 0xFF;
            // F0 needs 90 and up (else overlong); F4 needs 8F and down (else past U+10FFFF).
            int min = lead == 0xF0 ? 0x90 : 0x80;
            int max = lead == 0xF4 ? 0x8F : 0xBF;
            return second >= min && second <= max && (b[i + 2] & 0xC0) == 0x80 && (b[i + 3] & 0xC0) == 0x80
                    ? i + 4 : -1;
        }
        return -1;
    }
}
