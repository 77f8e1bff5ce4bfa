package io.stator.server.advisor;

import io.stator.core.model.AttributeValue;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Keys and attribute values written for people (the console): a string in quotes, a number as it
 * is, binary in base64, sets and documents in DynamoDB's own brackets. Escaping for HTML is the
 * templates' (jte escapes every value it writes into a page).
 */
public final class AttributeText {

    /** Longest value shown in full; longer ones end with an ellipsis and their length. */
    static final int MAX_CHARS = 120;

    private AttributeText() {}

    /** {@code pk="u#1", sk=12}: a key's attributes in the order given. */
    public static String key(Map<String, AttributeValue> key) {
        if (key == null) return "";
        StringJoiner j = new StringJoiner(", ");
        for (Map.Entry<String, AttributeValue> e : key.entrySet()) j.add(e.getKey() + "=" + value(e.getValue()));
        return j.toString();
    }

    public static String value(AttributeValue v) {
        String text = full(v);
        return text.length() <= MAX_CHARS ? text : text.substring(0, MAX_CHARS) + "… (" + text.length() + " characters)";
    }

    private static String full(AttributeValue v) {
        return switch (v) {
            case null -> "";
            case AttributeValue.S s -> "\"" + s.value() + "\"";
            case AttributeValue.N n -> n.value().toString();
            case AttributeValue.B b -> "b64:" + Base64.getEncoder().encodeToString(b.value());
            case AttributeValue.BOOL b -> Boolean.toString(b.value());
            case AttributeValue.NULL n -> "null";
            case AttributeValue.SS ss -> set(ss.values().stream().map(x -> "\"" + x + "\"").toList());
            case AttributeValue.NS ns -> set(ns.values().stream().map(Object::toString).toList());
            case AttributeValue.BS bs -> set(bs.values().stream().map(x -> "b64:" + Base64.getEncoder().encodeToString(x)).toList());
            case AttributeValue.L l -> {
                StringJoiner j = new StringJoiner(", ", "[", "]");
                for (AttributeValue x : l.values()) j.add(full(x));
                yield j.toString();
            }
            case AttributeValue.M m -> {
                StringJoiner j = new StringJoiner(", ", "{", "}");
                for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) j.add(e.getKey() + ": " + full(e.getValue()));
                yield j.toString();
            }
        };
    }

    private static String set(List<String> values) {
        return "<<" + String.join(", ", values) + ">>";
    }
}
