package io.stator.server.protocol;

import io.stator.server.protocol.request.ModelStructure;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
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

    /**
     * A structure: its members, and the record a request's structure is read into (generated
     * from the model, see {@code io.stator.server.protocol.request.RequestRecords}). A record's
     * components are the members in the model's declared order, which {@link #indexOf} gives.
     */
    final class StructureShape implements Shape {
        private final String name;
        /** Members in the order DynamoDB reports them: the model's, but where ServiceModel says otherwise. */
        final Map<String, Shape> members;
        final Set<String> required;
        private final List<String> declared;
        private final Map<String, Integer> indexes = new HashMap<>();
        /** By declared position: the member's shape. */
        private final Shape[] shapes;
        /** The members in the order DynamoDB reports them, with their positions. */
        private final List<Member> reported;
        /** By declared position: the member holds attribute values, read as {@code Unvalidated}. */
        private final boolean[] holdsAttributeValues;
        private Function<Object[], ModelStructure> record;
        /** By declared position: the reader of the member's generated Java enum, or null (a String). */
        private Function<String, Object>[] enumReaders;

        /**
         * @param unechoed the members whose violations DynamoDB reports without their value, under
         *                 their own name ({@link ServiceModel}'s departures)
         */
        StructureShape(String name, Map<String, Shape> members, Set<String> required, List<String> declared,
                       Set<String> unechoed) {
            this.name = name;
            this.members = members;
            this.required = required;
            this.declared = List.copyOf(declared);
            this.shapes = new Shape[declared.size()];
            this.holdsAttributeValues = new boolean[declared.size()];
            for (int i = 0; i < declared.size(); i++) {
                indexes.put(declared.get(i), i);
                shapes[i] = members.get(declared.get(i));
                holdsAttributeValues[i] = holdsAttributeValues(shapes[i]);
            }
            this.reported = members.entrySet().stream()
                    .map(e -> new Member(e.getKey(), e.getValue(), indexes.get(e.getKey()),
                            unechoed.contains(e.getKey())))
                    .toList();
        }

        /**
         * A member: its name, its shape, its position among the record's components, and whether
         * DynamoDB words its violations without the value ("Value at 'Limit' ...").
         */
        record Member(String name, Shape shape, int index, boolean unechoed) {}

        /** The members in the order DynamoDB reports their errors in. */
        List<Member> reportedMembers() {
            return reported;
        }

        /**
         * True for an attribute value, and a list or map of them (at any depth, but not inside a
         * structure): what a record holds as {@code Unvalidated}.
         */
        static boolean holdsAttributeValues(Shape shape) {
            return switch (shape) {
                case AttributeValueShape a -> true;
                case ListShape l -> holdsAttributeValues(l.member());
                case MapShape m -> holdsAttributeValues(m.value());
                default -> false;
            };
        }

        boolean holdsAttributeValues(int index) {
            return holdsAttributeValues[index];
        }

        /** The shape of the member at {@code index} (declared order). */
        Shape memberShape(int index) {
            return shapes[index];
        }

        public String name() { return name; }

        public Map<String, Shape> members() { return members; }

        /** The members in the model's declared order: the components of the structure's record. */
        public List<String> declaredMembers() { return declared; }

        /** A member's position among the record's components, or -1 when the shape has no such member. */
        int indexOf(String member) {
            Integer i = indexes.get(member);
            return i == null ? -1 : i;
        }

        /**
         * Binds the shape to its generated record, and its enum members to their generated enums
         * (done once, when the model is loaded).
         */
        @SuppressWarnings("unchecked")
        void bind(Function<Object[], ModelStructure> record, Function<String, Function<String, Object>> enumReaders) {
            this.record = record;
            if (record == null) return;
            Function<String, Object>[] readers = new Function[shapes.length];
            boolean any = false;
            for (int i = 0; i < shapes.length; i++) {
                if (shapes[i] instanceof StringShape s && s.enumValues() != null) {
                    readers[i] = enumReaders.apply(s.name());
                    any |= readers[i] != null;
                }
            }
            this.enumReaders = any ? readers : null;
        }

        /** The reader of the member's generated Java enum ({@code ofWire}), or null when it is a String. */
        Function<String, Object> enumReader(int index) {
            return enumReaders == null ? null : enumReaders[index];
        }

        /**
         * The structure read: the generated record, given the members' values in declared order;
         * for an operation Stator does not serve (no record was generated), a generic holder that
         * serves only to check the request's form.
         */
        ModelStructure construct(Object[] values) {
            return record != null ? record.apply(values) : new UnservedStructure(values);
        }
    }

    /** A structure of an operation Stator does not serve, read only to check the request's form. */
    record UnservedStructure(Object[] values) implements ModelStructure {
        @Override
        public Object member(int index) { return values[index]; }
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
