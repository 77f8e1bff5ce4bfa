package io.stator.server.auth;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.stator.core.error.DynamoDbException;
import io.stator.core.testing.InputTimeLimit;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fuzz test (Jazzer) of the SigV4 check: any request line, headers and body go to
 * {@link SigV4Authenticator#authenticate}, both anonymous and verifying (AWS's test-suite key,
 * clock and service, so that the published requests in the corpus verify and mutations of them
 * reach the canonical request and the signature comparison). The Authorization header, the
 * query string (X-Amz-* parameters, percent-encoding), the dates, the credential scope and the
 * signed headers are all parsed from what arrived; any of it either authenticates or fails with
 * DynamoDB's error (MissingAuthenticationToken, IncompleteSignature, InvalidSignature,
 * UnrecognizedClient), nothing else.
 *
 * <p>An input is an HTTP request as text: {@code METHOD target} on the first line, then
 * {@code Name: value} header lines, an empty line and the body, so corpus files are readable.
 *
 * <p>How the fuzz tests run (verify, the long {@code -Pfuzz} run, the corpus): see
 * {@code io.stator.server.protocol.RequestReaderFuzzTest}.
 */
class SigV4FuzzTest {

    /** AWS's SigV4 test suite: its example key, its time, its service. */
    private static final String ACCESS_KEY_ID = "AKIDEXAMPLE";
    private static final String SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2015-08-30T12:36:00Z"), ZoneOffset.UTC);
    private static final SigV4Authenticator ANONYMOUS = SigV4Authenticator.anonymous(CLOCK);
    private static final SigV4Authenticator VERIFYING = SigV4Authenticator.builder()
            .credentials(Credentials.of(Map.of(ACCESS_KEY_ID, SECRET_ACCESS_KEY)))
            .clock(CLOCK)
            .service("service")
            .build();

    @FuzzTest
    void signaturesAuthenticateOrFailWithDynamoDbErrors(byte[] input) {
        InputTimeLimit.run(input, () -> authenticate(input));
    }

    private static void authenticate(byte[] input) {
        SignedRequest request = parse(new String(input, StandardCharsets.UTF_8));
        for (SigV4Authenticator authenticator : List.of(ANONYMOUS, VERIFYING)) {
            try {
                authenticator.authenticate(request);
            } catch (DynamoDbException expected) {
                // DynamoDB's answer to a missing, malformed or wrong signature.
            }
        }
    }

    /** {@code METHOD target}, header lines, an empty line, the body; whatever is missing is empty. */
    private static SignedRequest parse(String text) {
        String[] lines = text.split("\n", -1);
        String requestLine = lines[0];
        int space = requestLine.indexOf(' ');
        String method = space < 0 ? requestLine : requestLine.substring(0, space);
        String target = space < 0 ? "/" : requestLine.substring(space + 1);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        int i = 1;
        for (; i < lines.length && !lines[i].isEmpty(); i++) {
            int colon = lines[i].indexOf(':');
            String name = colon < 0 ? lines[i] : lines[i].substring(0, colon);
            String value = colon < 0 ? "" : lines[i].substring(colon + 1).strip();
            headers.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        }
        String body = i + 1 < lines.length ? String.join("\n", List.of(lines).subList(i + 1, lines.length)) : "";
        return SignedRequest.ofTarget(method, target, headers, body.getBytes(StandardCharsets.UTF_8));
    }
}
