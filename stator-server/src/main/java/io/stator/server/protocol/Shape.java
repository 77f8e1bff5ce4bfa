package io.stator.server.protocol;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A shape of DynamoDB's service model: what a request member must look like on the wire (its
 * JSON type) and the constraints DynamoDB checks on it (length, range, pattern, enum). Built once
 * from the bundled model by {@link ServiceModel}; immutable.
 */
public sealed interface Shape {

    /** The shape's name in the service model, e.g. "TableName" or "KeySchemaElement". */
    String name();

    /** Length limits (strings, blobs, lists, maps) or value limits (numbers); null when none. */
    record Limits(Long min, Long max) {
        static final Limits NONE = new Limits(null, null);
    }

    final class StructureShape implements Shape {
        private final String name;
        /** Members in the model's order, which is also the order DynamoDB reports them in. */
        final Map<String, Shape> members;
        final Set<String> required;

        StructureShape(String name, Map<String, Shape> members, Set<String> required) {
            this.name = name;
            this.members = members;
            this.required = required;
        }

        public String name() { return name; }

        public Map<String, Shape> members() { return members; }
    }

    record ListShape(String name, Shape member, Limits limits) implements Shape {}

    record MapShape(String name, StringShape key, Shape value, Limits limits) implements Shape {}

    /**
     * A string. {@code enumValues} lists the allowed values in the order DynamoDB prints them in
     * its "Member must satisfy enum value set" message, which is not always the model's order.
     * {@code patternFirst}: DynamoDB reports a pattern violation before a length violation for this
     * shape (it does for some shapes and not for others).
     */
    record StringShape(String name, Limits limits, Pattern pattern, String patternText, List<String> enumValues,
                       boolean patternFirst) implements Shape {

        /** A string with no constraints. */
        static StringShape unconstrained(String name) {
            return new StringShape(name, Limits.NONE, null, null, null, false);
        }
    }

    /** A table name, or a table ARN where DynamoDB accepts one (see {@link ServiceModel}). */
    record TableNameShape(String name, boolean acceptsArn) implements Shape {}

    enum NumberKind { INTEGER, LONG, DOUBLE }

    record NumberShape(String name, NumberKind kind, Limits limits) implements Shape {}

    record BooleanShape(String name) implements Shape {}

    record BlobShape(String name, Limits limits) implements Shape {}

    /** Epoch seconds on the wire, as a JSON number. */
    record TimestampShape(String name) implements Shape {}

    /** DynamoDB's AttributeValue, read straight into {@code io.stator.core.model.AttributeValue}. */
    record AttributeValueShape(String name) implements Shape {}
}
