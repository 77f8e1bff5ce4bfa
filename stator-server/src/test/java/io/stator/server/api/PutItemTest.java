package io.stator.server.api;

import static io.stator.server.testing.DynamoAssertions.assertResourceNotFound;
import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static io.stator.server.testing.ItemTables.ANY_SHAPE;
import static io.stator.server.testing.KeyShape.PARTITION_KEY;
import static io.stator.server.testing.KeyShape.SORT_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.ItemTables;
import io.stator.server.testing.KeyCases;
import io.stator.server.testing.KeyShape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * PutItem against a running Stator, one body per key configuration where keys matter. Expected
 * texts are DynamoDB's, as recorded by dynalite's suite against DynamoDB (see
 * docs/dynamodb/dynamodb-errors.md sections 9 and 10).
 */
class PutItemTest {

    private static final String INVALID = "One or more parameter values were invalid: ";

    @RegisterExtension
    static final ItemTables db = new ItemTables();

    // ---- helpers ----------------------------------------------------------------------------

    private static PutItemResponse put(KeyShape shape, Map<String, AttributeValue> item) {
        return put(shape, item, b -> { });
    }

    private static PutItemResponse put(KeyShape shape, Map<String, AttributeValue> item,
                                       Consumer<PutItemRequest.Builder> options) {
        return db.client().putItem(b -> {
            b.tableName(db.table(shape)).item(item);
            options.accept(b);
        });
    }

    /** Puts an item of one non-key attribute {@code a} with this value, expecting it to be refused. */
    private static void assertValueRefused(String message, AttributeValue value) {
        assertValidation(message, () -> put(ANY_SHAPE, ANY_SHAPE.newItem(Map.of("a", value))));
    }

