package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.server.testing.RawDynamoDb;
import io.stator.server.testing.RawDynamoDb.Reply;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Every string of a request is Unicode text: a lone surrogate, written as a JSON escape
 * ({@code "\\ud800"} in the JSON) or as the bytes that would encode it ({@code ED A0 80}), and any byte
 * sequence that is not UTF-8 (overlong forms, surrogates encoded one by one as CESU-8 does, code
 * points past U+10FFFF, a UTF-16 body) is refused, wherever it stands: attribute values and names,
 * map keys, table names, expressions, ExpressionAttributeNames, members Stator does not know.
 * Before, such strings were read and stored with '?' in place of the surrogate, so that
 * U+D800, U+DBFF and "?" were one key.
 *
 * <p>The answer is the one DynamoDB gives a body it cannot read as JSON: a SerializationException
 * without a message (dynalite's test/connection.js, recorded against DynamoDB; docs/dynamodb/
 * dynamodb-errors.md section 1.1, item 7). What DynamoDB itself answers for a lone surrogate is not
 * recorded anywhere we found; Stator treats such a body as not being JSON text (RFC 8259 section 8.1:
 * JSON exchanged between systems is UTF-8, and RFC 3629 excludes the surrogates from UTF-8).
 */
class UnicodeInputsTest {

    private static final String SERIALIZATION = "com.amazon.coral.service#SerializationException";
    private static final String TABLE = StatorTestServer.tableName();

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static RawDynamoDb raw;

    @BeforeAll
    static void createTable() {
        StatorTestServer.createTable(server.client(), TABLE);
        raw = new RawDynamoDb(server.endpoint());
    }

    // ---- lone surrogates written as JSON escapes ----------------------------------------------

    /** A request whose JSON holds {@code \\uXXXX} escapes (written here with a doubled backslash). */
    static Stream<Arguments> loneSurrogateEscapes() {
        String item = "\"TableName\": \"" + TABLE + "\", \"Item\": ";
        return Stream.of(
                Arguments.of("in a string value", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"a\"}, \"v\": {\"S\": \"x\\ud800y\"}}}"),
                Arguments.of("as the whole key", "PutItem", "{" + item + "{\"id\": {\"S\": \"\\udbff\"}}}"),
                Arguments.of("in an attribute name", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"a\"}, \"\\udc00\": {\"S\": \"x\"}}}"),
                Arguments.of("in a map key", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"a\"}, \"m\": {\"M\": {\"k\\ud800\": {\"S\": \"x\"}}}}}"),
                Arguments.of("in a string set", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"a\"}, \"ss\": {\"SS\": [\"x\", \"\\ud800\"]}}}"),
                Arguments.of("in a list", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"a\"}, \"l\": {\"L\": [{\"S\": \"\\ud800\"}]}}}"),
                Arguments.of("in a number's text", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"a\"}, \"n\": {\"N\": \"1\\ud800\"}}}"),
                Arguments.of("in the table name", "DescribeTable", "{\"TableName\": \"abc\\ud800\"}"),
                Arguments.of("in an ExpressionAttributeNames key", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"a\"}}, \"ConditionExpression\": \"attribute_exists(#a)\", "
                                + "\"ExpressionAttributeNames\": {\"#a\": \"id\", \"#\\ud800\": \"id\"}}"),
                Arguments.of("in an ExpressionAttributeNames value", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"a\"}}, \"ConditionExpression\": \"attribute_exists(#a)\", "
                                + "\"ExpressionAttributeNames\": {\"#a\": \"\\udc00\"}}"),
                Arguments.of("in an expression", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"a\"}}, \"ConditionExpression\": \"attribute_exists(\\ud800)\"}"),
                Arguments.of("in a key to read", "GetItem",
                        "{\"TableName\": \"" + TABLE + "\", \"Key\": {\"id\": {\"S\": \"\\ud800\"}}}"),
                Arguments.of("in a Query's values", "Query",
                        "{\"TableName\": \"" + TABLE + "\", \"KeyConditionExpression\": \"id = :v\", "
                                + "\"ExpressionAttributeValues\": {\":v\": {\"S\": \"\\udfff\"}}}"),
                Arguments.of("in a member Stator does not know", "DescribeTable",
                        "{\"TableName\": \"" + TABLE + "\", \"Whatever\": \"\\ud800\"}"),
                Arguments.of("a high one before a character that is not a low one", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"\\ud800\\u0041\"}}}"),
                Arguments.of("a high one before a letter", "PutItem", "{" + item + "{\"id\": {\"S\": \"\\ud800A\"}}}"),
                Arguments.of("two high ones", "PutItem", "{" + item + "{\"id\": {\"S\": \"\\ud83d\\ud83d\"}}}"),
                Arguments.of("a pair in the wrong order", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"\\ude00\\ud83d\"}}}"),
                Arguments.of("a high one at the end of the string", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"a\\uD83D\"}}}"),
                Arguments.of("a high one before an escaped backslash", "PutItem",
                        "{" + item + "{\"id\": {\"S\": \"\\ud83d\\\\ude00\"}}}"));
    }

