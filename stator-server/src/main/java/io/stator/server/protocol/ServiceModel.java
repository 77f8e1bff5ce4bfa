package io.stator.server.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stator.server.protocol.Shape.AttributeValueShape;
import io.stator.server.protocol.Shape.BlobShape;
import io.stator.server.protocol.Shape.BooleanShape;
import io.stator.server.protocol.Shape.Limits;
import io.stator.server.protocol.Shape.ListShape;
import io.stator.server.protocol.Shape.MapShape;
import io.stator.server.protocol.Shape.NumberKind;
import io.stator.server.protocol.Shape.NumberShape;
import io.stator.server.protocol.Shape.StringShape;
import io.stator.server.protocol.Shape.StructureShape;
import io.stator.server.protocol.Shape.TableNameShape;
import io.stator.server.protocol.Shape.TimestampShape;
import io.stator.server.protocol.request.RequestRecords;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * DynamoDB's API as data: every operation's input shape, with the constraints DynamoDB checks.
 *
 * <p>The shapes come from AWS's own machine-readable model of the service (botocore's
 * {@code service-2.json}, Apache License 2.0), trimmed by {@code tools/trim-service-model.py}
 * and bundled as a resource. That model is written for clients, and DynamoDB's server checks a
 * few things differently; those differences are the {@code SERVER_*} tables below, each taken
 * from DynamoDB's observed responses (as recorded by emulators tested against it, dynalite's
 * validations above all). Keeping them here, as data, keeps every action's validation to one
 * engine ({@link RequestReader} and {@link Constraints}).
 */
public final class ServiceModel {

    /**
     * Enum values in the order DynamoDB's "Member must satisfy enum value set: [...]" message
     * lists them (the server's order, not the model's).
     */
    private static final Map<String, List<String>> SERVER_ENUM_ORDER = Map.of(
            "ReturnValue", List.of("ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"),
            "ScalarAttributeType", List.of("B", "N", "S"),
            "ProjectionType", List.of("ALL", "INCLUDE", "KEYS_ONLY"),
            "ComparisonOperator", List.of("IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT", "NOT_NULL",
                    "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS"),
            "ConditionalOperator", List.of("OR", "AND"),
            "Select", List.of("SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES"),
            "StreamViewType", List.of("OLD_IMAGE", "KEYS_ONLY", "NEW_AND_OLD_IMAGES", "NEW_IMAGE"),
            // ExtendDB's capture of CreateTable with a bad DistanceFunction (2026-08-06,
            // docs/dynamodb/vector-search.md section 3.2 rule 4); the model's is COSINE, DOT_PRODUCT, EUCLIDEAN.
            "VectorDistanceFunction", List.of("DOT_PRODUCT", "COSINE", "EUCLIDEAN"));

    /**
     * Enums DynamoDB does not check as enums: the action reports a bad value with a message of its
     * own (TableClass: "Invalid table-class parameter provided. ...").
     */
    private static final Set<String> SERVER_UNCHECKED_ENUMS = Set.of("TableClass");

    /** Members the client model leaves optional but DynamoDB requires ("Member must not be null"). */
    private static final Map<String, Set<String>> SERVER_REQUIRED = Map.of(
            "CreateTableInput", Set.of("AttributeDefinitions", "KeySchema"));

    /**
     * Members the client model requires but DynamoDB leaves to the action's own check: a tag
     * without a key is "The Tag Key provided is invalid, Key: null".
     */
    private static final Map<String, Set<String>> SERVER_OPTIONAL = Map.of("Tag", Set.of("Key", "Value"));

    /**
     * String shapes whose lengths DynamoDB checks in the action, with its own message, rather than
     * as a constraint: a 129-character tag key is "The Tag Key provided is invalid, Key: ...".
     */
    private static final Set<String> SERVER_UNCHECKED_LENGTHS = Set.of("TagKeyString", "TagValueString");

    /**
     * Limits DynamoDB puts on one member where the client model has others, by "Structure.Member".
     * A table's KeySchema has at most two elements (the KeySchema shape is shared with secondary
     * indexes, whose keys may have more); a KMSMasterKeyId may not be empty; the batches' empty
     * RequestItems get a message of their own; ListStreams returns "The upper limit is 100"
     * streams, which its model documents without a maximum (dynalite's validations: at most 100).
     */
    private static final Map<String, Limits> SERVER_LIMITS = Map.of(
            "CreateTableInput.KeySchema", new Limits(1L, 2L),
            "LocalSecondaryIndex.KeySchema", new Limits(1L, 2L),
            "SSESpecification.KMSMasterKeyId", new Limits(1L, null),
            // An empty RequestItems is the action's own error: "The requestItems parameter is
            // required for BatchGetItem" (most regions in 2026, dynamodb-conformance).
            "BatchGetItemInput.RequestItems", new Limits(null, 100L),
            "BatchWriteItemInput.RequestItems", new Limits(null, 25L),
            "ListStreamsInput.Limit", new Limits(1L, 100L));

