package io.stator.core.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.AttributeValue.Type;
import io.stator.core.testing.FuzzedValues;
import io.stator.core.testing.InputTimeLimit;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Fuzz test (Jazzer) of the key encodings, {@link KeyEncoding} and {@link KeyLayout}. Stored keys
 * are read back on every Query, Scan and LastEvaluatedKey, so a damaged or foreign key must fail
 * with the decoders' documented {@link IllegalArgumentException}, nothing else; and every valid
 * key must survive encoding: decoded back equal, and ordered by its bytes as DynamoDB orders the
 * values.
 *
 * <p>Half the inputs are bytes given to a decoder: arbitrary ones, or a real row key with a few
 * bytes changed (a number that decodes must encode back to the same bytes: the N encoding is
 * canonical); the other half build key values and check the round trip and the order.
 *
 * <p>{@code ./mvnw verify} runs each fuzz test (a class named *FuzzTest, one target each) for a
 * few seconds in its own JVM, starting from its committed corpus in
 * {@code src/test/resources/<package>/<Class>Inputs/<method>/}; {@code ./mvnw -Pfuzz test} runs
 * them for minutes each (see the fuzz profile in the parent pom). A failing input is written into
 * that corpus directory: fix the code, keep the input as a regression test.
 */
class KeyEncodingFuzzTest {

    @FuzzTest
    void keysDecodeOrFailCleanlyAndRoundTripInOrder(FuzzedDataProvider data) {
        InputTimeLimit.run(null, () -> {
            if (data.consumeBoolean()) {
                roundTrip(data);
            } else {
                decodeArbitraryBytes(data);
            }
        });
    }

    private static void decodeArbitraryBytes(FuzzedDataProvider data) {
        Type first = FuzzedValues.keyType(data);
        Type second = data.consumeBoolean() ? FuzzedValues.keyType(data) : null;
        Type third = FuzzedValues.keyType(data);
        Type fourth = data.consumeBoolean() ? FuzzedValues.keyType(data) : null;
        int decoder = data.consumeInt(0, 3);
        byte[] bytes;
        if (decoder >= 2 && data.consumeBoolean()) {
            // A real key with a few bytes changed: damage deep inside a well-formed layout.
            AttributeValue partitionKey = FuzzedValues.keyValue(data, first);
            AttributeValue sortKey = second == null ? null : FuzzedValues.keyValue(data, second);
            bytes = decoder == 2
                    ? KeyLayout.encodeItemKey(PartitionHash.XXH64, 1, 0, partitionKey, sortKey)
                    : KeyLayout.encodeIndexKey(PartitionHash.XXH64, 1, 2, partitionKey, sortKey, FuzzedValues.keyValue(data, third),
                            fourth == null ? null : FuzzedValues.keyValue(data, fourth));
            int changes = data.consumeInt(1, 3);
            for (int i = 0; i < changes; i++) bytes[data.consumeInt(0, bytes.length - 1)] = data.consumeByte();
        } else {
            bytes = data.consumeRemainingAsBytes();
        }
        try {
            switch (decoder) {
                case 0 -> {
                    AttributeValue value = KeyEncoding.decode(first, bytes, 0, bytes.length);
                    if (first != Type.S) assertArrayEquals(bytes, KeyEncoding.encode(value), "re-encoded " + value);
                }
                case 1 -> {
                    int end = KeyEncoding.delimitedEnd(bytes, 0, bytes.length);
                    byte[] raw = KeyEncoding.decodeDelimited(bytes, 0, end);
                    byte[] again = new byte[KeyEncoding.delimitedLength(raw)];
                    KeyEncoding.writeDelimited(raw, again, 0);
                    assertArrayEquals(Arrays.copyOf(bytes, end), again);
                }
                case 2 -> KeyLayout.decodeItemKey(bytes, first, second);
                default -> KeyLayout.decodeIndexKey(PartitionHash.XXH64, bytes, first, second, third, fourth);
            }
        } catch (IllegalArgumentException expected) {
            // The decoders' documented failure for bytes that are not such a key.
        }
    }

    private static void roundTrip(FuzzedDataProvider data) {
        long tableId = data.consumeLong(0, Long.MAX_VALUE);
        int indexId = data.consumeInt(0, Integer.MAX_VALUE);
        Type partitionType = FuzzedValues.keyType(data);
        Type sortType = data.consumeBoolean() ? FuzzedValues.keyType(data) : null;
        AttributeValue partitionKey = FuzzedValues.keyValue(data, partitionType);
        AttributeValue sortKey = sortType == null ? null : FuzzedValues.keyValue(data, sortType);

        byte[] itemKey = KeyLayout.encodeItemKey(PartitionHash.XXH64, tableId, indexId, partitionKey, sortKey);
        assertEquals(new DecodedKey(tableId, indexId, KeyLayout.hashOf(itemKey), partitionKey, sortKey),
                KeyLayout.decodeItemKey(itemKey, partitionType, sortType));

        Type basePartitionType = FuzzedValues.keyType(data);
        Type baseSortType = data.consumeBoolean() ? FuzzedValues.keyType(data) : null;
        AttributeValue basePartitionKey = FuzzedValues.keyValue(data, basePartitionType);
        AttributeValue baseSortKey = baseSortType == null ? null : FuzzedValues.keyValue(data, baseSortType);
        byte[] indexKey = KeyLayout.encodeIndexKey(PartitionHash.XXH64, tableId, indexId, partitionKey, sortKey, basePartitionKey, baseSortKey);
        assertEquals(new DecodedIndexKey(tableId, indexId, KeyLayout.hashOf(indexKey), partitionKey, sortKey,
                        basePartitionKey, baseSortKey),
                KeyLayout.decodeIndexKey(PartitionHash.XXH64, indexKey, partitionType, sortType, basePartitionType, baseSortType));

        if (sortType == null) return;
        // A second sort key of the same type, in the same partition: the bytes order the two keys
        // as DynamoDB orders the values, in the table and in an index (where the sort key is not
        // the last component and base keys follow it).
        AttributeValue otherSortKey = FuzzedValues.keyValue(data, sortType);
        AttributeValue otherBasePartitionKey = FuzzedValues.keyValue(data, basePartitionType);
        int expected = Integer.signum(compare(sortKey, otherSortKey));
        assertEquals(expected, Integer.signum(Arrays.compareUnsigned(itemKey,
                KeyLayout.encodeItemKey(PartitionHash.XXH64, tableId, indexId, partitionKey, otherSortKey))), "table order");
        if (expected != 0) {
            assertEquals(expected, Integer.signum(Arrays.compareUnsigned(indexKey, KeyLayout.encodeIndexKey(PartitionHash.XXH64, 
                    tableId, indexId, partitionKey, otherSortKey, otherBasePartitionKey, null))), "index order");
        }
    }

    /** DynamoDB's order of two key values of one type. */
    private static int compare(AttributeValue a, AttributeValue b) {
        return switch (a) {
            case AttributeValue.N n -> n.value().compareTo(((AttributeValue.N) b).value());
            case AttributeValue.S s -> Arrays.compareUnsigned(s.value().getBytes(StandardCharsets.UTF_8),
                    ((AttributeValue.S) b).value().getBytes(StandardCharsets.UTF_8));
            case AttributeValue.B bytes -> Arrays.compareUnsigned(bytes.value(), ((AttributeValue.B) b).value());
            default -> throw new IllegalArgumentException("not a key value: " + a);
        };
    }
}
