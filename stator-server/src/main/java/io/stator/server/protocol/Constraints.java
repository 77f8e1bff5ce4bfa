package io.stator.server.protocol;

import io.stator.core.error.DynamoDbException;
import io.stator.server.protocol.Shape.AttributeValueShape;
import io.stator.server.protocol.Shape.BlobShape;
import io.stator.server.protocol.Shape.Limits;
import io.stator.server.protocol.Shape.ListShape;
import io.stator.server.protocol.Shape.MapShape;
import io.stator.server.protocol.Shape.NumberShape;
import io.stator.server.protocol.Shape.StringShape;
import io.stator.server.protocol.Shape.StructureShape;
import io.stator.server.protocol.Shape.TableNameShape;
import io.stator.server.protocol.request.ModelStructure;
import io.stator.server.protocol.request.Unvalidated;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks a request against its shape's constraints and reports every violation (up to ten) in
 * one ValidationException, worded as DynamoDB words it:
 * <pre>2 validation errors detected: Value 'x!' at 'tableName' failed to satisfy constraint:
 * Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value null at 'key' failed to
 * satisfy constraint: Member must not be null</pre>
 * Member paths use lower camel case; list elements are {@code keySchema.1.member}, map values
 * {@code tags.key.member}; a few members' violations are worded without the value, under the
 * member's own name ("Value at 'Limit' ..."), as {@link ServiceModel} lists. Several errors come in
 * the model's member order (with the exceptions {@link ServiceModel} lists), and for one member:
 * length, pattern, enum (pattern first where the shape says so). DynamoDB's own order is that of
 * its Java validators: stable per shape, but not the same from one shape to the next.
 */
public final class Constraints {

    private static final int MAX_REPORTED = 10;

    /** Table names (not ARNs) are 3 to 255 characters of this set. */
    private static final Limits TABLE_NAME_LIMITS = new Limits(3L, 255L);
    static final String TABLE_NAME_PATTERN_TEXT = "[a-zA-Z0-9_.-]+";
    private static final java.util.regex.Pattern TABLE_NAME_PATTERN =
            java.util.regex.Pattern.compile(TABLE_NAME_PATTERN_TEXT);
    /** An ARN given where a table name may be. */
    private static final int TABLE_ARN_MAX = 1024;

    private final List<String> errors = new ArrayList<>();
    /**
     * The member being checked when DynamoDB words its violations without the value and under its
     * own name ({@link ServiceModel}'s departures), else null.
     */
    private String unechoed;

    /** The enum values read outside their sets, or null for none. */
    private final RequestReader.OutOfSetValues outOfSet;

    private Constraints(RequestReader.OutOfSetValues outOfSet) {
        this.outOfSet = outOfSet;
    }

    /** Checks a request as read, its enum values outside their sets among the rest. */
    public static void check(RequestReader.Parsed parsed, StructureShape shape) {
        check(parsed.request(), shape, parsed.outOfSet());
    }

    private static void check(ModelStructure request, StructureShape shape, RequestReader.OutOfSetValues outOfSet) {
        // CreateTable without a TableName has a text of its own, alone whatever else is wrong
        // (dynalite's test/createTable.js, recorded against DynamoDB; dynoxide's create_table.rs).
        if (shape.name().equals("CreateTableInput") && request.member(shape.indexOf("TableName")) == null) {
            throw DynamoDbException.validation("The parameter 'TableName' is required but was not present in the request");
        }
        Constraints c = new Constraints(outOfSet);
        c.checkStructure(request, shape, "");
        if (!c.errors.isEmpty()) {
            int n = c.errors.size();
            throw DynamoDbException.validation(n + " validation error" + (n > 1 ? "s" : "") + " detected: "
                    + String.join("; ", c.errors));
        }
    }

    private static boolean isArn(String name) {
        return name.startsWith("arn:");
    }

    private void checkStructure(ModelStructure struct, StructureShape shape, String parent) {
        for (StructureShape.Member member : shape.reportedMembers()) {
            String name = member.name();
            Object value = struct.member(member.index());
            if (value instanceof Unvalidated<?> attributes) value = attributes.raw();
            if (value == null && outOfSet != null) value = outOfSet.valueOf(struct, member.index());
            if (value == null) {
                if (shape.required.contains(name)) fail(null, parent + lowerFirst(name), "Member must not be null");
                continue;
            }
            String path = parent + lowerFirst(name);
            unechoed = member.unechoed() ? inModelNames(path) : null;
            checkValue(value, member.shape(), path);
            unechoed = null;
        }
    }