    /**
     * Structures whose members DynamoDB reports in another order than the model's ("Value '0' at
     * 'provisionedThroughput.writeCapacityUnits' ...; Value '0' at
     * 'provisionedThroughput.readCapacityUnits' ..."). Members not listed follow in model order.
     */
    private static final Map<String, List<String>> SERVER_MEMBER_ORDER = Map.of(
            "ProvisionedThroughput", List.of("WriteCapacityUnits", "ReadCapacityUnits"),
            "AttributeDefinition", List.of("AttributeType", "AttributeName"));

    /**
     * String shapes for which DynamoDB reports a pattern violation before a length violation (for
     * others, TableArn and IndexName among them, length comes first).
     */
    private static final Set<String> SERVER_PATTERN_FIRST = Set.of("TableName", "BackupName");

    /**
     * Members whose constraint violations DynamoDB words without the value and under the member's
     * own name, capitalised: "Value at 'Limit' failed to satisfy constraint: ..." where Scan says
     * "Value '0' at 'limit' ...". Query's Limit: the conformance suite run against DynamoDB
     * (docs/dynamodb/query-scan.md), and the dynoxide and ExtendDB emulators' live captures.
     * SearchVectors' IndexName and SearchVector: dynoxide's captures of 2026-08-13, byte-identical in
     * eu-west-2 and us-east-1 (docs/dynamodb/vector-search.md section 5.1), while its TopK is echoed
     * ("Value '0' at 'topK' ...") like any other member. A nested member is named by its path in
     * the model's names.
     */
    private static final Map<String, Set<String>> SERVER_UNECHOED = Map.of(
            "QueryInput", Set.of("Limit"),
            "SearchVectorsInput", Set.of("IndexName", "SearchVector"),
            // BatchGetItem's keys of one table: "Value at 'RequestItems.<table>.member.Keys' ..."
            // (issue 36; dynoxide's and Floci's captures).
            "KeysAndAttributes", Set.of("Keys"));

    /** The package of DynamoDB's Java model classes, which some of its messages name. */
    static final String JAVA_MODEL_PACKAGE = "com.amazonaws.dynamodb.v20120810.";

    private static final ServiceModel INSTANCE = load("dynamodb-2012-08-10.json");
    /** DynamoDB Streams' API (botocore's dynamodbstreams model), served on the same endpoint. */
    private static final ServiceModel STREAMS = load("dynamodbstreams-2012-08-10.json");

    private final Map<String, Operation> operations;
    private final Map<String, StructureShape> structures;

    /** One API operation: its name and its input shape. */
    public record Operation(String name, StructureShape input) {}

    private ServiceModel(Map<String, Operation> operations, Map<String, StructureShape> structures) {
        this.operations = operations;
        this.structures = structures;
    }

    public static ServiceModel get() { return INSTANCE; }

    /** DynamoDB Streams' operations ({@code X-Amz-Target: DynamoDBStreams_20120810.<Action>}). */
    public static ServiceModel streams() { return STREAMS; }

    /** The operation of that name ("PutItem"), or null when DynamoDB has none. */
    public Operation operation(String name) { return operations.get(name); }

    /** Every operation DynamoDB has, whether or not Stator serves it. */
    public Set<String> operationNames() { return operations.keySet(); }

    /** The structure shape of that name that some operation's input uses, or null. */
    StructureShape structure(String name) { return structures.get(name); }

    // ---- loading ----------------------------------------------------------------------------

