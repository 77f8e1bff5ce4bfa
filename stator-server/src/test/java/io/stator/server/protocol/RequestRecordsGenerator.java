package io.stator.server.protocol;

import io.stator.server.protocol.Shape.AttributeValueShape;
import io.stator.server.protocol.Shape.BlobShape;
import io.stator.server.protocol.Shape.BooleanShape;
import io.stator.server.protocol.Shape.ListShape;
import io.stator.server.protocol.Shape.MapShape;
import io.stator.server.protocol.Shape.NumberShape;
import io.stator.server.protocol.Shape.StringShape;
import io.stator.server.protocol.Shape.StructureShape;
import io.stator.server.protocol.Shape.TableNameShape;
import io.stator.server.protocol.Shape.TimestampShape;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Writes the request records of {@code io.stator.server.protocol.request}: one record per
 * structure shape that the served operations' inputs use, its components the shape's members in
 * the model's order, and {@code RequestRecords}, which binds each shape to its record. The
 * sources are committed; {@link RequestRecordsTest} fails when they differ from what this
 * generator makes of the bundled model, and rewrites them with {@code -Dstator.regenerate=true}.
 *
 * <p>Java types: a member of one of the {@link #TYPED_ENUMS} is that enum, generated beside the
 * records with its values' wire spelling ({@code wireName()}, and {@code ofWire}, a switch that
 * answers null for a value outside the set: the reader keeps such a value aside for the
 * constraints' message, see {@code RequestReader}); other strings (other enums too: their values
 * travel as sent) are String; integers are Integer and longs Long (the reader refuses a number the member's type cannot
 * hold exactly, so the model's range checks see the number as sent and nothing narrows it later);
 * doubles and timestamps Double; booleans Boolean; blobs byte[];
 * structures their records; lists and maps List and Map. Attribute values, and lists and maps
 * of them, are {@code Unvalidated} (an invalid one is reported where the action checks it).
 */
final class RequestRecordsGenerator {

    static final String PACKAGE = "io.stator.server.protocol.request";
    static final String HEADER = "// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.\n"
            + "// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).\n";

    private static final Set<String> KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte", "case",
            "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends",
            "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
            "interface", "long", "native", "new", "null", "package", "private", "protected", "public", "return",
            "short", "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws",
            "transient", "try", "void", "volatile", "while", "true", "false", "record", "var", "yield");

    /**
     * The model's enum shapes whose members are typed by a generated Java enum; the others are
     * still Strings, until the actions that read them take the enum. Only a structure's own
     * members are typed (an enum inside a list or a map stays a String).
     */
    static final Set<String> TYPED_ENUMS = Set.of("ConditionalOperator", "ReturnConsumedCapacity",
            "ReturnItemCollectionMetrics", "ReturnValue", "ReturnValuesOnConditionCheckFailure",
            "Select");

    private RequestRecordsGenerator() {}

    /** The sources, by file name, for the input shapes of the operations named. */
    static Map<String, String> generate(Collection<String> operations) {
        ServiceModel model = ServiceModel.get();
        Map<String, StructureShape> structures = new TreeMap<>();
        for (String operation : operations) {
            ServiceModel.Operation op = model.operation(operation);
            if (op == null) op = ServiceModel.streams().operation(operation);
            if (op == null) throw new IllegalArgumentException("no operation " + operation + " in the model");
            collect(op.input(), structures);
        }
        Map<String, StringShape> enums = new TreeMap<>();
        for (StructureShape s : structures.values()) {
            for (Shape member : s.members().values()) {
                if (typedEnum(member)) enums.put(member.name(), (StringShape) member);
            }
        }
        Map<String, String> files = new TreeMap<>();
        for (StructureShape s : structures.values()) files.put(s.name() + ".java", record(s));
        for (StringShape e : enums.values()) files.put(e.name() + ".java", enumSource(e));
        files.put("RequestRecords.java", registry(structures.values(), enums.values()));
        return files;
    }

    /** True for a structure member's shape that is one of the {@link #TYPED_ENUMS}. */
    static boolean typedEnum(Shape shape) {
        return shape instanceof StringShape s && s.enumValues() != null && TYPED_ENUMS.contains(s.name());
    }

    /** An enum shape as a Java enum: a constant per value (in the order DynamoDB lists them), with its spelling. */
    private static String enumSource(StringShape e) {
        List<String> values = e.enumValues();
        StringBuilder out = new StringBuilder(HEADER).append("package ").append(PACKAGE).append(";\n\n");
        out.append("/** DynamoDB's {@code ").append(e.name()).append("}, as a request spells it. */\n");
        out.append("public enum ").append(e.name()).append(" implements WireEnum {\n");
        for (int i = 0; i < values.size(); i++) {
            out.append("    ").append(constant(values.get(i))).append("(\"").append(values.get(i)).append("\")")
                    .append(i == values.size() - 1 ? ";\n" : ",\n");
        }
        out.append("\n    private final String wireName;\n\n");
        out.append("    ").append(e.name()).append("(String wireName) {\n        this.wireName = wireName;\n    }\n\n");
        out.append("    @Override\n    public String wireName() {\n        return wireName;\n    }\n\n");
        out.append("    /** The value spelled {@code wireName}, or null when it is none of them. */\n");
        out.append("    public static ").append(e.name()).append(" ofWire(String wireName) {\n");
        out.append("        return switch (wireName) {\n");
        for (String v : values) out.append("            case \"").append(v).append("\" -> ").append(constant(v)).append(";\n");
        out.append("            default -> null;\n        };\n    }\n}\n");
        return out.toString();
    }

    /** A wire value as a Java constant: upper case, what is no letter or digit an underscore. */
    private static String constant(String wireValue) {
        String name = wireValue.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9_]", "_");
        return Character.isDigit(name.charAt(0)) ? "_" + name : name;
    }

    private static void collect(Shape shape, Map<String, StructureShape> into) {
        switch (shape) {
            case StructureShape s -> {
                if (into.putIfAbsent(s.name(), s) != null) return;
                for (String member : s.declaredMembers()) collect(s.members().get(member), into);
            }
            case ListShape l -> collect(l.member(), into);
            case MapShape m -> collect(m.value(), into);
            default -> { }
        }
    }

    private static String record(StructureShape s) {
        List<String> members = s.declaredMembers();
        StringBuilder out = new StringBuilder(HEADER).append("package ").append(PACKAGE).append(";\n\n");
        Set<String> imports = new TreeSet<>(List.of("java.util.List"));
        List<String> types = new ArrayList<>();
        for (String member : members) types.add(componentType(s.members().get(member), imports));
        for (String i : imports) out.append("import ").append(i).append(";\n");
        out.append("\n/** DynamoDB's {@code ").append(s.name()).append("}, as a request carries it. */\n");
        out.append("public record ").append(s.name()).append('(');
        for (int i = 0; i < members.size(); i++) {
            out.append(i == 0 ? "\n" : ",\n").append("        ").append(types.get(i)).append(' ')
                    .append(accessor(members.get(i)));
        }
        out.append(") implements ModelStructure {\n\n");
        out.append("    /** The members, in the model's order: the record's components. */\n");
        out.append("    static final List<String> MEMBERS = List.of(");
        for (int i = 0; i < members.size(); i++) {
            out.append(i == 0 ? "" : ",").append("\n            \"").append(members.get(i)).append('"');
        }
        out.append(");\n\n");
        out.append("    /** The record of the members' values, in the model's order. */\n");
        if (types.stream().anyMatch(t -> t.contains("<"))) out.append("    @SuppressWarnings(\"unchecked\")\n");
        out.append("    static ").append(s.name()).append(" of(Object[] values) {\n");
        out.append("        return new ").append(s.name()).append('(');
        for (int i = 0; i < members.size(); i++) {
            out.append(i == 0 ? "\n" : ",\n").append("                (").append(types.get(i)).append(") values[")
                    .append(i).append(']');
        }
        out.append(");\n    }\n\n");
        out.append("    @Override\n    public Object member(int index) {\n");
        if (members.isEmpty()) {
            out.append("        throw new IndexOutOfBoundsException(index);\n");
        } else {
            out.append("        return switch (index) {\n");
            for (int i = 0; i < members.size(); i++) {
                out.append("            case ").append(i).append(" -> ").append(accessor(members.get(i))).append(";\n");
            }
            out.append("            default -> throw new IndexOutOfBoundsException(index);\n        };\n");
        }
        out.append("    }\n}\n");
        return out.toString();
    }

    /** A member's type in its record: attribute values (and lists and maps of them) are Unvalidated. */
    private static String componentType(Shape shape, Set<String> imports) {
        if (typedEnum(shape)) return shape.name();
        String type = javaType(shape, imports);
        return StructureShape.holdsAttributeValues(shape) ? "Unvalidated<" + type + ">" : type;
    }

    private static String registry(Collection<StructureShape> structures, Collection<StringShape> enums) {
        StringBuilder out = new StringBuilder(HEADER).append("package ").append(PACKAGE).append(";\n\n");
        out.append("""
                import java.util.List;
                import java.util.function.Function;

                /**
                 * Binds each structure shape of the served operations' inputs to its record: the request
                 * reader builds a structure's record from its members' values, in the model's order.
                 */
                public final class RequestRecords {

                    private RequestRecords() {}

                    /**
                     * The constructor of the shape's record, or null when none was generated (an operation
                     * Stator does not serve). Refuses to start when the model's members are not the record's.
                     */
                    public static Function<Object[], ModelStructure> constructor(String shape, List<String> members) {
                        return switch (shape) {
                """);
        for (StructureShape s : structures) {
            String label = "            case \"" + s.name() + "\" ->";
            String binding = "bound(members, " + s.name() + ".MEMBERS, " + s.name() + "::of);";
            out.append(label).append(label.length() + 1 + binding.length() <= 120 ? " " : "\n                    ")
                    .append(binding).append('\n');
        }
        StringBuilder cases = new StringBuilder();
        for (StringShape e : enums) {
            cases.append("            case \"").append(e.name()).append("\" -> ").append(e.name()).append("::ofWire;\n");
        }
        out.append("""
                            default -> null;
                        };
                    }

                    /**
                     * The reader of an enum shape's generated Java enum (its {@code ofWire}), or null when
                     * the shape's members are Strings.
                     */
                    public static Function<String, Object> enumReader(String shape) {
                        return switch (shape) {
                %s            default -> null;
                        };
                    }

                    private static Function<Object[], ModelStructure> bound(List<String> members, List<String> recordMembers,
                                                                           Function<Object[], ModelStructure> constructor) {
                        if (!members.equals(recordMembers)) {
                            throw new IllegalStateException("the service model's members " + members + " are not the "
                                    + "request record's " + recordMembers + ": regenerate the request records");
                        }
                        return constructor;
                    }
                }
                """.formatted(cases));
        return out.toString();
    }

    private static String javaType(Shape shape, Set<String> imports) {
        return switch (shape) {
            case StringShape s -> "String";
            case TableNameShape s -> "String";
            case NumberShape n -> switch (n.kind()) {
                case INTEGER -> "Integer";
                case LONG -> "Long";
                case DOUBLE -> "Double";
            };
            case TimestampShape t -> "Double";
            case BooleanShape b -> "Boolean";
            case BlobShape b -> "byte[]";
            case StructureShape s -> s.name();
            case AttributeValueShape a -> {
                imports.add("io.stator.core.model.AttributeValue");
                yield "AttributeValue";
            }
            case ListShape l -> {
                imports.add("java.util.List");
                yield "List<" + javaType(l.member(), imports) + ">";
            }
            case MapShape m -> {
                imports.add("java.util.Map");
                yield "Map<String, " + javaType(m.value(), imports) + ">";
            }
        };
    }

    /**
     * A member's accessor, as AWS's Java SDK names it: lower camel case, a leading acronym
     * lowered whole ({@code SSESpecification} is {@code sseSpecification}).
     */
    static String accessor(String member) {
        int upper = 0;
        while (upper < member.length() && Character.isUpperCase(member.charAt(upper))) upper++;
        String name;
        if (upper == member.length()) {
            name = member.toLowerCase(Locale.ROOT);
        } else if (upper > 1) {
            name = member.substring(0, upper - 1).toLowerCase(Locale.ROOT) + member.substring(upper - 1);
        } else {
            name = Character.toLowerCase(member.charAt(0)) + member.substring(1);
        }
        return KEYWORDS.contains(name) ? name + "Value" : name;
    }
}
