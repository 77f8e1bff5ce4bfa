package io.stator.server.auth;

import static io.stator.server.auth.AwsSdkSigning.ACCESS_KEY_ID;
import static io.stator.server.auth.AwsSdkSigning.BODY;
import static io.stator.server.auth.AwsSdkSigning.REGION;
import static io.stator.server.auth.AwsSdkSigning.SECRET;
import static io.stator.server.auth.SigV4AuthenticatorTest.CLOCK;
import static io.stator.server.auth.SigV4AuthenticatorTest.NOW;
import static io.stator.server.auth.SigV4AuthenticatorTest.rejects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.ErrorType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * The headers a verified signature must cover ({@link SignedHeaderRules}), with requests signed by
 * the AWS SDK's signer, which covers every header present when it signs: a header added after
 * signing is one the signature leaves out.
 */
class SignedHeaderRulesTest {

    static final Credentials CREDENTIALS = Credentials.of(Map.of(ACCESS_KEY_ID, SECRET));

    final SigV4Authenticator verifying = SigV4Authenticator.verifying(CREDENTIALS, CLOCK);

    static String mustBeSigned(String header) {
        return "'" + header + "' must be a 'SignedHeader' in the AWS Authorization.";
    }

    /** The SDK's PutItem without {@code header} when signed, with it (set to {@code value}) when sent. */
    static SignedRequest addedAfterSigning(String header, String value) {
        SdkHttpRequest unsigned = AwsSdkSigning.putItem().toBuilder().removeHeader(header).build();
        return AwsSdkSigning.sign(unsigned, BODY, ACCESS_KEY_ID, SECRET, REGION, NOW).withHeader(header, value);
    }

    @Test
    void whatTheSdkSignsPassesEveryRule() {
        assertTrue(verifying.authenticate(AwsSdkSigning.signedPutItem(NOW).toSignedRequest()).verified());
    }

