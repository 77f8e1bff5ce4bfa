package io.stator.server.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.AttributeValues;
import io.stator.core.model.DynamoNumber;
import io.stator.core.model.Utf8;
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
import io.stator.server.protocol.request.InvalidAttributeValue;
import io.stator.server.protocol.request.ModelStructure;
import io.stator.server.protocol.request.Unvalidated;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads a request body straight from JSON tokens into the operation's input record (generated
 * from the service model, see {@code RequestRecords}), guided by the operation's input shape,
 * in one pass and without an intermediate tree. Attribute values go into {@link Unvalidated}
 * holders, which keep an invalid value's error for the action to report where DynamoDB does.
 *
 * <p>Type errors are DynamoDB's SerializationExceptions, with the texts its (Java) front end
 * produces: "NUMBER_VALUE cannot be converted to String", "Unexpected field type", ... DynamoDB
 * parses the whole body before it looks at types, so malformed JSON anywhere wins over a type
 * error: the first type error is remembered, the rest of the body is still read, and only then
 * is the type error thrown. Members the shape does not know, and JSON nulls, are ignored, as
 * DynamoDB ignores them; but not a null inside an attribute value (an element of L, SS, NS or BS,
 * a member of M), which is no attribute value at all and gets DynamoDB's ValidationException
 * where the value is checked ({@link #readTyped}).
 *
 * <p>A member whose record holds a generated Java enum is read into its constant; a value
 * outside the enum's set leaves the member null and is kept aside ({@link OutOfSetValues}), so
 * that {@link Constraints} reports it with DynamoDB's text, in its place among the others.
 */
public final class RequestReader {

    private static final JsonFactory JSON = JsonFactory.builder()
            // Names as long as a body: an attribute name of 65,535 bytes is DynamoDB's limit, and a
            // longer one its ValidationException, never Jackson's 50,000-character refusal.
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(1000)
                    .maxNameLength(16 * 1024 * 1024).build())
            .build();

    private DynamoDbException typeError;
    /** The values read outside their enum's set; null while there are none (nothing is allocated). */
    private OutOfSetValues outOfSet;

    private RequestReader() {}

    /**
     * The values of enum members that are none of their enum's values, by the structure read and
     * the member's position: what the record cannot hold, for {@link Constraints} to report.
     */
    public static final class OutOfSetValues {
        private final Map<ModelStructure, Map<Integer, String>> values = new IdentityHashMap<>();

        /** The text sent for the member at {@code index} of {@code structure}, or null. */
        String valueOf(ModelStructure structure, int index) {
            Map<Integer, String> members = values.get(structure);
            return members == null ? null : members.get(index);
        }
    }

    /**
     * A body that is well-formed JSON, read against a shape. The type error, if any, is held
     * back: DynamoDB answers malformed JSON before it looks at the target or the signature, and
     * type errors only after both (see {@code DynamoDbEndpoint}).
     */
    public static final class Parsed {
        private final ModelStructure request;
        private final DynamoDbException typeError;
        private final OutOfSetValues outOfSet;

        private Parsed(ModelStructure request, DynamoDbException typeError, OutOfSetValues outOfSet) {
            this.request = request;
            this.typeError = typeError;
            this.outOfSet = outOfSet;
        }

        /** The enum values read outside their sets, or null for none. */
        OutOfSetValues outOfSet() {
            return outOfSet;
        }

        /** The request read, or the first type error (a SerializationException). */
        public ModelStructure request() {
            if (typeError != null) throw typeError;
            return request;
        }
    }

    /**
     * Reads a whole request body; an empty body is read as an empty structure.
     *
     * @throws DynamoDbException a SerializationException without message when the body is not
     *     JSON at all (nor Unicode text: a string with a lone surrogate, bytes that are not
     *     UTF-8); type errors are held in the result
     */
    public static Parsed parse(byte[] body, int offset, int length, StructureShape shape) {
        // Text that is not Unicode is not JSON text either (see JsonText).
        if (!JsonText.isUnicode(body, offset, length)) throw DynamoDbException.serialization(null);
        RequestReader reader = new RequestReader();
        try (JsonParser p = JSON.createParser(body, offset, length)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                // Nothing at all is an empty request; only white space is no JSON.
                if (length > 0) throw DynamoDbException.serialization(null);
                return new Parsed(shape.construct(new Object[shape.declaredMembers().size()]), null, null);
            }
            if (first != JsonToken.START_OBJECT) {
                // JSON, but not an object: a type error, as a mismatching member is.
                p.skipChildren();
                reader.typeError = DynamoDbException.serialization(null);
                if (p.nextToken() != null) throw DynamoDbException.serialization(null);
                return new Parsed(null, reader.typeError, null);
            }
            ModelStructure request = reader.readStructureBody(p, shape);
            if (p.nextToken() != null) throw DynamoDbException.serialization(null);
            return new Parsed(request, reader.typeError, reader.outOfSet);
        } catch (IOException e) {
            // Malformed JSON: DynamoDB answers a bare SerializationException.
            throw DynamoDbException.serialization(null);
        }
    }

    public static Parsed parse(byte[] body, StructureShape shape) {
        return parse(body, 0, body.length, shape);
    }

    // ---- values -----------------------------------------------------------------------------

    /**
     * Reads the value at the current token. {@code asElement} is true for list elements and map
     * values, whose type errors DynamoDB words differently from a structure member's. Returns
     * null for JSON null, and after a type error (which is recorded).
     */
    private Object readValue(JsonParser p, Shape shape, boolean asElement) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) return null;
        return switch (shape) {
            case StringShape s -> readString(p, "String");
            case TableNameShape s -> readString(p, "String");
            case NumberShape s -> readNumber(p, s);
            case BooleanShape s -> readBoolean(p);
            case BlobShape s -> readBlob(p);
            case TimestampShape s -> readNumber(p, new NumberShape(s.name(), Shape.NumberKind.DOUBLE, null));
            case ListShape s -> readList(p, s);
            case MapShape s -> readMap(p, s);
            case StructureShape s -> {
                if (t != JsonToken.START_OBJECT) yield structureMismatch(p, s.name(), asElement);
                yield readStructureBody(p, s);
            }
            case AttributeValueShape s -> {
                if (t != JsonToken.START_OBJECT) yield structureMismatch(p, "AttributeValue", asElement);
                yield readAttributeValue(p);
            }
        };
    }

    private ModelStructure readStructureBody(JsonParser p, StructureShape shape) throws IOException {
        Object[] values = new Object[shape.declaredMembers().size()];
        Map<Integer, String> outside = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            int index = shape.indexOf(name);
            if (index < 0) {
                p.skipChildren();
                continue;
            }
            Object value = readValue(p, shape.memberShape(index), false);
            // A member given twice is read twice and the last one counts; a null one is absent.
            // What DynamoDB does with a repeated name is not recorded; last-wins is what JSON
            // parsers commonly do (RFC 8259 section 4), dynalite's and moto's among them.
            values[index] = value != null && shape.holdsAttributeValues(index) ? Unvalidated.of(value) : value;
            if (outside != null) outside.remove(index);
            Function<String, Object> enumReader = shape.enumReader(index);
            if (enumReader != null && value instanceof String text) {
                values[index] = enumReader.apply(text);
                if (values[index] == null) {
                    if (outside == null) outside = new HashMap<>(2);
                    outside.put(index, text);
                }
            }
        }
        ModelStructure structure = shape.construct(values);
        if (outside != null) {
            if (outOfSet == null) outOfSet = new OutOfSetValues();
            outOfSet.values.put(structure, outside);
        }
        return structure;
    }

    private Object readString(JsonParser p, String javaType) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_STRING -> p.getText();
            case VALUE_TRUE -> mismatch(p, "TRUE_VALUE cannot be converted to " + javaType);
            case VALUE_FALSE -> mismatch(p, "FALSE_VALUE cannot be converted to " + javaType);
            case VALUE_NUMBER_INT -> mismatch(p, "NUMBER_VALUE cannot be converted to " + javaType);
            case VALUE_NUMBER_FLOAT -> mismatch(p, "DECIMAL_VALUE cannot be converted to " + javaType);
            case START_ARRAY -> mismatch(p, "Unrecognized collection type class java.lang." + javaType);
            default -> mismatch(p, "Start of structure or map found where not expected");
        };
    }

    /**
     * An Integer member holds an int and a Long member a long, exactly as sent: a JSON number
     * they cannot hold (a fraction or an exponent, a value past their range) is a type error, as
     * a string is. Nothing is rounded, truncated or narrowed on the way, so that 2147483648 cannot
     * become -2147483648, nor 1.5 become 1. DynamoDB's texts for these two errors are not
     * recorded (dynalite floors decimals and checks no range); they follow the pattern of its
     * recorded ones, "DECIMAL_VALUE cannot be converted to Boolean" and the like.
     */
    private Object readNumber(JsonParser p, NumberShape shape) throws IOException {
        String javaType = switch (shape.kind()) {
            case INTEGER -> "Integer";
            case LONG -> "Long";
            case DOUBLE -> "Double";
        };
        return switch (p.currentToken()) {
            case VALUE_NUMBER_INT -> switch (shape.kind()) {
                case DOUBLE -> p.getDoubleValue();
                case INTEGER -> p.getNumberType() == JsonParser.NumberType.INT ? (Object) p.getIntValue()
                        : mismatch(p, "NUMBER_VALUE cannot be converted to Integer");
                case LONG -> p.getNumberType() != JsonParser.NumberType.BIG_INTEGER ? (Object) p.getLongValue()
                        : mismatch(p, "NUMBER_VALUE cannot be converted to Long");
            };
            case VALUE_NUMBER_FLOAT -> shape.kind() == Shape.NumberKind.DOUBLE ? p.getDoubleValue()
                    : mismatch(p, "DECIMAL_VALUE cannot be converted to " + javaType);
            case VALUE_TRUE -> mismatch(p, "TRUE_VALUE cannot be converted to " + javaType);
            case VALUE_FALSE -> mismatch(p, "FALSE_VALUE cannot be converted to " + javaType);
            case VALUE_STRING -> mismatch(p, "STRING_VALUE cannot be converted to " + javaType);
            case START_ARRAY -> mismatch(p, "Unrecognized collection type class java.lang." + javaType);
            default -> mismatch(p, "Start of structure or map found where not expected");
        };
    }

    private Object readBoolean(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_STRING -> {
                // DynamoDB's front end converts a few strings to booleans.
                String s = p.getText().toUpperCase(java.util.Locale.ROOT);
                if (s.equals("TRUE") || s.equals("1") || s.equals("YES")) yield Boolean.TRUE;
                if (s.equals("FALSE") || s.equals("0") || s.equals("NO")) yield Boolean.FALSE;
                yield mismatch(p, "Unexpected token received from parser");
            }
            case VALUE_NUMBER_INT -> mismatch(p, "NUMBER_VALUE cannot be converted to Boolean");
            case VALUE_NUMBER_FLOAT -> mismatch(p, "DECIMAL_VALUE cannot be converted to Boolean");
            case START_ARRAY -> mismatch(p, "Unrecognized collection type class java.lang.Boolean");
            default -> mismatch(p, "Start of structure or map found where not expected");
        };
    }

    private Object readBlob(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_STRING -> decodeBase64(p, p.getText());
            case VALUE_TRUE, VALUE_FALSE, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT ->
                    mismatch(p, "only base-64-encoded strings are convertible to bytes");
            case START_ARRAY -> mismatch(p, "Unrecognized collection type class java.nio.ByteBuffer");
            default -> mismatch(p, "Start of structure or map found where not expected");
        };
    }

    private Object decodeBase64(JsonParser p, String text) {
        if (text.length() % 4 != 0) {
            return mismatch(p, "Base64 encoded length is expected a multiple of 4 bytes but found: " + text.length());
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return mismatch(p, "Invalid last non-pad Base64 character dectected");
        }
        // The last character before padding must not carry bits beyond the data.
        int pad = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
        if (pad > 0) {
            int last = base64Digit(text.charAt(text.length() - pad - 1));
            int unusedBits = pad == 2 ? 0x0F : 0x03;
            if ((last & unusedBits) != 0) return mismatch(p, "Invalid last non-pad Base64 character dectected");
        }
        return bytes;
    }

    private static int base64Digit(char c) {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        return c == '+' ? 62 : 63;
    }

    private Object readList(JsonParser p, ListShape shape) throws IOException {
        return readList(p, shape, false);
    }

    /** @param keepNulls whether a JSON null element is kept (as null), rather than dropped */
    private Object readList(JsonParser p, ListShape shape, boolean keepNulls) throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.START_ARRAY) {
            if (t == JsonToken.START_OBJECT) return mismatch(p, "Start of structure or map found where not expected");
            return mismatch(p, "Unexpected field type");
        }
        List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            boolean isNull = p.currentToken() == JsonToken.VALUE_NULL;
            Object v = readValue(p, shape.member(), true);
            if (v != null || keepNulls && isNull) list.add(v);
        }
        return list;
    }

    private Object readMap(JsonParser p, MapShape shape) throws IOException {
        return readMap(p, shape, false);
    }

    /** @param keepNulls whether a member whose value is JSON null is kept (as null), rather than dropped */
    private Object readMap(JsonParser p, MapShape shape, boolean keepNulls) throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.START_OBJECT) {
            if (t == JsonToken.START_ARRAY) {
                return mismatch(p, "Unrecognized collection type java.util.Map<java.lang.String, "
                        + javaTypeName(shape.value()) + ">");
            }
            return mismatch(p, "Unexpected field type");
        }
        Map<String, Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            p.nextToken();
            Object v = readValue(p, shape.value(), true);
            if (v != null && shape.value() instanceof AttributeValueShape) {
                DynamoDbException badName = attributeNameFault(key, shape);
                if (badName != null) v = new InvalidAttributeValue(badName); // reported where the value is checked
            }
            // A key given twice counts once, with its last value; a null one makes it absent
            // (or, kept, invalid).
            if (v != null || keepNulls && p.currentToken() == JsonToken.VALUE_NULL) map.put(key, v);
            else map.remove(key);
        }
        return map;
    }

    /**
     * An attribute name (of an item, a key or a map value) may be up to 65,535 bytes: one more is
     * DynamoDB's ValidationException, at the top level or nested (scylladb
     * test/alternator/test_limits.py: "65535 ... is the last accepted size"; the text measured
     * against DynamoDB in ExtendDB#365, and DynamoDB Local's ATTRIBUTE_NAME_TOO_LARGE).
     */
    static final int MAX_ATTRIBUTE_NAME_BYTES = 65_535;

    /**
     * What is wrong with an attribute name of an item, a key or a map value: too large, or empty
     * (DynamoDB's naming rules: "at least one character long"). The empty name's text is not
     * recorded from DynamoDB; it is inferred from the measured too-large one and DynamoDB Local's
     * EMPTY_ATTRIBUTE_NAME, which sits beside ATTRIBUTE_NAME_TOO_LARGE. ExpressionAttributeValues'
     * keys are placeholders, checked (and worded) by the expression parameters instead.
     */
    private static DynamoDbException attributeNameFault(String name, MapShape map) {
        if (name.length() > MAX_ATTRIBUTE_NAME_BYTES / 3 && Utf8.encodedLength(name) > MAX_ATTRIBUTE_NAME_BYTES) {
            return DynamoDbException.validation(
                    "1 validation error detected: Attribute name is too large, must be less than 65536 bytes");
        }
        if (name.isEmpty() && !map.name().equals("ExpressionAttributeValueMap")) {
            return DynamoDbException.validation("1 validation error detected: Empty attribute name");
        }
        return null;
    }

    private static String javaTypeName(Shape shape) {
        return switch (shape) {
            case StringShape s -> "java.lang.String";
            case ListShape s -> "java.util.List<" + javaTypeName(s.member()) + ">";
            case MapShape s -> "java.util.Map<java.lang.String, " + javaTypeName(s.value()) + ">";
            default -> ServiceModel.JAVA_MODEL_PACKAGE + shape.name();
        };
    }

    private Object structureMismatch(JsonParser p, String shapeName, boolean asElement) throws IOException {
        if (p.currentToken() == JsonToken.START_ARRAY) {
            return mismatch(p, "Unrecognized collection type class " + ServiceModel.JAVA_MODEL_PACKAGE + shapeName);
        }
        return mismatch(p, asElement ? "Unexpected value type in payload" : "Unexpected field type");
    }

    /** Records the first type error, skips the value, and reads on (see the class comment). */
    private Object mismatch(JsonParser p, String message) {
        if (typeError == null) typeError = DynamoDbException.serialization(message);
        try {
            p.skipChildren();
        } catch (IOException e) {
            throw DynamoDbException.serialization(null);
        }
        return null;
    }

    // ---- attribute values -------------------------------------------------------------------

    private static final ListShape STRING_LIST = new ListShape("StringSetAttributeValue",
            StringShape.unconstrained("StringAttributeValue"), Shape.Limits.NONE);
    private static final ListShape BLOB_LIST = new ListShape("BinarySetAttributeValue",
            new BlobShape("BinaryAttributeValue", Shape.Limits.NONE), Shape.Limits.NONE);
    private static final AttributeValueShape ATTRIBUTE_VALUE = new AttributeValueShape("AttributeValue");
    private static final ListShape ATTRIBUTE_LIST = new ListShape("ListAttributeValue", ATTRIBUTE_VALUE,
            Shape.Limits.NONE);
    private static final MapShape ATTRIBUTE_MAP = new MapShape("MapAttributeValue",
            StringShape.unconstrained("AttributeName"), ATTRIBUTE_VALUE,
            Shape.Limits.NONE);

    // The data types of an attribute value, numbered: where its reader keeps what each one holds.
    private static final int S = 0, N = 1, B = 2, BOOL = 3, NULL = 4, SS = 5, NS = 6, BS = 7, L = 8, M = 9;
    private static final int TYPE_COUNT = 10;

    private static int typeIndex(String name) {
        return switch (name) {
            case "S" -> S;
            case "N" -> N;
            case "B" -> B;
            case "BOOL" -> BOOL;
            case "NULL" -> NULL;
            case "SS" -> SS;
            case "NS" -> NS;
            case "BS" -> BS;
            case "L" -> L;
            case "M" -> M;
            default -> -1;
        };
    }

    /**
     * Reads {"S": ...} and friends. Returns an {@link AttributeValue}, an
     * {@link InvalidAttributeValue} carrying DynamoDB's validation error, or null after a type
     * error.
     *
     * <p>A type named twice counts once, with its last value (a null one makes it absent), as a
     * member named twice does (see {@link #readStructureBody}); two types are two types whatever
     * their order. An invalid value is reported before the count of types is, the first in the
     * order the types were first named. Almost every value names one type once: the slots for
     * several are made only when a second one is named.
     */
    private Object readAttributeValue(JsonParser p) throws IOException {
        int firstType = -1;
        Object first = null; // what the first-named type holds: AttributeValue, DynamoDbException, or null
        Object[] byType = null;
        int[] order = null;
        int named = 0;
        int namedTypes = 0; // bit i: type i was named
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            int type = typeIndex(p.currentName());
            JsonToken t = p.nextToken();
            if (type < 0) {
                p.skipChildren(); // not a data type: ignored, as unknown members are
                continue;
            }
            Object held = t == JsonToken.VALUE_NULL ? null : readTyped(p, type);
            if (byType == null && (firstType < 0 || firstType == type)) {
                firstType = type;
                first = held;
                continue;
            }
            if (byType == null) {
                byType = new Object[TYPE_COUNT];
                order = new int[TYPE_COUNT];
                byType[firstType] = first;
                order[named++] = firstType;
                namedTypes = 1 << firstType;
            }
            if ((namedTypes & 1 << type) == 0) {
                namedTypes |= 1 << type;
                order[named++] = type;
            }
            byType[type] = held;
        }
        if (byType == null) {
            if (first instanceof DynamoDbException invalid) return new InvalidAttributeValue(invalid);
            if (first == null) return new InvalidAttributeValue(AttributeValues.empty());
            return first;
        }
        int types = 0;
        for (int i = 0; i < named; i++) {
            Object held = byType[order[i]];
            if (held instanceof DynamoDbException invalid) return new InvalidAttributeValue(invalid);
            if (held != null) types++;
        }
        if (types == 0) return new InvalidAttributeValue(AttributeValues.empty());
        if (types > 1) return new InvalidAttributeValue(AttributeValues.moreThanOneType());
        for (int i = 0; i < named; i++) {
            if (byType[order[i]] != null) return byType[order[i]];
        }
        throw new AssertionError();
    }

    /**
     * The value of one data type: an {@link AttributeValue}, the {@link DynamoDbException} that
     * makes it invalid, or null after a type error (which is recorded).
     */
    @SuppressWarnings("unchecked")
    private Object readTyped(JsonParser p, int type) throws IOException {
        Object raw = switch (type) {
            case S, N -> readString(p, "String");
            case B -> readBlob(p);
            case BOOL, NULL -> readBoolean(p);
            case SS, NS -> readList(p, STRING_LIST, true);
            case BS -> readList(p, BLOB_LIST, true);
            case L -> readList(p, ATTRIBUTE_LIST, true);
            default -> readMap(p, ATTRIBUTE_MAP, true);
        };
        if (raw == null) return null; // a type error, already recorded
        try {
            return switch (type) {
                case S -> new AttributeValue.S((String) raw);
                case N -> new AttributeValue.N(DynamoNumber.parse((String) raw));
                case B -> new AttributeValue.B((byte[]) raw);
                case BOOL -> AttributeValue.BOOL.of((Boolean) raw);
                case NULL -> AttributeValues.nullValue((Boolean) raw);
                case SS -> AttributeValues.stringSet((List<String>) raw);
                case NS -> AttributeValues.numberSet((List<String>) raw);
                case BS -> AttributeValues.binarySet((List<byte[]>) raw);
                case L -> {
                    List<Object> elements = (List<Object>) raw;
                    DynamoDbException invalid = firstInvalid(elements);
                    yield invalid != null ? invalid
                            : new AttributeValue.L(List.copyOf((List<AttributeValue>) (List<?>) elements));
                }
                default -> {
                    Map<String, Object> members = (Map<String, Object>) raw;
                    DynamoDbException invalid = firstInvalid(members);
                    yield invalid != null ? invalid
                            : new AttributeValue.M((Map<String, AttributeValue>) (Map<String, ?>) members);
                }
            };
        } catch (DynamoDbException e) {
            return e; // an invalid value: reported where the action checks it
        }
    }

    /** The first element's error: an invalid value's, or a JSON null's. */
    private static DynamoDbException firstInvalid(List<Object> elements) {
        for (Object v : elements) {
            if (v == null) return AttributeValues.nullElement();
            if (v instanceof InvalidAttributeValue invalid) return invalid.error();
        }
        return null;
    }

    /** The first member's error: an invalid value's, or a JSON null's, which names the member. */
    private static DynamoDbException firstInvalid(Map<String, Object> members) {
        for (Map.Entry<String, Object> member : members.entrySet()) {
            if (member.getValue() == null) return AttributeValues.nullMember(member.getKey());
            if (member.getValue() instanceof InvalidAttributeValue invalid) return invalid.error();
        }
        return null;
    }
}
