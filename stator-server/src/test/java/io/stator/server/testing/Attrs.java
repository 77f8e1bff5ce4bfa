package io.stator.server.testing;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Short constructors of the SDK's attribute values, so that tests of expressions read like the
 * items and values they are about: {@code item("a", n("1"), "m", m("x", s("y")))}.
 */
public final class Attrs {

    private Attrs() {}

    public static AttributeValue s(String v) { return AttributeValue.fromS(v); }

    public static AttributeValue n(String v) { return AttributeValue.fromN(v); }

    public static AttributeValue n(long v) { return AttributeValue.fromN(Long.toString(v)); }

    public static AttributeValue b(int... bytes) { return AttributeValue.fromB(bytes(bytes)); }

    public static AttributeValue bool(boolean v) { return AttributeValue.fromBool(v); }

    public static AttributeValue nul() { return AttributeValue.fromNul(true); }

    public static AttributeValue ss(String... v) { return AttributeValue.fromSs(List.of(v)); }

    public static AttributeValue ns(String... v) { return AttributeValue.fromNs(List.of(v)); }

    /** A binary set; each member is given as its bytes. */
    public static AttributeValue bs(int[]... members) {
        return AttributeValue.fromBs(Arrays.stream(members).map(Attrs::bytes).toList());
    }

    public static AttributeValue l(AttributeValue... v) { return AttributeValue.fromL(List.of(v)); }

    /** A map value from name, value pairs. */
    public static AttributeValue m(Object... namesAndValues) { return AttributeValue.fromM(item(namesAndValues)); }

    /** An item (or a map of :values) from name, value pairs, in the order given. */
    public static Map<String, AttributeValue> item(Object... namesAndValues) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            item.put((String) namesAndValues[i], (AttributeValue) namesAndValues[i + 1]);
        }
        return item;
    }

    /** ExpressionAttributeNames from #placeholder, name pairs. */
    public static Map<String, String> names(String... placeholdersAndNames) {
        Map<String, String> names = new LinkedHashMap<>();
        for (int i = 0; i < placeholdersAndNames.length; i += 2) names.put(placeholdersAndNames[i], placeholdersAndNames[i + 1]);
        return names;
    }

    /** The item with more attributes (name, value pairs) added. */
    public static Map<String, AttributeValue> with(Map<String, AttributeValue> item, Object... namesAndValues) {
        Map<String, AttributeValue> result = new LinkedHashMap<>(item);
        result.putAll(item(namesAndValues));
        return result;
    }

    private static SdkBytes bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) b[i] = (byte) values[i];
        return SdkBytes.fromByteArray(b);
    }
}