    @Test
    void aTargetLeftOutOfTheSignatureIsRefused() {
        SignedRequest request = addedAfterSigning("X-Amz-Target", "DynamoDB_20120810.DeleteTable");
        assertEquals(mustBeSigned("X-Amz-Target"),
                rejects(verifying, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void aContentTypeLeftOutOfTheSignatureIsAccepted() {
        SignedRequest request = addedAfterSigning("Content-Type", "application/x-amz-json-1.0");
        assertTrue(verifying.authenticate(request).verified());
    }

    @Test
    void anXAmzHeaderLeftOutOfTheSignatureIsRefusedByItsLowerCaseName() {
        SignedRequest request = AwsSdkSigning.signedPutItem(NOW).withHeader("X-Amz-Meta-Colour", "blue");
        assertEquals(mustBeSigned("x-amz-meta-colour"),
                rejects(verifying, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void headersThatOnlyLookLikeXAmzHeadersMayBeLeftOut() {
        AwsSdkSigning.Signed signed = AwsSdkSigning.signedPutItem(NOW);
        assertTrue(verifying.authenticate(signed.withHeader("X-Amzn-Trace-Id", "Root=1-0-0")).verified());
        assertTrue(verifying.authenticate(signed.withHeader("X-Amz", "1")).verified());
        assertTrue(verifying.authenticate(signed.withHeader("Amz-Sdk-Request", "attempt=2")).verified());
    }

    @Test
    void anonymousModeDoesNotApplyTheRules() {
        SigV4Authenticator anonymous = SigV4Authenticator.anonymous(CLOCK);
        SignedRequest request = addedAfterSigning("X-Amz-Target", "DynamoDB_20120810.DeleteTable");
        assertEquals(ACCESS_KEY_ID, anonymous.authenticate(request).accessKeyId());
    }

    // ---- which rule is reported first --------------------------------------------------------

    static final String CREDENTIAL = ACCESS_KEY_ID + "/20260301/" + REGION + "/dynamodb/aws4_request";

    static SignedRequest request(String algorithm, String signedHeaders, Map<String, String> extraHeaders) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("localhost:8000"));
        headers.put("X-Amz-Date", List.of("20260301T120000Z"));
        headers.put("X-Amz-Target", List.of("DynamoDB_20120810.ListTables"));
        extraHeaders.forEach((name, value) -> headers.put(name, List.of(value)));
        headers.put("Authorization", List.of(algorithm + " Credential=" + CREDENTIAL + ", SignedHeaders="
                + signedHeaders + ", Signature=0123abcd"));
        return SignedRequest.of("POST", "/", "", headers, "{}".getBytes());
    }

    @Test
    void hostIsReportedBeforeTheOtherRules() {
        assertEquals("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.",
                rejects(verifying, request("AWS4-HMAC-SHA256", "content-type", Map.of("X-Amz-Foo", "1")),
                        ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void theRequestTimeIsReportedBeforeTheTarget() {
        assertEquals(mustBeSigned("X-Amz-Date"), rejects(verifying, request("AWS4-HMAC-SHA256", "host", Map.of()),
                ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void theTargetIsReportedBeforeOtherXAmzHeaders() {
        assertEquals(mustBeSigned("X-Amz-Target"), rejects(verifying,
                request("AWS4-HMAC-SHA256", "host;x-amz-date", Map.of("X-Amz-Foo", "1")),
                ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void otherXAmzHeadersAreReportedInAlphabeticalOrderWhateverTheirCase() {
        assertEquals(mustBeSigned("x-amz-alpha"), rejects(verifying,
                request("AWS4-HMAC-SHA256", "host;x-amz-date;x-amz-target",
                        Map.of("X-AMZ-ZULU", "1", "x-amz-alpha", "2")),
                ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void theRulesAreReportedBeforeTheAlgorithm() {
        // Where scratchstack checks its header requirements: with the Host rule, which DynamoDB
        // reports before the algorithm (dynalite's capture).
        assertEquals(mustBeSigned("X-Amz-Target"), rejects(verifying,
                request("AWS4-HMAC-SHA512", "host;x-amz-date", Map.of()), ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void signedHeaderNamesAreMatchedWithoutRegardToCase() {
        failsOnTheSignatureAlone(verifying,
                request("AWS4-HMAC-SHA256", "HOST;X-Amz-Date;X-AMZ-TARGET;x-amz-foo", Map.of("x-AMZ-foo", "1")));
    }

    @Test
    void theDateHeaderMustBeSignedWhenItCarriesTheTime() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("localhost:8000"));
        headers.put("Date", List.of("20260301T120000Z"));
        headers.put("Authorization", List.of("AWS4-HMAC-SHA256 Credential=" + CREDENTIAL
                + ", SignedHeaders=host, Signature=0123abcd"));
        assertEquals(mustBeSigned("Date"), rejects(verifying, SignedRequest.of("POST", "/", "", headers, new byte[0]),
                ErrorType.INVALID_SIGNATURE).getMessage());
    }

    @Test
    void inTheQueryStringTheTimeIsSignedAlreadyButHeadersFollowTheSameRules() {
        String query = "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" + CREDENTIAL.replace("/", "%2F")
                + "&X-Amz-Date=20260301T120000Z&X-Amz-SignedHeaders=host&X-Amz-Signature=0123abcd";
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("localhost:8000"));
        headers.put("X-Amz-Target", List.of("DynamoDB_20120810.ListTables"));
        assertEquals(mustBeSigned("X-Amz-Target"), rejects(verifying,
                SignedRequest.of("POST", "/", query, headers, new byte[0]), ErrorType.INVALID_SIGNATURE).getMessage());

        headers.remove("X-Amz-Target");
        headers.put("X-Amz-Date", List.of("20260301T120000Z"));
        assertEquals(mustBeSigned("x-amz-date"), rejects(verifying,
                SignedRequest.of("POST", "/", query, headers, new byte[0]), ErrorType.INVALID_SIGNATURE).getMessage());

        headers.remove("X-Amz-Date");
        failsOnTheSignatureAlone(verifying, SignedRequest.of("POST", "/", query, headers, new byte[0]));
    }

    /** The request passed every rule before the signature: it fails on the made-up signature alone. */
    static void failsOnTheSignatureAlone(SigV4Authenticator authenticator, SignedRequest request) {
        assertEquals(SigV4AuthenticatorTest.SIGNATURE_MISMATCH,
                rejects(authenticator, request, ErrorType.INVALID_SIGNATURE).getMessage());
    }
}
