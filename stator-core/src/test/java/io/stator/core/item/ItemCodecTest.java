package io.stator.core.item;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.core.testing.RandomValues;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ItemCodecTest {

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    // ---- the format, pinned

    @Test
    void formatIsPinned() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("a", new AttributeValue.S("b"));
        item.put("n", new AttributeValue.N(DynamoNumber.of(1)));
        item.put("t", AttributeValue.BOOL.TRUE);
        assertEquals("01" + "02" + "03"          // version, offset width, count
                + "0161" + "01" + "0162"         // a: S "b"
                + "016E" + "02" + "038214"       // n: N 1
                + "0174" + "0A"                  // t: BOOL true
                + "0003" + "0008" + "000E",      // offsets
                HEX.formatHex(ItemCodec.encode(item)));
    }

    @Test
    void everyTypeTagIsPinned() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("", new AttributeValue.L(List.of(
                new AttributeValue.B(new byte[] {7}),
                new AttributeValue.SS(List.of("x")),
                new AttributeValue.NS(List.of(DynamoNumber.ZERO)),
                new AttributeValue.BS(List.of(new byte[0])),
                new AttributeValue.M(Map.of("k", AttributeValue.BOOL.FALSE)),
                AttributeValue.NULL.INSTANCE)));
        assertEquals("010201" + "00" + "08" + "06"
                + "030107" + "040101" + "78" + "050102" + "060100" + "0701016B09" + "0B"
                + "0003", HEX.formatHex(ItemCodec.encode(item)));
    }

    @Test
    void emptyItemIsThreeBytes() {
        byte[] bytes = ItemCodec.encode(Map.of());
        assertEquals("010200", HEX.formatHex(bytes));
        assertEquals(Map.of(), ItemCodec.decode(bytes));
        assertNull(ItemCodec.decodeAttribute(bytes, "a"));
    }

    // ---- round trips

    @Test
    void randomNestedItemsRoundTripInOrder() {
        Random r = new Random(1);
        for (int i = 0; i < 5000; i++) {
            Map<String, AttributeValue> item = RandomValues.item(r, 5);
            byte[] bytes = ItemCodec.encode(item);
            Map<String, AttributeValue> decoded = ItemCodec.decode(bytes);
            assertEquals(item, decoded);
            assertSameOrder(new AttributeValue.M(item), new AttributeValue.M(decoded));
        }
    }

    @Test
    void decodeAttributeReadsOneAttributeAlone() {
        Random r = new Random(2);
        for (int i = 0; i < 2000; i++) {
            Map<String, AttributeValue> item = RandomValues.item(r, 4);
            byte[] bytes = ItemCodec.encode(item);
            for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
                assertEquals(e.getValue(), ItemCodec.decodeAttribute(bytes, e.getKey()));
            }
            String absent = RandomValues.string(r, 8);
            if (!item.containsKey(absent)) assertNull(ItemCodec.decodeAttribute(bytes, absent));
        }
    }

    @Test
    void everyTypeAndEdgeValueRoundTrips() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", new AttributeValue.S("user#1"));
        item.put("emptyString", new AttributeValue.S(""));
        item.put("emptyBinary", new AttributeValue.B(new byte[0]));
        item.put("emptyMap", new AttributeValue.M(new LinkedHashMap<>()));
        item.put("emptyList", new AttributeValue.L(new ArrayList<>()));
        item.put("null", AttributeValue.NULL.INSTANCE);
        item.put("true", AttributeValue.BOOL.TRUE);
        item.put("false", AttributeValue.BOOL.FALSE);
        item.put("zero", new AttributeValue.N(DynamoNumber.ZERO));
        item.put("tiny", new AttributeValue.N(DynamoNumber.parse("-1E-130")));
        item.put("huge", new AttributeValue.N(DynamoNumber.parse("9.9999999999999999999999999999999999999E+125")));
        item.put("long", new AttributeValue.N(DynamoNumber.of(Long.MIN_VALUE)));
        item.put("unicode €😀", new AttributeValue.S("é€😀\u0000"));
        item.put("ss", new AttributeValue.SS(List.of("", "a", "😀")));
        item.put("ns", new AttributeValue.NS(List.of(DynamoNumber.parse("1.5"), DynamoNumber.parse("-0.001"))));
        item.put("bs", new AttributeValue.BS(List.of(new byte[0], new byte[] {0, (byte) 0xFF})));
        byte[] bytes = ItemCodec.encode(item);
        Map<String, AttributeValue> decoded = ItemCodec.decode(bytes);
        assertEquals(item, decoded);
        assertEquals(new ArrayList<>(item.keySet()), new ArrayList<>(decoded.keySet()));
        assertInstanceOf(LinkedHashMap.class, decoded);
        assertInstanceOf(LinkedHashMap.class, ((AttributeValue.M) decoded.get("emptyMap")).values());
        assertEquals(new AttributeValue.S("é€😀\u0000"), ItemCodec.decodeAttribute(bytes, "unicode €😀"));
    }

    @Test
    void thirtyTwoLevelsOfNestingRoundTrip() {
        for (int depth : new int[] {32, ItemCodec.MAX_NESTING_DEPTH}) {
            Map<String, AttributeValue> item = Map.of("deep", nested(depth));
            byte[] bytes = ItemCodec.encode(item);
            assertEquals(item, ItemCodec.decode(bytes));
            assertEquals(item.get("deep"), ItemCodec.decodeAttribute(bytes, "deep"));
        }
    }

    @Test
    void encodeRefusesNestingPastTheLimit() {
        Map<String, AttributeValue> item = Map.of("deep", nested(ItemCodec.MAX_NESTING_DEPTH + 1));
        assertThrows(IllegalArgumentException.class, () -> ItemCodec.encode(item));
    }

    /** {@code levels} maps and lists, alternating, around a string. */
    private static AttributeValue nested(int levels) {
        AttributeValue v = new AttributeValue.S("core");
        for (int i = 0; i < levels; i++) {
            v = i % 2 == 0 ? new AttributeValue.L(List.of(v, AttributeValue.NULL.INSTANCE))
                    : new AttributeValue.M(new LinkedHashMap<>(Map.of("k" + i, v)));
        }
        return v;
    }

    @Test
    void largeItemsUseFourByteOffsets() {
        Random r = new Random(3);
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", new AttributeValue.S("p"));
        item.put("big", new AttributeValue.S("x".repeat(300_000)));
        item.put("bigUnicode", new AttributeValue.S("€".repeat(30_000)));
        byte[] blob = new byte[70_000];
        r.nextBytes(blob);
        item.put("blob", new AttributeValue.B(blob));
        item.put("last", new AttributeValue.N(DynamoNumber.of(7)));
        byte[] bytes = ItemCodec.encode(item);
        assertEquals(4, bytes[1]);
        assertEquals(item, ItemCodec.decode(bytes));
        assertEquals(new AttributeValue.N(DynamoNumber.of(7)), ItemCodec.decodeAttribute(bytes, "last"));
        assertEquals(new AttributeValue.B(blob), ItemCodec.decodeAttribute(bytes, "blob"));
    }

    @Test
    void encodingIsCompact() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", new AttributeValue.S("user#12345"));
        item.put("sk", new AttributeValue.N(DynamoNumber.parse("1712345678")));
        item.put("name", new AttributeValue.S("Alice"));
        item.put("active", AttributeValue.BOOL.TRUE);
        // 3 header + (3 + 12) + (3 + 8) + (5 + 7) + (7 + 1) + 4 x 2 offsets = 57 bytes, near the
        // 36 that DynamoDB counts (it counts no lengths and no type tags).
        assertEquals(57, ItemCodec.encode(item).length);
        assertEquals(36, ItemSize.of(item));
    }

    // ---- corrupt bytes: a clear exception, never a loop, a stack overflow or a huge allocation

    @Test
    void everyTruncationIsDetected() {
        Random r = new Random(4);
        for (int i = 0; i < 300; i++) {
            byte[] bytes = ItemCodec.encode(RandomValues.item(r, 3));
            for (int len = 0; len < bytes.length; len++) {
                byte[] cut = Arrays.copyOf(bytes, len);
                assertThrows(CorruptItemException.class, () -> ItemCodec.decode(cut), "truncated to " + len);
                decodeAttributeOrCorrupt(cut, "x");
            }
        }
    }

    @Test
    void randomCorruptionDecodesOrThrowsCorruptItemException() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            Random r = new Random(5);
            for (int i = 0; i < 20_000; i++) {
                Map<String, AttributeValue> item = RandomValues.item(r, 3);
                byte[] bytes = ItemCodec.encode(item);
                if (bytes.length < 4) continue;
                int flips = 1 + r.nextInt(3);
                for (int f = 0; f < flips; f++) {
                    int at = 2 + r.nextInt(bytes.length - 2); // keep the version so the body gets read
                    bytes[at] = r.nextInt(4) == 0 ? (byte) r.nextInt(256) : (byte) (bytes[at] ^ (1 << r.nextInt(8)));
                }
                decodeOrCorrupt(bytes);
                for (String name : item.keySet()) decodeAttributeOrCorrupt(bytes, name);
            }
        });
    }

    @Test
    void randomGarbageDecodesOrThrowsCorruptItemException() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            Random r = new Random(6);
            for (int i = 0; i < 50_000; i++) {
                byte[] bytes = new byte[r.nextInt(64)];
                r.nextBytes(bytes);
                if (bytes.length > 1) bytes[0] = 1;
                if (bytes.length > 2) bytes[1] = (byte) (r.nextBoolean() ? 2 : 4);
                decodeOrCorrupt(bytes);
                decodeAttributeOrCorrupt(bytes, "a");
            }
        });
    }

    @Test
    void absurdNestingIsRefusedWithoutStackOverflow() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(HEX.parseHex("010201" + "0161"));
        for (int i = 0; i < 200_000; i++) out.writeBytes(new byte[] {ItemCodec.TAG_L, 1});
        out.write(ItemCodec.TAG_NULL);
        out.writeBytes(HEX.parseHex("0003"));
        byte[] bytes = out.toByteArray();
        CorruptItemException e = assertThrows(CorruptItemException.class, () -> ItemCodec.decode(bytes));
        assertTrue(e.getMessage().contains("nest"), e.getMessage());
        assertThrows(CorruptItemException.class, () -> ItemCodec.decodeAttribute(bytes, "a"));
    }

    @Test
    void hugeCountsAndLengthsAreRefusedBeforeAllocating() {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            // A list claiming 2^31 - 1 elements, a string claiming 2^31 - 1 bytes, an item claiming
            // 2^31 - 1 attributes, and a varint past 2^31 - 1.
            for (String hex : new String[] {
                "010201" + "0161" + "08" + "FFFFFFFF07" + "0003",
                "010201" + "0161" + "01" + "FFFFFFFF07" + "0003",
                "0102" + "FFFFFFFF07",
                "010201" + "0161" + "01" + "FFFFFFFF0F" + "0003",
                "010201" + "0161" + "01" + "FFFFFFFFFF01" + "0003",
            }) {
                byte[] bytes = HEX.parseHex(hex);
                assertThrows(CorruptItemException.class, () -> ItemCodec.decode(bytes), hex);
            }
        });
    }

    @Test
    void headerErrorsAreNamed() {
        assertCorrupt("020200", "version 2");
        assertCorrupt("010300", "offset width 3");
        assertCorrupt("0102", "too short");
        assertCorrupt("010201" + "0161" + "0C" + "0003", "unknown type tag 0xc");
        assertCorrupt("010202" + "016101" + "00" + "016101" + "00" + "0003" + "0007", "duplicate attribute name 'a'");
        assertCorrupt("010201" + "0161" + "0B" + "0004", "offset table entry 0");
        assertCorrupt("010201" + "0161" + "0B" + "FF" + "0003", "unread bytes");
        assertCorrupt("010201" + "0161" + "02" + "0382" + "0003", "bad number");
    }

    private static void assertCorrupt(String hex, String messagePart) {
        CorruptItemException e = assertThrows(CorruptItemException.class, () -> ItemCodec.decode(HEX.parseHex(hex)));
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }

    private static void decodeOrCorrupt(byte[] bytes) {
        try {
            ItemCodec.decode(bytes);
        } catch (CorruptItemException expected) {
            // fine
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            fail("decode threw " + e + " for " + HEX.formatHex(bytes), e);
        }
    }

    private static void decodeAttributeOrCorrupt(byte[] bytes, String name) {
        try {
            ItemCodec.decodeAttribute(bytes, name);
        } catch (CorruptItemException expected) {
            // fine
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            fail("decodeAttribute threw " + e + " for " + HEX.formatHex(bytes), e);
        }
    }

    // ---- helpers

    /** Maps decode in the order they were written, at every level. */
    private static void assertSameOrder(AttributeValue expected, AttributeValue actual) {
        if (expected instanceof AttributeValue.M m) {
            Map<String, AttributeValue> other = ((AttributeValue.M) actual).values();
            assertInstanceOf(LinkedHashMap.class, other);
            assertEquals(new ArrayList<>(m.values().keySet()), new ArrayList<>(other.keySet()));
            for (String k : m.values().keySet()) assertSameOrder(m.values().get(k), other.get(k));
        } else if (expected instanceof AttributeValue.L l) {
            List<AttributeValue> other = ((AttributeValue.L) actual).values();
            for (int i = 0; i < l.values().size(); i++) assertSameOrder(l.values().get(i), other.get(i));
        }
    }

    @Test
    void nameLookupComparesUtf8() {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("é", AttributeValue.BOOL.TRUE);
        item.put("e", AttributeValue.BOOL.FALSE);
        item.put("😀", AttributeValue.NULL.INSTANCE);
        byte[] bytes = ItemCodec.encode(item);
        assertEquals(AttributeValue.BOOL.TRUE, ItemCodec.decodeAttribute(bytes, "é"));
        assertEquals(AttributeValue.BOOL.FALSE, ItemCodec.decodeAttribute(bytes, "e"));
        assertEquals(AttributeValue.NULL.INSTANCE, ItemCodec.decodeAttribute(bytes, "😀"));
        assertNull(ItemCodec.decodeAttribute(bytes, "ée"));
        assertNull(ItemCodec.decodeAttribute(bytes, ""));
        assertArrayEquals("é".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xC3, (byte) 0xA9});
    }

    // ---- strings are Unicode text: a lone surrogate is never written as '?'

    @Test
    void aLoneSurrogateIsRefusedWhereverAStringIsEncoded() {
        for (String lone : List.of("\uD800", "a\uDBFF", "\uDC00b", "\uDE00\uD83D", "\uD83D\uD83D")) {
            List<Map<String, AttributeValue>> items = List.of(
                    Map.of("a", new AttributeValue.S(lone)),
                    Map.of(lone, AttributeValue.NULL.INSTANCE),
                    Map.of("ss", new AttributeValue.SS(List.of("x", lone))),
                    Map.of("m", new AttributeValue.M(Map.of(lone, AttributeValue.BOOL.TRUE))),
                    Map.of("l", new AttributeValue.L(List.of(new AttributeValue.S(lone)))));
            for (Map<String, AttributeValue> item : items) {
                assertThrows(IllegalArgumentException.class, () -> ItemCodec.encode(item), item::toString);
            }
        }
        Map<String, AttributeValue> pair = Map.of("\uD83D\uDE00", new AttributeValue.S("\uDBFF\uDFFF"));
        assertEquals(pair, ItemCodec.decode(ItemCodec.encode(pair)));
    }

    @Test
    void aNameWithALoneSurrogateIsNotLookedUpAsAQuestionMark() {
        byte[] bytes = ItemCodec.encode(Map.of("?", AttributeValue.BOOL.TRUE));

        assertThrows(IllegalArgumentException.class, () -> ItemCodec.decodeAttribute(bytes, "\uD800"));
    }
}