    @SuppressWarnings("unchecked")
    private void checkValue(Object value, Shape shape, String path) {
        switch (shape) {
            case StringShape s -> {
                // A generated enum's constant is one of the set, which breaks no other constraint.
                if (!(value instanceof String v)) return;
                if (!s.patternFirst()) checkLength(v, v.length(), s.limits(), path);
                if (s.pattern() != null && !s.pattern().matcher(v).matches()) {
                    fail(v, path, "Member must satisfy regular expression pattern: " + s.patternText());
                }
                if (s.patternFirst()) checkLength(v, v.length(), s.limits(), path);
                if (s.enumValues() != null && !s.enumValues().contains(v)) {
                    fail(v, path, "Member must satisfy enum value set: [" + String.join(", ", s.enumValues()) + "]");
                }
            }
            case TableNameShape s -> {
                String v = (String) value;
                if (isArn(v) && s.acceptsArn()) {
                    if (v.length() > TABLE_ARN_MAX) fail(v, path, "Member must have length less than or equal to " + TABLE_ARN_MAX);
                    return;
                }
                checkLength(v, v.length(), TABLE_NAME_LIMITS, path);
                if (!TABLE_NAME_PATTERN.matcher(v).matches()) {
                    fail(v, path, "Member must satisfy regular expression pattern: " + TABLE_NAME_PATTERN_TEXT);
                }
            }
            case NumberShape s -> {
                Number n = (Number) value;
                Limits l = s.limits();
                if (l == null) return;
                if (l.min() != null && n.doubleValue() < l.min()) {
                    fail(n, path, "Member must have value greater than or equal to " + l.min());
                }
                if (l.max() != null && n.doubleValue() > l.max()) {
                    fail(n, path, "Member must have value less than or equal to " + l.max());
                }
            }
            case BlobShape s -> checkLength(value, ((byte[]) value).length, s.limits(), path);
            case ListShape s -> {
                List<Object> list = (List<Object>) value;
                checkLength(value, list.size(), s.limits(), path);
                if (s.member() instanceof AttributeValueShape) return; // values are the action's to check
                for (int i = 0; i < list.size(); i++) {
                    checkElement(list.get(i), s.member(), path + "." + (i + 1) + ".member");
                }
            }
            case MapShape s -> {
                Map<String, Object> map = (Map<String, Object>) value;
                checkLength(value, map.size(), s.limits(), path);
                checkMapKeys(map, s.key(), path);
                if (s.value() instanceof ListShape list) {
                    checkMapValueLengths(map, list.limits(), path);
                    for (Map.Entry<String, Object> e : map.entrySet()) {
                        List<Object> elements = (List<Object>) e.getValue();
                        String listPath = path + "." + e.getKey() + ".member";
                        for (int i = 0; i < elements.size(); i++) {
                            checkElement(elements.get(i), list.member(), listPath + "." + (i + 1) + ".member");
                        }
                    }
                    return;
                }
                if (s.value() instanceof AttributeValueShape) return; // values are the action's to check
                for (Map.Entry<String, Object> e : map.entrySet()) {
                    checkElement(e.getValue(), s.value(), path + "." + e.getKey() + ".member");
                }
            }
            case StructureShape s -> checkStructure((ModelStructure) value, s, path + ".");
            default -> { }
        }
    }

    private void checkElement(Object value, Shape shape, String path) {
        if (value instanceof ModelStructure struct && shape instanceof StructureShape structure) {
            checkStructure(struct, structure, path + ".");
        } else {
            checkValue(value, shape, path);
        }
    }

    private void checkMapKeys(Map<String, Object> map, StringShape keyShape, String path) {
        if (keyShape.name().equals("TableArn")) {
            checkTableNameKeys(map, keyShape, path);
            return;
        }
        Limits l = keyShape.limits();
        if (l == null || (l.min() == null && l.max() == null && keyShape.pattern() == null)) return;
        for (String key : map.keySet()) {
            boolean ok = (l.min() == null || key.length() >= l.min())
                    && (l.max() == null || key.length() <= l.max())
                    && (keyShape.pattern() == null || keyShape.pattern().matcher(key).matches());
            if (ok) continue;
            List<String> rules = new ArrayList<>();
            if (l.max() != null) rules.add("Member must have length less than or equal to " + l.max());
            if (l.min() != null) rules.add("Member must have length greater than or equal to " + l.min());
            if (keyShape.pattern() != null) rules.add("Member must satisfy regular expression pattern: " + keyShape.patternText());
            fail(map, path, "Map keys must satisfy constraint: [" + String.join(", ", rules) + "]");
            return;
        }
    }

