package io.stator.core.expression;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.AttributeValues;
import io.stator.core.model.DynamoNumber;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Short constructors of attribute values for expression tests. */
final class ExpressionTestSupport {

    private ExpressionTestSupport() {}

    static AttributeValue s(String v) { return new AttributeValue.S(v); }

    static AttributeValue n(String v) { return new AttributeValue.N(DynamoNumber.parse(v)); }

    static AttributeValue b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) out[i] = (byte) bytes[i];
        return new AttributeValue.B(out);
    }

    static AttributeValue ss(String... v) { return AttributeValues.stringSet(Arrays.asList(v)); }

    static AttributeValue ns(String... v) { return AttributeValues.numberSet(Arrays.asList(v)); }

    static AttributeValue l(AttributeValue... v) { return new AttributeValue.L(List.of(v)); }

    static AttributeValue m(Object... keyValues) { return new AttributeValue.M(map(keyValues)); }

    static AttributeValue bool(boolean v) { return AttributeValue.BOOL.of(v); }

    static AttributeValue nul() { return AttributeValue.NULL.INSTANCE; }

    static Map<String, AttributeValue> map(Object... keyValues) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) m.put((String) keyValues[i], (AttributeValue) keyValues[i + 1]);
        return m;
    }

    static Map<String, String> names(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put(pairs[i], pairs[i + 1]);
        return m;
    }
}