    private static ServiceModel load(String resource) {
        Map<String, Object> json;
        try (InputStream in = ServiceModel.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("service model resource missing");
            try (JsonParser parser = new JsonFactory().createParser(in)) {
                parser.nextToken();
                json = asMap(readTree(parser));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Builder builder = new Builder(asMap(json.get("shapes")));
        Map<String, Operation> operations = new HashMap<>();
        for (Map.Entry<String, Object> op : asMap(json.get("operations")).entrySet()) {
            Object input = asMap(op.getValue()).get("input");
            StructureShape shape = input == null
                    ? new StructureShape(op.getKey() + "Input", Map.of(), Set.of(), List.of(), Set.of())
                    : (StructureShape) builder.shape((String) input, null);
            operations.put(op.getKey(), new Operation(op.getKey(), shape));
        }
        Map<String, StructureShape> structures = new HashMap<>();
        builder.built.forEach((name, shape) -> {
            if (shape instanceof StructureShape s) structures.put(name, s);
        });
        return new ServiceModel(Map.copyOf(operations), Map.copyOf(structures));
    }

    private static final class Builder {
        private final Map<String, Object> shapes;
        private final Map<String, Shape> built = new HashMap<>();
        private final Set<String> building = new LinkedHashSet<>();

        Builder(Map<String, Object> shapes) {
            this.shapes = shapes;
        }

        /** Builds the named shape; {@code memberName} is the member it is read as, if any. */
        Shape shape(String name, String memberName) {
            if ("TableName".equals(memberName) && (name.equals("TableArn") || name.equals("TableName"))) {
                return new TableNameShape(name, name.equals("TableArn"));
            }
            Shape done = built.get(name);
            if (done != null) return done;
            if (name.equals("AttributeValue")) return remember(name, new AttributeValueShape(name));
            if (!building.add(name)) throw new IllegalStateException("recursive shape " + building);
            try {
                return remember(name, build(name, asMap(shapes.get(name))));
            } finally {
                building.remove(name);
            }
        }

        private Shape remember(String name, Shape shape) {
            built.put(name, shape);
            return shape;
        }

        private Shape build(String name, Map<String, Object> def) {
            Limits limits = limits(def);
            switch ((String) def.get("type")) {
                case "structure": {
                    Map<String, Shape> members = new LinkedHashMap<>();
                    // Keep the places of the members DynamoDB reports first; their shapes follow.
                    for (String member : SERVER_MEMBER_ORDER.getOrDefault(name, List.of())) members.put(member, null);
                    List<String> declared = new ArrayList<>(asMap(def.get("members")).keySet());
                    for (Map.Entry<String, Object> m : asMap(def.get("members")).entrySet()) {
                        Shape member = shape((String) asMap(m.getValue()).get("shape"), m.getKey());
                        Limits serverLimits = SERVER_LIMITS.get(name + "." + m.getKey());
                        members.put(m.getKey(), serverLimits == null ? member : withLimits(member, serverLimits));
                    }
                    Set<String> required = new LinkedHashSet<>();
                    for (Object r : asList(def.getOrDefault("required", List.of()))) required.add((String) r);
                    required.addAll(SERVER_REQUIRED.getOrDefault(name, Set.of()));
                    required.removeAll(SERVER_OPTIONAL.getOrDefault(name, Set.of()));
                    StructureShape structure = new StructureShape(name, Collections.unmodifiableMap(members),
                            Set.copyOf(required), declared, SERVER_UNECHOED.getOrDefault(name, Set.of()));
                    structure.bind(RequestRecords.constructor(name, declared), RequestRecords::enumReader);
                    return structure;
                }
                case "list":
                    return new ListShape(name, shape(memberShape(def, "member"), null), limits);
                case "map":
                    return new MapShape(name, (StringShape) shape(memberShape(def, "key"), null),
                            shape(memberShape(def, "value"), null), limits);
                case "string": {
                    String pattern = (String) def.get("pattern");
                    List<String> enumValues = null;
                    if (def.containsKey("enum") && !SERVER_UNCHECKED_ENUMS.contains(name)) {
                        enumValues = SERVER_ENUM_ORDER.getOrDefault(name,
                                asList(def.get("enum")).stream().map(String.class::cast).toList());
                    }
                    return new StringShape(name, SERVER_UNCHECKED_LENGTHS.contains(name) ? Limits.NONE : limits,
                            pattern == null ? null : Pattern.compile(pattern), pattern, enumValues,
                            SERVER_PATTERN_FIRST.contains(name));
                }
                case "integer":
                    return new NumberShape(name, NumberKind.INTEGER, limits);
                case "long":
                    return new NumberShape(name, NumberKind.LONG, limits);
                case "double":
                    return new NumberShape(name, NumberKind.DOUBLE, limits);
                case "boolean":
                    return new BooleanShape(name);
                case "blob":
                    return new BlobShape(name, limits);
                case "timestamp":
                    return new TimestampShape(name);
                default:
                    throw new IllegalStateException("unknown shape type " + def.get("type") + " of " + name);
            }
        }

        private static Shape withLimits(Shape shape, Limits limits) {
            return switch (shape) {
                case ListShape l -> new ListShape(l.name(), l.member(), limits);
                case MapShape m -> new MapShape(m.name(), m.key(), m.value(), limits);
                case NumberShape n -> new NumberShape(n.name(), n.kind(), limits);
                case StringShape s -> new StringShape(s.name(), limits, s.pattern(), s.patternText(), s.enumValues(),
                        s.patternFirst());
                default -> throw new IllegalStateException("no server limits for a " + shape.name());
            };
        }

        private static String memberShape(Map<String, Object> def, String key) {
            return (String) asMap(def.get(key)).get("shape");
        }

        private static Limits limits(Map<String, Object> def) {
            Long min = def.get("min") instanceof Number n ? n.longValue() : null;
            Long max = def.get("max") instanceof Number n ? n.longValue() : null;
            return min == null && max == null ? Limits.NONE : new Limits(min, max);
        }
    }

    // ---- a minimal JSON tree reader for the bundled model -----------------------------------

    private static Object readTree(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> map = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    map.put(key, readTree(p));
                }
                return map;
            }
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) list.add(readTree(p));
                return list;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                return p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            default:
                return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> asList(Object o) {
        return (List<Object>) o;
    }
}