    @ParameterizedTest(name = "a lone surrogate escape {0}")
    @MethodSource("loneSurrogateEscapes")
    void aLoneSurrogateEscapeIsRefusedAsTextThatIsNotUnicode(String where, String action, String body) {
        assertNotJson(raw.call(action, body));
    }

    @Test
    void aLoneSurrogateNoLongerReadsTheItemStoredUnderAQuestionMark() {
        server.client().putItem(b -> b.tableName(TABLE).item(Map.of("id", AttributeValue.fromS("?"),
                "v", AttributeValue.fromS("question mark"))));

        for (String surrogate : new String[] {"\\ud800", "\\udbff", "\\udc00"}) {
            assertNotJson(raw.call("GetItem", "{\"TableName\": \"" + TABLE + "\", \"Key\": {\"id\": {\"S\": \""
                    + surrogate + "\"}}}"));
        }
        assertEquals("question mark", server.client().getItem(b -> b.tableName(TABLE)
                .key(Map.of("id", AttributeValue.fromS("?")))).item().get("v").s());
    }

    @Test
    void anAttributeNameOfALoneSurrogateIsNotStoredAsAQuestionMark() {
        Reply reply = raw.call("PutItem", "{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \"named\"}, "
                + "\"\\udc00\": {\"S\": \"x\"}}}");

        assertNotJson(reply);
        assertNull(server.client().getItem(b -> b.tableName(TABLE)
                .key(Map.of("id", AttributeValue.fromS("named")))).item().get("?"));
    }

    @Test
    void anEscapedPairIsOneCharacterAndTheSameKeyAsItsUtf8Bytes() {
        Reply escaped = raw.call("PutItem", "{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": "
                + "\"\\ud83d\\ude00\"}, \"v\": {\"S\": \"escaped\"}}}");
        assertEquals(200, escaped.status(), escaped::toString);
        Reply bytes = raw.call("PutItem", body("{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \"",
                hex("F09F9880"), "\"}, \"v\": {\"S\": \"bytes\"}}}"));
        assertEquals(200, bytes.status(), bytes::toString);

        assertEquals("bytes", valueOf("\uD83D\uDE00"));
    }

    @Test
    void anEscapedBackslashBeforeUIsNotAnEscape() {
        Reply reply = raw.call("PutItem", "{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": "
                + "\"\\\\ud800\"}, \"v\": {\"S\": \"six characters\"}}}");

        assertEquals(200, reply.status(), reply::toString);
        assertEquals("six characters", valueOf("\\ud800"));
    }

    // ---- byte sequences that are not UTF-8 -----------------------------------------------------

