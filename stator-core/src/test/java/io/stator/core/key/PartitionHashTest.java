package io.stator.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PartitionHashTest {

    private static final long PRIME32 = 2654435761L;

    /** xxHash's sanity buffer (tests/sanity_test_vectors.h): byteGen = PRIME32; byteGen *= PRIME64. */
    private static byte[] sanityBuffer(int size) {
        byte[] buf = new byte[size];
        long gen = PRIME32;
        for (int i = 0; i < size; i++) {
            buf[i] = (byte) (gen >>> 56);
            gen *= 0x9E3779B185EBCA8DL; // PRIME64 = 11400714785074694797
        }
        return buf;
    }

    /**
     * Published XXH64 vectors over the sanity buffer (xxHash's sanity checks list lengths 0, 1, 4,
     * 14 and 222), plus lengths around every branch of the algorithm (the 32-byte stripes, the
     * 8-, 4- and 1-byte tails), all checked against the reference C library libxxhash 0.8.1.
     */
    @ParameterizedTest(name = "len {0}")
    @CsvSource({
        "0,    EF46DB3751D8E999, AC75FDA2929B17EF",
        "1,    E934A84ADB052768, 5014607643A9B4C3",
        "2,    5D48CD60A77E23FF, 9E93152232D54A39",
        "3,    FF7E1959CB50794A, AA8584E83660F7D1",
        "4,    9136A0DCA57457EE, CAAB286BD8E9FDB5",
        "5,    9B046FB1397F09A5, 2AF5249930F984EC",
        "7,    6C83909A9F01ED25, F98D03B1AD6F9293",
        "8,    CDBCF538E71D1348, FE0C047A5353CDAC",
        "9,    554B1AE991EDA6B6, 7908265248F6D73F",
        "14,   8282DCC4994E35C8, C3BD6BF63DEB6DF0",
        "15,   180719316D622D84, D61105C20E91F99F",
        "16,   98C90B57FDFCB55C, C900AD2D536B607E",
        "31,   299B39A290E6D783, DA673D5FEB5C1D79",
        "32,   18B216492BB44B70, B3F33BDF93ADE409",
        "33,   55C8DC3E578F5B59, E92C292F64BC3071",
        "63,   A9EFBE0FA0F3F4E7, 6C911FADB05B6FC2",
        "64,   EF558F8ACAC2B5CD, B5EEBA99264CC44F",
        "100,  4BFE019CD91D9EA4, 4853706DC9625CAE",
        "222,  B641AE8CB691C174, 20CB8AB7AE10C14A",
        "1000, 52BD1358F22E9EF7, 72751A2408017E26",
        "2367, A82418DDEC0EA581, A36A93C18052673A",
    })
    void xxHash64MatchesReferenceVectors(int len, String seed0, String seedPrime32) {
        byte[] buf = sanityBuffer(len);
        assertEquals(Long.parseUnsignedLong(seed0, 16), XxHash64.hash(buf, 0, len, 0));
        assertEquals(Long.parseUnsignedLong(seedPrime32, 16), XxHash64.hash(buf, 0, len, PRIME32));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @CsvSource({
        "'',                                           EF46DB3751D8E999",
        "a,                                            D24EC4F1A98C6E5B",
        "abc,                                          44BC2CF5AD770999",
        "message digest,                               066ED728FCEEB3BE",
        "abcdefghijklmnopqrstuvwxyz,                   CFE1F278FA89835C",
        "The quick brown fox jumps over the lazy dog,  0B242D361FDA71BC",
    })
    void xxHash64OfStrings(String text, String expected) {
        assertEquals(Long.parseUnsignedLong(expected, 16),
                XxHash64.hash(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Pins the partition hash of concrete keys: the stored order of every table depends on it. */
    @Test
    void partitionHashOfKeyValuesIsPinned() {
        assertEquals(0x171C6DF4BA3DF95EL, PartitionHash.XXH64.of(new AttributeValue.S("user#1")));
        assertEquals(0x8EEBAD97F27C1856L, PartitionHash.XXH64.of(new AttributeValue.S("é😀")));
        assertEquals(0xD184D3C63D2708E8L, PartitionHash.XXH64.of(new AttributeValue.B(new byte[] {0, 1, 2, (byte) 0xFF})));
        // N hashes its order-preserving encoding: 1 -> 03 82 14, 0 -> 02.
        assertEquals(0x6E7E30744207783CL, PartitionHash.XXH64.of(new AttributeValue.N(DynamoNumber.of(1))));
        assertEquals(0x4B79B8C95732B0E7L, PartitionHash.XXH64.of(new AttributeValue.N(DynamoNumber.ZERO)));
    }

    @Test
    void equalNumbersHashAlikeHoweverSpelled() {
        long h = PartitionHash.XXH64.of(new AttributeValue.N(DynamoNumber.parse("1.50")));
        assertEquals(h, PartitionHash.XXH64.of(new AttributeValue.N(DynamoNumber.parse("15E-1"))));
        assertEquals(h, PartitionHash.XXH64.of(new AttributeValue.N(DynamoNumber.parse("001.5000"))));
        assertNotEquals(h, PartitionHash.XXH64.of(new AttributeValue.N(DynamoNumber.parse("-1.5"))));
    }

    @Test
    void hashOfSliceEqualsHashOfCopy() {
        Random random = new Random(42);
        byte[] buf = new byte[300];
        random.nextBytes(buf);
        for (int off = 0; off < 40; off++) {
            for (int len = 0; off + len <= buf.length; len += 7) {
                assertEquals(XxHash64.hash(Arrays.copyOfRange(buf, off, off + len)),
                        XxHash64.hash(buf, off, len, 0), () -> HexFormat.of().formatHex(buf));
            }
        }
    }

    @Test
    void rejectsRangeOutsideArray() {
        assertThrows(IndexOutOfBoundsException.class, () -> XxHash64.hash(new byte[4], 2, 3, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> XxHash64.hash(new byte[4], -1, 1, 0));
    }

    // ---- Key layout 2: DynamoDB's hash ---------------------------------------------------------
    // The orders and segments below are those dynalite's test suite (test/scan.js, test/query.js)
    // asserts, a suite that runs against DynamoDB itself as well: facts about DynamoDB.

    /** "should return items in string hash order": a Scan of these 14 keys. */
    @Test
    void stringKeysSortInDynamoDbsScanOrder() {
        List<String> keys = List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "aardman", "hello", "zapf", "äáöü");
        assertEquals(List.of("2", "8", "9", "1", "6", "hello", "0", "5", "4", "äáöü", "aardman", "7", "3", "zapf"),
                inHashOrder(keys, AttributeValue.S::new));
    }

    /** "should return items in number hash order". */
    @Test
    void numberKeysSortInDynamoDbsScanOrder() {
        List<String> keys = List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "-0.09", "999.9", "0.012345", "-999.9");
        assertEquals(List.of("7", "999.9", "8", "3", "2", "-999.9", "9", "4", "-0.09", "6", "1", "0", "0.012345", "5"),
                inHashOrder(keys, k -> new AttributeValue.N(DynamoNumber.parse(k))));
    }

    /** "should return items from correct string/number hash segments", TotalSegments 4096. */
    @Test
    void keysFallInDynamoDbsSegments() {
        assertEquals(0, segment(new AttributeValue.S("3635")));
        assertEquals(0, segment(new AttributeValue.S("228")));
        assertEquals(1, segment(new AttributeValue.S("1668")));
        assertEquals(4, segment(new AttributeValue.S("3435")));
        assertEquals(1, segment(new AttributeValue.N(DynamoNumber.of(251))));
        assertEquals(4095, segment(new AttributeValue.N(DynamoNumber.of(2388))));
    }

    /**
     * "should query on basic hash global index": items sharing one index key come back ordered by
     * the hash of their table key (partition key a, sort key b).
     */
    @Test
    void itemsSharingAnIndexKeySortByTheirTableKeysHash() {
        Map<String, String[]> items = new LinkedHashMap<>();
        items.put("item", new String[] {"a", "a"});
        items.put("item2", new String[] {"b", "b"});
        items.put("item3", new String[] {"c", "e"});
        items.put("item4", new String[] {"c", "d"});
        items.put("item6", new String[] {"d", "a"});
        items.put("item7", new String[] {"e", "a"});
        List<String> names = new ArrayList<>(items.keySet());
        names.sort((x, y) -> Long.compareUnsigned(tableKeyHash(items.get(x)), tableKeyHash(items.get(y))));
        assertEquals(List.of("item2", "item", "item3", "item7", "item6", "item4"), names);

        // "should query on a global index if values are equal": not the table keys' own order.
        Map<String, String[]> equal = new LinkedHashMap<>();
        equal.put("item2", new String[] {"b", "a"});
        equal.put("item3", new String[] {"c", "a"});
        equal.put("item4", new String[] {"c", "b"});
        equal.put("item5", new String[] {"d", "a"});
        equal.put("item6", new String[] {"d", "b"});
        List<String> equalNames = new ArrayList<>(equal.keySet());
        equalNames.sort((x, y) -> Long.compareUnsigned(tableKeyHash(equal.get(x)), tableKeyHash(equal.get(y))));
        assertEquals(List.of("item5", "item2", "item3", "item6", "item4"), equalNames);
    }

    /** DynamoDB's number bytes are Oracle's NUMBER format. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "0,         80",
        "-0.000,    80",
        "1,         C102",
        "123,       C20218",
        "-123,      3D644E66",
        "1.5,       C10233",
        "15E-1,     C10233",
        "100,       C202",
        "0.012345,  C002182E",
        "-0.09,     3F5C66",
        "999.9,     C20A645B",
        "-999.9,    3D5C020B66",
        "1E+125,    FF0B",
        "1E-130,    8002",
    })
    void numbersHashInDynamoDbsByteForm(String number, String hex) {
        assertEquals(hex, HexFormat.of().withUpperCase().formatHex(
                PartitionHash.dynamoDbNumberBytes(DynamoNumber.parse(number))));
    }

    @Test
    void negativeNumbersOfTwentyBase100DigitsHaveNoTerminator() {
        byte[] bytes = PartitionHash.dynamoDbNumberBytes(DynamoNumber.parse("-1." + "2".repeat(37)));
        assertEquals(21, bytes.length, HexFormat.of().formatHex(bytes));
        assertNotEquals(102, bytes[20]);
    }

    @Test
    void aTwoAttributeIndexKeyHashesItsPartsInOrder() {
        AttributeValue a = new AttributeValue.S("a");
        AttributeValue b = new AttributeValue.N(DynamoNumber.of(7));
        assertEquals(PartitionHash.DYNAMODB.of(a), PartitionHash.DYNAMODB.of(List.of(a)));
        assertEquals(PartitionHash.DYNAMODB.ofItemKey(a, b), PartitionHash.DYNAMODB.of(List.of(a, b)));
        assertNotEquals(PartitionHash.DYNAMODB.of(List.of(a, b)), PartitionHash.DYNAMODB.of(List.of(b, a)));
    }

    private static List<String> inHashOrder(List<String> keys, Function<String, AttributeValue> value) {
        List<String> sorted = new ArrayList<>(keys);
        sorted.sort((x, y) -> Long.compareUnsigned(PartitionHash.DYNAMODB.of(value.apply(x)),
                PartitionHash.DYNAMODB.of(value.apply(y))));
        return sorted;
    }

    private static int segment(AttributeValue key) {
        return KeyLayout.segmentOf(PartitionHash.DYNAMODB.of(key), 4096);
    }

    private static long tableKeyHash(String[] key) {
        return PartitionHash.DYNAMODB.ofItemKey(new AttributeValue.S(key[0]), new AttributeValue.S(key[1]));
    }
}
