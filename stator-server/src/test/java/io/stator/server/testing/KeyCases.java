package io.stator.server.testing;

import static io.stator.server.testing.KeyShape.PARTITION_KEY;
import static io.stator.server.testing.KeyShape.SORT_KEY;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Key parameters (GetItem's and DeleteItem's {@code Key}) that DynamoDB refuses, for a table of a
 * given shape, each with DynamoDB's message (dynalite's getItem and deleteItem tests, recorded
 * against DynamoDB; docs/dynamodb/dynamodb-errors.md section 9.3).
 */
public final class KeyCases {

    public static final String DOES_NOT_MATCH = "The provided key element does not match the schema";
    public static final String PARTITION_KEY_TOO_LONG =
            "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes";
    public static final String SORT_KEY_TOO_LONG = "One or more parameter values were invalid: "
            + "Aggregated size of all range keys has exceeded the size limit of 1024 bytes";

    /** A refused key and what DynamoDB says about it. */
    public record InvalidKey(String description, Map<String, AttributeValue> key, String message) {
        @Override public String toString() { return description; }
    }

    private KeyCases() {}

    /** One value of every type DynamoDB has, by its type name. */
    public static Map<String, AttributeValue> oneValueOfEachType() {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put("S", AttributeValue.fromS("a"));
        values.put("N", AttributeValue.fromN("1"));
        values.put("B", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {1})));
        values.put("BOOL", AttributeValue.fromBool(true));
        values.put("NULL", AttributeValue.fromNul(true));
        values.put("SS", AttributeValue.fromSs(List.of("a")));
        values.put("NS", AttributeValue.fromNs(List.of("1")));
        values.put("BS", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] {1}))));
        values.put("M", AttributeValue.fromM(Map.of()));
        values.put("L", AttributeValue.fromL(List.of()));
        return values;
    }

    /** Every refused Key for a table of this shape. */
    public static List<InvalidKey> invalidKeys(KeyShape shape) {
        List<InvalidKey> cases = new ArrayList<>();
        cases.add(new InvalidKey("no attributes", Map.of(), DOES_NOT_MATCH));
        Map<String, AttributeValue> extra = shape.newKey();
        extra.put("other", AttributeValue.fromS("x"));
        cases.add(new InvalidKey("an attribute beyond the key", extra, DOES_NOT_MATCH));
        Map<String, AttributeValue> renamed = shape.newKey();
        renamed.put("other", renamed.remove(PARTITION_KEY));
        cases.add(new InvalidKey("the partition key under another name", renamed, DOES_NOT_MATCH));
        if (shape.hasSortKey()) {
            Map<String, AttributeValue> noSortKey = shape.newKey();
            noSortKey.remove(SORT_KEY);
            cases.add(new InvalidKey("no sort key", noSortKey, DOES_NOT_MATCH));
            Map<String, AttributeValue> noPartitionKey = shape.newKey();
            noPartitionKey.remove(PARTITION_KEY);
            cases.add(new InvalidKey("no partition key", noPartitionKey, DOES_NOT_MATCH));
        } else {
            Map<String, AttributeValue> sortKeyToo = shape.newKey();
            sortKeyToo.put(SORT_KEY, AttributeValue.fromS("x"));
            cases.add(new InvalidKey("a sort key the table does not have", sortKeyToo, DOES_NOT_MATCH));
        }
        for (String name : shape.keyNames()) addPerKeyAttribute(cases, shape, name);
        return cases;
    }

    private static void addPerKeyAttribute(List<InvalidKey> cases, KeyShape shape, String name) {
        ScalarAttributeType type = shape.keyType(name);
        int maxBytes = KeyShape.maxKeyBytes(name);
        String tooLong = name.equals(PARTITION_KEY) ? PARTITION_KEY_TOO_LONG : SORT_KEY_TOO_LONG;
        oneValueOfEachType().forEach((typeName, value) -> {
            if (!typeName.equals(type.toString())) {
                cases.add(new InvalidKey(name + " of type " + typeName, with(shape, name, value), DOES_NOT_MATCH));
            }
        });
        if (type == ScalarAttributeType.N) return; // numbers are never empty or too long
        String kind = type == ScalarAttributeType.S ? "string" : "binary";
        // GetItem and DeleteItem say "were invalid:", where PutItem says "are not valid.".
        cases.add(new InvalidKey("empty " + name, with(shape, name, KeyShape.emptyValue(type)),
                "One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an "
                        + "empty " + kind + " value. Key: " + name));
        cases.add(new InvalidKey(name + " of " + (maxBytes + 1) + " bytes",
                with(shape, name, KeyShape.valueOfLength(type, maxBytes + 1, KeyShape.nextNumber())), tooLong));
        if (type == ScalarAttributeType.S) {
            // Fewer UTF-16 chars than the limit, more UTF-8 bytes: one three-byte char too many.
            String utf8TooLong = "中".repeat(maxBytes / 3 + 1);
            cases.add(new InvalidKey(name + " of " + (maxBytes / 3 + 1) + " three-byte characters",
                    with(shape, name, AttributeValue.fromS(utf8TooLong)), tooLong));
        }
    }

    /** Keys at the length limits, which DynamoDB accepts. */
    public static List<Map<String, AttributeValue>> longestKeys(KeyShape shape) {
        return shape.stringOrBinaryKeyNames().stream().map(name -> with(shape, name, KeyShape.valueOfLength(
                shape.keyType(name), KeyShape.maxKeyBytes(name), KeyShape.nextNumber()))).toList();
    }

    private static Map<String, AttributeValue> with(KeyShape shape, String name, AttributeValue value) {
        Map<String, AttributeValue> key = shape.newKey();
        key.put(name, value);
        return key;
    }
}
