package io.stator.server.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * One primary-key configuration of a table: a partition key "pk" of type S, N or B and,
 * optionally, a sort key "sk" of type S, N or B. {@link #all()} is every configuration, for
 * tests that run one body over each (JUnit's {@code @MethodSource}).
 *
 * @param sortKeyType null for a table with a partition key only
 */
public record KeyShape(ScalarAttributeType partitionKeyType, ScalarAttributeType sortKeyType) {

    public static final String PARTITION_KEY = "pk";
    public static final String SORT_KEY = "sk";

    private static final List<ScalarAttributeType> KEY_TYPES =
            List.of(ScalarAttributeType.S, ScalarAttributeType.N, ScalarAttributeType.B);
    /** Makes every key this JVM hands out unique, across tests sharing a table. */
    private static final AtomicLong NEXT_KEY = new AtomicLong(1);

    /** Partition key only, of each type; then partition and sort key, of each pair of types. */
    public static Stream<KeyShape> all() {
        List<KeyShape> shapes = new ArrayList<>();
        for (ScalarAttributeType p : KEY_TYPES) shapes.add(new KeyShape(p, null));
        for (ScalarAttributeType p : KEY_TYPES) {
            for (ScalarAttributeType s : KEY_TYPES) shapes.add(new KeyShape(p, s));
        }
        return shapes.stream();
    }

    /** Only the configurations with a number key attribute. */
    public static Stream<KeyShape> withNumberKey() {
        return all().filter(shape -> shape.stringOrBinaryKeyNames().size() < shape.keyNames().size());
    }

    /** Only the configurations with a sort key. */
    public static Stream<KeyShape> withSortKey() {
        return all().filter(KeyShape::hasSortKey);
    }

    /**
     * Every key attribute of type S or B in every configuration, as (shape, key attribute name):
     * the key values that can be empty or too long.
     */
    public static Stream<Arguments> stringOrBinaryKeys() {
        return all().flatMap(shape -> shape.stringOrBinaryKeyNames().stream().map(name -> Arguments.of(shape, name)));
    }

    public boolean hasSortKey() { return sortKeyType != null; }

    /** The key attribute names: the partition key's, then the sort key's if there is one. */
    public List<String> keyNames() {
        return hasSortKey() ? List.of(PARTITION_KEY, SORT_KEY) : List.of(PARTITION_KEY);
    }

    /** The key attributes whose values have a length (S or B; not N), which may be empty or too long. */
    public List<String> stringOrBinaryKeyNames() {
        return keyNames().stream().filter(name -> keyType(name) != ScalarAttributeType.N).toList();
    }

    public ScalarAttributeType keyType(String keyName) {
        return keyName.equals(PARTITION_KEY) ? partitionKeyType : sortKeyType;
    }

    /** The byte limit of a key attribute's value: 2048 for a partition key, 1024 for a sort key. */
    public static int maxKeyBytes(String keyName) {
        return keyName.equals(PARTITION_KEY) ? 2048 : 1024;
    }

    /** Creates a table of this shape (on-demand) and returns its name. */
    public String createTable(DynamoDbClient client) {
        String name = StatorTestServer.tableName();
        List<KeySchemaElement> keySchema = new ArrayList<>();
        keySchema.add(KeySchemaElement.builder().attributeName(PARTITION_KEY).keyType(KeyType.HASH).build());
        if (hasSortKey()) {
            keySchema.add(KeySchemaElement.builder().attributeName(SORT_KEY).keyType(KeyType.RANGE).build());
        }
        client.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST).keySchema(keySchema)
                .attributeDefinitions(hasSortKey()
                        ? List.of(definition(PARTITION_KEY, partitionKeyType), definition(SORT_KEY, sortKeyType))
                        : List.of(definition(PARTITION_KEY, partitionKeyType))));
        return name;
    }

    /** Creates one table of every shape; returns the table names by shape. */
    public static Map<KeyShape, String> createTables(DynamoDbClient client) {
        Map<KeyShape, String> tables = new LinkedHashMap<>();
        all().forEach(shape -> tables.put(shape, shape.createTable(client)));
        return tables;
    }

    private static AttributeDefinition definition(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    /** A key no other call has returned: the key attributes only. */
    public Map<String, AttributeValue> newKey() {
        long n = NEXT_KEY.getAndIncrement();
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        key.put(PARTITION_KEY, value(partitionKeyType, n));
        if (hasSortKey()) key.put(SORT_KEY, value(sortKeyType, n));
        return key;
    }

    /** A new key plus the given attributes. */
    public Map<String, AttributeValue> newItem(Map<String, AttributeValue> attributes) {
        Map<String, AttributeValue> item = newKey();
        item.putAll(attributes);
        return item;
    }

    /** A distinct non-empty value of a key type, for each n. */
    public static AttributeValue value(ScalarAttributeType type, long n) {
        return switch (type) {
            case S -> AttributeValue.fromS("key-" + n);
            case N -> AttributeValue.fromN(Long.toString(n));
            case B -> AttributeValue.fromB(SdkBytes.fromByteBuffer(ByteBuffer.allocate(8).putLong(0, n)));
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** A value of that key type that is the given type's "empty" (S and B only). */
    public static AttributeValue emptyValue(ScalarAttributeType type) {
        return switch (type) {
            case S -> AttributeValue.fromS("");
            case B -> AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0]));
            default -> throw new IllegalArgumentException("numbers cannot be empty");
        };
    }

    /** A value of that key type (S or B) that is exactly {@code bytes} long, made unique by n. */
    public static AttributeValue valueOfLength(ScalarAttributeType type, int bytes, long n) {
        byte[] b = new byte[bytes];
        Arrays.fill(b, (byte) 'x');
        byte[] suffix = Long.toString(n).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(suffix, 0, b, 0, suffix.length);
        return switch (type) {
            case S -> AttributeValue.fromS(new String(b, StandardCharsets.US_ASCII));
            case B -> AttributeValue.fromB(SdkBytes.fromByteArray(b));
            default -> throw new IllegalArgumentException("numbers have no byte length");
        };
    }

    /** A unique number for callers that build their own key values. */
    public static long nextNumber() {
        return NEXT_KEY.getAndIncrement();
    }

    @Override
    public String toString() {
        return "pk " + partitionKeyType + (hasSortKey() ? ", sk " + sortKeyType : "");
    }
}
