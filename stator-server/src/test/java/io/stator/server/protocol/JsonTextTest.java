package io.stator.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The body check of {@link JsonText}: strict UTF-8, surrogate escapes in pairs, at every position
 * of the eight-byte fast path. The request-level behaviour is in {@code UnicodeInputsTest}.
 */
class JsonTextTest {

    private static final HexFormat HEX = HexFormat.of();

    @Test
    void agreesWithTheJdksStrictDecoderOnRandomBytes() {
        Random random = new Random(11);
        // Bytes around every boundary of RFC 3629's table; no NUL and no backslash, which JSON
        // text treats apart.
        int[] alphabet = {'a', '"', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
            0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
        for (int n = 0; n < 300_000; n++) {
            byte[] bytes = new byte[random.nextInt(14)];
            for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) alphabet[random.nextInt(alphabet.length)];
            assertEquals(isStrictUtf8(bytes), JsonText.isUnicode(bytes, 0, bytes.length), () -> HEX.formatHex(bytes));
        }
    }

    @Test
    void everyCodePointButTheSurrogatesIsText() {
        for (int cp = 1; cp <= Character.MAX_CODE_POINT; cp++) {
            if (cp == '\\' || (cp >= 0xD800 && cp <= 0xDFFF)) continue;
            byte[] bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
            assertTrue(JsonText.isUnicode(bytes, 0, bytes.length), Integer.toHexString(cp));
        }
    }

    @Test
    void aBadSequenceIsFoundWhereverItStandsInTheWord() {
        List<String> bad = List.of("EDA080", "EDBFBF", "C080", "C181", "E09FBF", "F08FBFBF", "F4908080", "F5", "FF", "80",
                "E282", "F09F98", "00", "5C7564383030", "5C7544433030", "5C75643833645C5C7564653030");
        List<String> good = List.of("E282AC", "F09F9880", "5C75643833645C7564653030", "5C5C7564383030", "5C6E",
                "5C7530303431", "5C7546464646");
        for (int pad = 0; pad <= 17; pad++) {
            for (String sequence : bad) {
                byte[] body = padded(pad, sequence);
                assertFalse(JsonText.isUnicode(body, 0, body.length), pad + " " + sequence);
            }
            for (String sequence : good) {
                byte[] body = padded(pad, sequence);
                assertTrue(JsonText.isUnicode(body, 0, body.length), pad + " " + sequence);
            }
        }
    }

    @Test
    void aSequenceCutByTheEndOfTheRangeIsNotText() {
        byte[] body = HEX.parseHex("6161E282AC6161");
        assertTrue(JsonText.isUnicode(body, 0, 7));
        assertFalse(JsonText.isUnicode(body, 0, 4));
        assertFalse(JsonText.isUnicode(body, 3, 4));
        byte[] escape = "ab\\ud83d\\ude00".getBytes(StandardCharsets.US_ASCII);
        assertTrue(JsonText.isUnicode(escape, 0, escape.length));
        assertFalse(JsonText.isUnicode(escape, 0, escape.length - 1));
        assertFalse(JsonText.isUnicode(escape, 0, 8));
    }

    /** {@code pad} ASCII letters, the sequence, {@code pad} more: the sequence at every offset of a word. */
    private static byte[] padded(int pad, String hexSequence) {
        byte[] sequence = HEX.parseHex(hexSequence);
        byte[] body = new byte[2 * pad + sequence.length];
        java.util.Arrays.fill(body, (byte) 'x');
        System.arraycopy(sequence, 0, body, pad, sequence.length);
        return body;
    }

    private static boolean isStrictUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /**
     * needsEscape against the byte-at-a-time rule, on random bytes at every offset and length (the
     * eight-byte path and the tail), and the reply's JSON unchanged: what needs no escape is what
     * Jackson writes unescaped.
     */
    @Test
    void needsEscapeIsTrueExactlyForWhatJacksonEscapes() throws Exception {
        Random random = new Random(12);
        int[] alphabet = {'a', 'Z', ' ', '!', '"', '#', '[', '\\', ']', 0x00, 0x01, 0x0A, 0x1F, 0x7F, 0x80, 0x9F, 0xA0,
            0xA2, 0xDC, 0xE2, 0xFF};
        com.fasterxml.jackson.core.JsonFactory json = new com.fasterxml.jackson.core.JsonFactory();
        for (int n = 0; n < 200_000; n++) {
            byte[] bytes = new byte[random.nextInt(40)];
            // Mostly harmless bytes, so that long runs without an escape are common.
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (random.nextInt(8) == 0 ? alphabet[random.nextInt(alphabet.length)] : 'a' + random.nextInt(26));
            }
            int offset = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
            int length = random.nextInt(bytes.length - offset + 1);
            boolean expected = false;
            for (int i = offset; i < offset + length; i++) {
                int b = bytes[i] & 0xFF;
                if (b < 0x20 || b == '"' || b == '\\') expected = true;
            }
            assertEquals(expected, JsonText.needsEscape(bytes, offset, length), () -> HEX.formatHex(bytes));
            if (!expected) {
                java.io.ByteArrayOutputStream escaped = new java.io.ByteArrayOutputStream();
                java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();
                try (var g = json.createGenerator(escaped)) {
                    g.writeUTF8String(bytes, offset, length);
                }
                try (var g = json.createGenerator(raw)) {
                    g.writeRawUTF8String(bytes, offset, length);
                }
                assertEquals(HEX.formatHex(escaped.toByteArray()), HEX.formatHex(raw.toByteArray()));
            }
        }
    }
}
