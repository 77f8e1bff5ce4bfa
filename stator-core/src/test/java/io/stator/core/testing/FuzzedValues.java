package io.stator.core.testing;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Valid attribute values built from a fuzzer's bytes, for the round-trip fuzz tests: every value
 * returned is one DynamoDB accepts (a number in range, a string of whole code points), so that
 * encoding it and decoding it back must give it again.
 */
public final class FuzzedValues {

    private static final AttributeValue.Type[] KEY_TYPES = {
        AttributeValue.Type.S, AttributeValue.Type.N, AttributeValue.Type.B};

    private FuzzedValues() {}

    public static AttributeValue.Type keyType(FuzzedDataProvider data) {
        return data.pickValue(KEY_TYPES);
    }

    /** An S, N or B value of {@code type}. */
    public static AttributeValue keyValue(FuzzedDataProvider data, AttributeValue.Type type) {
        return switch (type) {
            case S -> new AttributeValue.S(string(data, 64));
            case N -> new AttributeValue.N(number(data));
            case B -> new AttributeValue.B(data.consumeBytes(64));
            default -> throw new IllegalArgumentException("not a key type: " + type);
        };
    }

    /** A number of 1 to 38 significant digits with any exponent DynamoDB allows, or zero. */
    public static DynamoNumber number(FuzzedDataProvider data) {
        int digits = data.consumeInt(0, DynamoNumber.MAX_DIGITS);
        if (digits == 0) return DynamoNumber.ZERO;
        StringBuilder text = new StringBuilder(48);
        if (data.consumeBoolean()) text.append('-');
        text.append("0.").append((char) ('1' + data.consumeInt(0, 8)));
        for (int i = 1; i < digits; i++) text.append((char) ('0' + data.consumeInt(0, 9)));
        int exponent = data.consumeInt(DynamoNumber.MIN_EXPONENT, DynamoNumber.MAX_EXPONENT);
        text.append('E').append(exponent + 1); // 0.d1d2... E(e+1) is d1.d2... E e
        return DynamoNumber.parse(text.toString());
    }

    /** Up to {@code maxChars} characters, lone surrogates replaced: a string UTF-8 can carry. */
    public static String string(FuzzedDataProvider data, int maxChars) {
        String raw = data.consumeString(maxChars);
        StringBuilder sb = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < raw.length() && Character.isLowSurrogate(raw.charAt(i + 1))) {
                sb.append(c).append(raw.charAt(++i));
            } else {
                sb.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return sb.toString();
    }

    /** A value of any type; maps and lists nest at most {@code depthLeft} more levels. */
    public static AttributeValue value(FuzzedDataProvider data, int depthLeft) {
        int kind = data.consumeInt(0, depthLeft > 0 ? 10 : 8);
        switch (kind) {
            case 0: return new AttributeValue.S(string(data, 32));
            case 1: return new AttributeValue.N(number(data));
            case 2: return new AttributeValue.B(data.consumeBytes(32));
            case 3: {
                LinkedHashSet<String> set = new LinkedHashSet<>();
                int n = data.consumeInt(1, 4);
                for (int i = 0; i < n; i++) set.add(string(data, 8));
                return new AttributeValue.SS(new ArrayList<>(set));
            }
            case 4: {
                LinkedHashSet<DynamoNumber> set = new LinkedHashSet<>();
                int n = data.consumeInt(1, 4);
                for (int i = 0; i < n; i++) set.add(number(data));
                return new AttributeValue.NS(new ArrayList<>(set));
            }
            case 5: {
                List<byte[]> set = new ArrayList<>();
                int n = data.consumeInt(1, 4);
                for (int i = 0; i < n; i++) {
                    byte[] b = data.consumeBytes(8);
                    if (set.stream().noneMatch(x -> java.util.Arrays.equals(x, b))) set.add(b);
                }
                return new AttributeValue.BS(set);
            }
            case 6: return AttributeValue.BOOL.of(data.consumeBoolean());
            case 7: return AttributeValue.NULL.INSTANCE;
            case 8: return data.consumeBoolean() ? new AttributeValue.M(new LinkedHashMap<>()) : new AttributeValue.L(new ArrayList<>());
            case 9: {
                Map<String, AttributeValue> m = new LinkedHashMap<>();
                int n = data.consumeInt(0, 4);
                for (int i = 0; i < n; i++) m.put(string(data, 8), value(data, depthLeft - 1));
                return new AttributeValue.M(m);
            }
            default: {
                List<AttributeValue> l = new ArrayList<>();
                int n = data.consumeInt(0, 4);
                for (int i = 0; i < n; i++) l.add(value(data, depthLeft - 1));
                return new AttributeValue.L(l);
            }
        }
    }

    /** An item of up to eight attributes. */
    public static Map<String, AttributeValue> item(FuzzedDataProvider data, int maxDepth) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        int n = data.consumeInt(0, 8);
        for (int i = 0; i < n; i++) item.put(string(data, 8), value(data, maxDepth));
        return item;
    }
}
