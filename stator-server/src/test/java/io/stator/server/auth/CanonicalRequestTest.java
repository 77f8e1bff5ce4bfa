package io.stator.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CanonicalRequestTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ''                   | /
            /                    | /
            /example space/      | /example%20space/
            /example%20space/    | /example%2520space/
            /example/..          | /
            /example/../         | /
            /./example           | /example
            /a/./b/../c          | /a/c
            /..                  | /
            /a:b@c               | /a%3Ab%40c
            /~user/-_.           | /~user/-_.
            """)
    void canonicalUriRemovesDotSegmentsThenEncodesOnceMore(String rawPath, String canonical) {
        assertEquals(canonical, CanonicalRequest.canonicalUri(rawPath));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            Param2=value2&Param1=value1  | Param1=value1&Param2=value2
            b=2&A=0&a=1                  | A=0&a=1&b=2
            a=2&a=1&a=10                 | a=1&a=10&a=2
            key                          | key=
            key=&&other=x                | key=&other=x
            p=a%20b&q=a+b                | p=a%20b&q=a%2Bb
            p=%e1%88%b4                  | p=%E1%88%B4
            p=ሴ                          | p=%E1%88%B4
            p=%zz                        | p=%25zz
            p=a/b~c                      | p=a%2Fb~c
            """)
    void canonicalQuerySortsAndReencodesParameters(String rawQuery, String canonical) {
        assertEquals(canonical, CanonicalRequest.canonicalQuery(QueryParameters.parse(rawQuery), false));
    }

    @Test
    void canonicalQueryLeavesOutTheSignatureForQueryAuthentication() {
        QueryParameters query = QueryParameters.parse("X-Amz-Signature=abc&X-Amz-Date=1&b=2");
        assertEquals("X-Amz-Date=1&b=2", CanonicalRequest.canonicalQuery(query, true));
        assertEquals("X-Amz-Date=1&X-Amz-Signature=abc&b=2", CanonicalRequest.canonicalQuery(query, false));
    }

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `value`                | `value`
            `  value  `            | `value`
            `a   b    c`           | `a b c`
            `"a   b   c"`          | `"a b c"`
            `\ta\t\tb\t`           | `a b`
            `a\r\n b`              | `a b`
            ``                     | ``
            `   `                  | ``
            """)
    void headerValuesAreTrimmedAndFolded(String value, String folded) {
        StringBuilder sb = new StringBuilder();
        CanonicalRequest.appendFolded(sb, value.translateEscapes());
        assertEquals(folded, sb.toString());
    }

    @Test
    void repeatedHeaderValuesAreJoinedWithCommas() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("h"));
        headers.put("X-Multi", List.of(" one ", "two  too"));
        SignedRequest request = SignedRequest.of("POST", "/", "", headers, new byte[0]);
        String canonical = CanonicalRequest.build(request, List.of("host", "x-multi"), "host;x-multi",
                QueryParameters.EMPTY, false);
        assertEquals("POST\n/\n\nhost:h\nx-multi:one,two too\n\nhost;x-multi\n"
                + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", canonical);
    }

    @Test
    void headerNamesDifferingOnlyInCaseAreOneHeader() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("X-Multi", List.of("one"));
        headers.put("x-multi", List.of("two"));
        SignedRequest request = SignedRequest.of("POST", "/", "", headers, new byte[0]);
        assertEquals(List.of("one", "two"), request.headerValues("X-MULTI"));
        assertEquals("one", request.firstHeader("x-multi"));
        assertEquals(List.of(), request.headerValues("absent"));
    }

    @Test
    void payloadHashIsOfTheBodyUnlessGiven() {
        SignedRequest hashed = SignedRequest.of("POST", "/", "", Map.of(), "{}".getBytes());
        assertEquals("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a", hashed.payloadSha256());
        SignedRequest given = SignedRequest.withPayloadSha256("POST", "/", "", Map.of(), "abc123");
        assertEquals("abc123", given.payloadSha256());
        SignedRequest claimed = SignedRequest.of("POST", "/", "",
                Map.of("x-amz-content-sha256", List.of("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a")),
                "{\"a\":1}".getBytes());
        assertNotEquals(claimed.firstHeader("x-amz-content-sha256"), claimed.payloadSha256());
    }

    @Test
    void requestTargetIsSplitAtTheFirstQuestionMark() {
        SignedRequest request = SignedRequest.ofTarget("GET", "/a/b?x=1&y=?", Map.of(), new byte[0]);
        assertEquals("/a/b", request.rawPath());
        assertEquals("x=1&y=?", request.rawQuery());
        assertEquals("", SignedRequest.ofTarget("GET", "/", Map.of(), new byte[0]).rawQuery());
    }

    @Test
    void signingKeyMatchesTheDocumentedDerivation() {
        // AWS's documented example (Signature Version 4, "deriving the signing key"): iam, us-east-1, 20120215.
        assertEquals("f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d",
                Crypto.hex(SigningKeys.derive("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20120215", "us-east-1", "iam")));
    }

    @Test
    void signingKeyCacheIsBounded() {
        SigningKeys keys = new SigningKeys();
        for (int i = 0; i < SigningKeys.MAX_ENTRIES + 10; i++) {
            keys.signingKey("secret", "20260301", "region-" + i, "dynamodb");
        }
        assertEquals(10, keys.size());
        byte[] first = keys.signingKey("secret", "20260301", "us-east-1", "dynamodb");
        byte[] again = keys.signingKey("secret", "20260301", "us-east-1", "dynamodb");
        assertEquals(Crypto.hex(first), Crypto.hex(again));
        assertEquals(Crypto.hex(SigningKeys.derive("secret", "20260301", "us-east-1", "dynamodb")), Crypto.hex(first));
    }
}
