package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.ManualSigV4;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.StatorTestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * Issue 11, part 1: with {@code --credentials}, a signature covers what DynamoDB needs it to
 * cover (Host, the request time, X-Amz-Target and every other X-Amz-* header), for the server's
 * region and DynamoDB only, with the session token of a temporary key, in the Authorization
 * header and in the query string alike. Requests are written byte by byte ({@link RawHttp}) and
 * signed by {@link ManualSigV4}, which signs exactly the headers it is told to, as a
 * hand-written or old client may; the SDK and the AWS CLI sign everything, and must keep working.
 */
class SigV4StrictnessTest {

    private static final String KEY = StatorTestServer.ACCESS_KEY;
    private static final String SECRET = StatorTestServer.SECRET_KEY;
    private static final String REGION = "us-east-1";
    private static final String INVALID_SIGNATURE = "InvalidSignatureException";

    private static Path credentials;
    private static StatorTestServer server;
    private static String table;

    @BeforeAll
    static void startVerifyingServer(@TempDir Path dir) throws IOException {
        credentials = dir.resolve("credentials");
        Files.writeString(credentials, KEY + " " + SECRET + "\n");
        server = StatorTestServer.start(o -> o.withCredentials(credentials));
        table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) server.close();
    }

    private static ManualSigV4 signer() {
        return new ManualSigV4(KEY, SECRET, REGION);
    }

    private static String key(String id) {
        return "{\"TableName\":\"" + table + "\",\"Key\":{\"id\":{\"S\":\"" + id + "\"}}}";
    }

    private static void putItem(String id) {
        server.client().putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS(id))));
    }

    private static boolean itemExists(String id) {
        return server.client().getItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS(id)))
                .consistentRead(true)).hasItem();
    }

    private static RawHttp.Response send(RawHttp.Request request) {
        return RawHttp.exchange(server.port(), request);
    }

    /** Asserts DynamoDB's 400 with {@code type} (the short name) and exactly {@code message}. */
    private static void assertRefused(RawHttp.Response response, String type, String message) {
        assertEquals(400, response.status(), response::toString);
        Map<String, JsonNode> body = JsonNode.parser().parse(response.bodyText()).asObject();
        assertEquals("com.amazon.coral.service#" + type, body.get("__type").asString(), response::toString);
        assertEquals(message, body.get("message").asString());
    }

    private static void assertAccepted(RawHttp.Response response) {
        assertEquals(200, response.status(), response::toString);
    }

    private static String mustBeSigned(String header) {
        return "'" + header + "' must be a 'SignedHeader' in the AWS Authorization.";
    }

    // ---- the signed headers -------------------------------------------------------------------

    @Test
    void theSignerUsedHereIsAcceptedWhenItSignsWhatTheSdksSign() {
        putItem("signed-everything");
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "GetItem", Instant.now());

        RawHttp.Response response = send(signer().signHeaders(headers,
                List.of("content-type", "host", "x-amz-date", "x-amz-target"), key("signed-everything")));

        assertAccepted(response);
        assertTrue(response.bodyText().contains("signed-everything"), response::toString);
    }

    @Test
    void aSignatureThatLeavesTheTargetOutIsRefusedAndCannotBeReplayedAsADelete() {
        putItem("kept");
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "GetItem", Instant.now());
        RawHttp.Request getItem = signer().signHeaders(headers, List.of("host", "x-amz-date"), key("kept"));

        RawHttp.Response got = send(getItem);
        // The attack of issue 11: the same Authorization header and body under another action.
        Map<String, String> swapped = new LinkedHashMap<>(getItem.headers());
        swapped.put("X-Amz-Target", "DynamoDB_20120810.DeleteItem");
        RawHttp.Response deleted = send(new RawHttp.Request("POST", "/", swapped, getItem.body()));

        assertTrue(itemExists("kept"), "the item was deleted by a request whose action was not signed");
        assertRefused(got, INVALID_SIGNATURE, mustBeSigned("X-Amz-Target"));
        assertRefused(deleted, INVALID_SIGNATURE, mustBeSigned("X-Amz-Target"));
    }

    @Test
    void aSignatureThatLeavesTheRequestTimeOutIsRefused() {
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "GetItem", Instant.now());

        assertRefused(send(signer().signHeaders(headers, List.of("content-type", "host", "x-amz-target"), key("a"))),
                INVALID_SIGNATURE, mustBeSigned("X-Amz-Date"));
    }

    @Test
    void aSignatureThatLeavesTheDateHeaderOutIsRefusedWhenDateCarriesTheTime() {
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "GetItem", Instant.now());
        headers.put("Date", headers.remove("X-Amz-Date"));

        assertRefused(send(signer().signHeaders(headers, List.of("host", "x-amz-target"), key("a"))),
                INVALID_SIGNATURE, mustBeSigned("Date"));
        assertAccepted(send(signer().signHeaders(headers, List.of("date", "host", "x-amz-target"), key("a"))));
    }

    @Test
    void anUnsignedXAmzHeaderIsRefused() {
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "GetItem", Instant.now());
        headers.put("X-Amz-Content-Sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");

        assertRefused(send(signer().signHeaders(headers, List.of("host", "x-amz-date", "x-amz-target"), key("a"))),
                INVALID_SIGNATURE, mustBeSigned("x-amz-content-sha256"));
        assertAccepted(send(signer().signHeaders(headers,
                List.of("host", "x-amz-content-sha256", "x-amz-date", "x-amz-target"), key("a"))));
    }

    @Test
    void contentTypeLeftUnsignedIsAcceptedAsDynamoDbAcceptsOlderSdks() {
        // aws-sdk-go 0.6 signed "accept-encoding;host;x-amz-date;x-amz-target" (underarmour/dynago#8).
        putItem("unsigned-content-type");
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "GetItem", Instant.now());

        RawHttp.Response response = send(signer().signHeaders(headers, List.of("host", "x-amz-date", "x-amz-target"),
                key("unsigned-content-type")));

        assertAccepted(response);
        assertTrue(response.bodyText().contains("unsigned-content-type"), response::toString);
    }

    @Test
    void anUnsignedTraceIdIsAcceptedSinceTheSdksLeaveItOut() {
        // X-Amzn-Trace-Id is not an X-Amz-* header; botocore and the Java SDK never sign it.
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "GetItem", Instant.now());
        headers.put("X-Amzn-Trace-Id", "Root=1-5759e988-bd862e3fe1be46a994272793");

        assertAccepted(send(signer().signHeaders(headers, List.of("host", "x-amz-date", "x-amz-target"), key("a"))));
    }

    @Test
    void anAnonymousServerStillAcceptsASignatureThatLeavesTheTargetOut() {
        // Anonymous mode computes no signature, so the rule would protect nothing there.
        try (StatorTestServer anonymous = StatorTestServer.start()) {
            Map<String, String> headers = ManualSigV4.dynamoDbHeaders(anonymous.port(), "ListTables", Instant.now());
            RawHttp.Request request = new ManualSigV4("AKIDANY", "any", "eu-west-9")
                    .signHeaders(headers, List.of("host", "x-amz-date"), "{}");

            assertAccepted(RawHttp.exchange(anonymous.port(), request));
        }
    }

    // ---- the credential scope -----------------------------------------------------------------

    @Test
    void aRequestSignedForAnotherRegionIsRefused() {
        try (DynamoDbClient elsewhere = StatorTestServer.newClient(server.endpoint(), "eu-west-9", KEY, SECRET)) {
            DynamoDbException e = assertThrows(DynamoDbException.class, elsewhere::listTables);

            assertEquals(400, e.statusCode());
            assertEquals("InvalidSignatureException", e.awsErrorDetails().errorCode());
            assertEquals("Credential should be scoped to a valid region, not 'eu-west-9'. ",
                    e.awsErrorDetails().errorMessage());
        }
    }

    /**
     * Issue 29's probe: a request signed for another region's endpoint (its scope and its Host
     * both eu-west-1's) is refused for its scope, as DynamoDB refuses it; and a signature is bound
     * to the Host it covers: one computed over another endpoint's Host does not match the Host the
     * request came with.
     */
    @Test
    void aRequestSignedForAnotherRegionsEndpointIsRefused() {
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "ListTables", Instant.now());
        headers.put("Host", "dynamodb.eu-west-1.amazonaws.com");
        List<String> signed = List.of("content-type", "host", "x-amz-date", "x-amz-target");

        RawHttp.Request elsewhere = new ManualSigV4(KEY, SECRET, "eu-west-1").signHeaders(headers, signed, "{}");
        Map<String, String> sentWithItsHost = new LinkedHashMap<>(elsewhere.headers());
        sentWithItsHost.put("Host", "dynamodb.eu-west-1.amazonaws.com");
        assertRefused(send(new RawHttp.Request("POST", "/", sentWithItsHost, elsewhere.body())), INVALID_SIGNATURE,
                "Credential should be scoped to a valid region, not 'eu-west-1'. ");

        RawHttp.Request otherHost = signer().signHeaders(headers, signed, "{}");
        assertRefused(send(otherHost), INVALID_SIGNATURE, "The request signature we calculated does not match the "
                + "signature you provided. Check your AWS Secret Access Key and signing method. Consult the service "
                + "documentation for details.");
    }

    @Test
    void theServersOwnRegionIsTheOneAccepted() {
        try (StatorTestServer euWest1 = StatorTestServer.start(o -> o.withCredentials(credentials)
                .with(m -> m.region = "eu-west-1"));
             DynamoDbClient inRegion = StatorTestServer.newClient(euWest1.endpoint(), "eu-west-1", KEY, SECRET);
             DynamoDbClient usEast1 = StatorTestServer.newClient(euWest1.endpoint(), "us-east-1", KEY, SECRET)) {
            assertTrue(inRegion.listTables().tableNames().isEmpty());
            DynamoDbException e = assertThrows(DynamoDbException.class, usEast1::listTables);
            assertEquals("Credential should be scoped to a valid region, not 'us-east-1'. ",
                    e.awsErrorDetails().errorMessage());
        }
    }

    @Test
    void aRequestSignedForAnotherServiceIsRefused() {
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "ListTables", Instant.now());
        RawHttp.Request request = new ManualSigV4(KEY, SECRET, REGION, "streams.dynamodb")
                .signHeaders(headers, List.of("content-type", "host", "x-amz-date", "x-amz-target"), "{}");

        assertRefused(send(request), "InvalidSignatureException",
                "Credential should be scoped to correct service: 'dynamodb'. ");
    }

    // ---- session tokens -----------------------------------------------------------------------

    private static final String TEMPORARY_KEY = "ASIASTATORTEMPORARY1";
    private static final String TEMPORARY_SECRET = "temporary-secret";
    private static final String TOKEN = "IQoJb3JpZ2luX2VjEXAMPLE/+TOKEN==";
    private static final String INVALID_TOKEN = "The security token included in the request is invalid";

    /** A server whose credentials file has a long-term key and a temporary key with its token. */
    private static StatorTestServer withTemporaryKey(Path dir) throws IOException {
        Path file = dir.resolve("temporary-credentials");
        Files.writeString(file, "# long-term\n" + KEY + " " + SECRET + "\n# temporary\n"
                + TEMPORARY_KEY + "\t" + TEMPORARY_SECRET + "  " + TOKEN + "\n");
        return StatorTestServer.start(o -> o.withCredentials(file));
    }

    @Test
    void aTemporaryKeyIsAcceptedWithItsSessionToken(@TempDir Path dir) throws IOException {
        try (StatorTestServer s = withTemporaryKey(dir);
             DynamoDbClient temporary = StatorTestServer.newClient(s.endpoint(), REGION,
                     AwsSessionCredentials.create(TEMPORARY_KEY, TEMPORARY_SECRET, TOKEN))) {
            String t = StatorTestServer.tableName();
            StatorTestServer.createTable(temporary, t);

            assertEquals(List.of(t), s.client().listTables().tableNames());
        }
    }

    @Test
    void aTemporaryKeyWithoutItsSessionTokenIsAnUnrecognizedClient(@TempDir Path dir) throws IOException {
        try (StatorTestServer s = withTemporaryKey(dir);
             DynamoDbClient noToken = StatorTestServer.newClient(s.endpoint(), REGION,
                     AwsBasicCredentials.create(TEMPORARY_KEY, TEMPORARY_SECRET))) {
            DynamoDbException e = assertThrows(DynamoDbException.class, noToken::listTables);

            assertEquals(400, e.statusCode());
            assertEquals("UnrecognizedClientException", e.awsErrorDetails().errorCode());
            assertEquals(INVALID_TOKEN, e.awsErrorDetails().errorMessage());
        }
    }

    @Test
    void aTemporaryKeyWithAnotherSessionTokenIsAnUnrecognizedClient(@TempDir Path dir) throws IOException {
        try (StatorTestServer s = withTemporaryKey(dir);
             DynamoDbClient otherToken = StatorTestServer.newClient(s.endpoint(), REGION,
                     AwsSessionCredentials.create(TEMPORARY_KEY, TEMPORARY_SECRET, TOKEN + "x"))) {
            DynamoDbException e = assertThrows(DynamoDbException.class, otherToken::listTables);

            assertEquals("UnrecognizedClientException", e.awsErrorDetails().errorCode());
            assertEquals(INVALID_TOKEN, e.awsErrorDetails().errorMessage());
        }
    }

    @Test
    void aSessionTokenLeftOutOfTheSignatureIsRefused(@TempDir Path dir) throws IOException {
        try (StatorTestServer s = withTemporaryKey(dir)) {
            Map<String, String> headers = ManualSigV4.dynamoDbHeaders(s.port(), "ListTables", Instant.now());
            headers.put("X-Amz-Security-Token", TOKEN);
            ManualSigV4 temporary = new ManualSigV4(TEMPORARY_KEY, TEMPORARY_SECRET, REGION);

            assertRefused(RawHttp.exchange(s.port(), temporary.signHeaders(headers,
                    List.of("content-type", "host", "x-amz-date", "x-amz-target"), "{}")),
                    INVALID_SIGNATURE, mustBeSigned("x-amz-security-token"));
            assertAccepted(RawHttp.exchange(s.port(), temporary.signHeaders(headers,
                    List.of("content-type", "host", "x-amz-date", "x-amz-security-token", "x-amz-target"), "{}")));
        }
    }

    @Test
    void aLongTermKeyBesideATemporaryOneNeedsNoToken(@TempDir Path dir) throws IOException {
        try (StatorTestServer s = withTemporaryKey(dir)) {
            assertTrue(s.client().listTables().tableNames().isEmpty());
        }
    }

    // ---- signatures in the query string -------------------------------------------------------

    @Test
    void aPresignedRequestIsAccepted() {
        putItem("presigned");
        Instant now = Instant.now();
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "GetItem", now);
        headers.remove("X-Amz-Date");

        RawHttp.Response response = send(signer().presign(headers, List.of("content-type", "host", "x-amz-target"),
                key("presigned"), now, Map.of()));

        assertAccepted(response);
        assertTrue(response.bodyText().contains("presigned"), response::toString);
    }

    @Test
    void aPresignedRequestThatLeavesTheTargetOutIsRefused() {
        putItem("presigned-kept");
        Instant now = Instant.now();
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "DeleteItem", now);
        headers.remove("X-Amz-Date");

        assertRefused(send(signer().presign(headers, List.of("host"), key("presigned-kept"), now, Map.of())),
                INVALID_SIGNATURE, mustBeSigned("X-Amz-Target"));
        assertTrue(itemExists("presigned-kept"));
    }

    @Test
    void aPresignedRequestForAnotherRegionIsRefused() {
        Instant now = Instant.now();
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "ListTables", now);
        headers.remove("X-Amz-Date");

        assertRefused(send(new ManualSigV4(KEY, SECRET, "eu-west-9").presign(headers,
                        List.of("host", "x-amz-target"), "{}", now, Map.of())),
                "InvalidSignatureException", "Credential should be scoped to a valid region, not 'eu-west-9'. ");
    }

    @Test
    void aPresignedRequestCarriesTheSessionTokenOfATemporaryKey(@TempDir Path dir) throws IOException {
        try (StatorTestServer s = withTemporaryKey(dir)) {
            Instant now = Instant.now();
            Map<String, String> headers = ManualSigV4.dynamoDbHeaders(s.port(), "ListTables", now);
            headers.remove("X-Amz-Date");
            ManualSigV4 temporary = new ManualSigV4(TEMPORARY_KEY, TEMPORARY_SECRET, REGION);

            assertAccepted(RawHttp.exchange(s.port(), temporary.presign(headers, List.of("host", "x-amz-target"), "{}",
                    now, Map.of("X-Amz-Security-Token", TOKEN))));
            assertRefused(RawHttp.exchange(s.port(), temporary.presign(headers, List.of("host", "x-amz-target"), "{}",
                    now, Map.of())), "UnrecognizedClientException", INVALID_TOKEN);
        }
    }

    /**
     * X-Amz-Expires never lengthens the 15 minutes a signature is good for (AWS's front end
     * ignores it outside S3: aws/aws-sdk-go#2167), but a presigned request is refused once its own
     * expiry has run out, with S3's words ("Request has expired"), as S3 refuses it: the hostile
     * probe of issue 29 had a URL accepted past its X-Amz-Expires.
     */
    @Test
    void xAmzExpiresShortensButNeverLengthensTheFifteenMinutes() {
        Instant serverNow = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        try (StatorTestServer fixed = StatorTestServer.start(o -> o.withCredentials(credentials)
                .withClock(Clock.fixed(serverNow, ZoneOffset.UTC)))) {
            Instant tenMinutesAgo = serverNow.minus(Duration.ofMinutes(10));
            Map<String, String> headers = ManualSigV4.dynamoDbHeaders(fixed.port(), "ListTables", tenMinutesAgo);
            headers.remove("X-Amz-Date");

            assertRefused(presignedAt(fixed, headers, tenMinutesAgo, "599"), INVALID_SIGNATURE, "Request has expired");
            assertAccepted(presignedAt(fixed, headers, tenMinutesAgo, "600"));
            assertAccepted(presignedAt(fixed, headers, tenMinutesAgo, "3600"));

            Instant twentyMinutesAgo = serverNow.minus(Duration.ofMinutes(20));
            assertRefused(presignedAt(fixed, headers, twentyMinutesAgo, "3600"),
                    "InvalidSignatureException", "Signature expired: " + ManualSigV4.BASIC.format(twentyMinutesAgo)
                            + " is now earlier than " + ManualSigV4.BASIC.format(serverNow.minus(Duration.ofMinutes(15)))
                            + " (" + ManualSigV4.BASIC.format(serverNow) + " - 15 min.)");
        }
    }

    /**
     * X-Amz-Expires is a whole number of seconds from 1 to 604,800 (seven days, a signing key's
     * life): 604,800 is taken, 604,801 refused, and so is anything that is not such a number, with
     * S3's texts (SigV4Errors), whether or not signatures are verified.
     */
    @Test
    void xAmzExpiresMustBeASecondCountOfAWeekAtMost() {
        Instant now = Instant.now();
        Map<String, String> headers = ManualSigV4.dynamoDbHeaders(server.port(), "ListTables", now);
        headers.remove("X-Amz-Date");

        assertAccepted(presignedAt(server, headers, now, "604800"));
        assertAccepted(presignedAt(server, headers, now, "60")); // "1" is the edge, but the clock moves on
        String week = "X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must "
                + "be less than 604800 seconds";
        assertRefused(presignedAt(server, headers, now, "604801"), "IncompleteSignatureException", week);
        assertRefused(presignedAt(server, headers, now, "99999999999999999999"), "IncompleteSignatureException", week);
        for (String notANumber : List.of("abc", "", "1.5", "+60", "60s", "0x10")) {
            assertRefused(presignedAt(server, headers, now, notANumber), "IncompleteSignatureException",
                    "X-Amz-Expires should be a number");
        }
        for (String notPositive : List.of("0", "-1", "000")) {
            assertRefused(presignedAt(server, headers, now, notPositive), "IncompleteSignatureException",
                    "X-Amz-Expires must be non-negative");
        }
        try (StatorTestServer anonymous = StatorTestServer.start(o -> o)) {
            Map<String, String> anonymousHeaders = ManualSigV4.dynamoDbHeaders(anonymous.port(), "ListTables", now);
            anonymousHeaders.remove("X-Amz-Date");
            assertRefused(presignedAt(anonymous, anonymousHeaders, now, "604801"), "IncompleteSignatureException", week);
            assertAccepted(presignedAt(anonymous, anonymousHeaders, now, "604800"));
        }
    }

    private static RawHttp.Response presignedAt(StatorTestServer target, Map<String, String> headers, Instant at,
                                                String expires) {
        return RawHttp.exchange(target.port(), signer().presign(headers, List.of("host", "x-amz-target"), "{}", at,
                Map.of("X-Amz-Expires", expires)));
    }
}
