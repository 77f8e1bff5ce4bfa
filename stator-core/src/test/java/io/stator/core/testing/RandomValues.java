package io.stator.core.testing;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Random attribute values of every type and shape, for property tests. Seeded by the caller. */
public final class RandomValues {

    private static final int[] CODE_POINTS = {'a', 'b', 'z', '0', ' ', 0, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC,
        0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF};

    private RandomValues() {}

    /** A number of any shape: 1..38 digits, any exponent with the edges -130 and 125 favoured. */
    public static DynamoNumber number(Random r) {
        int kind = r.nextInt(12);
        if (kind == 0) return DynamoNumber.ZERO;
        if (kind == 1) return DynamoNumber.of(r.nextInt(2001) - 1000);
        if (kind == 2) return DynamoNumber.of(r.nextLong());
        boolean narrow = kind <= 5; // few digits from {0, 1, 9}, exponents near 0: many near-ties
        int digits = narrow ? 1 + r.nextInt(5) : kind == 6 ? 38 : 1 + r.nextInt(38);
        StringBuilder sb = new StringBuilder(48);
        if (r.nextBoolean()) sb.append('-');
        sb.append("0.");
        sb.append((char) ('1' + r.nextInt(9)));
        for (int i = 1; i < digits; i++) {
            sb.append(narrow ? "019".charAt(r.nextInt(3)) : (char) ('0' + r.nextInt(10)));
        }
        int exponent = narrow ? r.nextInt(5) - 2
                : kind == 7 ? DynamoNumber.MIN_EXPONENT
                : kind == 8 ? DynamoNumber.MAX_EXPONENT
                : DynamoNumber.MIN_EXPONENT + r.nextInt(DynamoNumber.MAX_EXPONENT - DynamoNumber.MIN_EXPONENT + 1);
        sb.append('E').append(exponent + 1); // 0.d1d2.. E(e+1) = d1.d2.. E e
        return DynamoNumber.parse(sb.toString());
    }

    /** A string of 0..maxCodePoints code points from ASCII, 2-, 3- and 4-byte UTF-8 ranges. */
    public static String string(Random r, int maxCodePoints) {
        int len = r.nextInt(maxCodePoints + 1);
        StringBuilder sb = new StringBuilder(len);
        for (int i = 0; i < len; i++) {
            sb.appendCodePoint(r.nextInt(3) == 0 ? CODE_POINTS[r.nextInt(CODE_POINTS.length)] : 'a' + r.nextInt(26));
        }
        return sb.toString();
    }

    public static byte[] bytes(Random r, int maxLength) {
        byte[] b = new byte[r.nextInt(maxLength + 1)];
        r.nextBytes(b);
        return b;
    }

    /** An item of up to 12 attributes, values of every type, nested up to {@code maxDepth} levels. */
    public static Map<String, AttributeValue> item(Random r, int maxDepth) {
        int n = r.nextInt(13);
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) item.put(string(r, 8), value(r, maxDepth));
        return item;
    }

    /** A value of any type; maps and lists only while {@code depthLeft > 0}. */
    public static AttributeValue value(Random r, int depthLeft) {
        int kind = r.nextInt(depthLeft > 0 ? 12 : 9);
        switch (kind) {
            case 0: {
                int big = r.nextInt(100);
                return new AttributeValue.S(big == 0 ? string(r, 5000) : string(r, 20));
            }
            case 1:
                return new AttributeValue.N(number(r));
            case 2:
                return new AttributeValue.B(bytes(r, r.nextInt(100) == 0 ? 5000 : 20));
            case 3: {
                LinkedHashSet<String> set = new LinkedHashSet<>();
                int n = 1 + r.nextInt(5);
                for (int i = 0; i < n; i++) set.add(string(r, 6));
                return new AttributeValue.SS(new ArrayList<>(set));
            }
            case 4: {
                LinkedHashSet<DynamoNumber> set = new LinkedHashSet<>();
                int n = 1 + r.nextInt(5);
                for (int i = 0; i < n; i++) set.add(number(r));
                return new AttributeValue.NS(new ArrayList<>(set));
            }
            case 5: {
                List<byte[]> set = new ArrayList<>();
                int n = 1 + r.nextInt(5);
                for (int i = 0; i < n; i++) {
                    byte[] b = bytes(r, 6);
                    if (set.stream().noneMatch(x -> java.util.Arrays.equals(x, b))) set.add(b);
                }
                return new AttributeValue.BS(set);
            }
            case 6:
                return AttributeValue.BOOL.of(r.nextBoolean());
            case 7:
                return AttributeValue.NULL.INSTANCE;
            case 8:
                return r.nextBoolean() ? new AttributeValue.M(new LinkedHashMap<>()) : new AttributeValue.L(new ArrayList<>());
            case 9:
            case 10: {
                Map<String, AttributeValue> m = new LinkedHashMap<>();
                int n = r.nextInt(6);
                for (int i = 0; i < n; i++) m.put(string(r, 6), value(r, depthLeft - 1));
                return new AttributeValue.M(m);
            }
            default: {
                List<AttributeValue> l = new ArrayList<>();
                int n = r.nextInt(6);
                for (int i = 0; i < n; i++) l.add(value(r, depthLeft - 1));
                return new AttributeValue.L(l);
            }
        }
    }
}
