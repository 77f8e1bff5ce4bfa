package io.stator.server.protocol;

import io.stator.core.error.DynamoDbException;
import io.stator.core.item.ItemCodec;
import io.stator.core.model.AttributeValue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A structure read from a request: member name to value. Values are String, Long, Double,
 * Boolean, byte[], {@link Struct}, List, Map (String keys) or {@link AttributeValue}, as the
 * member's shape says. Absent members (and JSON nulls) are simply not present.
 */
public final class Struct {

    private final Shape.StructureShape shape;
    private final Map<String, Object> values;

    Struct(Shape.StructureShape shape, Map<String, Object> values) {
        this.shape = shape;
        this.values = values;
    }

    public Shape.StructureShape shape() { return shape; }

    public boolean has(String member) { return values.containsKey(member); }

    /**
     * Whether the member is present and, when it is a structure, has a member of its own: DynamoDB
     * takes an empty structure ({@code "WarmThroughput": {}}) in some places as not given.
     */
    public boolean hasContent(String member) {
        Object v = values.get(member);
        return v != null && !(v instanceof Struct struct && struct.values.isEmpty());
    }

    Object raw(String member) { return values.get(member); }

    Map<String, Object> rawValues() { return values; }

    public String string(String member) { return (String) values.get(member); }

    public String string(String member, String defaultValue) {
        Object v = values.get(member);
        return v == null ? defaultValue : (String) v;
    }

    public Long longValue(String member) {
        Object v = values.get(member);
        return v == null ? null : ((Number) v).longValue();
    }

    public Integer intValue(String member) {
        Object v = values.get(member);
        return v == null ? null : ((Number) v).intValue();
    }

    public Boolean bool(String member) { return (Boolean) values.get(member); }

    public boolean bool(String member, boolean defaultValue) {
        Object v = values.get(member);
        return v == null ? defaultValue : (Boolean) v;
    }

    public Struct struct(String member) { return (Struct) values.get(member); }

    /** A list of structures, or null when absent. */
    @SuppressWarnings("unchecked")
    public List<Struct> structList(String member) { return (List<Struct>) values.get(member); }

    @SuppressWarnings("unchecked")
    public List<String> stringList(String member) { return (List<String>) values.get(member); }

    @SuppressWarnings("unchecked")
    public Map<String, String> stringMap(String member) { return (Map<String, String>) values.get(member); }

    /**
     * A map of attribute values (an item, a key, ExpressionAttributeValues), or null when absent.
     * Throws the ValidationException of the first invalid value in it, as DynamoDB reports it.
     */
    public Map<String, AttributeValue> attributeMap(String member) {
        Object v = values.get(member);
        if (v == null) return null;
        return checkedAttributeMap(v);
    }

    /**
     * A map of attribute values, with each invalid value reported through {@code onInvalid}
     * (given the map key and DynamoDB's error for the value): the exception it returns is thrown;
     * when it returns null the invalid value is left out.
     */
    @SuppressWarnings("unchecked")
    public Map<String, AttributeValue> attributeMap(String member,
            java.util.function.BiFunction<String, DynamoDbException, DynamoDbException> onInvalid) {
        Object v = values.get(member);
        if (v == null) return null;
        Map<String, AttributeValue> result = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
            if (e.getValue() instanceof InvalidAttributeValue invalid) {
                DynamoDbException error = onInvalid.apply(e.getKey(), invalid.error());
                if (error != null) throw error;
            } else {
                result.put(e.getKey(), (AttributeValue) e.getValue());
            }
        }
        return result;
    }

    /** A map of structures (Expected, AttributeUpdates), in request order, or null when absent. */
    @SuppressWarnings("unchecked")
    public Map<String, Struct> structMap(String member) { return (Map<String, Struct>) values.get(member); }

    /** A map of lists of structures (BatchWriteItem's RequestItems), in request order, or null when absent. */
    @SuppressWarnings("unchecked")
    public Map<String, List<Struct>> structListMap(String member) { return (Map<String, List<Struct>>) values.get(member); }

    /** A list of attribute values (AttributeValueList), or null when absent. */
    @SuppressWarnings("unchecked")
    public List<AttributeValue> attributeValueList(String member) {
        Object v = values.get(member);
        if (v == null) return null;
        for (Object o : (List<Object>) v) {
            if (o instanceof InvalidAttributeValue invalid) throw invalid.error();
        }
        return (List<AttributeValue>) v;
    }

    /** The keys of a map member, or null when absent. */
    @SuppressWarnings("unchecked")
    public java.util.Set<String> keysOf(String member) {
        Object v = values.get(member);
        return v == null ? null : ((Map<String, Object>) v).keySet();
    }

    /** A single attribute value (e.g. ExpectedAttributeValue.Value), or null when absent. */
    public AttributeValue attributeValue(String member) {
        Object v = values.get(member);
        if (v instanceof InvalidAttributeValue invalid) throw invalid.error();
        return (AttributeValue) v;
    }

    /** A list of attribute maps (BatchGetItem's Keys), or null when absent. */
    @SuppressWarnings("unchecked")
    public List<Map<String, AttributeValue>> attributeMapList(String member) {
        Object v = values.get(member);
        if (v == null) return null;
        List<Object> list = (List<Object>) v;
        List<Map<String, AttributeValue>> result = new ArrayList<>(list.size());
        for (Object m : list) result.add(checkedAttributeMap(m));
        return Collections.unmodifiableList(result);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, AttributeValue> checkedAttributeMap(Object v) {
        Map<String, Object> map = (Map<String, Object>) v;
        for (Object value : map.values()) {
            if (value instanceof InvalidAttributeValue invalid) throw invalid.error();
        }
        return (Map<String, AttributeValue>) (Map<String, ?>) map;
    }

    /**
     * A digest of the whole structure but the named members (SHA-256), to tell whether two
     * requests are the same (TransactWriteItems' ClientRequestToken). Map members are taken
     * in order: a retry sends the same request again, in the same order.
     */
    public byte[] digest(String... excluded) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Map<String, Object> included = new LinkedHashMap<>(values);
        for (String member : excluded) included.remove(member);
        digest(sha, included);
        return sha.digest();
    }

    private static void digest(MessageDigest sha, Object value) {
        switch (value) {
            case Struct s -> digest(sha, s.values);
            case Map<?, ?> m -> {
                sha.update((byte) '{');
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    digest(sha, e.getKey());
                    digest(sha, e.getValue());
                }
                sha.update((byte) '}');
            }
            case List<?> l -> {
                sha.update((byte) '[');
                for (Object o : l) digest(sha, o);
                sha.update((byte) ']');
            }
            case AttributeValue v -> {
                byte[] encoded = ItemCodec.encode(Map.of("", v));
                sha.update((byte) 'a');
                sha.update(ByteBuffer.allocate(4).putInt(encoded.length).array());
                sha.update(encoded);
            }
            case byte[] b -> {
                sha.update((byte) 'b');
                sha.update(ByteBuffer.allocate(4).putInt(b.length).array());
                sha.update(b);
            }
            default -> {
                byte[] text = String.valueOf(value).getBytes(StandardCharsets.UTF_8);
                sha.update((byte) 's');
                sha.update(ByteBuffer.allocate(4).putInt(text.length).array());
                sha.update(text);
            }
        }
    }

    @Override
    public String toString() { return shape.name() + new LinkedHashMap<>(values); }
}