    /** Bytes in the middle of a string value; none of them is UTF-8. */
    static Stream<Arguments> notUtf8() {
        return Stream.of(
                Arguments.of("U+D800 encoded as bytes", "EDA080"),
                Arguments.of("U+DBFF encoded as bytes", "EDAFBF"),
                Arguments.of("U+DC00 encoded as bytes", "EDB080"),
                Arguments.of("U+DFFF encoded as bytes", "EDBFBF"),
                Arguments.of("a pair encoded one surrogate at a time (CESU-8)", "EDA0BDEDB880"),
                Arguments.of("an overlong NUL", "C080"),
                Arguments.of("an overlong 'A'", "C181"),
                Arguments.of("an overlong U+07FF", "E09FBF"),
                Arguments.of("an overlong U+FFFF", "F08FBFBF"),
                Arguments.of("a code point past U+10FFFF", "F4908080"),
                Arguments.of("a lead byte past F4", "F5808080"),
                Arguments.of("a continuation byte alone", "80"),
                Arguments.of("a lead byte without its continuation", "E282"),
                Arguments.of("0xFF", "FF"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notUtf8")
    void bytesThatAreNotUtf8AreRefusedInValuesAndNames(String what, String hexBytes) {
        byte[] bad = hex(hexBytes);

        assertNotJson(raw.call("PutItem", body("{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \"a",
                bad, "\"}}}")));
        assertNotJson(raw.call("PutItem", body("{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \"a\"}, \"",
                bad, "\": {\"S\": \"x\"}}}")));
    }

    /** The first and last code points of each UTF-8 length, and those around the surrogates. */
    static Stream<Arguments> utf8Edges() {
        return Stream.of(
                Arguments.of("C280", "\u0080"),
                Arguments.of("DFBF", "\u07FF"),
                Arguments.of("E0A080", "\u0800"),
                Arguments.of("ED9FBF", "\uD7FF"),
                Arguments.of("EE8080", "\uE000"),
                Arguments.of("EFBFBF", "\uFFFF"),
                Arguments.of("F0908080", "\uD800\uDC00"),
                Arguments.of("F48FBFBF", "\uDBFF\uDFFF"));
    }

    @ParameterizedTest(name = "bytes {0}")
    @MethodSource("utf8Edges")
    void everyUtf8EdgeIsReadAsItsCharacter(String hexBytes, String character) {
        String key = "edge-" + hexBytes;
        Reply reply = raw.call("PutItem", body("{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \""
                + key + "\"}, \"v\": {\"S\": \"", hex(hexBytes), "\"}}}"));

        assertEquals(200, reply.status(), reply::toString);
        assertEquals(character, valueOf(key));
    }

    @Test
    void aBodyInUtf16IsRefused() {
        String json = "{\"TableName\": \"" + TABLE + "\"}";

        assertNotJson(raw.call("DescribeTable", json.getBytes(StandardCharsets.UTF_16BE)));
        assertNotJson(raw.call("DescribeTable", json.getBytes(StandardCharsets.UTF_16LE)));
        assertNotJson(raw.call("DescribeTable", json.getBytes(StandardCharsets.UTF_16))); // with a byte order mark
    }

    @Test
    void aLoneSurrogateIsRefusedBeforeTheTargetIsLookedAt() {
        // As malformed JSON is: before UnknownOperationException.
        assertNotJson(raw.call("DescribeTablez", "{\"TableName\": \"\\ud800\"}"));
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private static void assertNotJson(Reply reply) {
        assertEquals(400, reply.status(), reply::toString);
        assertEquals(SERIALIZATION, reply.type(), reply::toString);
        assertEquals("{\"__type\":\"" + SERIALIZATION + "\"}", reply.body(), "no message member");
    }

    /** The attribute "v" of the item whose key is {@code id}. */
    private static String valueOf(String id) {
        return server.client().getItem(b -> b.tableName(TABLE).key(Map.of("id", AttributeValue.fromS(id))))
                .item().get("v").s();
    }

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    /** Text, then raw bytes, then text: a body no Java string could carry. */
    private static byte[] body(String before, byte[] bytes, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(bytes);
        out.writeBytes(after.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}
