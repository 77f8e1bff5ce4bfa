package io.stator.core.expression;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * DynamoDB's comparison semantics for attribute values:
 * <ul>
 *   <li>only S, N and B are ordered: N numerically, S by UTF-8 bytes (which is code-point order,
 *       not Java's UTF-16 order), B by unsigned bytes;</li>
 *   <li>equality is deep, and sets are equal regardless of element order;</li>
 *   <li>values of different types are never equal and never ordered.</li>
 * </ul>
 */
public final class Values {

    private Values() {}

    public static boolean isOrderable(AttributeValue v) {
        return v.type().isScalarKeyType();
    }

    /** Orders two values of the same orderable type (S, N or B). */
    public static int compare(AttributeValue a, AttributeValue b) {
        return switch (a) {
            case AttributeValue.S s -> compareStrings(s.value(), ((AttributeValue.S) b).value());
            case AttributeValue.N n -> n.value().compareTo(((AttributeValue.N) b).value());
            case AttributeValue.B x -> Arrays.compareUnsigned(x.value(), ((AttributeValue.B) b).value());
            default -> throw new IllegalArgumentException("not orderable: " + a.type());
        };
    }

    /** Code-point order, which equals the order of the strings' UTF-8 bytes. */
    public static int compareStrings(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                // Surrogates (supplementary characters) sort above every other UTF-16 unit in UTF-8.
                boolean sx = Character.isSurrogate(x);
                boolean sy = Character.isSurrogate(y);
                if (sx != sy) return sx ? 1 : -1;
                return x - y;
            }
        }
        return a.length() - b.length();
    }

    /** True when both are of one type and equal; sets compare as sets. */
    public static boolean equal(AttributeValue a, AttributeValue b) {
        if (a.type() != b.type()) return false;
        return switch (a) {
            case AttributeValue.SS s -> new HashSet<>(s.values()).equals(new HashSet<>(((AttributeValue.SS) b).values()));
            case AttributeValue.NS s -> new HashSet<>(s.values()).equals(new HashSet<>(((AttributeValue.NS) b).values()));
            case AttributeValue.BS s -> sameBinarySet(s.values(), ((AttributeValue.BS) b).values());
            case AttributeValue.L l -> {
                List<AttributeValue> other = ((AttributeValue.L) b).values();
                if (l.values().size() != other.size()) yield false;
                for (int i = 0; i < other.size(); i++) if (!equal(l.values().get(i), other.get(i))) yield false;
                yield true;
            }
            case AttributeValue.M m -> {
                Map<String, AttributeValue> other = ((AttributeValue.M) b).values();
                if (m.values().size() != other.size()) yield false;
                for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
                    AttributeValue o = other.get(e.getKey());
                    if (o == null || !equal(e.getValue(), o)) yield false;
                }
                yield true;
            }
            default -> a.equals(b);
        };
    }

    private static boolean sameBinarySet(List<byte[]> a, List<byte[]> b) {
        if (a.size() != b.size()) return false;
        HashSet<java.nio.ByteBuffer> set = new HashSet<>();
        for (byte[] x : a) set.add(java.nio.ByteBuffer.wrap(x));
        for (byte[] y : b) if (!set.contains(java.nio.ByteBuffer.wrap(y))) return false;
        return true;
    }

    /**
     * contains(a, b): a substring of a string, a byte run of a binary, a member of a set (of the
     * set's element type), or an element of a list; false otherwise.
     */
    public static boolean contains(AttributeValue container, AttributeValue element) {
        return switch (container) {
            case AttributeValue.S s -> element instanceof AttributeValue.S e && indexOf(s.value(), e.value()) >= 0;
            case AttributeValue.B b -> element instanceof AttributeValue.B e && indexOf(b.value(), e.value()) >= 0;
            case AttributeValue.SS ss -> element instanceof AttributeValue.S e && ss.values().contains(e.value());
            case AttributeValue.NS ns -> element instanceof AttributeValue.N e && ns.values().contains(e.value());
            case AttributeValue.BS bs -> {
                if (!(element instanceof AttributeValue.B e)) yield false;
                for (byte[] v : bs.values()) if (Arrays.equals(v, e.value())) yield true;
                yield false;
            }
            case AttributeValue.L l -> {
                for (AttributeValue v : l.values()) if (equal(v, element)) yield true;
                yield false;
            }
            default -> false;
        };
    }

    /** begins_with(a, b): a string or binary prefix, of the same type. */
    public static boolean beginsWith(AttributeValue value, AttributeValue prefix) {
        if (value instanceof AttributeValue.S s && prefix instanceof AttributeValue.S p) {
            return s.value().startsWith(p.value());
        }
        if (value instanceof AttributeValue.B b && prefix instanceof AttributeValue.B p) {
            return b.value().length >= p.value().length
                    && Arrays.equals(b.value(), 0, p.value().length, p.value(), 0, p.value().length);
        }
        return false;
    }

    /**
     * size(a): characters of a string (UTF-16 units, as DynamoDB's Java front end counts them),
     * bytes of a binary, elements of a set, list or map; null for other types.
     */
    public static AttributeValue.N size(AttributeValue value) {
        int size = switch (value) {
            case AttributeValue.S s -> s.value().length();
            case AttributeValue.B b -> b.value().length;
            case AttributeValue.SS s -> s.values().size();
            case AttributeValue.NS s -> s.values().size();
            case AttributeValue.BS s -> s.values().size();
            case AttributeValue.L l -> l.values().size();
            case AttributeValue.M m -> m.values().size();
            default -> -1;
        };
        return size < 0 ? null : new AttributeValue.N(DynamoNumber.of(size));
    }

    /**
     * Needles up to this long are looked for with String.indexOf, which compares with vector
     * instructions but, for each place the first character matches, the needle's length again:
     * for a short needle that is a small constant; for a long one on a value of one repeated
     * character ({@code contains} of "aa...ab" in "aaa...a") it was quadratic, 15 s for a needle
     * of 20,001 characters on a 390 KB string, during which its thread served nothing else.
     */
    static final int SHORT_NEEDLE = 16;

    /**
     * Where {@code needle} first occurs in {@code haystack}, or -1; in time linear in their
     * lengths (Knuth-Morris-Pratt) for needles past {@link #SHORT_NEEDLE}. Matching UTF-16 units
     * matches code points: neither string holds a lone surrogate (Utf8).
     */
    static int indexOf(String haystack, String needle) {
        int m = needle.length();
        int n = haystack.length();
        if (m <= SHORT_NEEDLE || m > n) return haystack.indexOf(needle);
        int[] border = new int[m];
        for (int i = 1, k = 0; i < m; i++) {
            char c = needle.charAt(i);
            while (k > 0 && needle.charAt(k) != c) k = border[k - 1];
            if (needle.charAt(k) == c) k++;
            border[i] = k;
        }
        for (int i = 0, k = 0; i < n; i++) {
            char c = haystack.charAt(i);
            while (k > 0 && needle.charAt(k) != c) k = border[k - 1];
            if (needle.charAt(k) == c && ++k == m) return i - m + 1;
        }
        return -1;
    }

    /** As {@link #indexOf(String, String)}, for bytes: linear in their lengths (Knuth-Morris-Pratt). */
    static int indexOf(byte[] haystack, byte[] needle) {
        int m = needle.length;
        int n = haystack.length;
        if (m == 0) return 0;
        if (m > n) return -1;
        int[] border = new int[m];
        for (int i = 1, k = 0; i < m; i++) {
            byte b = needle[i];
            while (k > 0 && needle[k] != b) k = border[k - 1];
            if (needle[k] == b) k++;
            border[i] = k;
        }
        for (int i = 0, k = 0; i < n; i++) {
            byte b = haystack[i];
            while (k > 0 && needle[k] != b) k = border[k - 1];
            if (needle[k] == b && ++k == m) return i - m + 1;
        }
        return -1;
    }
}
