package io.stator.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * AWS's published SigV4 test suite (aws-sig-v4-test-suite, as kept in awslabs/aws-c-auth
 * tests/aws-signing-test-suite/v4): example credentials, 2015-08-30T12:36:00Z, us-east-1,
 * service "service". Each request is verified exactly as published.
 */
class SigV4TestSuiteTest {

    static final String AKID = "AKIDEXAMPLE";
    static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    static final String DATE = "20150830T123600Z";
    static final String SCOPE = "AKIDEXAMPLE/20150830/us-east-1/service/aws4_request";
    static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    final SigV4Authenticator authenticator = SigV4Authenticator.builder()
            .credentials(Credentials.of(Map.of(AKID, SECRET)))
            .clock(Clock.fixed(Instant.parse("2015-08-30T12:36:00Z"), ZoneOffset.UTC))
            .service("service")
            .build();

    static SignedRequest request(String method, String target, String signedHeaders, String signature,
                                 Map<String, List<String>> extraHeaders) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("example.amazonaws.com"));
        headers.putAll(extraHeaders);
        headers.put("X-Amz-Date", List.of(DATE));
        headers.put("Authorization", List.of("AWS4-HMAC-SHA256 Credential=" + SCOPE + ", SignedHeaders="
                + signedHeaders + ", Signature=" + signature));
        return SignedRequest.ofTarget(method, target, headers, new byte[0]);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            get-vanilla                      | GET  | /                           | 5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31
            get-vanilla-query-order-key-case | GET  | /?Param2=value2&Param1=value1 | b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500
            post-vanilla                     | POST | /                           | 5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b
            get-utf8                         | GET  | /ሴ                          | 8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85
            """)
    void publishedVectorVerifies(String name, String method, String target, String signature) {
        Caller caller = authenticator.authenticate(request(method, target, "host;x-amz-date", signature, Map.of()));
        assertEquals(new Caller(AKID, "us-east-1", true), caller);
    }

    @Test
    void getHeaderValueTrimVerifies() {
        SignedRequest request = request("GET", "/", "host;my-header1;my-header2;x-amz-date",
                "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736",
                Map.of("My-Header1", List.of(" value1"), "My-Header2", List.of(" \"a   b   c\"")));
        assertEquals(AKID, authenticator.authenticate(request).accessKeyId());
    }

    @Test
    void getVanillaCanonicalRequestAndStringToSignMatchThePublishedOnes() {
        SignedRequest request = request("GET", "/", "host;x-amz-date", "unused", Map.of());
        String canonical = CanonicalRequest.build(request, List.of("host", "x-amz-date"), "host;x-amz-date",
                QueryParameters.parse(""), false);
        assertEquals("GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
                + EMPTY_SHA256, canonical);
        assertEquals("AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
                        + "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
                CanonicalRequest.stringToSign("AWS4-HMAC-SHA256", DATE, "20150830/us-east-1/service/aws4_request",
                        canonical));
    }

    @Test
    void getVanillaWithOneSignatureDigitChangedIsRejected() {
        SignedRequest request = request("GET", "/", "host;x-amz-date",
                "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf32", Map.of());
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> authenticator.authenticate(request));
        assertEquals(ErrorType.INVALID_SIGNATURE, e.type());
    }

    @Test
    void getVanillaWithItsSignatureUppercasedIsRejected() {
        SignedRequest request = request("GET", "/", "host;x-amz-date",
                "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31".toUpperCase(), Map.of());
        assertThrows(DynamoDbException.class, () -> authenticator.authenticate(request));
    }

    @Test
    void getVanillaIsRejectedForDynamoDb() {
        SigV4Authenticator dynamodb = SigV4Authenticator.verifying(Credentials.of(Map.of(AKID, SECRET)),
                Clock.fixed(Instant.parse("2015-08-30T12:36:00Z"), ZoneOffset.UTC));
        SignedRequest request = request("GET", "/", "host;x-amz-date",
                "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31", Map.of());
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> dynamodb.authenticate(request));
        assertEquals("Credential should be scoped to correct service: 'dynamodb'. ", e.getMessage());
    }
}
