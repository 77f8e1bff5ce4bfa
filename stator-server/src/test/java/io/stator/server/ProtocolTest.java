package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.protocol.ServiceModel;
import io.stator.server.protocol.Shape;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.RawHttp.Request;
import io.stator.server.testing.RawHttp.Response;
import io.stator.server.testing.StatorTestServer;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The HTTP layer as DynamoDB's clients meet it, over a real socket: what each kind of request
 * gets back, byte for byte where DynamoDB's reply is known byte for byte (section 1 of
 * docs/dynamodb/dynamodb-errors.md, from dynalite's connection tests run against DynamoDB).
 */
class ProtocolTest {

    /** DynamoDB's 404 for anything that is not a DynamoDB request. */
    private static final String NOT_FOUND_BODY = "<UnknownOperationException/>\n";
    private static final String SERIALIZATION_BODY = "{\"__type\":\"com.amazon.coral.service#SerializationException\"}";
    private static final String UNKNOWN_OPERATION_BODY =
            "{\"__type\":\"com.amazon.coral.service#UnknownOperationException\"}";
    private static final int SIXTEEN_MIB = 16 * 1024 * 1024;

    private static StatorTestServer server;

    @BeforeAll
    static void startServer() {
        server = StatorTestServer.start();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) server.close();
    }

    private static Response exchange(Request request) {
        return RawHttp.exchange(server.port(), request);
    }

    private static Request request(String method, String target, Map<String, String> headers, String body) {
        return new Request(method, target, headers, body.getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, String> headers(String... namesAndValues) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) headers.put(namesAndValues[i], namesAndValues[i + 1]);
        return headers;
    }

    private static long crc32(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }

    /** What every reply past the size limit carries: a request id and the body's CRC32. */
    private static void assertCommonHeaders(Response response) {
        assertTrue(response.header("x-amzn-RequestId").matches("[0-9A-Z]{52}"), response::toString);
        assertEquals(Long.toString(crc32(response.body())), response.header("x-amz-crc32"), response::toString);
        assertEquals(Integer.toString(response.body().length), response.header("Content-Length"));
    }

    /** A 400 whose body is only a {@code __type}, with the CRC32 dynalite recorded from DynamoDB. */
    private static void assertSerializationException(Response response) {
        assertBareError(response, SERIALIZATION_BODY, "3948637019");
    }

    private static void assertUnknownOperationException(Response response) {
        assertBareError(response, UNKNOWN_OPERATION_BODY, "1368724161");
    }

    private static void assertBareError(Response response, String body, String crc32) {
        assertEquals(400, response.status(), response::toString);
        assertEquals(body, response.bodyText());
        assertEquals(crc32, response.header("x-amz-crc32"));
        assertCommonHeaders(response);
    }

    private static void assertDynamoDbNotFound(Response response) {
        assertEquals(404, response.status(), response::toString);
        assertEquals(NOT_FOUND_BODY, response.bodyText());
        assertEquals("3552371480", response.header("x-amz-crc32"));
        assertEquals("29", response.header("Content-Length"));
        assertCommonHeaders(response);
    }

    // ---- health, methods, paths, content types ----------------------------------------------

    /**
     * GET / answers "healthy: " and the host the request was addressed to, with a trailing space:
     * DynamoDB's own endpoint names itself so (dynalite's test, recorded against DynamoDB:
     * 'healthy: dynamodb.' + region + '.amazonaws.com ', 42 bytes, CRC 3128867991), and ScyllaDB's
     * Alternator tests compare the line with the host of the URL they used.
     */
    @Test
    void getSlashAnswersTheHealthLineWithTheHostItWasAddressedToAndATrailingSpace() {
        Response response = exchange(request("GET", "/", Map.of("Host", "dynamodb.us-east-1.amazonaws.com"), ""));

        assertEquals(200, response.status());
        assertEquals("healthy: dynamodb.us-east-1.amazonaws.com ", response.bodyText());
        assertEquals("42", response.header("Content-Length"));
        assertEquals("3128867991", response.header("x-amz-crc32"));
        assertCommonHeaders(response);

        Response local = exchange(request("GET", "/", Map.of(), ""));
        assertEquals("healthy: 127.0.0.1:" + server.port() + " ", local.bodyText());
        assertEquals("healthy: localhost:8000 ",
                exchange(request("GET", "/", Map.of("Host", "localhost:8000"), "")).bodyText());
    }

    /**
     * A request line over 8 KB or headers over 64 KB are refused with HTTP's own statuses and the
     * connection closed, never served as if read whole (DynamoDB's answer is recorded nowhere
     * found: docs/dynamodb/dynamodb-errors.md).
     */
    @Test
    void requestLinesAndHeadersTooLongToReadAreRefusedAndTheConnectionClosed() {
        try (RawHttp http = RawHttp.connect(server.port())) {
            Response r = http.writeHead("GET", "/" + "a".repeat(9_000), Map.of(), -1).read();
            assertEquals(414, r.status(), r::toString);
            assertTrue(http.awaitClose(java.time.Duration.ofSeconds(10)) != null);
        }
        try (RawHttp http = RawHttp.connect(server.port())) {
            Response r = http.writeHead("GET", "/", Map.of("X-Big", "b".repeat(70_000)), -1).read();
            assertEquals(431, r.status(), r::toString);
            assertEquals(0, r.body().length);
        }
        Map<String, String> headers = new java.util.LinkedHashMap<>(RawHttp.dummySignedHeaders("ListTables"));
        headers.put("X-Big", "b".repeat(60_000)); // under the limit: served
        assertEquals(200, exchange(new Request("POST", "/", headers, "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8))).status());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/health", "/abc", "/-", "/index.htm"})
    void getOnAnyOtherPathAnswersTheUnknownOperation404(String path) {
        assertDynamoDbNotFound(exchange(request("GET", path, Map.of(), "")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PUT", "DELETE", "PATCH", "OPTIONS"})
    void methodsOtherThanPostAnswerTheUnknownOperation404(String method) {
        // OPTIONS without an Origin header is no CORS preflight, so it is just another method.
        assertDynamoDbNotFound(exchange(request(method, "/", RawHttp.dummySignedHeaders("ListTables"), "{}")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "whatever", "application/x-amz-json-1.2", "application/jsonasdf", "text/plain"})
    void aBodyOfAnotherContentTypeAnswersTheUnknownOperation404(String contentType) {
        Map<String, String> headers = headers("X-Amz-Target", "DynamoDB_20120810.ListTables");
        if (!contentType.isEmpty()) headers.put("Content-Type", contentType);
        assertDynamoDbNotFound(exchange(request("POST", "/", headers, "hi")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/x-amz-json-1.0", "application/x-amz-json-1.1", "application/json", "application/json;",
            "  application/json  ;   asfd", "application/json;charset=asfdsaf", "application/x-amz-json-1.0;blahblah"})
    void bothJsonContentTypesAreServedAndTheReplyNamesTheOneUsed(String contentType) {
        Map<String, String> headers = RawHttp.dummySignedHeaders("ListTables");
        headers.put("Content-Type", contentType);
        Response response = exchange(request("POST", "/", headers, "{}"));

        assertEquals(200, response.status(), response::toString);
        assertTrue(JsonNode.parser().parse(response.bodyText()).asObject().containsKey("TableNames"));
        String trimmed = contentType.trim();
        String expected = trimmed.startsWith("application/x-amz-json-1.") ? trimmed.split(";")[0] : "application/json";
        assertEquals(expected, response.header("Content-Type"));
        assertCommonHeaders(response);
    }

    // ---- CORS ---------------------------------------------------------------------------------

    @Test
    void corsPreflightEchoesTheRequestedHeadersAndMethod() {
        Response response = exchange(request("OPTIONS", "/", headers("Origin", "whatever",
                "Access-Control-Request-Headers", "a, b, c", "Access-Control-Request-Method", "d"), ""));

        assertEquals(200, response.status());
        assertEquals("", response.bodyText());
        assertEquals("0", response.header("Content-Length"));
        assertEquals("*", response.header("Access-Control-Allow-Origin"));
        assertEquals("a, b, c", response.header("Access-Control-Allow-Headers"));
        assertEquals("d", response.header("Access-Control-Allow-Methods"));
        assertEquals("172800", response.header("Access-Control-Max-Age"));
        assertCommonHeaders(response);
    }

    @Test
    void corsPreflightWithOnlyAnOriginAllowsTheOriginAndNamesNothingElse() {
        Response response = exchange(request("OPTIONS", "/", headers("Origin", "whatever"), ""));

        assertEquals(200, response.status());
        assertEquals("*", response.header("Access-Control-Allow-Origin"));
        assertEquals("172800", response.header("Access-Control-Max-Age"));
        assertNull(response.header("Access-Control-Allow-Headers"));
        assertNull(response.header("Access-Control-Allow-Methods"));
    }

    @Test
    void repliesToRequestsWithAnOriginAllowEveryOrigin() {
        Map<String, String> signed = RawHttp.dummySignedHeaders("ListTables");
        signed.put("Origin", "https://example.com");
        Response success = exchange(request("POST", "/", signed, "{}"));
        Response error = exchange(request("POST", "/", headers("Origin", "whatever"), ""));

        assertEquals(200, success.status());
        assertEquals("*", success.header("Access-Control-Allow-Origin"));
        assertUnknownOperationException(error);
        assertEquals("*", error.header("Access-Control-Allow-Origin"));
        // Headers of the preflight only.
        assertNull(success.header("Access-Control-Max-Age"));
    }

    @Test
    void repliesToRequestsWithoutAnOriginCarryNoCorsHeaders() {
        Response response = exchange(Request.action("ListTables", "{}"));

        assertEquals(200, response.status());
        for (String name : response.headers().keySet()) {
            assertFalse(name.startsWith("access-control-"), () -> "unexpected " + name + " in " + response);
        }
    }

    // ---- the order of the early checks ------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"", "whatever", "DynamoDB_20120810.ListTable", "DynamoDB_20120810.ListTables"})
    void malformedJsonIsASerializationExceptionWithoutMessageWhateverTheTarget(String target) {
        // Unsigned too: the body is parsed before the target is looked at, and before the signature.
        Map<String, String> headers = headers("Content-Type", "application/json");
        if (!target.isEmpty()) headers.put("X-Amz-Target", target);
        Response response = exchange(request("POST", "/", headers, "hi"));

        assertSerializationException(response);
        assertEquals("application/json", response.header("Content-Type"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ListTables", "ListTable"})
    void aBodyOfOnlyWhiteSpaceIsMalformedJson(String action) {
        Response response = exchange(Request.action(action, " \n\t "));

        assertSerializationException(response);
    }

    @Test
    void malformedJsonSentAsAmzJsonIsAnsweredAsAmzJson() {
        Response response = exchange(request("POST", "/", headers("Content-Type", "application/x-amz-json-1.0"), "hi"));

        assertSerializationException(response);
        assertEquals("application/x-amz-json-1.0", response.header("Content-Type"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "whatever", "DynamoDB_20120810.ListTable", "DynamoDB_20120810.", "ListTables",
            "DynamoDB_20120810.ListTables.x", "DynamoDB_20120810.listTables"})
    void aMissingOrUnknownTargetIsAnUnknownOperationExceptionWithoutMessage(String target) {
        // Unsigned: the target is checked before the signature.
        Map<String, String> headers = headers("Content-Type", "application/json");
        if (!target.isEmpty()) headers.put("X-Amz-Target", target);
        Response response = exchange(request("POST", "/", headers, "{}"));

        assertUnknownOperationException(response);
    }

    @Test
    void aNoBodyRequestWithoutTargetIsAnUnknownOperationException() {
        assertUnknownOperationException(exchange(request("POST", "/", Map.of(), "")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"DescribeTableReplicaAutoScaling", "UpdateTableReplicaAutoScaling"})
    void aDynamoDbActionStatorDoesNotServeIsAnUnknownOperationException(String action) {
        Response response = exchange(Request.action(action, "{\"TableName\": \"abc\"}"));

        assertEquals(400, response.status(), response::toString);
        Map<String, JsonNode> body = JsonNode.parser().parse(response.bodyText()).asObject();
        assertEquals("com.amazon.coral.service#UnknownOperationException", body.get("__type").asString());
        assertEquals(action + " is not supported by Stator yet", body.get("message").asString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/x-amz-json-1.0", ""})
    void anEmptyBodyIsASerializationExceptionWithoutMessage(String contentType) {
        // An empty body needs no content type: only a body is checked for one.
        Map<String, String> headers = RawHttp.dummySignedHeaders("ListTables");
        headers.remove("Content-Type");
        if (!contentType.isEmpty()) headers.put("Content-Type", contentType);
        Response response = exchange(request("POST", "/", headers, ""));

        assertSerializationException(response);
    }

    // ---- request ids, checksums, connections ------------------------------------------------

    @Test
    void everyReplyHasItsOwn52CharacterRequestId() {
        Set<String> ids = new HashSet<>();
        List<Request> requests = List.of(request("GET", "/", Map.of(), ""), request("PUT", "/", Map.of(), ""),
                Request.action("ListTables", "{}"), Request.action("ListTables", "{\"Limit\": 0}"),
                request("OPTIONS", "/", headers("Origin", "x"), ""));
        for (int round = 0; round < 4; round++) {
            for (Request r : requests) {
                Response response = exchange(r);
                assertTrue(response.header("x-amzn-RequestId").matches("[0-9A-Z]{52}"), response::toString);
                ids.add(response.header("x-amzn-RequestId"));
            }
        }
        assertEquals(4 * requests.size(), ids.size(), "request ids repeat");
    }

    @Test
    void theCrc32HeaderIsTheCrc32OfTheBody() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
        List<Request> requests = List.of(
                Request.action("DescribeTable", "{\"TableName\": \"" + table + "\"}"),
                Request.action("PutItem", "{\"TableName\": \"" + table + "\", \"Item\": {\"id\": {\"S\": \"\u00e9\u6f22\"}, "
                        + "\"b\": {\"B\": \"AAEC\"}, \"n\": {\"N\": \"1.50\"}}}"),
                Request.action("GetItem", "{\"TableName\": \"" + table + "\", \"Key\": {\"id\": {\"S\": \"\u00e9\u6f22\"}}}"),
                Request.action("GetItem", "{\"TableName\": \"" + table + "\", \"Key\": {\"id\": {\"S\": \"none\"}}}"),
                Request.action("DescribeTable", "{\"TableName\": \"no-such-table\"}"));
        for (Request r : requests) {
            Response response = exchange(r);
            assertTrue(response.body().length > 0);
            assertCommonHeaders(response);
        }
    }

    @Test
    void severalRequestsShareOneKeptAliveConnection() {
        try (RawHttp connection = RawHttp.connect(server.port())) {
            for (int i = 0; i < 5; i++) {
                assertEquals(200, connection.send(request("GET", "/", Map.of(), "")).read().status());
                assertEquals(200, connection.send(Request.action("ListTables", "{}")).read().status());
                assertEquals(400, connection.send(Request.action("ListTables", "{\"Limit\": 0}")).read().status());
                assertEquals(404, connection.send(request("PUT", "/", Map.of(), "")).read().status());
            }
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() {
        try (RawHttp connection = RawHttp.connect(server.port())) {
            connection.send(request("GET", "/", Map.of(), ""))
                    .send(Request.action("ListTables", "{\"Limit\": 0}"))
                    .send(request("DELETE", "/", Map.of(), ""))
                    .send(Request.action("ListTables", "{}"));
            assertEquals(200, connection.read().status());
            assertEquals(400, connection.read().status());
            assertEquals(404, connection.read().status());
            assertEquals(200, connection.read().status());
        }
    }

    /**
     * GetItem and PutItem are served on the connection's event loop and everything else on a
     * worker (NettyHttpServer.DispatchHandler); pipelined behind a Scan still on a worker, they
     * must wait for it, both to be served after it and to be answered after it (RFC 9112 9.3.2:
     * responses in the order requests came).
     */
    @Test
    void pipelinedItemRequestsWaitForAnEarlierScanOfTheirConnection() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
        String filler = "x".repeat(3000);
        for (int i = 0; i < 300; i++) {
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("item-" + i),
                    "filler", AttributeValue.fromS(filler));
            server.client().putItem(b -> b.tableName(table).item(item));
        }
        String key = "{\"id\": {\"S\": \"late\"}}";
        try (RawHttp connection = RawHttp.connect(server.port())) {
            connection.send(Request.action("Scan", "{\"TableName\": \"" + table + "\", \"Select\": \"COUNT\"}"))
                    .send(Request.action("PutItem", "{\"TableName\": \"" + table + "\", \"Item\": "
                            + "{\"id\": {\"S\": \"late\"}, \"v\": {\"N\": \"1\"}}}"))
                    .send(Request.action("GetItem", "{\"TableName\": \"" + table + "\", \"Key\": " + key + "}"))
                    .send(Request.action("DescribeTable", "{\"TableName\": \"" + table + "\"}"))
                    .send(Request.action("PutItem", "{\"TableName\": \"" + table + "\", \"Item\": "
                            + "{\"id\": {\"S\": \"late\"}, \"v\": {\"N\": \"2\"}}}"))
                    .send(Request.action("GetItem", "{\"TableName\": \"" + table + "\", \"Key\": " + key + "}"));
            assertEquals("{\"Count\":300,\"ScannedCount\":300}", connection.read().bodyText());
            assertEquals("{}", connection.read().bodyText());
            assertTrue(connection.read().bodyText().contains("\"v\":{\"N\":\"1\"}"));
            assertTrue(connection.read().bodyText().startsWith("{\"Table\":"));
            assertEquals("{}", connection.read().bodyText());
            assertTrue(connection.read().bodyText().contains("\"v\":{\"N\":\"2\"}"));
        }
    }

    @Test
    void connectionCloseIsHonoured() {
        try (RawHttp connection = RawHttp.connect(server.port())) {
            Map<String, String> headers = RawHttp.dummySignedHeaders("ListTables");
            headers.put("Connection", "close");
            Response response = connection.send(request("POST", "/", headers, "{}")).read();

            assertEquals(200, response.status());
            assertEquals("close", response.header("Connection"));
            assertTrue(connection.isClosedByServer());
        }
    }

    // ---- the 16 MiB limit ---------------------------------------------------------------------

    @Test
    void aBodyOver16MiBIsRefusedWith413BeforeItIsSent() {
        try (RawHttp connection = RawHttp.connect(server.port())) {
            connection.writeHead("POST", "/", RawHttp.dummySignedHeaders("PutItem"), SIXTEEN_MIB + 1L);
            // Not a byte of the body is sent: the answer must come from the headers alone.
            connection.setReadTimeoutMillis(10_000);
            Response response;
            try {
                response = connection.read();
            } catch (UncheckedIOException e) {
                if (e.getCause() instanceof SocketTimeoutException) {
                    fail("no answer before the body was sent: the server waits to buffer it");
                }
                throw e;
            }
            assertEquals(413, response.status());
        }
    }

    @Test
    void aChunkedBodyGrowingPast16MiBIsRefusedWith413() {
        try (RawHttp connection = RawHttp.connect(server.port())) {
            Map<String, String> headers = RawHttp.dummySignedHeaders("PutItem");
            headers.put("Transfer-Encoding", "chunked");
            connection.writeHead("POST", "/", headers, -1);
            byte[] chunk = new byte[1024 * 1024];
            Arrays.fill(chunk, (byte) 'a');
            byte[] size = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            byte[] end = "\r\n".getBytes(StandardCharsets.US_ASCII);
            try {
                for (int i = 0; i < 17; i++) {
                    connection.write(size);
                    connection.write(chunk);
                    connection.write(end);
                }
                connection.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            } catch (UncheckedIOException e) {
                // The server may stop reading once it has refused the body; its answer is what counts.
            }
            assertEquals(413, connection.read().status());
        }
    }

    @Test
    void aBodyOfExactly16MiBIsNotRefused() {
        byte[] body = new byte[SIXTEEN_MIB];
        Arrays.fill(body, (byte) 'a');
        // dynalite's test against DynamoDB: without a content type such a body gets the 404.
        Response noContentType = exchange(new Request("POST", "/", Map.of(), body));
        Map<String, String> json = headers("Content-Type", "application/json");
        Response notJson = exchange(new Request("POST", "/", json, body));

        assertDynamoDbNotFound(noContentType);
        assertSerializationException(notJson);
    }

    @Test
    void theConnectionServesTheNextRequestAfterA413() {
        try (RawHttp connection = RawHttp.connect(server.port())) {
            byte[] body = new byte[SIXTEEN_MIB + 1];
            Arrays.fill(body, (byte) ' ');
            Response refused = connection.send(new Request("POST", "/", RawHttp.dummySignedHeaders("ListTables"),
                    body)).read();
            Response next = connection.send(Request.action("ListTables", "{}")).read();

            assertEquals(413, refused.status());
            assertEquals(200, next.status(), next::toString);
        }
    }

    // ---- 500 is for Stator's own failures only ----------------------------------------------

    /**
     * Thousands of requests shaped after DynamoDB's own model, with values of every JSON type,
     * right and wrong, in every member of every operation: each one is the client's mistake or
     * fine, so none may get a 500 (a 500 tells the client that DynamoDB failed and invites a
     * retry). The generator is seeded, so a failure repeats.
     */
    @Test
    void noRequestAClientCanSendGetsA500() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
        ServiceModel model = ServiceModel.get();
        List<String> operations = new ArrayList<>(new TreeSet<>(model.operationNames()));
        RequestGenerator generator = new RequestGenerator(new Random(20120810), table);
        List<String> failures = new ArrayList<>();
        Set<String> answered = new TreeSet<>();
        RawHttp connection = RawHttp.connect(server.port());
        try {
            for (int i = 0; i < 6000 && failures.size() < 5; i++) {
                String operation = operations.get(i % operations.size());
                String body = generator.body(model.operation(operation).input());
                Response response;
                try {
                    response = connection.send(Request.action(operation, body)).read();
                } catch (UncheckedIOException e) {
                    failures.add(operation + " " + body + " -> connection failed: " + e);
                    connection.close();
                    connection = RawHttp.connect(server.port());
                    continue;
                }
                if (response.status() != 200 && response.status() != 400) {
                    failures.add(operation + " " + body + " -> " + response);
                    continue;
                }
                String type = response.status() == 200 ? "200"
                        : JsonNode.parser().parse(response.bodyText()).asObject().get("__type").asString();
                answered.add(type);
            }
        } finally {
            connection.close();
        }
        assertEquals(List.of(), failures);
        // The generator reaches past the type checks into validation, the actions and success.
        assertTrue(answered.containsAll(List.of("200", "com.amazon.coral.service#SerializationException",
                "com.amazon.coral.validate#ValidationException",
                "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException")), answered::toString);
    }

    /** Random request bodies following DynamoDB's shapes, often with a wrong value somewhere. */
    private static final class RequestGenerator {
        private static final String[] ODD_JSON = {"null", "true", "false", "0", "-1", "1.5", "1e400", "-1e400",
                "99999999999999999999999999", "\"\"", "\"x\"", "[]", "{}", "[1, \"a\"]", "{\"a\": 1}", "\"AAAA\"",
                "\"=+/=\"", "\"\\u0000\"", "[[[]]]", "{\"S\": \"a\"}"};
        private static final String[] STRINGS = {"", "a", "abc", "id", "#n", ":v", "x".repeat(300), "h;", "\u00e9\u6f22",
                "attribute_exists(id)", "SET a = :v", "id = :v", "#n, b", "arn:aws:dynamodb:us-east-1:000000000000:table/x"};
        private static final String[] NUMBERS = {"0", "-1", "1", "5", "100", "101", "1000000000001", "2147483648",
                "9223372036854775808", "1.5", "1e20"};

        private final Random random;
        private final String table;

        RequestGenerator(Random random, String table) {
            this.random = random;
            this.table = table;
        }

        String body(Shape.StructureShape input) {
            StringBuilder json = new StringBuilder();
            structure(input, json, 0);
            return json.toString();
        }

        private void value(Shape shape, StringBuilder json, int depth) {
            if (random.nextInt(12) == 0 || depth > 6) {
                json.append(pick(ODD_JSON));
                return;
            }
            switch (shape) {
                case Shape.StructureShape s -> structure(s, json, depth);
                case Shape.StringShape s -> {
                    List<String> values = s.enumValues();
                    quote(json, values != null && random.nextBoolean() ? values.get(random.nextInt(values.size()))
                            : pick(STRINGS));
                }
                case Shape.TableNameShape s -> quote(json, random.nextInt(3) > 0 ? table
                        : pick(new String[] {"missing-table", "", "ab", "a;b", "x".repeat(256),
                                "arn:aws:dynamodb:us-east-1:000000000000:table/" + table}));
                case Shape.NumberShape s -> json.append(pick(NUMBERS));
                case Shape.BooleanShape s -> json.append(pick(new String[] {"true", "false", "\"yes\"", "\"maybe\""}));
                case Shape.BlobShape s -> quote(json, pick(new String[] {"AAAA", "", "abc", "YQ=="}));
                case Shape.TimestampShape s -> json.append(pick(new String[] {"0", "1500000000", "1.5e9", "\"x\""}));
                case Shape.ListShape s -> {
                    json.append('[');
                    int n = random.nextInt(4);
                    for (int i = 0; i < n; i++) {
                        if (i > 0) json.append(',');
                        value(s.member(), json, depth + 1);
                    }
                    json.append(']');
                }
                case Shape.MapShape s -> {
                    json.append('{');
                    int n = random.nextInt(4);
                    for (int i = 0; i < n; i++) {
                        if (i > 0) json.append(',');
                        quote(json, pick(new String[] {"id", "a", "#n", ":v", "", "b" + i}));
                        json.append(':');
                        value(s.value(), json, depth + 1);
                    }
                    json.append('}');
                }
                case Shape.AttributeValueShape s -> attributeValue(json, depth);
            }
        }

        private void structure(Shape.StructureShape shape, StringBuilder json, int depth) {
            json.append('{');
            boolean first = true;
            for (Map.Entry<String, Shape> member : shape.members().entrySet()) {
                if (random.nextInt(3) == 0) continue;
                if (!first) json.append(',');
                first = false;
                quote(json, member.getKey());
                json.append(':');
                value(member.getValue(), json, depth + 1);
            }
            json.append('}');
        }

        private void attributeValue(StringBuilder json, int depth) {
            switch (random.nextInt(depth > 4 ? 8 : 11)) {
                case 0 -> json.append("{\"S\": \"").append(pick(new String[] {"a", "", "id"})).append("\"}");
                case 1 -> json.append("{\"N\": \"").append(pick(new String[] {"1", "x", "", "1e126", "-0.0"})).append("\"}");
                case 2 -> json.append("{\"B\": \"").append(pick(new String[] {"AAAA", "", "abc"})).append("\"}");
                case 3 -> json.append("{\"BOOL\": ").append(pick(new String[] {"true", "\"x\""})).append('}');
                case 4 -> json.append("{\"NULL\": ").append(pick(new String[] {"true", "false"})).append('}');
                case 5 -> json.append("{\"SS\": [\"a\", \"").append(pick(new String[] {"b", "a"})).append("\"]}");
                case 6 -> json.append("{\"NS\": [").append(pick(new String[] {"", "\"1\"", "\"1\", \"1.0\""})).append("]}");
                case 7 -> json.append(pick(new String[] {"{}", "{\"S\": \"a\", \"N\": \"1\"}", "{\"X\": 1}"}));
                case 8 -> json.append("{\"BS\": [").append(pick(new String[] {"", "\"AAAA\"", "\"AAAA\", \"AAAA\""}))
                        .append("]}");
                case 9 -> {
                    json.append("{\"L\": [");
                    int n = random.nextInt(3);
                    for (int i = 0; i < n; i++) {
                        if (i > 0) json.append(',');
                        attributeValue(json, depth + 1);
                    }
                    json.append("]}");
                }
                default -> {
                    json.append("{\"M\": {");
                    int n = random.nextInt(3);
                    for (int i = 0; i < n; i++) {
                        if (i > 0) json.append(',');
                        json.append("\"k").append(i).append("\": ");
                        attributeValue(json, depth + 1);
                    }
                    json.append("}}");
                }
            }
        }

        private String pick(String[] values) {
            return values[random.nextInt(values.length)];
        }

        private static void quote(StringBuilder json, String s) {
            json.append('"');
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') json.append('\\').append(c);
                else if (c < 0x20) json.append(String.format("\\u%04x", (int) c));
                else json.append(c);
            }
            json.append('"');
        }
    }
}
