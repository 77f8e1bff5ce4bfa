package io.stator.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Missing and malformed signatures, each with DynamoDB's exact error. Every case runs in both
 * modes: these checks come before any secret is looked up, so anonymous mode must report them
 * exactly as verifying mode does.
 */
class SigV4MalformedRequestTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC);
    static final String DATE = "20260301T120000Z";
    static final String CREDENTIAL = "AKIASTATORTEST000001/20260301/us-east-1/dynamodb/aws4_request";
    static final String GOOD_HEADER = "AWS4-HMAC-SHA256 Credential=" + CREDENTIAL
            + ", SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0123abcd";

    enum Mode {
        ANONYMOUS {
            @Override SigV4Authenticator authenticator() { return SigV4Authenticator.anonymous(CLOCK); }
        },
        VERIFYING {
            @Override SigV4Authenticator authenticator() {
                return SigV4Authenticator.verifying(Credentials.of(Map.of("AKIASTATORTEST000001", "secret")), CLOCK);
            }
        };

        abstract SigV4Authenticator authenticator();
    }

    /** One malformed request: its Authorization header (null for none), date header, query, and DynamoDB's answer. */
    record Case(String name, String authorization, String amzDate, String rawQuery, ErrorType type, String message) {
        @Override public String toString() { return name; }
    }

    static SignedRequest request(String authorization, String amzDate, String rawQuery) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("localhost:8000"));
        headers.put("Content-Type", List.of("application/x-amz-json-1.0"));
        headers.put("X-Amz-Target", List.of("DynamoDB_20120810.ListTables"));
        if (amzDate != null) {
            headers.put("X-Amz-Date", List.of(amzDate));
        }
        if (authorization != null) {
            headers.put("Authorization", List.of(authorization));
        }
        return SignedRequest.of("POST", "/", rawQuery, headers, "{}".getBytes());
    }

    static String withCredential(String credential) {
        return "AWS4-HMAC-SHA256 Credential=" + credential
                + ", SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0123abcd";
    }

    static final String ALL_QUERY = "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="
            + CREDENTIAL.replace("/", "%2F") + "&X-Amz-Date=" + DATE
            + "&X-Amz-SignedHeaders=host&X-Amz-Signature=0123abcd";

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        ErrorType missing = ErrorType.MISSING_AUTHENTICATION_TOKEN;
        ErrorType incomplete = ErrorType.INCOMPLETE_SIGNATURE;
        ErrorType invalid = ErrorType.INVALID_SIGNATURE;
        String noToken = "Request is missing Authentication Token";

        c.add(new Case("no Authorization header", null, DATE, "", missing, noToken));
        c.add(new Case("empty Authorization header", "", DATE, "", missing, noToken));
        c.add(new Case("Authorization 'AWS4'", "AWS4", DATE, "", missing, noToken));
        c.add(new Case("Authorization 'Bearer ...'", "Bearer abc.def", DATE, "", missing, noToken));
        c.add(new Case("lowercase algorithm", "aws4-hmac-sha256 Credential=a", DATE, "", missing, noToken));
        c.add(new Case("SigV2-style header", "AWS AKIAEXAMPLE:c2lnbmF0dXJl", DATE, "", missing, noToken));

        c.add(new Case("Authorization 'AWS4-' without date (dynalite, checked against DynamoDB)", "AWS4-", null, "",
                incomplete, "Authorization header requires 'Credential' parameter. "
                        + "Authorization header requires 'Signature' parameter. "
                        + "Authorization header requires 'SignedHeaders' parameter. "
                        + "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
                        + "Authorization=AWS4-"));
        c.add(new Case("Authorization 'AWS4-' with date", "AWS4-", DATE, "", incomplete,
                "Authorization header requires 'Credential' parameter. "
                        + "Authorization header requires 'Signature' parameter. "
                        + "Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4-"));
        c.add(new Case("Signature missing", "AWS4-HMAC-SHA256 Credential=" + CREDENTIAL
                + ", SignedHeaders=host;x-amz-date", DATE, "", incomplete,
                "Authorization header requires 'Signature' parameter. Authorization=AWS4-HMAC-SHA256 Credential="
                        + CREDENTIAL + ", SignedHeaders=host;x-amz-date"));
        c.add(new Case("Credential and SignedHeaders missing", "AWS4-HMAC-SHA256 Signature=0123abcd", DATE, "",
                incomplete, "Authorization header requires 'Credential' parameter. "
                        + "Authorization header requires 'SignedHeaders' parameter. "
                        + "Authorization=AWS4-HMAC-SHA256 Signature=0123abcd"));
        c.add(new Case("date headers missing", GOOD_HEADER, null, "", incomplete,
                "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
                        + "Authorization=" + GOOD_HEADER));
        c.add(new Case("parameter without '=' (dynalite's DynamoDB capture)",
                "AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders", DATE, "", incomplete,
                "'Credential' not a valid key=value pair (missing equal-sign) in Authorization header: "
                        + "'AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders'"));
        c.add(new Case("parameter without '=' wins over missing date", "AWS4-HMAC-SHA256 FooBar", null, "",
                incomplete, "'FooBar' not a valid key=value pair (missing equal-sign) in Authorization header: "
                        + "'AWS4-HMAC-SHA256 FooBar'"));

        c.add(new Case("X-Amz-Date '201' (dynalite's DynamoDB capture)", GOOD_HEADER, "201", "", incomplete,
                "Date must be in ISO-8601 'basic format'. Got '201'. See http://en.wikipedia.org/wiki/ISO_8601"));
        c.add(new Case("X-Amz-Date extended format", GOOD_HEADER, "2026-03-01T12:00:00Z", "", incomplete,
                "Date must be in ISO-8601 'basic format'. Got '2026-03-01T12:00:00Z'. "
                        + "See http://en.wikipedia.org/wiki/ISO_8601"));
        c.add(new Case("X-Amz-Date month 13", GOOD_HEADER, "20261301T120000Z", "", incomplete,
                "Date must be in ISO-8601 'basic format'. Got '20261301T120000Z'. "
                        + "See http://en.wikipedia.org/wiki/ISO_8601"));
        c.add(new Case("date format is checked before the Host rule", "AWS4-HMAC-SHA256 Credential=a, "
                + "SignedHeaders=x-amz-date, Signature=b", "yesterday", "", incomplete,
                "Date must be in ISO-8601 'basic format'. Got 'yesterday'. See http://en.wikipedia.org/wiki/ISO_8601"));

        c.add(new Case("Host not signed", "AWS4-HMAC-SHA256 Credential=" + CREDENTIAL
                + ", SignedHeaders=x-amz-date;x-amz-target, Signature=0123abcd", DATE, "", invalid,
                "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."));
        c.add(new Case("SignedHeaders empty", "AWS4-HMAC-SHA256 Credential=" + CREDENTIAL
                + ", SignedHeaders=, Signature=0123abcd", DATE, "", invalid,
                "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."));

        c.add(new Case("unsupported algorithm (dynalite's DynamoDB capture)",
                "AWS4-HMAC-SHA25 Credential=" + CREDENTIAL + ", SignedHeaders=host;x-amz-date;x-amz-target, "
                        + "Signature=0123abcd",
                DATE, "", incomplete,
                "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA25' (only AWS4-HMAC-SHA256 for now). "));
        c.add(new Case("Host rule is checked before the algorithm", "AWS4-HMAC-SHA512 Credential=a, "
                + "SignedHeaders=x-amz-date, Signature=b", DATE, "", invalid,
                "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."));

        c.add(new Case("Credential of 4 parts (dynalite's DynamoDB capture)", withCredential("a/b/c/d"), DATE, "",
                incomplete, "Credential must have exactly 5 slash-delimited elements, "
                        + "e.g. keyid/date/region/service/term, got 'a/b/c/d'"));
        c.add(new Case("Credential of 6 parts", withCredential("a/20260301/us-east-1/dynamodb/aws4_request/x"), DATE,
                "", incomplete, "Credential must have exactly 5 slash-delimited elements, "
                        + "e.g. keyid/date/region/service/term, got 'a/20260301/us-east-1/dynamodb/aws4_request/x'"));
        c.add(new Case("Credential of 4 parts and trailing slashes", withCredential("a/b/c/d//"), DATE, "",
                incomplete, "Credential must have exactly 5 slash-delimited elements, "
                        + "e.g. keyid/date/region/service/term, got 'a/b/c/d//'"));
        c.add(new Case("Credential of 1 part", withCredential("AKIDEXAMPLE"), DATE, "", incomplete,
                "Credential must have exactly 5 slash-delimited elements, "
                        + "e.g. keyid/date/region/service/term, got 'AKIDEXAMPLE'"));

        c.add(new Case("wrong scope everywhere (dynalite's DynamoDB capture)", withCredential("a/b/c/d/e"), DATE, "",
                invalid, "Credential should be scoped to correct service: 'dynamodb'. "
                        + "Credential should be scoped with a valid terminator: 'aws4_request', not 'e'. "
                        + "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: "
                        + "'b' != '20260301', from '20260301T120000Z'."));
        c.add(new Case("empty region", withCredential("AKIASTATORTEST000001/20260301//dynamodb/aws4_request"), DATE,
                "", invalid, "Credential should be scoped to a valid region, not ''. "));
        c.add(new Case("wrong service", withCredential("AKIASTATORTEST000001/20260301/us-east-1/execute-api/aws4_request"),
                DATE, "", invalid, "Credential should be scoped to correct service: 'dynamodb'. "));
        c.add(new Case("wrong terminator", withCredential("AKIASTATORTEST000001/20260301/us-east-1/dynamodb/aws5_request"),
                DATE, "", invalid,
                "Credential should be scoped with a valid terminator: 'aws4_request', not 'aws5_request'. "));
        c.add(new Case("scope date of yesterday", withCredential("AKIASTATORTEST000001/20260228/us-east-1/dynamodb/aws4_request"),
                DATE, "", invalid, "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date "
                        + "from HTTP: '20260228' != '20260301', from '20260301T120000Z'."));

        c.add(new Case("header and query authentication both", GOOD_HEADER, DATE, "X-Amz-Algorithm=AWS4-HMAC-SHA256",
                invalid, "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header."));
        c.add(new Case("query authentication with only the algorithm", null, null,
                "X-Amz-Algorithm=AWS4-HMAC-SHA256", incomplete,
                "AWS query-string parameters must include 'X-Amz-Credential'. "
                        + "AWS query-string parameters must include 'X-Amz-Signature'. "
                        + "AWS query-string parameters must include 'X-Amz-SignedHeaders'. "
                        + "AWS query-string parameters must include 'X-Amz-Date'. "
                        + "Re-examine the query-string parameters."));
        c.add(new Case("query authentication with an empty algorithm", null, null,
                "X-Amz-Algorithm=&X-Amz-Date=" + DATE, incomplete,
                "AWS query-string parameters must include 'X-Amz-Algorithm'. "
                        + "AWS query-string parameters must include 'X-Amz-Credential'. "
                        + "AWS query-string parameters must include 'X-Amz-Signature'. "
                        + "AWS query-string parameters must include 'X-Amz-SignedHeaders'. "
                        + "Re-examine the query-string parameters."));
        c.add(new Case("query authentication with an unknown algorithm", null, null,
                ALL_QUERY.replace("AWS4-HMAC-SHA256", "AWS4-HMAC-SHA512"), missing, noToken));
        c.add(new Case("query authentication, Host not signed", null, null,
                ALL_QUERY.replace("X-Amz-SignedHeaders=host", "X-Amz-SignedHeaders=x-amz-date"), invalid,
                "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."));
        c.add(new Case("query authentication, bad date", null, null,
                ALL_QUERY.replace(DATE, "20260301"), incomplete,
                "Date must be in ISO-8601 'basic format'. Got '20260301'. See http://en.wikipedia.org/wiki/ISO_8601"));
        return c;
    }

    static Stream<Arguments> casesInBothModes() {
        return Stream.of(Mode.values()).flatMap(mode -> cases().stream().map(c -> Arguments.of(mode, c)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("casesInBothModes")
    void malformedSignatureGetsDynamoDbsError(Mode mode, Case c) {
        DynamoDbException e = assertThrows(DynamoDbException.class,
                () -> mode.authenticator().authenticate(request(c.authorization(), c.amzDate(), c.rawQuery())));
        assertEquals(c.type(), e.type(), e.getMessage());
        assertEquals(c.message(), e.getMessage());
    }

    @Test
    void anonymousAcceptsEveryWellFormedVariant() {
        SigV4Authenticator anonymous = Mode.ANONYMOUS.authenticator();
        assertEquals(new Caller("AKIASTATORTEST000001", "us-east-1", false),
                anonymous.authenticate(request(GOOD_HEADER, DATE, "")));
        // Leading and trailing whitespace, parameters in any order, no space after commas.
        anonymous.authenticate(request("  AWS4-HMAC-SHA256 Signature=0123abcd,SignedHeaders=host;x-amz-date,Credential="
                + CREDENTIAL + "  ", DATE, ""));
        // Header names in SignedHeaders are matched without regard to case.
        anonymous.authenticate(request("AWS4-HMAC-SHA256 Credential=" + CREDENTIAL
                + ", SignedHeaders=HOST;X-Amz-Date, Signature=0123abcd", DATE, ""));
        // Trailing slashes after the terminator are ignored.
        anonymous.authenticate(request(withCredential(CREDENTIAL + "/"), DATE, ""));
        // Unknown parameters are ignored.
        anonymous.authenticate(request(GOOD_HEADER + ", Extra=1", DATE, ""));
        // The query-string form.
        assertEquals(new Caller("AKIASTATORTEST000001", "us-east-1", false),
                anonymous.authenticate(request(null, null, ALL_QUERY)));
        // Any region name, as DynamoDB Local takes any.
        assertEquals("localhost", anonymous.authenticate(request(
                withCredential("key/20260301/localhost/dynamodb/aws4_request"), DATE, "")).region());
    }

    @Test
    void dateHeaderStandsInForXAmzDate() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("host", List.of("localhost:8000"));
        headers.put("date", List.of(DATE));
        headers.put("authorization", List.of(GOOD_HEADER.replace("x-amz-date", "date")));
        assertEquals("us-east-1", Mode.ANONYMOUS.authenticator()
                .authenticate(SignedRequest.of("POST", "/", "", headers, new byte[0])).region());
    }

    @Test
    void xAmzDateWinsOverDate() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("localhost:8000"));
        headers.put("Date", List.of("Sun, 01 Mar 2026 12:00:00 GMT"));
        headers.put("X-Amz-Date", List.of(DATE));
        headers.put("Authorization", List.of(GOOD_HEADER));
        Mode.ANONYMOUS.authenticator().authenticate(SignedRequest.of("POST", "/", "", headers, new byte[0]));
    }

    @Test
    void verifyingDoesNotAcceptAMadeUpSignature() {
        DynamoDbException e = assertThrows(DynamoDbException.class,
                () -> Mode.VERIFYING.authenticator().authenticate(request(GOOD_HEADER, DATE, "")));
        assertEquals(ErrorType.INVALID_SIGNATURE, e.type());
    }
}
