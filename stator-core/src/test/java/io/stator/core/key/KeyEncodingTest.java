package io.stator.core.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.core.testing.RandomValues;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyEncodingTest {

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    // ---- N: the format, pinned

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "0,          02",
        "1,          038214",
        "-1,         017DEB",
        "12.5,       03831964",
        "-12.5,      017CE69B",
        "10,         038314",
        "0.001,      037F14",
        "1E-130,     030014",
        "-1E-130,    01FFEB",
        "1E+125,     03FF14",
        "123456789,  038A1945719DB4",
    })
    void numberEncodingIsPinned(String number, String hex) {
        DynamoNumber n = DynamoNumber.parse(number);
        byte[] encoded = KeyEncoding.encodeNumber(n);
        assertEquals(hex, HEX.formatHex(encoded));
        assertEquals(encoded.length, KeyEncoding.numberLength(n));
        assertEquals(n, KeyEncoding.decodeNumber(encoded, 0, encoded.length));
    }

    @Test
    void largestNumberIsPinned() {
        DynamoNumber n = DynamoNumber.parse("9.9999999999999999999999999999999999999E+125");
        assertEquals("03FF" + "C7".repeat(18) + "C6", HEX.formatHex(KeyEncoding.encodeNumber(n)));
        DynamoNumber negative = DynamoNumber.parse("-9.9999999999999999999999999999999999999E+125");
        assertEquals("0100" + "38".repeat(18) + "39", HEX.formatHex(KeyEncoding.encodeNumber(negative)));
    }

    @Test
    void numberWithMoreThan38DigitsIsRejected() {
        byte[] bytes = HEX.parseHex("03FF" + "C7".repeat(19) + "C6");
        assertThrows(IllegalArgumentException.class, () -> KeyEncoding.numberEnd(bytes, 0, bytes.length));
        assertThrows(IllegalArgumentException.class, () -> KeyEncoding.decodeNumber(bytes, 0, bytes.length));
    }

    @Test
    void longestNumberIsTwentyOneBytes() {
        DynamoNumber n = DynamoNumber.parse("-1.2345678901234567890123456789012345678E-130");
        assertEquals(KeyEncoding.MAX_NUMBER_LENGTH, KeyEncoding.encodeNumber(n).length);
        assertEquals(21, KeyEncoding.MAX_NUMBER_LENGTH);
    }

    // ---- N: order and round trip, property tests

    static DynamoNumber randomNumber(Random r) {
        return RandomValues.number(r);
    }

    @Test
    void numberEncodingOrderEqualsBigDecimalOrderOnRandomPairs() {
        Random r = new Random(20240601);
        for (int i = 0; i < 200_000; i++) {
            DynamoNumber a = randomNumber(r), b = randomNumber(r);
            int expected = Integer.signum(a.bigDecimal().compareTo(b.bigDecimal()));
            int actual = Integer.signum(Arrays.compareUnsigned(KeyEncoding.encodeNumber(a), KeyEncoding.encodeNumber(b)));
            assertEquals(expected, actual, () -> a + " vs " + b);
        }
    }

    @Test
    void sortingByEncodingSortsNumerically() {
        Random r = new Random(7);
        List<byte[]> encoded = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) encoded.add(KeyEncoding.encodeNumber(randomNumber(r)));
        encoded.sort(Arrays::compareUnsigned);
        for (int i = 1; i < encoded.size(); i++) {
            byte[] prev = encoded.get(i - 1), cur = encoded.get(i);
            BigDecimal a = decode(prev).bigDecimal(), b = decode(cur).bigDecimal();
            assertTrue(a.compareTo(b) <= 0, a + " sorted before " + b);
            assertEquals(Arrays.equals(prev, cur), a.compareTo(b) == 0, a + " vs " + b);
        }
    }

    @Test
    void numberRoundTripsAndIsSelfDelimiting() {
        Random r = new Random(99);
        byte[] buf = new byte[KeyEncoding.MAX_NUMBER_LENGTH + 8];
        for (int i = 0; i < 100_000; i++) {
            DynamoNumber n = randomNumber(r);
            r.nextBytes(buf); // garbage after the encoding must not matter
            int end = KeyEncoding.writeNumber(n, buf, 3);
            assertEquals(3 + KeyEncoding.numberLength(n), end);
            assertEquals(end, KeyEncoding.numberEnd(buf, 3, buf.length));
            DynamoNumber back = KeyEncoding.decodeNumber(buf, 3, end);
            assertEquals(n, back);
            assertEquals(n.toString(), back.toString());
            assertEquals(0, n.bigDecimal().compareTo(back.bigDecimal()));
        }
    }

    @Test
    void shorterMantissaSortsBeforeItsExtensions() {
        assertOrdered("1.23", "1.2301", "1.231", "1.3");
        assertOrdered("-1.3", "-1.231", "-1.2301", "-1.23");
        assertOrdered("1", "1.0000000000000000000000000000000000001", "1.1");
        assertOrdered("-1E+125", "-1", "-1E-130", "0", "1E-130", "1", "1E+125");
        assertOrdered("9.9999999999999999999999999999999999999E+124", "1E+125");
        assertOrdered("99", "100", "101", "990", "999", "1000");
    }

    private static void assertOrdered(String... numbers) {
        for (int i = 1; i < numbers.length; i++) {
            byte[] a = KeyEncoding.encodeNumber(DynamoNumber.parse(numbers[i - 1]));
            byte[] b = KeyEncoding.encodeNumber(DynamoNumber.parse(numbers[i]));
            assertTrue(Arrays.compareUnsigned(a, b) < 0, numbers[i - 1] + " < " + numbers[i]);
        }
    }

    @ParameterizedTest(name = "{1}: {0}")
    @CsvSource({
        "'',                   empty",
        "04,                   bad sign byte",
        "00,                   bad sign byte",
        "03,                   truncated",
        "0382,                 truncated",
        "038215,               continuation bit on the last byte",
        "03821415,             zero followed by bytes",
        "0382C9,               pair above 99 and more follows",
        "0382C8,               pair above 99",
        "038212,               leading digit 0",
        "03821500,             last digit 0",
    })
    void malformedNumbersAreRejected(String hex, String why) {
        byte[] bytes = HEX.parseHex(hex);
        assertThrows(IllegalArgumentException.class, () -> {
            int end = KeyEncoding.numberEnd(bytes, 0, bytes.length);
            KeyEncoding.decodeNumber(bytes, 0, hex.equals("03821415") ? bytes.length : end);
            KeyEncoding.decode(AttributeValue.Type.N, bytes, 0, bytes.length);
        }, why);
    }

    private static DynamoNumber decode(byte[] encoded) {
        return KeyEncoding.decodeNumber(encoded, 0, encoded.length);
    }

    // ---- S and B

    @Test
    void stringKeysCompareAsUtf8BytesThatIsByCodePoint() {
        // U+FFFF sorts below U+1F600 in DynamoDB (UTF-8 EF.. < F0..), unlike String.compareTo
        // (0xFFFF > the high surrogate 0xD83D).
        String bmp = "\uFFFF", astral = "😀";
        assertTrue(bmp.compareTo(astral) > 0);
        assertTrue(Arrays.compareUnsigned(KeyEncoding.encode(new AttributeValue.S(bmp)),
                KeyEncoding.encode(new AttributeValue.S(astral))) < 0);

        Random r = new Random(5);
        int[] pool = {'a', 'b', 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF};
        for (int i = 0; i < 50_000; i++) {
            String a = randomString(r, pool), b = randomString(r, pool);
            int expected = Integer.signum(compareCodePoints(a, b));
            byte[] ea = KeyEncoding.encode(new AttributeValue.S(a)), eb = KeyEncoding.encode(new AttributeValue.S(b));
            assertEquals(expected, Integer.signum(Arrays.compareUnsigned(ea, eb)), a + " vs " + b);
            assertEquals(new AttributeValue.S(a), KeyEncoding.decode(AttributeValue.Type.S, ea, 0, ea.length));
        }
    }

    private static String randomString(Random r, int[] pool) {
        StringBuilder sb = new StringBuilder();
        int len = r.nextInt(5);
        for (int i = 0; i < len; i++) sb.appendCodePoint(pool[r.nextInt(pool.length)]);
        return sb.toString();
    }

    private static int compareCodePoints(String a, String b) {
        int[] ca = a.codePoints().toArray(), cb = b.codePoints().toArray();
        return Arrays.compare(ca, cb);
    }

    @Test
    void binaryKeysAreTheirBytes() {
        byte[] value = {0, (byte) 0xFF, 7};
        assertArrayEquals(value, KeyEncoding.encode(new AttributeValue.B(value)));
        assertEquals(new AttributeValue.B(value), KeyEncoding.decode(AttributeValue.Type.B, new byte[] {9, 0, (byte) 0xFF, 7}, 1, 3));
    }

    @Test
    void nonKeyTypesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> KeyEncoding.encode(AttributeValue.BOOL.TRUE));
        assertThrows(IllegalArgumentException.class, () -> KeyEncoding.encode(AttributeValue.NULL.INSTANCE));
        assertThrows(IllegalArgumentException.class,
                () -> KeyEncoding.decode(AttributeValue.Type.SS, new byte[1], 0, 1));
        assertThrows(IllegalArgumentException.class,
                () -> KeyEncoding.decode(AttributeValue.Type.S, new byte[1], 0, 2));
    }

    // ---- delimited S and B

    @Test
    void delimitedFormIsPinned() {
        byte[] raw = {'a', 0, 'b'};
        byte[] out = new byte[KeyEncoding.delimitedLength(raw)];
        assertEquals(out.length, KeyEncoding.writeDelimited(raw, out, 0));
        assertEquals("6100FF62" + "0001", HEX.formatHex(out));
    }

    @Test
    void delimitedFormPreservesOrderAndRoundTrips() {
        Random r = new Random(11);
        byte[] alphabet = {0, 1, 2, (byte) 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};
        for (int i = 0; i < 50_000; i++) {
            byte[] a = randomBytes(r, alphabet), b = randomBytes(r, alphabet);
            byte[] da = delimited(a), db = delimited(b);
            assertEquals(Integer.signum(Arrays.compareUnsigned(a, b)), Integer.signum(Arrays.compareUnsigned(da, db)),
                    HEX.formatHex(a) + " vs " + HEX.formatHex(b));
            // Self-delimiting even when followed by anything, and decodes back.
            byte[] followed = Arrays.copyOf(da, da.length + b.length);
            System.arraycopy(b, 0, followed, da.length, b.length);
            int end = KeyEncoding.delimitedEnd(followed, 0, followed.length);
            assertEquals(da.length, end);
            assertArrayEquals(a, KeyEncoding.decodeDelimited(followed, 0, end));
        }
    }

    @Test
    void malformedDelimitedValuesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> KeyEncoding.delimitedEnd(HEX.parseHex("6162"), 0, 2));
        assertThrows(IllegalArgumentException.class, () -> KeyEncoding.delimitedEnd(HEX.parseHex("6100"), 0, 2));
        assertThrows(IllegalArgumentException.class, () -> KeyEncoding.delimitedEnd(HEX.parseHex("610002"), 0, 3));
    }

    private static byte[] randomBytes(Random r, byte[] alphabet) {
        byte[] b = new byte[r.nextInt(6)];
        for (int i = 0; i < b.length; i++) b[i] = alphabet[r.nextInt(alphabet.length)];
        return b;
    }

    private static byte[] delimited(byte[] raw) {
        byte[] out = new byte[KeyEncoding.delimitedLength(raw)];
        KeyEncoding.writeDelimited(raw, out, 0);
        return out;
    }

    @Test
    void utf8OfEncodedStringIsJavaUtf8() {
        String s = "a€😀";
        assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), KeyEncoding.encode(new AttributeValue.S(s)));
    }

    @Test
    void aKeyWithALoneSurrogateIsRefusedNotEncodedAsAQuestionMark() {
        for (String lone : List.of("\uD800", "\uDBFF", "x\uDC00")) {
            assertThrows(IllegalArgumentException.class, () -> KeyEncoding.encode(new AttributeValue.S(lone)));
        }
    }
}