    /**
     * A map of lists (BatchWriteItem's RequestItems) whose list is too short or too long: DynamoDB
     * reports the whole map once, with both bounds, as it reports a bad key (dynalite's tests and
     * a 2026 capture of DynamoDB's older wording, dynamodb-conformance).
     */
    private void checkMapValueLengths(Map<String, Object> map, Limits l, String path) {
        if (l == null || (l.min() == null && l.max() == null)) return;
        for (Object v : map.values()) {
            int size = ((List<?>) v).size();
            if ((l.min() == null || size >= l.min()) && (l.max() == null || size <= l.max())) continue;
            List<String> rules = new ArrayList<>();
            if (l.max() != null) rules.add("Member must have length less than or equal to " + l.max());
            if (l.min() != null) rules.add("Member must have length greater than or equal to " + l.min());
            fail(map, path, "Map value must satisfy constraint: [" + String.join(", ", rules) + "]");
            return;
        }
    }

    /**
     * Map keys that are table names or ARNs (the batches' RequestItems): a name is held to the
     * table-name rules, which are all listed when it breaks any (dynamodb-conformance, 2026); an
     * ARN to the model's length limits.
     */
    private void checkTableNameKeys(Map<String, Object> map, StringShape keyShape, String path) {
        for (String key : map.keySet()) {
            if (isArn(key)) {
                if (key.length() <= TABLE_ARN_MAX) continue;
                fail(map, path, "Map keys must satisfy constraint: [Member must have length less than or equal to "
                        + keyShape.limits().max() + ", Member must have length greater than or equal to "
                        + keyShape.limits().min() + "]");
                return;
            }
            if (key.length() >= TABLE_NAME_LIMITS.min() && key.length() <= TABLE_NAME_LIMITS.max()
                    && TABLE_NAME_PATTERN.matcher(key).matches()) {
                continue;
            }
            fail(map, path, "Map keys must satisfy constraint: [Member must have length less than or equal to "
                    + TABLE_NAME_LIMITS.max() + ", Member must have length greater than or equal to "
                    + TABLE_NAME_LIMITS.min() + ", Member must satisfy regular expression pattern: "
                    + TABLE_NAME_PATTERN_TEXT + "]");
            return;
        }
    }

    private void checkLength(Object value, long length, Limits l, String path) {
        if (l == null) return;
        if (l.min() != null && length < l.min()) {
            fail(value, path, "Member must have length greater than or equal to " + l.min());
        }
        if (l.max() != null && length > l.max()) {
            fail(value, path, "Member must have length less than or equal to " + l.max());
        }
    }

    /**
     * A member's path in the model's own names, as DynamoDB names an unechoed member:
     * {@code requestItems.t.member.keys} is {@code RequestItems.t.member.Keys}. The segments that
     * are members' names are those followed by no {@code member} (a map's key and a list's index
     * are), and not {@code member} itself.
     */
    static String inModelNames(String path) {
        String[] segments = path.split("\\.", -1);
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            boolean memberName = !segment.equals("member")
                    && (i + 1 == segments.length || !segments[i + 1].equals("member"));
            if (i > 0) out.append('.');
            out.append(memberName && !segment.isEmpty()
                    ? Character.toUpperCase(segment.charAt(0)) + segment.substring(1) : segment);
        }
        return out.toString();
    }

    private void fail(Object value, String path, String constraint) {
        if (errors.size() >= MAX_REPORTED) return;
        if (unechoed != null) {
            errors.add("Value at '" + unechoed + "' failed to satisfy constraint: " + constraint);
            return;
        }
        String shown = value == null ? "null" : "'" + show(value) + "'";
        errors.add("Value " + shown + " at '" + path + "' failed to satisfy constraint: " + constraint);
    }

    @SuppressWarnings("unchecked")
    private static String show(Object value) {
        if (value instanceof List<?> list) {
            List<String> parts = new ArrayList<>(list.size());
            for (Object o : list) parts.add(show(o));
            return "[" + String.join(", ", parts) + "]";
        }
        if (value instanceof Map<?, ?> map) {
            List<String> parts = new ArrayList<>(map.size());
            for (Map.Entry<String, Object> e : ((Map<String, Object>) map).entrySet()) {
                parts.add(e.getKey() + "=" + show(e.getValue()));
            }
            return "{" + String.join(", ", parts) + "}";
        }
        if (value instanceof byte[] bytes) return java.util.Base64.getEncoder().encodeToString(bytes);
        if (value instanceof ModelStructure struct) {
            // DynamoDB shows a structure as its Java object's default toString: class@hash.
            return ServiceModel.JAVA_MODEL_PACKAGE + struct.getClass().getSimpleName() + "@"
                    + Integer.toHexString(System.identityHashCode(struct));
        }
        return String.valueOf(value);
    }

    static String lowerFirst(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
