package io.stator.server.auth;

import static io.stator.server.auth.AwsSdkSigning.ACCESS_KEY_ID;
import static io.stator.server.auth.AwsSdkSigning.BODY;
import static io.stator.server.auth.AwsSdkSigning.REGION;
import static io.stator.server.auth.AwsSdkSigning.SECRET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Requests signed by the AWS SDK's own SigV4 signer, checked by both modes. */
class SigV4AuthenticatorTest {

    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final Credentials CREDENTIALS = Credentials.of(Map.of(ACCESS_KEY_ID, SECRET, "AKIAOTHER", "other-secret"));

    static final String SIGNATURE_MISMATCH = "The request signature we calculated does not match the signature you "
            + "provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";

    final SigV4Authenticator verifying = SigV4Authenticator.verifying(CREDENTIALS, CLOCK);
    final SigV4Authenticator anonymous = SigV4Authenticator.anonymous(CLOCK);

    static DynamoDbException rejects(SigV4Authenticator authenticator, SignedRequest request, ErrorType type) {
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> authenticator.authenticate(request));
        assertEquals(type, e.type(), e.getMessage());
        return e;
    }

    @Test
    void verifyingAcceptsRequestSignedWithTheRightSecret() {
        Caller caller = verifying.authenticate(AwsSdkSigning.signedPutItem(NOW).toSignedRequest());
        assertEquals(new Caller(ACCESS_KEY_ID, REGION, true), caller);
    }

    @Test
    void verifyingAcceptsTheSameRequestRepeatedly() {
        // The second and later checks use the cached signing key and the per-thread MAC.
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW).toSignedRequest();
        for (int i = 0; i < 3; i++) {
            assertTrue(verifying.authenticate(request).verified());
        }
    }

    @Test
    void verifyingRejectsRequestSignedWithTheWrongSecret() {
        SignedRequest request = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, ACCESS_KEY_ID, "not-the-secret",
                REGION, NOW).toSignedRequest();
        assertEquals(SIGNATURE_MISMATCH, rejects(verifying, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void verifyingRejectsUnknownAccessKey() {
        SignedRequest request = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, "AKIAUNKNOWN", SECRET,
                REGION, NOW).toSignedRequest();
        assertEquals("The security token included in the request is invalid.",
                rejects(verifying, request, ErrorType.UNRECOGNIZED_CLIENT).getMessage());
    }

    @Test
    void verifyingRejectsTamperedBody() {
        byte[] tampered = new String(BODY, StandardCharsets.UTF_8).replace("No One", "Someone")
                .getBytes(StandardCharsets.UTF_8);
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW).withBody(tampered);
        assertEquals(SIGNATURE_MISMATCH, rejects(verifying, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void verifyingRejectsTamperedSignedHeader() {
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW).withHeader("X-Amz-Target", "DynamoDB_20120810.DeleteTable");
        assertEquals(SIGNATURE_MISMATCH, rejects(verifying, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void verifyingRejectsRemovedSignedHeader() {
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW).withoutHeader("Content-Type");
        rejects(verifying, request, ErrorType.INVALID_SIGNATURE);
    }

    @Test
    void verifyingRejectsTamperedHost() {
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW).withHeader("Host", "localhost:8001");
        rejects(verifying, request, ErrorType.INVALID_SIGNATURE);
    }

    @Test
    void verifyingIgnoresHeadersThatWereNotSigned() {
        AwsSdkSigning.Signed signed = AwsSdkSigning.signedPutItem(NOW);
        assertTrue(signed.header("Authorization").contains("SignedHeaders="));
        assertFalse(signed.header("Authorization").contains("user-agent"));
        assertTrue(verifying.authenticate(signed.withHeader("User-Agent", "proxy-rewritten/1.0")).verified());
    }

    @Test
    void verifyingFoldsWhitespaceInSignedHeaderValues() {
        // The signer canonicalizes "a   b" to "a b"; a proxy that re-spaces the value must not
        // break the signature, since the server canonicalizes the same way.
        var signed = AwsSdkSigning.sign(AwsSdkSigning.putItem().toBuilder().putHeader("X-Stator-Note", "a   b  c").build(),
                BODY, ACCESS_KEY_ID, SECRET, REGION, NOW);
        assertTrue(signed.header("Authorization").contains("x-stator-note"));
        assertTrue(verifying.authenticate(signed.toSignedRequest()).verified());
        assertTrue(verifying.authenticate(signed.withHeader("X-Stator-Note", "  a b\tc ")).verified());
        rejects(verifying, signed.withHeader("X-Stator-Note", "a b d"), ErrorType.INVALID_SIGNATURE);
    }

    @Test
    void verifyingChecksTheSignatureOfTheSecondKeyToo() {
        SignedRequest request = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, "AKIAOTHER", "other-secret",
                "us-east-1", NOW).toSignedRequest();
        assertEquals(new Caller("AKIAOTHER", "us-east-1", true), verifying.authenticate(request));
        SignedRequest crossed = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, "AKIAOTHER", SECRET,
                "us-east-1", NOW).toSignedRequest();
        rejects(verifying, crossed, ErrorType.INVALID_SIGNATURE);
    }

    @ParameterizedTest(name = "signed {0} s from the server clock")
    @ValueSource(longs = {-14 * 60, 14 * 60, -15 * 60, 15 * 60, 0})
    void verifyingAcceptsRequestTimeWithinFifteenMinutes(long offsetSeconds) {
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW.plusSeconds(offsetSeconds)).toSignedRequest();
        assertTrue(verifying.authenticate(request).verified());
    }

    @Test
    void verifyingRejectsRequestSixteenMinutesOld() {
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW.minus(Duration.ofMinutes(16))).toSignedRequest();
        assertEquals("Signature expired: 20260301T114400Z is now earlier than 20260301T114500Z "
                        + "(20260301T120000Z - 15 min.)",
                rejects(verifying, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void verifyingRejectsRequestOneSecondPastFifteenMinutesOld() {
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW.minusSeconds(15 * 60 + 1)).toSignedRequest();
        assertEquals("Signature expired: 20260301T114459Z is now earlier than 20260301T114500Z "
                        + "(20260301T120000Z - 15 min.)",
                rejects(verifying, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void verifyingRejectsRequestSixteenMinutesInTheFuture() {
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW.plus(Duration.ofMinutes(16))).toSignedRequest();
        assertEquals("Signature not yet current: 20260301T121600Z is still later than 20260301T121500Z "
                        + "(20260301T120000Z + 15 min.)",
                rejects(verifying, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void serverTimeInTheMessageIsTruncatedToTheSecond() {
        SigV4Authenticator auth = SigV4Authenticator.verifying(CREDENTIALS,
                Clock.fixed(NOW.plusMillis(999), ZoneOffset.UTC));
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW.minus(Duration.ofMinutes(20))).toSignedRequest();
        assertEquals("Signature expired: 20260301T114000Z is now earlier than 20260301T114500Z "
                        + "(20260301T120000Z - 15 min.)",
                rejects(auth, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void requestTimeIsCheckedBeforeTheAccessKey() {
        SignedRequest request = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, "AKIAUNKNOWN", SECRET,
                REGION, NOW.minus(Duration.ofHours(1))).toSignedRequest();
        rejects(verifying, request, ErrorType.INVALID_SIGNATURE);
    }

    @Test
    void verifyingAcceptsQueryStringSignature() {
        var signed = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY,
                software.amazon.awssdk.identity.spi.AwsCredentialsIdentity.create(ACCESS_KEY_ID, SECRET), REGION, NOW,
                AwsSdkSigning.SignProperties::inQueryString);
        String query = signed.request().getUri().getRawQuery();
        assertTrue(query.contains("X-Amz-Signature="), query);
        assertTrue(signed.request().firstMatchingHeader("Authorization").isEmpty());
        assertEquals(new Caller(ACCESS_KEY_ID, REGION, true), verifying.authenticate(signed.toSignedRequest()));
        rejects(verifying, signed.withBody("{}".getBytes(StandardCharsets.UTF_8)), ErrorType.INVALID_SIGNATURE);
        rejects(verifying, signed.withHeader("X-Amz-Target", "DynamoDB_20120810.Scan"), ErrorType.INVALID_SIGNATURE);
    }

    @Test
    void verifyingRejectsSessionTokenNoKeyInTheStoreIssued() {
        var signed = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, AwsSdkSigning.sessionIdentity("FwoGZXIvYXdzEXAMPLE"),
                REGION, NOW, p -> p);
        assertTrue(signed.header("Authorization").contains("x-amz-security-token"));
        assertEquals("The security token included in the request is invalid",
                rejects(verifying, signed.toSignedRequest(), ErrorType.UNRECOGNIZED_CLIENT).getMessage());
        assertEquals(new Caller(ACCESS_KEY_ID, REGION, false), anonymous.authenticate(signed.toSignedRequest()));
    }

    static final String TOKEN = "FwoGZXIvYXdzEXAMPLE//token+with/slashes==";
    static final String INVALID_TOKEN = "The security token included in the request is invalid";

    final SigV4Authenticator verifyingTemporary = SigV4Authenticator.verifying(
            Credentials.parse(ACCESS_KEY_ID + " " + SECRET + " " + TOKEN + "\n", "test"), CLOCK);

    @Test
    void verifyingAcceptsATemporaryKeyWithItsSessionToken() {
        var signed = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, AwsSdkSigning.sessionIdentity(TOKEN), REGION,
                NOW, p -> p);
        assertEquals(new Caller(ACCESS_KEY_ID, REGION, true), verifyingTemporary.authenticate(signed.toSignedRequest()));
    }

    @Test
    void verifyingRejectsATemporaryKeyWithoutItsSessionToken() {
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW).toSignedRequest();
        assertEquals(INVALID_TOKEN,
                rejects(verifyingTemporary, request, ErrorType.UNRECOGNIZED_CLIENT).getMessage());
    }

    @Test
    void verifyingRejectsATemporaryKeyWithAnotherSessionToken() {
        for (String other : new String[] {TOKEN + "x", TOKEN.substring(1), "x" + TOKEN.substring(1)}) {
            var signed = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, AwsSdkSigning.sessionIdentity(other),
                    REGION, NOW, p -> p);
            assertEquals(INVALID_TOKEN,
                    rejects(verifyingTemporary, signed.toSignedRequest(), ErrorType.UNRECOGNIZED_CLIENT).getMessage());
        }
    }

    @Test
    void theSessionTokenIsCheckedAfterTheSignature() {
        SignedRequest request = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, ACCESS_KEY_ID, "not-the-secret",
                REGION, NOW).toSignedRequest();
        assertEquals(SIGNATURE_MISMATCH, rejects(verifyingTemporary, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void verifyingAcceptsAQueryStringSignatureCarryingTheSessionToken() {
        var signed = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, AwsSdkSigning.sessionIdentity(TOKEN), REGION,
                NOW, AwsSdkSigning.SignProperties::inQueryString);
        assertTrue(signed.request().getUri().getRawQuery().contains("X-Amz-Security-Token="));
        assertTrue(verifyingTemporary.authenticate(signed.toSignedRequest()).verified());
        var withoutToken = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY,
                software.amazon.awssdk.identity.spi.AwsCredentialsIdentity.create(ACCESS_KEY_ID, SECRET), REGION, NOW,
                AwsSdkSigning.SignProperties::inQueryString);
        assertEquals(INVALID_TOKEN, rejects(verifyingTemporary, withoutToken.toSignedRequest(),
                ErrorType.UNRECOGNIZED_CLIENT).getMessage());
    }

    @Test
    void theServersRegionIsTheOnlyOneAccepted() {
        SigV4Authenticator usEast1 = SigV4Authenticator.builder().credentials(CREDENTIALS).clock(CLOCK)
                .region("us-east-1").build();
        assertEquals("Credential should be scoped to a valid region, not 'eu-west-1'. ",
                rejects(usEast1, AwsSdkSigning.signedPutItem(NOW).toSignedRequest(), ErrorType.INVALID_SIGNATURE)
                        .getMessage());
        SignedRequest inRegion = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, ACCESS_KEY_ID, SECRET,
                "us-east-1", NOW).toSignedRequest();
        assertTrue(usEast1.authenticate(inRegion).verified());
    }

    @Test
    void allowedRegionsAreEnforcedThroughTheCredentialScope() {
        SigV4Authenticator usEastOnly = SigV4Authenticator.builder().credentials(CREDENTIALS).clock(CLOCK)
                .regions(Set.of("us-east-1")).build();
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW).toSignedRequest();
        assertEquals("Credential should be scoped to a valid region, not 'eu-west-1'. ",
                rejects(usEastOnly, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void anonymousAcceptsAnyAccessKeyAndAnySecret() {
        SignedRequest request = AwsSdkSigning.sign(AwsSdkSigning.putItem(), BODY, "anything", "whatever",
                "us-west-2", NOW).toSignedRequest();
        assertEquals(new Caller("anything", "us-west-2", false), anonymous.authenticate(request));
        assertFalse(anonymous.verifiesSignatures());
        assertTrue(verifying.verifiesSignatures());
    }

    @Test
    void anonymousIgnoresTheBodyAndTheClockByDefault() {
        AwsSdkSigning.Signed stale = AwsSdkSigning.signedPutItem(NOW.minus(Duration.ofDays(3)));
        assertEquals(ACCESS_KEY_ID, anonymous.authenticate(stale.withBody(new byte[] {1, 2, 3})).accessKeyId());
    }

    @Test
    void anonymousChecksTheClockWhenAsked() {
        SigV4Authenticator strict = SigV4Authenticator.builder().clock(CLOCK).checkRequestTime(true).build();
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW.plus(Duration.ofMinutes(16))).toSignedRequest();
        rejects(strict, request, ErrorType.INVALID_SIGNATURE);
    }

    @Test
    void verifyingCanBeToldNotToCheckTheClock() {
        SigV4Authenticator lenient = SigV4Authenticator.builder().credentials(CREDENTIALS).clock(CLOCK)
                .checkRequestTime(false).build();
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW.minus(Duration.ofDays(1))).toSignedRequest();
        assertTrue(lenient.authenticate(request).verified());
    }

    @Test
    void anonymousStillRejectsARequestWithoutSignature() {
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW).withoutHeader("Authorization");
        assertEquals("Request is missing Authentication Token",
                rejects(anonymous, request, ErrorType.MISSING_AUTHENTICATION_TOKEN).getMessage());
    }
}
