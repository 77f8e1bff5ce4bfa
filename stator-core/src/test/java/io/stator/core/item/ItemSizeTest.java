package io.stator.core.item;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.core.model.Utf8;
import io.stator.core.testing.RandomValues;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ItemSizeTest {

    /**
     * The 23 number literals whose size dynoxide measured against DynamoDB (eu-west-2, by an
     * accept/reject pair at the 400 KB gate; nubo-db/dynoxide pull request 195).
     */
    @ParameterizedTest(name = "{0} is {1} bytes")
    @CsvSource({
        "0, 1", "1, 2", "12, 2", "123, 3", "1234, 3",
        "12345678901234567890123456789012345678, 20",
        "0042, 2", "100, 2", "1010, 3", "0.0000001, 2", "1E125, 2", "1E-100, 2",
        "1.5, 3", "15, 2", "1.2, 3", "1.200, 3", "1.234, 4", "3.14159, 5", "123456, 4",
        "100.5, 4", "0.15, 2", "-42, 3", "-0, 1",
    })
    void numberSizesMeasuredAgainstDynamoDb(String literal, int bytes) {
        DynamoNumber n = DynamoNumber.parse(literal);
        assertEquals(bytes, ItemSize.ofNumber(n));
        assertEquals(bytes, ItemSize.ofValue(new AttributeValue.N(n)));
    }

    @ParameterizedTest(name = "{0} is {1} bytes")
    @CsvSource({
        "-12345678901234567890123456789012345678, 21",
        "9.9999999999999999999999999999999999999E+125, 20",
        "-9.9999999999999999999999999999999999999E+125, 21",
        "1E-130, 2", "-1E-130, 3", "1.1E-130, 3", "11E-130, 2",
    })
    void numberSizesAtTheEdges(String literal, int bytes) {
        assertEquals(bytes, ItemSize.ofNumber(DynamoNumber.parse(literal)));
    }

    /**
     * The formula equals a base-100 mantissa whose digit pairs are aligned to the decimal point,
     * plus an exponent byte and a sign byte for negatives: checked against that model directly.
     */
    @Test
    void numberSizeIsBase100DigitsAlignedToTheDecimalPoint() {
        Random r = new Random(1);
        for (int i = 0; i < 100_000; i++) {
            DynamoNumber n = RandomValues.number(r);
            assertEquals(base100Size(n), ItemSize.ofNumber(n), n::toString);
        }
    }

    private static int base100Size(DynamoNumber n) {
        BigDecimal d = n.bigDecimal();
        if (d.signum() == 0) return 1;
        int digits = d.precision();
        int exponent = digits - 1 - d.scale();
        int firstPair = Math.floorDiv(exponent, 2);            // pair holding the first digit
        int lastPair = Math.floorDiv(exponent - digits + 1, 2); // pair holding the last digit
        return 1 + (firstPair - lastPair + 1) + (d.signum() < 0 ? 1 : 0);
    }

    @Test
    void stringsAndNamesCountUtf8Bytes() {
        assertEquals(0, ItemSize.ofValue(new AttributeValue.S("")));
        assertEquals(3, ItemSize.ofValue(new AttributeValue.S("abc")));
        assertEquals(2, ItemSize.ofValue(new AttributeValue.S("é")));
        assertEquals(3, ItemSize.ofValue(new AttributeValue.S("€")));
        assertEquals(4, ItemSize.ofValue(new AttributeValue.S("😀")));
        assertEquals(2 + 1, ItemSize.of(Map.of("é", AttributeValue.NULL.INSTANCE)));
    }

    @Test
    void utf8LengthEqualsJavaEncoderForUnicodeText() {
        Random r = new Random(2);
        String[] pool = {"a", "\u007F", "\u0080", "\u07FF", "\u0800", "\uD7FF", "\uD83D\uDE00", "\uDBFF\uDFFF",
            "\uD800\uDC00", "\uE000", "\uFFFF"};
        for (int i = 0; i < 100_000; i++) {
            StringBuilder b = new StringBuilder();
            for (int j = r.nextInt(8); j > 0; j--) b.append(pool[r.nextInt(pool.length)]);
            String s = b.toString();
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, Utf8.encodedLength(s), () -> s.chars().toString());
        }
    }

    @Test
    void aLoneSurrogateHasNoSizeRatherThanTheSizeOfAQuestionMark() {
        for (String lone : new String[] {"\uD800", "a\uDBFF", "\uDC00", "\uDE00\uD83D"}) {
            assertThrows(IllegalArgumentException.class, () -> ItemSize.of(Map.of("a", new AttributeValue.S(lone))));
            assertThrows(IllegalArgumentException.class, () -> ItemSize.of(Map.of(lone, AttributeValue.NULL.INSTANCE)));
        }
    }

    @Test
    void scalarsAndSets() {
        assertEquals(3, ItemSize.ofValue(new AttributeValue.B(new byte[] {1, 2, 3})));
        assertEquals(0, ItemSize.ofValue(new AttributeValue.B(new byte[0])));
        assertEquals(1, ItemSize.ofValue(AttributeValue.BOOL.TRUE));
        assertEquals(1, ItemSize.ofValue(AttributeValue.NULL.INSTANCE));
        assertEquals(1 + 2 + 4, ItemSize.ofValue(new AttributeValue.SS(List.of("a", "bc", "😀"))));
        assertEquals(2 + 2 + 3, ItemSize.ofValue(new AttributeValue.NS(
                List.of(DynamoNumber.of(1), DynamoNumber.of(12), DynamoNumber.of(123)))));
        assertEquals(1 + 0 + 5, ItemSize.ofValue(new AttributeValue.BS(List.of(new byte[1], new byte[0], new byte[5]))));
    }

    @Test
    void mapsAndListsCostThreeBytesPlusOnePerElement() {
        assertEquals(3, ItemSize.ofValue(new AttributeValue.M(Map.of())));
        assertEquals(3, ItemSize.ofValue(new AttributeValue.L(List.of())));
        // {"x": 1}: 3 + 1 per element + name 1 + number 2
        assertEquals(3 + 1 + 1 + 2, ItemSize.ofValue(new AttributeValue.M(Map.of("x", new AttributeValue.N(DynamoNumber.of(1))))));
        // ["ab", null]: 3 + (1 + 2) + (1 + 1)
        assertEquals(3 + 3 + 2, ItemSize.ofValue(new AttributeValue.L(
                List.of(new AttributeValue.S("ab"), AttributeValue.NULL.INSTANCE))));
        // {"m": {"l": [{}]}}: name 1 + (3 + 1 + 1 + (3 + 1 + 3))
        Map<String, AttributeValue> item = Map.of("m", new AttributeValue.M(Map.of("l",
                new AttributeValue.L(List.of(new AttributeValue.M(Map.of())))))) ;
        assertEquals(1 + 3 + 1 + 1 + 3 + 1 + 3, ItemSize.of(item));
    }

    @Test
    void itemSizeIsNamesPlusValues() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", new AttributeValue.S("user#1"));           // 2 + 6
        item.put("age", new AttributeValue.N(DynamoNumber.of(42))); // 3 + 2
        item.put("ok", AttributeValue.BOOL.TRUE);                  // 2 + 1
        item.put("tags", new AttributeValue.SS(List.of("a", "b"))); // 4 + 2
        assertEquals(8 + 5 + 3 + 6, ItemSize.of(item));
        assertEquals(0, ItemSize.of(Map.of()));
    }

    @Test
    void anItemCanBeBuiltToExactlyTheLimit() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", new AttributeValue.S("p"));
        long padding = ItemSize.MAX_ITEM_SIZE - ItemSize.of(item) - 1;
        item.put("x", new AttributeValue.S("a".repeat((int) padding)));
        assertEquals(409_600, ItemSize.of(item));
        item.put("x", new AttributeValue.S("a".repeat((int) padding + 1)));
        assertEquals(409_601, ItemSize.of(item));
    }

    @Test
    void deepAndWideRandomItemsAreMeasuredWithoutSurprises() {
        Random r = new Random(3);
        for (int i = 0; i < 2000; i++) {
            Map<String, AttributeValue> item = RandomValues.item(r, 5);
            long expected = 0;
            for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
                expected += e.getKey().getBytes(StandardCharsets.UTF_8).length + naiveSize(e.getValue());
            }
            assertEquals(expected, ItemSize.of(item));
        }
    }

    /** The documented rules, written as plainly as possible, as a second opinion. */
    private static long naiveSize(AttributeValue v) {
        if (v instanceof AttributeValue.S s) return s.value().getBytes(StandardCharsets.UTF_8).length;
        if (v instanceof AttributeValue.N n) return base100Size(n.value());
        if (v instanceof AttributeValue.B b) return b.value().length;
        if (v instanceof AttributeValue.SS ss) return ss.values().stream().mapToLong(x -> x.getBytes(StandardCharsets.UTF_8).length).sum();
        if (v instanceof AttributeValue.NS ns) return ns.values().stream().mapToLong(ItemSizeTest::base100Size).sum();
        if (v instanceof AttributeValue.BS bs) return bs.values().stream().mapToLong(x -> x.length).sum();
        if (v instanceof AttributeValue.M m) {
            long size = 3;
            for (var e : m.values().entrySet()) size += 1 + e.getKey().getBytes(StandardCharsets.UTF_8).length + naiveSize(e.getValue());
            return size;
        }
        if (v instanceof AttributeValue.L l) {
            long size = 3;
            for (AttributeValue x : new ArrayList<>(l.values())) size += 1 + naiveSize(x);
            return size;
        }
        return 1;
    }
}