    private static AttributeValue bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) b[i] = (byte) values[i];
        return AttributeValue.fromB(SdkBytes.fromByteArray(b));
    }

    private static SdkBytes sdkBytes(int... values) {
        return bytes(values).b();
    }

    private static AttributeValue allBytes() {
        int[] all = new int[256];
        for (int i = 0; i < all.length; i++) all[i] = i;
        return bytes(all);
    }

    /** A value nested {@code levels} deep, counting the attribute itself as level 1. */
    private static AttributeValue nestedMaps(int levels) {
        AttributeValue v = AttributeValue.fromS("leaf");
        for (int i = 1; i < levels; i++) v = AttributeValue.fromM(Map.of("n", v));
        return v;
    }

    private static AttributeValue nestedLists(int levels) {
        AttributeValue v = AttributeValue.fromN("1");
        for (int i = 1; i < levels; i++) v = AttributeValue.fromL(List.of(v));
        return v;
    }

    // ---- values round-trip ------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void putItemStoresEveryAttributeTypeExactly(KeyShape shape) {
        Map<String, AttributeValue> nested = new LinkedHashMap<>();
        nested.put("s", AttributeValue.fromS("inner"));
        nested.put("n", AttributeValue.fromN("-56.789"));
        nested.put("b", bytes(1, 2));
        nested.put("bool", AttributeValue.fromBool(true));
        nested.put("null", AttributeValue.fromNul(true));
        nested.put("ss", AttributeValue.fromSs(List.of("a")));
        nested.put("ns", AttributeValue.fromNs(List.of("-56.789")));
        nested.put("bs", AttributeValue.fromBs(List.of(sdkBytes(98))));
        nested.put("emptyL", AttributeValue.fromL(List.of()));
        nested.put("emptyM", AttributeValue.fromM(Map.of()));
        nested.put("m", AttributeValue.fromM(Map.of("a", AttributeValue.fromM(Map.of()),
                "b", AttributeValue.fromL(List.of()))));

        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("s", AttributeValue.fromS("plain text"));
        attributes.put("sEmpty", AttributeValue.fromS(""));
        attributes.put("sUnicode", AttributeValue.fromS("é ü 中文 \uD83D\uDE00 \uD834\uDD1E")); // 😀 and 𝄞
        attributes.put("n", AttributeValue.fromN("-12.5"));
        attributes.put("nZero", AttributeValue.fromN("0"));
        attributes.put("b", allBytes());
        attributes.put("bEmpty", bytes());
        attributes.put("ss", AttributeValue.fromSs(List.of("x", "y", "", "\uD83D\uDE00")));
        attributes.put("ns", AttributeValue.fromNs(List.of("1", "-2.5", "1000", "0.001")));
        attributes.put("bs", AttributeValue.fromBs(List.of(sdkBytes(1), sdkBytes(2, 3), sdkBytes())));
        attributes.put("m", AttributeValue.fromM(nested));
        attributes.put("l", AttributeValue.fromL(new ArrayList<>(nested.values())));
        attributes.put("boolTrue", AttributeValue.fromBool(true));
        attributes.put("boolFalse", AttributeValue.fromBool(false));
        attributes.put("null", AttributeValue.fromNul(true));
        attributes.put("名前 \uD83D\uDE00", AttributeValue.fromS("a name beyond ASCII"));
        Map<String, AttributeValue> item = shape.newItem(attributes);

        PutItemResponse response = put(shape, item);

        assertFalse(response.hasAttributes(), "PutItem answers {} by default");
        assertNull(response.consumedCapacity());
        assertSameItem(item, db.read(shape, item));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void putItemReplacesTheWholeItem(KeyShape shape) {
        Map<String, AttributeValue> first = shape.newItem(Map.of("a", AttributeValue.fromS("1"),
                "b", AttributeValue.fromS("2")));
        put(shape, first);
        Map<String, AttributeValue> second = new HashMap<>(first);
        second.remove("a");
        second.put("c", AttributeValue.fromN("3"));

        put(shape, second);

        assertSameItem(second, db.read(shape, first));
    }

    static Stream<Arguments> numbersAndTheirCanonicalForms() {
        return Stream.of(
                // A leading '+' is a sign (nubo-db/dynoxide#109, captured against DynamoDB:
                // "+5" -> "5", "+1e2" -> "100"; scylladb test/alternator/test_number.py accepts
                // "+3", ".123", "0001.23" on DynamoDB; ExtendDB#7, verified against DynamoDB:
                // "-0" -> "0", "00042" -> "42", "1.0" -> "1").
                Arguments.of("+5", "5"),
                Arguments.of("+1.5", "1.5"),
                Arguments.of("+0", "0"),
                Arguments.of("+1e2", "100"),
                Arguments.of(".123", "0.123"),
                Arguments.of("-0", "0"),
                Arguments.of("00042", "42"),
                Arguments.of("1.0", "1"),
                Arguments.of("1.50", "1.5"),
                Arguments.of("1e2", "100"),
                Arguments.of("1E+2", "100"),
                Arguments.of("-0015.789e6", "-15789000"),
                Arguments.of("0000012345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
                Arguments.of("-00001.23456789012345678901234567890123456780000",
                        "-1.2345678901234567890123456789012345678"),
                // the largest magnitude: 38 nines, exponent 125
                Arguments.of("0009.99999999999999999999999999999999999990000e125", "9".repeat(38) + "0".repeat(88)),
                Arguments.of("-9.9999999999999999999999999999999999999E+125", "-" + "9".repeat(38) + "0".repeat(88)),
                // the smallest magnitude
                Arguments.of("0001.000e-130", "0." + "0".repeat(129) + "1"),
                Arguments.of("-1E-130", "-0." + "0".repeat(129) + "1"),
                Arguments.of("12345678901234567890123456789012345678E-10", "1234567890123456789012345678.9012345678"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("numbersAndTheirCanonicalForms")
    void putItemStoresNumbersInCanonicalForm(String input, String canonical) {
        KeyShape shape = ANY_SHAPE;
        Map<String, AttributeValue> item = shape.newItem(Map.of(
                "n", AttributeValue.fromN(input),
                "ns", AttributeValue.fromNs(List.of(input)),
                "l", AttributeValue.fromL(List.of(AttributeValue.fromN(input))),
                "m", AttributeValue.fromM(Map.of("n", AttributeValue.fromN(input)))));

        put(shape, item);

        Map<String, AttributeValue> stored = db.read(shape, item);
        assertEquals(canonical, stored.get("n").n());
        assertEquals(List.of(canonical), stored.get("ns").ns());
        assertEquals(canonical, stored.get("l").l().get(0).n());
        assertEquals(canonical, stored.get("m").m().get("n").n());
    }

    static Stream<Arguments> invalidNumbers() {
        String digits = "Attempting to store more than 38 significant digits in a Number";
        String overflow = "Number overflow. Attempting to store a number with magnitude larger than supported range";
        String underflow = "Number underflow. Attempting to store a number with magnitude smaller than supported range";
        return Stream.of(
                Arguments.of("123456789012345678901234567890123456789", digits),
                Arguments.of("-1.23456789012345678901234567890123456789", digits),
                Arguments.of("9.99999999999999999999999999999999999999E+125", digits),
                Arguments.of("1e126", overflow),
                Arguments.of("-1e126", overflow),
                Arguments.of("1" + "0".repeat(126), overflow),
                Arguments.of("1e-131", underflow),
                Arguments.of("-1e-131", underflow),
                Arguments.of("0.99e-130", underflow),
                Arguments.of("", "The parameter cannot be converted to a numeric value"),
                Arguments.of("b", "The parameter cannot be converted to a numeric value: b"),
                Arguments.of("1.2.3", "The parameter cannot be converted to a numeric value: 1.2.3"),
                Arguments.of("NaN", "The parameter cannot be converted to a numeric value: NaN"),
                Arguments.of("Infinity", "The parameter cannot be converted to a numeric value: Infinity"),
                // Spaces are not allowed, nor a sign in the wrong place (test_number.py; dynoxide#113).
                Arguments.of(" 1", "The parameter cannot be converted to a numeric value:  1"),
                Arguments.of("1 ", "The parameter cannot be converted to a numeric value: 1 "),
                Arguments.of("1+2", "The parameter cannot be converted to a numeric value: 1+2"),
                Arguments.of("+-1", "The parameter cannot be converted to a numeric value: +-1"),
                Arguments.of("+e2", "The parameter cannot be converted to a numeric value: +e2"),
                Arguments.of("+", "The parameter cannot be converted to a numeric value: +"));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("invalidNumbers")
    void putItemRejectsInvalidNumbers(String number, String message) {
        assertValueRefused(message, AttributeValue.fromN(number));
        assertValueRefused(message, AttributeValue.fromNs(List.of("1", number)));
        assertValueRefused(message, AttributeValue.fromM(Map.of("x", AttributeValue.fromN(number))));
    }

    @Test
    void putItemRejectsEmptySets() {
        assertValueRefused(INVALID + "An string set  may not be empty", AttributeValue.fromSs(List.of()));
        assertValueRefused(INVALID + "An number set  may not be empty", AttributeValue.fromNs(List.of()));
        assertValueRefused(INVALID + "Binary sets should not be empty", AttributeValue.fromBs(List.of()));
    }

    @Test
    void putItemRejectsSetsWithDuplicates() {
        assertValueRefused(INVALID + "Input collection [a, a] contains duplicates.",
                AttributeValue.fromSs(List.of("a", "a")));
        assertValueRefused(INVALID + "Input collection [Yg==, Yg==]of type BS contains duplicates.",
                AttributeValue.fromBs(List.of(sdkBytes('b'), sdkBytes('b'))));
        assertValueRefused("Input collection contains duplicates", AttributeValue.fromNs(List.of("1", "1")));
    }

    @Test
    void putItemRejectsNumberSetWithEqualNumbersWrittenDifferently() {
        assertValueRefused("Input collection contains duplicates", AttributeValue.fromNs(List.of("1", "1.0")));
        assertValueRefused("Input collection contains duplicates", AttributeValue.fromNs(List.of("100", "1E2")));
    }

    @Test
    void putItemRejectsNullOfFalse() {
        assertValueRefused(INVALID + "Null attribute value types must have the value of true",
                AttributeValue.fromNul(false));
    }

    @Test
    void putItemRejectsAttributeValueWithoutAType() {
        String message = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
        assertValueRefused(message, AttributeValue.builder().build());
        assertValueRefused(message, AttributeValue.fromM(Map.of("x", AttributeValue.builder().build())));
        assertValueRefused(message, AttributeValue.fromL(List.of(AttributeValue.builder().build())));
    }

    @Test
    void putItemRejectsAttributeValueWithTwoTypes() {
        String message = "Supplied AttributeValue has more than one datatypes set, "
                + "must contain exactly one of the supported datatypes";
        assertValueRefused(message, AttributeValue.builder().s("a").n("1").build());
        assertValueRefused(message, AttributeValue.builder().bool(true).nul(true).build());
        assertValueRefused(message, AttributeValue.fromL(List.of(AttributeValue.builder().s("a").ss("b").build())));
    }

    @Test
    void putItemChecksEachTypeBeforeCountingTypes() {
        // {S: 'a', N: 'b'}: the invalid number is reported, not the second type (dynalite, DLT).
        assertValueRefused("The parameter cannot be converted to a numeric value: b",
                AttributeValue.builder().s("a").n("b").build());
    }

    @Test
    void putItemAcceptsNesting32LevelsDeepAndRejects33() {
        String message = "Nesting Levels have exceeded supported limits: "
                + "Attributes in the item have nested levels beyond supported limit";
        for (AttributeValue deepest : List.of(nestedMaps(32), nestedLists(32))) {
            Map<String, AttributeValue> item = ANY_SHAPE.newItem(Map.of("deep", deepest));
            put(ANY_SHAPE, item);
            assertSameItem(item, db.read(ANY_SHAPE, item));
        }
        assertValueRefused(message, nestedMaps(33));
        assertValueRefused(message, nestedLists(33));
    }

    @Test
    void putItemRejectsInvalidValueBeforeLookingUpTheTable() {
        assertValidation(INVALID + "Null attribute value types must have the value of true",
                () -> db.client().putItem(b -> b.tableName("no-such-table").item(Map.of("a", AttributeValue.fromNul(false)))));
    }

    // ---- keys -------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void putItemRejectsItemWithoutAKeyAttribute(KeyShape shape) {
        for (String keyName : shape.keyNames()) {
            Map<String, AttributeValue> item = shape.newItem(Map.of("a", AttributeValue.fromS("x")));
            item.remove(keyName);
            assertValidation(INVALID + "Missing the key " + keyName + " in the item", () -> put(shape, item));
        }
        // The partition key is looked for first.
        assertValidation(INVALID + "Missing the key pk in the item", () -> put(shape, Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void putItemRejectsKeyAttributeOfAnotherType(KeyShape shape) {
        for (String keyName : shape.keyNames()) {
            String expected = shape.keyType(keyName).toString();
            KeyCases.oneValueOfEachType().forEach((type, value) -> {
                if (type.equals(expected)) return;
                Map<String, AttributeValue> item = shape.newItem(Map.of());
                item.put(keyName, value);
                assertValidation(INVALID + "Type mismatch for key " + keyName + " expected: " + expected
                        + " actual: " + type, () -> put(shape, item));
            });
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("io.stator.server.testing.KeyShape#stringOrBinaryKeys")
    void putItemRejectsEmptyStringOrBinaryKey(KeyShape shape, String keyName) {
        ScalarAttributeType type = shape.keyType(keyName);
        Map<String, AttributeValue> item = shape.newItem(Map.of());
        item.put(keyName, KeyShape.emptyValue(type));
        // PutItem's wording ("are not valid.") differs from GetItem's and DeleteItem's.
        assertValidation("One or more parameter values are not valid. The AttributeValue for a key attribute "
                + "cannot contain an empty " + (type == ScalarAttributeType.S ? "string" : "binary")
                + " value. Key: " + keyName, () -> put(shape, item));
    }

    /** Puts an item whose key attribute is at its length limit, then one whose key is just over it. */
    private static void assertKeyLengthLimit(KeyShape shape, String keyName, AttributeValue atLimit,
                                             AttributeValue overLimit) {
        Map<String, AttributeValue> item = shape.newItem(Map.of());
        item.put(keyName, atLimit);
        put(shape, item);
        assertSameItem(item, db.read(shape, item));

        item.put(keyName, overLimit);
        assertValidation(keyName.equals(PARTITION_KEY) ? KeyCases.PARTITION_KEY_TOO_LONG : KeyCases.SORT_KEY_TOO_LONG,
                () -> put(shape, item));
    }

    /** A partition key may be 2048 bytes, a sort key 1024, whether strings or binaries. */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("io.stator.server.testing.KeyShape#stringOrBinaryKeys")
    void putItemAcceptsKeysOf2048And1024BytesAndRejectsOneByteMore(KeyShape shape, String keyName) {
        ScalarAttributeType type = shape.keyType(keyName);
        int limit = KeyShape.maxKeyBytes(keyName);
        assertKeyLengthLimit(shape, keyName, KeyShape.valueOfLength(type, limit, KeyShape.nextNumber()),
                KeyShape.valueOfLength(type, limit + 1, KeyShape.nextNumber()));
    }

    /** Key limits count UTF-8 bytes: a character may be 1, 2, 3 or 4 of them. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"é", "中", "\uD83D\uDE00"})
    void putItemCountsKeyLengthInUtf8Bytes(String character) {
        KeyShape shape = new KeyShape(ScalarAttributeType.S, ScalarAttributeType.S);
        int perChar = (int) DynamoSize.utf8(character);
        for (String keyName : List.of(PARTITION_KEY, SORT_KEY)) {
            int limit = KeyShape.maxKeyBytes(keyName);
            String atLimit = character.repeat(limit / perChar) + "a".repeat(limit % perChar);
            // One character more than fits, though far fewer UTF-16 chars than the limit.
            String overLimit = character.repeat(limit / perChar + 1);
            assertKeyLengthLimit(shape, keyName, AttributeValue.fromS(atLimit), AttributeValue.fromS(overLimit));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withNumberKey")
    void putItemAcceptsNumberKeysOfAnyLength(KeyShape shape) {
        Map<String, AttributeValue> item = shape.newItem(Map.of());
        // Unique numbers of 38 digits, at the largest and at the smallest magnitude there is.
        String digits = String.format("%036d", KeyShape.nextNumber());
        if (shape.partitionKeyType() == ScalarAttributeType.N) {
            item.put(PARTITION_KEY, AttributeValue.fromN("-1" + digits + "1" + "0".repeat(88)));
        }
        if (shape.sortKeyType() == ScalarAttributeType.N) {
            item.put(SORT_KEY, AttributeValue.fromN("-0." + "0".repeat(129) + "1" + digits + "1"));
        }
        put(shape, item);
        assertSameItem(item, db.read(shape, item));
    }

    /**
     * Key numbers are normalised as other numbers are, so that "+7", "7.0" and "7" name one item
     * (scylladb PR #29501: "DynamoDB normalizes Number values, so different string representations
     * of the same number ... should be treated as the same value in all contexts").
     */
    @ParameterizedTest
    @MethodSource("io.stator.server.testing.KeyShape#withNumberKey")
    void numberKeysWrittenWithAPlusOrTrailingZerosNameTheSameItem(KeyShape shape) {
        long n = KeyShape.nextNumber();
        Map<String, AttributeValue> written = shape.newItem(Map.of("v", AttributeValue.fromS("x")));
        Map<String, AttributeValue> plain = new HashMap<>(written);
        for (String key : shape.keyNames()) {
            if (shape.keyType(key) != ScalarAttributeType.N) continue;
            written.put(key, AttributeValue.fromN("+" + n + ".00"));
            plain.put(key, AttributeValue.fromN(Long.toString(n)));
        }
        put(shape, written);
        assertSameItem(plain, db.read(shape, plain));
        assertSameItem(plain, db.read(shape, written));
    }

    /**
     * An attribute name may be up to 65,535 bytes, at the top level or in a map; one byte more is
     * a ValidationException (scylladb test/alternator/test_limits.py: 65,535 "is the last
     * accepted size"; the text as measured against DynamoDB in ExtendDB#365).
     */
    @Test
    void attributeNamesOf65535BytesAreStoredAndOneByteMoreIsAValidationError() {
        String longest = "é".repeat(32_767) + "x"; // 65,535 bytes of UTF-8
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(Map.of(longest, AttributeValue.fromS("top"),
                "m", AttributeValue.fromM(Map.of(longest, AttributeValue.fromS("nested")))));
        put(ANY_SHAPE, item);
        assertSameItem(item, db.read(ANY_SHAPE, item));

        String message = "1 validation error detected: Attribute name is too large, must be less than 65536 bytes";
        String tooLong = longest + "y";
        assertValidation(message, () -> put(ANY_SHAPE, ANY_SHAPE.newItem(Map.of(tooLong, AttributeValue.fromS("top")))));
        assertValueRefused(message, AttributeValue.fromM(Map.of(tooLong, AttributeValue.fromS("nested"))));
        assertValueRefused(message, AttributeValue.fromL(List.of(AttributeValue.fromM(Map.of(tooLong, AttributeValue.fromS("deep"))))));
    }

    /**
     * An attribute name is at least one character long (DynamoDB developer guide, "Supported data
     * types and naming rules"), at the top level or in a map; a one-character name is stored. The
     * text is inferred, not recorded (see RequestReader.attributeNameFault).
     */
    @Test
    void anEmptyAttributeNameIsAValidationErrorAndChangesNothing() {
        Map<String, AttributeValue> shortest = ANY_SHAPE.newItem(Map.of("x", AttributeValue.fromS("top"),
                "m", AttributeValue.fromM(Map.of("y", AttributeValue.fromS("nested")))));
        put(ANY_SHAPE, shortest);
        assertSameItem(shortest, db.read(ANY_SHAPE, shortest));

        String message = "1 validation error detected: Empty attribute name";
        Map<String, AttributeValue> refused = ANY_SHAPE.newItem(Map.of("", AttributeValue.fromS("top")));
        assertValidation(message, () -> put(ANY_SHAPE, refused));
        assertNull(db.read(ANY_SHAPE, refused));
        assertValueRefused(message, AttributeValue.fromM(Map.of("", AttributeValue.fromS("nested"))));
        assertValueRefused(message, AttributeValue.fromL(List.of(AttributeValue.fromM(Map.of("", AttributeValue.fromS("deep"))))));
    }

    @Test
    void putItemOnMissingTableIsResourceNotFound() {
        assertResourceNotFound("Requested resource not found", () -> db.client().putItem(b -> b.tableName("no-such-table")
                .item(Map.of("a", AttributeValue.fromS("x")))));
        // Key checks need the table, so an item without any key is still "not found".
        assertResourceNotFound("Requested resource not found",
                () -> db.client().putItem(b -> b.tableName("no-such-table").item(Map.of())));
    }

    // ---- item size --------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void putItemAcceptsItemOfExactly400KB(KeyShape shape) {
        Map<String, AttributeValue> item = DynamoSize.padded(shape.newItem(Map.of()), 409_600);
        put(shape, item);
        assertSameItem(item, db.read(shape, item));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void putItemRejectsItemLargerThan400KB(KeyShape shape) {
        Map<String, AttributeValue> item = DynamoSize.padded(shape.newItem(Map.of()), 409_601);
        assertValidation("Item size has exceeded the maximum allowed size", () -> put(shape, item));
        assertNull(db.read(shape, item), "a refused item is not stored");
    }

    @Test
    void putItemMeasuresStringsAndNamesInUtf8Bytes() {
        Map<String, AttributeValue> base = ANY_SHAPE.newItem(Map.of("名前", AttributeValue.fromS("中文")));
        for (String fill : List.of("é", "中", "\uD83D\uDE00")) {
            Map<String, AttributeValue> fits = DynamoSize.padded(base, "filler", fill, 409_600);
            put(ANY_SHAPE, fits);
            assertSameItem(fits, db.read(ANY_SHAPE, fits));
            Map<String, AttributeValue> tooBig = DynamoSize.padded(base, "filler", fill, 409_601);
            assertValidation("Item size has exceeded the maximum allowed size", () -> put(ANY_SHAPE, tooBig));
        }
    }

    @Test
    void putItemCountsEveryTypeTowardTheItemSize() {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("n38", AttributeValue.fromN("1".repeat(38) + "0".repeat(88)));
        attributes.put("nSmall", AttributeValue.fromN("-0.015"));
        attributes.put("b", allBytes());
        attributes.put("ss", AttributeValue.fromSs(List.of("x", "yy")));
        attributes.put("ns", AttributeValue.fromNs(List.of("1", "12.5")));
        attributes.put("bs", AttributeValue.fromBs(List.of(sdkBytes(1, 2), sdkBytes(3))));
        attributes.put("bool", AttributeValue.fromBool(false));
        attributes.put("null", AttributeValue.fromNul(true));
        attributes.put("m", AttributeValue.fromM(Map.of("k", AttributeValue.fromS("v"),
                "l", AttributeValue.fromL(List.of(AttributeValue.fromN("7"), AttributeValue.fromM(Map.of()))))));
        Map<String, AttributeValue> base = ANY_SHAPE.newItem(attributes);

        Map<String, AttributeValue> fits = DynamoSize.padded(base, 409_600);
        put(ANY_SHAPE, fits);
        assertSameItem(fits, db.read(ANY_SHAPE, fits));
        assertValidation("Item size has exceeded the maximum allowed size",
                () -> put(ANY_SHAPE, DynamoSize.padded(base, 409_601)));
    }

    @Test
    void putItemChecksSizeBeforeLookingUpTheTable() {
        Map<String, AttributeValue> item = Map.of("a", AttributeValue.fromS("key"));
        assertValidation("Item size has exceeded the maximum allowed size", () -> db.client().putItem(b -> b
                .tableName("no-such-table").item(DynamoSize.padded(item, 409_601))));
        assertResourceNotFound("Requested resource not found", () -> db.client().putItem(b -> b
                .tableName("no-such-table").item(DynamoSize.padded(item, 409_600))));
    }

    @Test
    void putItemChecksReturnValuesBeforeSizeAndSizeBeforeConditions() {
        Map<String, AttributeValue> tooBig = DynamoSize.padded(ANY_SHAPE.newKey(), 409_601);
        assertValidation("ReturnValues can only be ALL_OLD or NONE",
                () -> put(ANY_SHAPE, tooBig, b -> b.returnValues(ReturnValue.ALL_NEW)));
        // An invalid condition ({} says neither Value nor Exists) loses to the size (dynalite's suite).
        assertValidation("Item size has exceeded the maximum allowed size",
                () -> put(ANY_SHAPE, tooBig, b -> b.expected(Map.of("a", ExpectedAttributeValue.builder().build()))));
    }

    // ---- ReturnValues -----------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void putItemReturnsTheOldItemWithAllOld(KeyShape shape) {
        Map<String, AttributeValue> first = shape.newItem(Map.of("b", AttributeValue.fromN("-0015.789e6"),
                "c", AttributeValue.fromS("a")));
        PutItemResponse none = put(shape, first, b -> b.returnValues(ReturnValue.ALL_OLD));
        assertFalse(none.hasAttributes(), "no old item, no Attributes");

        Map<String, AttributeValue> second = new HashMap<>(first);
        second.put("b", AttributeValue.fromS("b"));
        PutItemResponse replaced = put(shape, second, b -> b.returnValues(ReturnValue.ALL_OLD));

        Map<String, AttributeValue> expectedOld = new HashMap<>(first);
        expectedOld.put("b", AttributeValue.fromN("-15789000"));
        assertSameItem(expectedOld, replaced.attributes());
    }

    @Test
    void putItemReturnsNothingWithReturnValuesNone() {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(Map.of("a", AttributeValue.fromS("x")));
        put(ANY_SHAPE, item);
        PutItemResponse response = put(ANY_SHAPE, item, b -> b.returnValues(ReturnValue.NONE));
        assertFalse(response.hasAttributes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"})
    void putItemRejectsReturnValuesOtherThanAllOldOrNone(String returnValues) {
        assertValidation("ReturnValues can only be ALL_OLD or NONE",
                () -> put(ANY_SHAPE, ANY_SHAPE.newItem(Map.of()), b -> b.returnValues(returnValues)));
    }

    @Test
    void putItemRejectsUnknownReturnValues() {
        assertValidation("1 validation error detected: Value 'hi' at 'returnValues' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]",
                () -> put(ANY_SHAPE, ANY_SHAPE.newItem(Map.of()), b -> b.returnValues("hi")));
    }

    // ---- consumed capacity ------------------------------------------------------------------

    private static double consumedWriteUnits(KeyShape shape, Map<String, AttributeValue> item) {
        PutItemResponse r = put(shape, item, b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        return db.totalUnits(shape, r.consumedCapacity());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void putItemConsumesOneWriteUnitPerKBOfTheLargerOfOldAndNewItem(KeyShape shape) {
        Map<String, AttributeValue> key = shape.newKey();
        assertEquals(1.0, consumedWriteUnits(shape, key), "a tiny item");
        assertEquals(1.0, consumedWriteUnits(shape, DynamoSize.padded(key, 1024)), "exactly 1 KB");
        assertEquals(2.0, consumedWriteUnits(shape, DynamoSize.padded(key, 1025)), "1 KB + 1 byte");
        assertEquals(2.0, consumedWriteUnits(shape, DynamoSize.padded(key, 1536)), "1.5 KB");
        assertEquals(2.0, consumedWriteUnits(shape, key), "replacing 1.5 KB with a tiny item costs the old size");
        assertEquals(1.0, consumedWriteUnits(shape, key), "tiny over tiny");
        assertEquals(400.0, consumedWriteUnits(shape, DynamoSize.padded(key, 409_600)), "400 KB");
    }

    @Test
    void putItemReportsCapacityPerTableWithIndexes() {
        PutItemResponse r = put(ANY_SHAPE, DynamoSize.padded(ANY_SHAPE.newKey(), 1500),
                b -> b.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertEquals(db.table(ANY_SHAPE), r.consumedCapacity().tableName());
        assertEquals(2.0, r.consumedCapacity().capacityUnits());
        assertEquals(2.0, r.consumedCapacity().table().capacityUnits());
    }

    @Test
    void putItemReportsNoCapacityWithNone() {
        PutItemResponse r = put(ANY_SHAPE, ANY_SHAPE.newKey(), b -> b.returnConsumedCapacity(ReturnConsumedCapacity.NONE));
        assertNull(r.consumedCapacity());
    }

    @Test
    void putItemByTableArnReportsCapacityUnderTheArn() {
        String arn = db.client().describeTable(b -> b.tableName(db.table(ANY_SHAPE))).table().tableArn();
        Map<String, AttributeValue> item = ANY_SHAPE.newKey();
        PutItemResponse r = db.client().putItem(b -> b.tableName(arn).item(item)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(arn, r.consumedCapacity().tableName());
        assertSameItem(item, db.read(ANY_SHAPE, item));
    }

    // ---- not yet supported ------------------------------------------------------------------

    // ---- concurrency ------------------------------------------------------------------------

    private static final int THREADS = 8;

    /** One write of a concurrency test: the {@code i}th of thread {@code thread}. */
    @FunctionalInterface
    private interface Write {
        void run(int thread, int i);
    }

    /** Runs {@code writes} writes on each of {@link #THREADS} threads at once; rethrows any failure. */
    private static void inParallel(int writes, Write write) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < writes; i++) write.run(thread, i);
                    return null;
                }));
            }
            for (Future<?> f : futures) f.get();
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void concurrentPutsAndDeletesOfDistinctKeysLoseNothing(KeyShape shape) throws Exception {
        int perThread = 40;
        Map<Map<String, AttributeValue>, Map<String, AttributeValue>> expected = new ConcurrentHashMap<>();
        inParallel(perThread, (thread, i) -> {
            Map<String, AttributeValue> key = shape.newKey();
            Map<String, AttributeValue> item = new HashMap<>(key);
            item.put("writer", AttributeValue.fromN(Integer.toString(thread)));
            item.put("i", AttributeValue.fromN(Integer.toString(i)));
            put(shape, item);
            if (i % 3 == 0) {
                db.client().deleteItem(b -> b.tableName(db.table(shape)).key(key));
            } else {
                expected.put(key, item);
            }
        });
        assertEquals(THREADS * (perThread - (perThread + 2) / 3), expected.size());
        expected.forEach((key, item) -> assertSameItem(item, db.read(shape, key)));
    }

    /**
     * Eight threads write one item at once, each put or delete asking for the item it replaced.
     * If every write is atomic, each version put is replaced (and so returned) exactly once, or
     * is the one left at the end: no write is lost or seen twice.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void concurrentWritesToOneItemEachReplaceExactlyOneOther(KeyShape shape) throws Exception {
        int perThread = 50;
        Map<String, AttributeValue> key = shape.newKey();
        List<String> replaced = Collections.synchronizedList(new ArrayList<>());
        inParallel(perThread, (thread, i) -> {
            Map<String, AttributeValue> old;
            if (i % 5 == 4) {
                old = db.client().deleteItem(b -> b.tableName(db.table(shape)).key(key)
                        .returnValues(ReturnValue.ALL_OLD)).attributes();
            } else {
                Map<String, AttributeValue> item = new HashMap<>(key);
                item.put("version", AttributeValue.fromS(thread + "-" + i));
                old = put(shape, item, b -> b.returnValues(ReturnValue.ALL_OLD)).attributes();
            }
            if (!old.isEmpty()) replaced.add(old.get("version").s());
        });
        List<String> seen = new ArrayList<>(replaced);
        Map<String, AttributeValue> last = db.read(shape, key);
        if (last != null) seen.add(last.get("version").s());
        List<String> written = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < perThread; i++) if (i % 5 != 4) written.add(t + "-" + i);
        }
        Collections.sort(seen);
        Collections.sort(written);
        // Writes followed by a delete are returned by that delete; all others by the next put.
        assertEquals(written, seen);
    }
}
