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
            case AttributeValue.S s -> element instanceof AttributeValue.S e && s.value().contains(e.value());
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

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) continue outer;
            }
            return i;
        }
        return -1;
    }
}
