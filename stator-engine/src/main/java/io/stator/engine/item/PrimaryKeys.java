package io.stator.engine.item;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.Utf8;
import io.stator.core.model.AttributeValue;
import io.stator.engine.table.KeySchema;
import java.util.Map;

/**
 * DynamoDB's checks on primary keys, with its messages: in an item (PutItem) the key attributes
 * must be present and of the declared type; a Key parameter (GetItem, DeleteItem) must hold
 * exactly the key attributes. Key values may not be empty strings or binaries; a partition key is
 * at most 2048 bytes, a sort key at most 1024 (numbers always fit).
 */
public final class PrimaryKeys {

    public static final int MAX_PARTITION_KEY_BYTES = 2048;
    public static final int MAX_SORT_KEY_BYTES = 1024;

    private static final String INVALID = "One or more parameter values were invalid: ";

    private PrimaryKeys() {}

    /** Checks the key attributes of a whole item. */
    public static void checkItem(KeySchema schema, Map<String, AttributeValue> item) {
        checkItemAttribute(item, schema.partitionKey(), schema.partitionKeyType(), true);
        if (schema.hasSortKey()) checkItemAttribute(item, schema.sortKey(), schema.sortKeyType(), false);
    }

    private static void checkItemAttribute(Map<String, AttributeValue> item, String name,
                                           AttributeValue.Type type, boolean partition) {
        AttributeValue value = item.get(name);
        if (value == null) {
            throw new KeySchemaMismatchException(INVALID + "Missing the key " + name + " in the item");
        }
        if (value.type() != type) {
            throw new KeySchemaMismatchException(
                    INVALID + "Type mismatch for key " + name + " expected: " + type + " actual: " + value.type());
        }
        if (isEmpty(value)) {
            // PutItem words this differently from a Key parameter (DynamoDB's own inconsistency).
            throw DynamoDbException.validation("One or more parameter values are not valid. "
                    + "The AttributeValue for a key attribute cannot contain an empty " + kindOf(value)
                    + " value. Key: " + name);
        }
        checkSize(value, partition);
    }

    /** Checks a Key parameter: exactly the table's key attributes, of the declared types. */
    public static void checkKey(KeySchema schema, Map<String, AttributeValue> key) {
        if (key.size() != schema.size()) throw doesNotMatchSchema();
        checkKeyAttribute(key, schema.partitionKey(), schema.partitionKeyType(), true);
        if (schema.hasSortKey()) checkKeyAttribute(key, schema.sortKey(), schema.sortKeyType(), false);
    }

    private static void checkKeyAttribute(Map<String, AttributeValue> key, String name,
                                          AttributeValue.Type type, boolean partition) {
        AttributeValue value = key.get(name);
        if (value == null) throw doesNotMatchSchema();
        checkKeyValue(name, type, value, partition);
    }

    /**
     * Checks one key attribute's value in a key (Key, ExclusiveStartKey): its type, that it is
     * not an empty string or binary, and its size.
     */
    public static void checkKeyValue(String name, AttributeValue.Type type, AttributeValue value, boolean partition) {
        if (value.type() != type) throw doesNotMatchSchema();
        if (isEmpty(value)) {
            throw DynamoDbException.invalidParameter("The AttributeValue for a key attribute cannot contain an empty "
                    + kindOf(value) + " value. Key: " + name);
        }
        checkSize(value, partition);
    }

    public static KeySchemaMismatchException doesNotMatchSchema() {
        return new KeySchemaMismatchException("The provided key element does not match the schema");
    }

    private static boolean isEmpty(AttributeValue value) {
        return value instanceof AttributeValue.S s ? s.value().isEmpty()
                : value instanceof AttributeValue.B b && b.value().length == 0;
    }

    private static String kindOf(AttributeValue value) {
        return value instanceof AttributeValue.S ? "string" : "binary";
    }

    private static void checkSize(AttributeValue value, boolean partition) {
        int bytes = switch (value) {
            case AttributeValue.S s -> Utf8.encodedLength(s.value());
            case AttributeValue.B b -> b.value().length;
            default -> 0; // numbers always fit
        };
        if (partition && bytes > MAX_PARTITION_KEY_BYTES) {
            throw DynamoDbException.invalidParameter(
                    "Size of hashkey has exceeded the maximum size limit of" + MAX_PARTITION_KEY_BYTES + " bytes");
        }
        if (!partition && bytes > MAX_SORT_KEY_BYTES) {
            throw DynamoDbException.invalidParameter(
                    "Aggregated size of all range keys has exceeded the size limit of " + MAX_SORT_KEY_BYTES + " bytes");
        }
    }
}
