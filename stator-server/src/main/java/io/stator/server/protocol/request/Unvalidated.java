package io.stator.server.protocol.request;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Attribute values as a request carried them (an item, a key, ExpressionAttributeValues, a
 * legacy condition's values): valid, or holding the first invalid one. DynamoDB reports an
 * invalid attribute value not when it reads the request but where the action checks that
 * member, in the action's own order, so an action asks for the values ({@link #validated})
 * where DynamoDB would report them.
 *
 * @param <T> an {@link AttributeValue}, or a list or map of them (or a list of maps)
 */
public final class Unvalidated<T> {

    private final Object raw;
    private final InvalidAttributeValue firstInvalid;

    private Unvalidated(Object raw, InvalidAttributeValue firstInvalid) {
        this.raw = raw;
        this.firstInvalid = firstInvalid;
    }

    /**
     * Wraps what the reader read: attribute values, {@link InvalidAttributeValue}s in place of
     * invalid ones, and lists and maps of them.
     */
    public static <T> Unvalidated<T> of(Object raw) {
        return new Unvalidated<>(raw, firstInvalid(raw));
    }

    private static InvalidAttributeValue firstInvalid(Object value) {
        switch (value) {
            case InvalidAttributeValue invalid -> {
                return invalid;
            }
            case Map<?, ?> map -> {
                for (Object v : map.values()) {
                    InvalidAttributeValue invalid = firstInvalid(v);
                    if (invalid != null) return invalid;
                }
            }
            case List<?> list -> {
                for (Object v : list) {
                    InvalidAttributeValue invalid = firstInvalid(v);
                    if (invalid != null) return invalid;
                }
            }
            default -> { }
        }
        return null;
    }

    /** The values; throws DynamoDB's ValidationException for the first invalid one. */
    @SuppressWarnings("unchecked")
    public T validated() {
        if (firstInvalid != null) throw firstInvalid.error();
        return (T) raw;
    }

    /**
     * A map's values, with each invalid value reported through {@code onInvalid} (given the map
     * key and DynamoDB's error for the value): the exception it returns is thrown; when it
     * returns null the invalid value is left out.
     */
    @SuppressWarnings("unchecked")
    public Map<String, AttributeValue> validated(BiFunction<String, DynamoDbException, DynamoDbException> onInvalid) {
        if (firstInvalid == null) return (Map<String, AttributeValue>) raw;
        Map<String, AttributeValue> result = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : ((Map<String, Object>) raw).entrySet()) {
            if (e.getValue() instanceof InvalidAttributeValue invalid) {
                DynamoDbException error = onInvalid.apply(e.getKey(), invalid.error());
                if (error != null) throw error;
            } else {
                result.put(e.getKey(), (AttributeValue) e.getValue());
            }
        }
        return result;
    }

    /** A map's keys, in request order, whatever its values. */
    @SuppressWarnings("unchecked")
    public Set<String> names() {
        return ((Map<String, Object>) raw).keySet();
    }

    /** What was read, invalid values included: for the request's constraint checks and its digest. */
    public Object raw() {
        return raw;
    }

    @Override
    public String toString() {
        return String.valueOf(raw);
    }
}
