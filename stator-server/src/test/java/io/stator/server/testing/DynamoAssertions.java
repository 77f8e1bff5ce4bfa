package io.stator.server.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/** Assertions on what DynamoDB answers, as the AWS SDK presents it. */
public final class DynamoAssertions {

    private DynamoAssertions() {}

    /** The call fails with a ValidationException (HTTP 400) carrying exactly this message. */
    public static DynamoDbException assertValidation(String message, Executable call) {
        return assertError("ValidationException", message, call);
    }

    /** The call fails with a ResourceNotFoundException (HTTP 400) carrying exactly this message. */
    public static DynamoDbException assertResourceNotFound(String message, Executable call) {
        return assertError("ResourceNotFoundException", message, call);
    }

    /** As {@link #assertValidation(String, Executable)}; {@code context} names the case on failure. */
    public static DynamoDbException assertValidation(String context, String message, Executable call) {
        return assertError(context, "ValidationException", message, call);
    }

    public static DynamoDbException assertError(String errorCode, String message, Executable call) {
        return assertError("", errorCode, message, call);
    }

    private static DynamoDbException assertError(String context, String errorCode, String message, Executable call) {
        String prefix = context.isEmpty() ? "" : context + ": ";
        DynamoDbException e = assertThrows(DynamoDbException.class, call, prefix + "expected " + errorCode);
        assertEquals(errorCode, e.awsErrorDetails().errorCode(), () -> prefix + "error code; message: " + e.getMessage());
        assertEquals(message, e.awsErrorDetails().errorMessage(), prefix + "message");
        assertEquals(400, e.statusCode(), prefix + "HTTP status");
        return e;
    }

    /**
     * The two items are equal as DynamoDB defines them: sets (SS, NS, BS) compare without
     * order, because DynamoDB does not keep the order of a set's members.
     */
    public static void assertSameItem(Map<String, AttributeValue> expected, Map<String, AttributeValue> actual) {
        assertEquals(comparable(expected), comparable(actual));
    }

    /** True if the two items are equal as {@link #assertSameItem} defines it; null means no item. */
    public static boolean isSameItem(Map<String, AttributeValue> a, Map<String, AttributeValue> b) {
        return Objects.equals(comparable(a), comparable(b));
    }

    private static Map<String, Object> comparable(Map<String, AttributeValue> item) {
        if (item == null) return null;
        Map<String, Object> result = new LinkedHashMap<>();
        item.forEach((name, value) -> result.put(name, comparable(value)));
        return result;
    }

    /** The value as a one-entry map, type to value, with sets as {@link Set}s. */
    private static Object comparable(AttributeValue v) {
        if (v.s() != null) return Map.of("S", v.s());
        if (v.n() != null) return Map.of("N", v.n());
        if (v.b() != null) return Map.of("B", v.b());
        if (v.bool() != null) return Map.of("BOOL", v.bool());
        if (v.nul() != null) return Map.of("NULL", v.nul());
        if (v.hasSs()) return Map.of("SS", new HashSet<>(v.ss()));
        if (v.hasNs()) return Map.of("NS", new HashSet<>(v.ns()));
        if (v.hasBs()) return Map.of("BS", new HashSet<>(v.bs()));
        if (v.hasM()) return Map.of("M", comparable(v.m()));
        if (v.hasL()) {
            List<Object> list = v.l().stream().map(DynamoAssertions::comparable).toList();
            return Map.of("L", list);
        }
        throw new AssertionError("attribute value without a type: " + v);
    }
}
