package io.stator.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import io.stator.core.error.DynamoDbException;
import io.stator.server.protocol.Shape.StructureShape;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonSyntax}, which judges a body as it streams past, reaches the verdict of the checks it
 * stands in for on the whole body, fed in any chunks: {@link RequestReader#parse} (one value) and
 * the endpoint's check of a body whose target names no operation ({@link JsonText}, then every
 * token of Jackson's default parser: values in a row). On hand-picked bodies at every edge of the
 * grammar and the limits, and on random ones built around them.
 */
class JsonSyntaxTest {

    private static final StructureShape GET_ITEM = ServiceModel.get().operation("GetItem").input();
    private static final JsonFactory DEFAULT_JACKSON = new JsonFactory();
    private static final HexFormat HEX = HexFormat.of();

    private static final List<String> BODIES = List.of(
            "{}", "[]", "{ }", "[ ]", " {} ", "\t{}\r\n", "{\"a\":1}", "{\"a\" : [1, 2.5, -3e4, 0, -0, 0.0e-0]}",
            "[1,]", "[,1]", "[1,,2]", "{,}", "{\"a\":1,}", "{\"a\"}", "{\"a\":}", "{a:1}", "{'a':1}", "[\"a\"\"b\"]",
            "true", "false", "null", "truex", "true1", "true_", "true$", "true-1", "true{}", "true[]", "true\"a\"",
            "nul", "tru", "fals", "True", "NULL", "[true,false,null]", "[truex]", "[true ]", "{\"a\":nullx}",
            "1", "-1", "01", "-01", "00", "0", "-0", "1.", ".5", "1.5", "1e5", "1E+5", "1e-5", "1e", "1e+", "-", "+1",
            "1.e5", "0x10", "NaN", "-Infinity", "Infinity", "1 2", "1\t2", "12", "1{}", "1[]", "1\"a\"", "1,2",
            "{}{}", "[][]", "{} {}", "\"a\"\"b\"", "\"a\" 1", "\"a\"1", "[1]2", "{}1", "1}", "1]", "]", "}", "{]",
            "[}", "[[]]", "[[],[]]", "[{}]", "{\"a\":{\"b\":[]}}", "", " ", "\n", "\"\"", "\"abc\"", "\"a\\\"b\"",
            "\"\\n\\t\\r\\b\\f\\/\\\\\"", "\"\\x\"", "\"\\u00e9\"", "\"\\u00E9\"", "\"\\u00g9\"", "\"\\u12\"",
            "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"", "\"\\ud83dx\"",
            "\"\\ud83d\\\\ude00\"", "{\"\\ud83d\\ude00\":1}", "\"a\tb\"", "\"a\nb\"", "\"\u007f\"", "\"é\"", "\"€\"",
            "\"😀\"", "é", "{\"é\":1}", "/*c*/{}", "{}//c", "#{}", "{\"a\":1}x", "{\"a\":1} x", "[1 2]",
            "{\"a\":1 \"b\":2}", "[\"a\":1]", "{\"a\",1}", "\u00a0{}", "{}\u00a0");

    @Test
    void agreesOnHandPickedBodies() {
        for (String body : BODIES) {
            assertAgrees(body.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void agreesOnBytesThatAreNotUtf8() {
        String[] sequences = {"EDA080", "EDBFBF", "C080", "C181", "E09FBF", "F08FBFBF", "F4908080", "F5", "FF", "80",
            "E282", "F09F98", "00", "E282AC", "F09F9880", "C3A9", "EFBBBF", "EFBB", "FEFF"};
        for (String sequence : sequences) {
            byte[] bytes = HEX.parseHex(sequence);
            assertAgrees(concat("\"".getBytes(StandardCharsets.US_ASCII), bytes, "\"".getBytes(StandardCharsets.US_ASCII)));
            assertAgrees(concat(bytes, "{}".getBytes(StandardCharsets.US_ASCII)));
            assertAgrees(concat("{}".getBytes(StandardCharsets.US_ASCII), bytes));
            assertAgrees(concat("{\"".getBytes(StandardCharsets.US_ASCII), bytes,
                    "\":1}".getBytes(StandardCharsets.US_ASCII)));
        }
    }

    @Test
    void agreesAtTheNestingLimit() {
        for (int depth : new int[] {999, 1000, 1001}) {
            assertAgrees(("[".repeat(depth) + "]".repeat(depth)).getBytes(StandardCharsets.US_ASCII));
            assertAgrees(("{\"a\":".repeat(depth) + "1" + "}".repeat(depth)).getBytes(StandardCharsets.US_ASCII));
            assertAgrees(("[{\"a\":".repeat(depth / 2) + "[]" + "}]".repeat(depth / 2)).getBytes(StandardCharsets.US_ASCII));
        }
    }

    @Test
    void agreesAtTheNumberLimit() {
        for (int digits : new int[] {999, 1000, 1001}) {
            String d = "1".repeat(digits);
            for (String number : List.of(d, "-" + d, d.substring(1) + ".5", "0." + d.substring(1), "1e" + d.substring(1),
                    "1." + "2".repeat(digits - 3) + "e+9", "-" + d.substring(2) + ".5e1")) {
                assertAgrees(number.getBytes(StandardCharsets.US_ASCII));
                assertAgrees(("[" + number + "]").getBytes(StandardCharsets.US_ASCII));
            }
        }
    }

    @Test
    void agreesAtTheNameLimit() {
        for (int chars : new int[] {16_666, 16_667, 24_999, 25_000, 25_001, 49_999, 50_000, 50_001}) {
            assertAgrees(("{\"" + "a".repeat(chars) + "\":1}").getBytes(StandardCharsets.UTF_8));
            assertAgrees(("{\"" + "é".repeat(chars) + "\":1}").getBytes(StandardCharsets.UTF_8));
            assertAgrees(("{\"" + "a".repeat(chars - 2) + "😀\":1}").getBytes(StandardCharsets.UTF_8));
            assertAgrees(("{\"" + "a".repeat(chars - 2) + "\\ud83d\\ude00\":1}").getBytes(StandardCharsets.UTF_8));
            assertAgrees(("{\"" + "a".repeat(chars - 1) + "\\n\":1}").getBytes(StandardCharsets.UTF_8));
            assertAgrees(("{\"" + "€".repeat(chars / 3) + "a".repeat(chars % 3) + "\":1}").getBytes(StandardCharsets.UTF_8));
            assertAgrees(("{\"" + "\\u00e9".repeat(chars / 2) + "\":1}").getBytes(StandardCharsets.UTF_8));
            assertAgrees(("{\"" + "\\u20ac".repeat(chars / 3) + "\\u0041".repeat(chars % 3) + "\":1}")
                    .getBytes(StandardCharsets.UTF_8));
            assertAgrees(("[\"" + "a".repeat(chars + 10) + "\"]").getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void agreesOnRandomBodiesAndTheirMutations() {
        Random random = new Random(29);
        for (int n = 0; n < 20_000; n++) {
            byte[] body = randomValue(random, 0).getBytes(StandardCharsets.UTF_8);
            assertAgrees(body);
            assertAgrees(mutate(body, random));
            assertAgrees(mutate(mutate(body, random), random));
        }
    }

    @Test
    void aLargeBodyIsReadQuickly() {
        byte[] body = new byte[15 << 20];
        java.util.Arrays.fill(body, (byte) 'a');
        byte[] head = "{\"TableName\":\"t\",\"Key\":{\"id\":{\"S\":\"".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy("\"}}}".getBytes(StandardCharsets.US_ASCII), 0, body, body.length - 4, 4);
        JsonSyntax syntax = new JsonSyntax(true, Integer.MAX_VALUE);
        long start = System.nanoTime();
        for (int at = 0; at < body.length; at += 65536) {
            assertTrue(syntax.feed(ByteBuffer.wrap(body, at, Math.min(65536, body.length - at))));
        }
        assertTrue(syntax.isJson());
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 10_000, "15 MB took " + millis + " ms");
    }

    /** The streaming verdict, fed whole and in random chunks, is the reference's, in both modes. */
    private static void assertAgrees(byte[] body) {
        if (body.length == 0) return; // an empty body is not judged: it is read as it is
        boolean reader = readerTakes(body);
        boolean endpoint = endpointTakes(body);
        String shown = body.length > 200 ? body.length + " bytes" : HEX.formatHex(body) + " (" + new String(body,
                StandardCharsets.UTF_8) + ")";
        assertEquals(reader, streamed(body, true, Integer.MAX_VALUE, body.length), () -> "one value: " + shown);
        assertEquals(endpoint, streamed(body, false, JsonSyntax.DEFAULT_MAX_NAME_BYTES, body.length),
                () -> "values in a row: " + shown);
        for (int chunk : new int[] {1, 2, 3, 7}) {
            if (body.length > 5_000 && chunk < 7) continue;
            assertEquals(reader, streamed(body, true, Integer.MAX_VALUE, chunk), () -> "one value, chunks of " + chunk
                    + ": " + shown);
            assertEquals(endpoint, streamed(body, false, JsonSyntax.DEFAULT_MAX_NAME_BYTES, chunk),
                    () -> "values in a row, chunks of " + chunk + ": " + shown);
        }
    }

    private static boolean streamed(byte[] body, boolean oneValue, int maxNameChars, int chunk) {
        JsonSyntax syntax = new JsonSyntax(oneValue, maxNameChars);
        for (int at = 0; at < body.length; at += chunk) {
            if (!syntax.feed(body, at, Math.min(chunk, body.length - at))) return false;
        }
        return syntax.isJson();
    }

    private static boolean readerTakes(byte[] body) {
        try {
            RequestReader.parse(body, GET_ITEM);
            return true;
        } catch (DynamoDbException e) {
            return false;
        }
    }

    /** DynamoDbEndpoint's check of a body whose target names no operation. */
    private static boolean endpointTakes(byte[] body) {
        if (!JsonText.isUnicode(body, 0, body.length)) return false;
        try (JsonParser p = DEFAULT_JACKSON.createParser(body)) {
            if (p.nextToken() == null) return false;
            while (p.nextToken() != null) {
                // reading is checking
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static final String[] ATOMS = {"0", "-1", "1.5", "2e3", "-0.0E-7", "123456789", "true", "false", "null",
        "\"\"", "\"a\"", "\"é😀\"", "\"\\u00e9\\n\"", "\"\\ud83d\\ude00\""};

    private static String randomValue(Random random, int depth) {
        int kind = random.nextInt(depth > 4 ? 1 : 4);
        if (kind == 0) return ATOMS[random.nextInt(ATOMS.length)];
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(4);
        boolean object = kind == 1;
        sb.append(object ? '{' : '[');
        for (int i = 0; i < n; i++) {
            if (i > 0) sb.append(random.nextBoolean() ? "," : " , ");
            if (object) sb.append('"').append((char) ('a' + random.nextInt(3))).append("\":");
            sb.append(randomValue(random, depth + 1));
        }
        sb.append(object ? '}' : ']');
        return sb.toString();
    }

    private static final byte[] NOISE = " ,:[]{}\"\\u0e-+.tfnx1\n\t\u0000".getBytes(StandardCharsets.ISO_8859_1);

    private static byte[] mutate(byte[] body, Random random) {
        List<Byte> bytes = new ArrayList<>();
        for (byte b : body) bytes.add(b);
        int at = bytes.isEmpty() ? 0 : random.nextInt(bytes.size() + 1);
        switch (random.nextInt(5)) {
            case 0 -> bytes.add(at, NOISE[random.nextInt(NOISE.length)]);
            case 1 -> {
                if (at < bytes.size()) bytes.remove(at);
            }
            case 2 -> {
                if (at < bytes.size()) bytes.set(at, NOISE[random.nextInt(NOISE.length)]);
            }
            case 3 -> {
                while (bytes.size() > at) bytes.remove(bytes.size() - 1);
            }
            default -> bytes.add(at, (byte) (0x80 + random.nextInt(0x80)));
        }
        byte[] out = new byte[bytes.size()];
        for (int i = 0; i < out.length; i++) out[i] = bytes.get(i);
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) n += p.length;
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    @Test
    void aBodyKnownNotToBeJsonStopsTheFeed() {
        JsonSyntax syntax = new JsonSyntax(true, Integer.MAX_VALUE);
        assertFalse(syntax.feed("{not json".getBytes(StandardCharsets.US_ASCII), 0, 9));
        assertFalse(syntax.isJson());
    }
}
