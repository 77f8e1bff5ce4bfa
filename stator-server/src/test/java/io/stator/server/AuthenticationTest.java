package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.StatorTestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * SigV4 as the AWS SDK for Java signs it, against a server that verifies signatures (started with
 * a credentials file) and one that does not. The texts are DynamoDB's (section 1.1 (9) of
 * docs/dynamodb/dynamodb-errors.md).
 */
class AuthenticationTest {

    private static final DateTimeFormatter BASIC = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private Path credentials;

    @BeforeEach
    void writeCredentialsFile() throws IOException {
        credentials = Files.createTempFile("stator-credentials-", ".txt");
        Files.writeString(credentials, "# test keys\n" + StatorTestServer.ACCESS_KEY + " " + StatorTestServer.SECRET_KEY
                + "\nAKIDSECOND second-secret\n");
    }

    @AfterEach
    void deleteCredentialsFile() throws IOException {
        Files.deleteIfExists(credentials);
    }

    private StatorTestServer verifying(UnaryOperator<ServerOptions> more) {
        return StatorTestServer.start(opts -> more.apply(opts.withCredentials(credentials)));
    }

    private static DynamoDbException failure(DynamoDbClient client) {
        return assertThrows(DynamoDbException.class, client::listTables);
    }

    @Test
    void theRightSecretIsAcceptedForEveryKeyInTheFile() {
        try (StatorTestServer server = verifying(o -> o);
             DynamoDbClient second = server.newClient("AKIDSECOND", "second-secret")) {
            String table = StatorTestServer.tableName();
            StatorTestServer.createTable(server.client(), table);
            // A body with characters outside ASCII, so the payload hash covers real UTF-8.
            Map<String, AttributeValue> key = Map.of("id", AttributeValue.fromS("\u00e9\u6f22 \u2603"));
            second.putItem(b -> b.tableName(table).item(key));

            assertEquals(key, server.client().getItem(b -> b.tableName(table).key(key).consistentRead(true)).item());
        }
    }

    @Test
    void aWrongSecretIsAnInvalidSignatureException() {
        try (StatorTestServer server = verifying(o -> o);
             DynamoDbClient client = server.newClient(StatorTestServer.ACCESS_KEY, "not-the-secret")) {
            DynamoDbException e = failure(client);

            assertEquals(400, e.statusCode());
            assertEquals("InvalidSignatureException", e.awsErrorDetails().errorCode());
            assertEquals("The request signature we calculated does not match the signature you provided. "
                    + "Check your AWS Secret Access Key and signing method. "
                    + "Consult the service documentation for details.", e.awsErrorDetails().errorMessage());
        }
    }

    @Test
    void anUnknownAccessKeyIsAnUnrecognizedClientException() {
        try (StatorTestServer server = verifying(o -> o);
             DynamoDbClient client = server.newClient("AKIDUNKNOWN", StatorTestServer.SECRET_KEY)) {
            DynamoDbException e = failure(client);

            assertEquals(400, e.statusCode());
            assertEquals("UnrecognizedClientException", e.awsErrorDetails().errorCode());
            assertEquals("The security token included in the request is invalid.", e.awsErrorDetails().errorMessage());
        }
    }

    @Test
    void aSessionTokenNoKeyInTheFileCanHaveIssuedIsAnUnrecognizedClientException() {
        try (StatorTestServer server = verifying(o -> o);
             DynamoDbClient client = StatorTestServer.newClient(server.endpoint(), "us-east-1",
                     AwsSessionCredentials.create(StatorTestServer.ACCESS_KEY, StatorTestServer.SECRET_KEY,
                             "session-token"))) {
            DynamoDbException e = failure(client);

            assertEquals("UnrecognizedClientException", e.awsErrorDetails().errorCode());
            // DynamoDB words this one without the final period.
            assertEquals("The security token included in the request is invalid", e.awsErrorDetails().errorMessage());
        }
    }

    @Test
    void anAnonymousServerAcceptsAnyAccessKeyAndSecret() {
        try (StatorTestServer server = StatorTestServer.start();
             DynamoDbClient stranger = server.newClient("AKIDANYBODY", "any-secret-at-all")) {
            String table = StatorTestServer.tableName();
            StatorTestServer.createTable(stranger, table);

            assertTrue(server.client().listTables().tableNames().contains(table));
        }
    }

    @Test
    void aRequestSignedMoreThan15MinutesBeforeTheServerClockHasExpired() {
        assertRefusedAsSkewed(Duration.ofMinutes(16),
                "Signature expired: %s is now earlier than %s (%s - 15 min.)", Duration.ofMinutes(-15));
    }

    @Test
    void aRequestSignedMoreThan15MinutesAfterTheServerClockIsNotYetCurrent() {
        assertRefusedAsSkewed(Duration.ofMinutes(-16),
                "Signature not yet current: %s is still later than %s (%s + 15 min.)", Duration.ofMinutes(15));
    }

    /**
     * With the server clock {@code serverAhead} of real time, a request the SDK signs now gets
     * {@code template} filled with its own time, the server's time moved by {@code limit}, and
     * the server's time.
     */
    private void assertRefusedAsSkewed(Duration serverAhead, String template, Duration limit) {
        Instant serverNow = Instant.now().plus(serverAhead).truncatedTo(ChronoUnit.SECONDS);
        try (StatorTestServer server = verifying(o -> o.withClock(Clock.fixed(serverNow, ZoneOffset.UTC)))) {
            Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            DynamoDbException e = failure(server.client());
            Instant after = Instant.now();

            assertEquals("InvalidSignatureException", e.awsErrorDetails().errorCode());
            String message = e.awsErrorDetails().errorMessage();
            int requestTime = template.indexOf("%s");
            Matcher m = Pattern.compile(Pattern.quote(template.substring(0, requestTime)) + "(\\d{8}T\\d{6}Z)"
                    + Pattern.quote(template.substring(requestTime + 2).formatted(
                            BASIC.format(serverNow.plus(limit)), BASIC.format(serverNow)))).matcher(message);
            assertTrue(m.matches(), message);
            Instant signed = BASIC.parse(m.group(1), Instant::from);
            assertTrue(!signed.isBefore(before) && !signed.isAfter(after),
                    () -> m.group(1) + " is not the time the SDK signed at (" + before + " .. " + after + ")");
        }
    }

    @Test
    void aRequestSigned14MinutesOffTheServerClockIsAccepted() {
        Instant ahead = Instant.now().plus(Duration.ofMinutes(14));
        Instant behind = Instant.now().minus(Duration.ofMinutes(14));
        try (StatorTestServer fast = verifying(o -> o.withClock(Clock.fixed(ahead, ZoneOffset.UTC)));
             StatorTestServer slow = verifying(o -> o.withClock(Clock.fixed(behind, ZoneOffset.UTC)))) {
            assertTrue(fast.client().listTables().tableNames().isEmpty());
            assertTrue(slow.client().listTables().tableNames().isEmpty());
        }
    }

    @Test
    void anAnonymousServerDoesNotCheckTheRequestTime() {
        // As DynamoDB Local: recorded or replayed requests keep working against a local server.
        Instant serverNow = Instant.now().plus(Duration.ofHours(3));
        try (StatorTestServer server = StatorTestServer.start(o -> o.withClock(Clock.fixed(serverNow, ZoneOffset.UTC)))) {
            assertTrue(server.client().listTables().tableNames().isEmpty());
        }
    }
}
