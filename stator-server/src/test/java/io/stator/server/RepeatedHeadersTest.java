package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.ManualSigV4;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.StatorTestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A header that chooses what a request does, sent on two lines, is read as HTTP reads a field on
 * several lines (RFC 9110 section 5.3): its values joined with ',', which is also what a SigV4
 * signature covers of it. Two X-Amz-Target headers, signed together as
 * "DynamoDB_20120810.GetItem,DynamoDB_20120810.DeleteItem", name no operation: DynamoDB's
 * UnknownOperationException, as for one header with that value; the hostile probe of issue 29
 * had the first one run. Two X-Amz-Date headers are one malformed date; two Host headers are
 * HTTP's 400 (RFC 9112 section 3.2).
 */
class RepeatedHeadersTest {

    private static final String KEY = StatorTestServer.ACCESS_KEY;
    private static final String SECRET = StatorTestServer.SECRET_KEY;
    private static final String GET_ITEM = "DynamoDB_20120810.GetItem";
    private static final String DELETE_ITEM = "DynamoDB_20120810.DeleteItem";

    private static StatorTestServer verifying;
    private static StatorTestServer anonymous;
    private static String table;

    @BeforeAll
    static void startServers(@TempDir Path dir) throws IOException {
        Path credentials = dir.resolve("credentials");
        Files.writeString(credentials, KEY + " " + SECRET + "\n");
        verifying = StatorTestServer.start(o -> o.withCredentials(credentials));
        anonymous = StatorTestServer.start(o -> o);
        table = StatorTestServer.tableName();
        StatorTestServer.createTable(verifying.client(), table);
        StatorTestServer.createTable(anonymous.client(), table);
    }

    @AfterAll
    static void stopServers() {
        if (verifying != null) verifying.close();
        if (anonymous != null) anonymous.close();
    }

    @Test
    void twoTargetsSignedTogetherRunNeither() {
        put(verifying, "kept");
        Map<String, String> signed = ManualSigV4.dynamoDbHeaders(verifying.port(), "GetItem", Instant.now());
        signed.put("X-Amz-Target", GET_ITEM + "," + DELETE_ITEM); // what the signature covers of both lines
        String body = key("kept");
        String authorization = signer().authorization(signed,
                List.of("content-type", "host", "x-amz-date", "x-amz-target"), body);

        Map<String, String> sent = new LinkedHashMap<>(signed);
        sent.remove("Host");
        sent.remove("X-Amz-Target");
        sent.put("X-Amz-Target", GET_ITEM);
        sent.put("x-amz-target", DELETE_ITEM); // a second line: the map keeps both spellings
        sent.put("Authorization", authorization);

        assertUnknownOperation(RawHttp.exchange(verifying.port(), RawHttp.Request.post(sent, body)));
        assertTrue(stored(verifying, "kept"));
    }

    @Test
    void twoTargetsRunNeitherWhenSignaturesAreNotVerified() {
        put(anonymous, "kept");
        Map<String, String> headers = RawHttp.dummySignedHeaders("GetItem");
        headers.put("x-amz-target", DELETE_ITEM);

        assertUnknownOperation(RawHttp.exchange(anonymous.port(), RawHttp.Request.post(headers, key("kept"))));
        Map<String, String> reversed = RawHttp.dummySignedHeaders("DeleteItem");
        reversed.put("x-amz-target", GET_ITEM);
        assertUnknownOperation(RawHttp.exchange(anonymous.port(), RawHttp.Request.post(reversed, key("kept"))));
        assertTrue(stored(anonymous, "kept"));
    }

    @Test
    void oneTargetNamingTwoOperationsNamesNone() {
        put(anonymous, "one-line");
        Map<String, String> headers = RawHttp.dummySignedHeaders(null);
        headers.put("X-Amz-Target", GET_ITEM + "," + DELETE_ITEM);

        assertUnknownOperation(RawHttp.exchange(anonymous.port(), RawHttp.Request.post(headers, key("one-line"))));
        assertTrue(stored(anonymous, "one-line"));
    }

    @Test
    void twoDatesSignedTogetherAreOneMalformedDate() {
        String now = ManualSigV4.BASIC.format(Instant.now());
        Map<String, String> signed = ManualSigV4.dynamoDbHeaders(verifying.port(), "ListTables", Instant.now());
        signed.put("X-Amz-Date", now + "," + now);
        String authorization = "AWS4-HMAC-SHA256 Credential=" + KEY + "/" + now.substring(0, 8)
                + "/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature="
                + signer().authorization(signed, List.of("content-type", "host", "x-amz-date", "x-amz-target"), "{}")
                        .replaceFirst(".*Signature=", "");
        Map<String, String> sent = new LinkedHashMap<>(signed);
        sent.remove("Host");
        sent.put("X-Amz-Date", now);
        sent.put("x-amz-date", now);
        sent.put("Authorization", authorization);

        RawHttp.Response response = RawHttp.exchange(verifying.port(), RawHttp.Request.post(sent, "{}"));

        assertEquals(400, response.status(), response::toString);
        assertEquals("com.amazon.coral.service#IncompleteSignatureException", type(response), response::toString);
        assertEquals("Date must be in ISO-8601 'basic format'. Got '" + now + "," + now
                + "'. See http://en.wikipedia.org/wiki/ISO_8601", message(response));
    }

    @Test
    void twoHostHeadersAreABadRequest() {
        Map<String, String> headers = RawHttp.dummySignedHeaders("ListTables");
        headers.put("Host", "127.0.0.1:" + anonymous.port());
        headers.put("host", "elsewhere.example");

        try (RawHttp http = RawHttp.connect(anonymous.port())) {
            RawHttp.Response response = http.send(RawHttp.Request.post(headers, "{}")).read();
            assertEquals(400, response.status(), response::toString);
            assertTrue(http.isClosedByServer(), "the connection is closed after a malformed request");
        }
    }

    private static ManualSigV4 signer() {
        return new ManualSigV4(KEY, SECRET, "us-east-1");
    }

    private static String key(String id) {
        return "{\"TableName\":\"" + table + "\",\"Key\":{\"id\":{\"S\":\"" + id + "\"}}}";
    }

    private static void put(StatorTestServer server, String id) {
        server.client().putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS(id))));
    }

    private static boolean stored(StatorTestServer server, String id) {
        return server.client().getItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS(id)))
                .consistentRead(true)).hasItem();
    }

    /** DynamoDB's answer to a target that names no operation: a 400 with no message (dynalite). */
    private static void assertUnknownOperation(RawHttp.Response response) {
        assertEquals(400, response.status(), response::toString);
        assertEquals("com.amazon.coral.service#UnknownOperationException", type(response), response::toString);
    }

    private static String type(RawHttp.Response response) {
        return JsonNode.parser().parse(response.bodyText()).asObject().get("__type").asString();
    }

    private static String message(RawHttp.Response response) {
        return JsonNode.parser().parse(response.bodyText()).asObject().get("message").asString();
    }
}
