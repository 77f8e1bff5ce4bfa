package io.stator.server.auth;

import io.stator.core.error.DynamoDbException;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Checks the AWS Signature Version 4 on a DynamoDB request, and says who sent it.
 *
 * <p><b>Two modes.</b> Anonymous (the default, as DynamoDB Local does): any access key and any
 * region are accepted and the signature is not computed, but the request must still carry a
 * well-formed signature, and a missing or malformed one gets DynamoDB's own error; clients and
 * tests thus see the same failures they would see against DynamoDB for a broken signer.
 * Verifying: the access key must be in a {@link Credentials} store, the request time within 15
 * minutes of the server clock, the credential scope must name the server's region (when one is
 * set, as the server does) and DynamoDB, the signature must cover the headers that choose what
 * the request does ({@link SignedHeaderRules}) and match one recomputed from the request as
 * received, and a temporary key's session token must come with it.
 *
 * <p><b>Why the header rules are not checked when anonymous.</b> Where no signature is
 * computed, requiring X-Amz-Target in SignedHeaders protects nothing (anyone can write any
 * SignedHeaders), and whether DynamoDB itself refuses such requests before looking at the key is
 * not known (its only capture, dynalite's, shows SignedHeaders=host reaching the signature
 * check). The Host rule, whose refusal DynamoDB's answers show, applies in both modes.
 *
 * <p><b>Signatures in the query string</b> follow the same rules: the same scope, header and
 * token checks, and the same 15 minutes. X-Amz-Expires, when present, is covered by the
 * signature like every query parameter, must be a whole number of seconds from 1 to 604,800
 * (seven days), and ends the request's validity when it runs out first: a presigned request is
 * taken while both its 15 minutes and its own expiry hold. It never lengthens those 15 minutes:
 * outside S3, AWS's front end ignores X-Amz-Expires (STS does: aws/aws-sdk-go#2167,
 * kubernetes-sigs/aws-iam-authenticator#258; how DynamoDB treats it is not on record), and a URL
 * that outlives its stated expiry is what S3 refuses, so honouring it refuses nothing a client
 * may count on; botocore's presigner always sends one (3600 seconds by default). Its form is
 * checked in both modes, its time where the request time is. The payload is hashed as in the
 * header form: the AWS SDKs' generic presigners (not S3's) hash the body too.
 *
 * <p><b>A header or parameter given twice</b> reads as its values joined with ',' (RFC 9110's
 * rule for a field on several lines), which is also what the canonical request, and so the
 * signature, covers: two X-Amz-Date headers are one malformed date, two X-Amz-Target headers
 * (DynamoDbEndpoint reads them so too) no operation, never the first one's.
 *
 * <p><b>Order of checks.</b> DynamoDB reports the first failing check only, so the order is part of
 * its behaviour. This follows the order dynalite recorded against DynamoDB:
 * <ol>
 * <li>Authorization header and X-Amz-Algorithm query parameter both present: InvalidSignature.</li>
 * <li>Neither, or a header not starting "AWS4-": MissingAuthenticationToken.</li>
 * <li>Header parameters not key=value, then missing Credential / Signature / SignedHeaders /
 *     date header (all named in one message); for the query form, missing X-Amz-* parameters,
 *     then an algorithm other than AWS4-HMAC-SHA256 (MissingAuthenticationToken), then a
 *     malformed X-Amz-Expires.</li>
 * <li>Request time not in ISO-8601 basic format; then more than 15 minutes off the server clock,
 *     then past its X-Amz-Expires (verifying mode, or when asked for).</li>
 * <li>Host not among the signed headers.</li>
 * <li>Verifying only: the request time's header, X-Amz-Target or another X-Amz-* header not
 *     among the signed headers (InvalidSignature; placed with the Host rule, where
 *     scratchstack places its header requirements).</li>
 * <li>Algorithm other than AWS4-HMAC-SHA256.</li>
 * <li>Credential not five slash-separated parts (trailing slashes ignored).</li>
 * <li>Scope: region, service, terminator, date (all failing ones named in one message).</li>
 * <li>Verifying only: unknown access key (UnrecognizedClient), signature mismatch
 *     (InvalidSignature), then the session token: a temporary key's missing or different, or
 *     one a long-term key cannot have (UnrecognizedClient).</li>
 * </ol>
 * The texts, and where each was found, are in {@link SigV4Errors}.
 *
 * <p><b>Cost.</b> Anonymous mode parses a few strings and hashes nothing. Verifying mode hashes the
 * body and the canonical request once each and computes one HMAC; the signing key (four more
 * HMACs) is cached per (secret, date, region, service), so it is derived once a day per key, and
 * the digest and MAC objects are reused per thread. The header rules and the token check compare
 * strings in place. Instances are immutable apart from that cache and safe to share between
 * threads.
 */
public final class SigV4Authenticator {

    public static final String ALGORITHM = "AWS4-HMAC-SHA256";
    public static final String DYNAMODB_SERVICE = "dynamodb";
    /** How far a request time may be from the server clock, either way. */
    public static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(15);

    private static final String TERMINATOR = "aws4_request";
    private static final DateTimeFormatter BASIC_FORMAT =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final Credentials credentials;
    private final Clock clock;
    private final boolean checkRequestTime;
    private final boolean checkSignedHeaders;
    private final String service;
    private final Predicate<String> validRegion;
    private final SigningKeys signingKeys = new SigningKeys();

    private SigV4Authenticator(Builder builder) {
        this.credentials = builder.credentials;
        this.clock = builder.clock;
        this.checkRequestTime = builder.checkRequestTime != null ? builder.checkRequestTime : credentials != null;
        this.checkSignedHeaders = credentials != null;
        this.service = builder.service;
        this.validRegion = builder.validRegion;
    }

    /** Accepts any access key; still rejects a missing or malformed signature. */
    public static SigV4Authenticator anonymous(Clock clock) {
        return builder().clock(clock).build();
    }

    /**
     * Accepts only keys in {@code credentials}, with a matching signature and a current time, for
     * any region: a server names its own with {@code builder().region(...)}, as StatorServer does.
     */
    public static SigV4Authenticator verifying(Credentials credentials, Clock clock) {
        return builder().credentials(credentials).clock(clock).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** True when signatures are checked against known secrets. */
    public boolean verifiesSignatures() {
        return credentials != null;
    }

    /**
     * Checks {@code request}'s signature.
     *
     * @return the caller, with the access key id and region from the credential scope
     * @throws DynamoDbException MissingAuthenticationToken, IncompleteSignature, InvalidSignature
     *     or UnrecognizedClient, with DynamoDB's message
     */
    public Caller authenticate(SignedRequest request) {
        Claim claim = readClaim(request);
        if (credentials == null) {
            return new Caller(claim.accessKeyId(), claim.region(), false);
        }
        QueryParameters query = claim.query();
        SignatureParts parts = claim.parts();
        List<String> signedHeaders = claim.signedHeaders();
        String scopeDate = claim.scopeDate();
        String region = claim.region();
        String secret = claim.key().secretAccessKey();
        String canonicalRequest = CanonicalRequest.build(request, signedHeaders, String.join(";", signedHeaders),
                query, parts.queryAuthentication());
        String stringToSign = CanonicalRequest.stringToSign(ALGORITHM, parts.requestTime(),
                scopeDate + '/' + region + '/' + service + '/' + TERMINATOR, canonicalRequest);
        byte[] signingKey = signingKeys.signingKey(secret, scopeDate, region, service);
        String expected = Crypto.hex(Crypto.hmacSha256(signingKey, stringToSign));
        if (!Crypto.constantTimeEquals(expected, parts.signature())) {
            throw SigV4Errors.signatureMismatch();
        }
        checkSessionToken(claim.key().sessionToken(), parts.securityToken());
        return new Caller(claim.accessKeyId(), region, true);
    }

    /**
     * The checks that {@code request}'s headers and query string decide by themselves, before
     * any of its body: everything {@link #authenticate} checks but the signature and the session
     * token that comes after it. A request that fails one of them gets that error whatever its
     * body, so a front end may refuse it without reading its body (DynamoDbEndpoint's early
     * replies). Never asks for the payload's hash.
     *
     * @throws DynamoDbException the first failing check's error, as {@link #authenticate} throws it
     */
    public void checkHeaders(SignedRequest request) {
        readClaim(request);
    }

    /**
     * What a request claims of itself once every check its headers decide has passed.
     *
     * @param key the access key, when signatures are verified; else null
     */
    private record Claim(QueryParameters query, SignatureParts parts, List<String> signedHeaders, String accessKeyId,
                         String scopeDate, String region, Credentials.AccessKey key) {}

    private Claim readClaim(SignedRequest request) {
        String authorization = request.header("Authorization");
        boolean headerAuthentication = authorization != null && !authorization.isEmpty();
        QueryParameters query = QueryParameters.parse(request.rawQuery());
        boolean queryAuthentication = query.contains("X-Amz-Algorithm");
        if (headerAuthentication && queryAuthentication) {
            throw SigV4Errors.foundBothHeaderAndQueryAuthentication();
        }
        if (!headerAuthentication && !queryAuthentication) {
            throw SigV4Errors.missingAuthenticationToken();
        }
        if (headerAuthentication && !authorization.strip().startsWith("AWS4-")) {
            throw SigV4Errors.missingAuthenticationToken();
        }
        SignatureParts parts = headerAuthentication
                ? SignatureParts.fromAuthorizationHeader(authorization, request)
                : SignatureParts.fromQuery(query);

        Instant requestTime = parseRequestTime(parts.requestTime());
        if (checkRequestTime) {
            checkRequestTime(parts.requestTime(), requestTime);
            if (parts.expiresSeconds() != SignatureParts.NO_EXPIRY
                    && clock.instant().isAfter(requestTime.plusSeconds(parts.expiresSeconds()))) {
                throw SigV4Errors.requestExpired();
            }
        }

        List<String> signedHeaders = parseSignedHeaders(parts.signedHeaders());
        if (!signedHeaders.contains("host") && !signedHeaders.contains(":authority")) {
            throw SigV4Errors.hostNotSigned();
        }
        if (checkSignedHeaders) {
            SignedHeaderRules.check(request, parts, signedHeaders);
        }
        if (!parts.algorithm().equals(ALGORITHM)) {
            throw SigV4Errors.unsupportedAlgorithm(parts.algorithm());
        }
        String[] scope = splitCredential(parts.credential());
        String accessKeyId = scope[0];
        String scopeDate = scope[1];
        String region = scope[2];
        checkScope(scopeDate, region, scope[3], scope[4], parts.requestTime());

        Credentials.AccessKey key = null;
        if (credentials != null) {
            key = credentials.accessKey(accessKeyId);
            if (key == null) {
                throw SigV4Errors.unrecognizedClient();
            }
        }
        return new Claim(query, parts, signedHeaders, accessKeyId, scopeDate, region, key);
    }

    /**
     * A temporary key's requests carry its token; a long-term key's carry none, since no key in
     * the store issued one. After the signature, as dynalite records DynamoDB's order.
     */
    private static void checkSessionToken(String keysToken, String requestToken) {
        boolean matches = keysToken == null
                ? requestToken == null
                : requestToken != null && Crypto.constantTimeEquals(keysToken, requestToken);
        if (!matches) {
            throw SigV4Errors.invalidSecurityToken();
        }
    }

    /** Exactly yyyyMMdd'T'HHmmss'Z', a real date and time, UTC. */
    static Instant parseRequestTime(String value) {
        if (value.length() != 16 || value.charAt(8) != 'T' || value.charAt(15) != 'Z'
                || !digits(value, 0, 8) || !digits(value, 9, 15)) {
            throw SigV4Errors.badDateFormat(value);
        }
        try {
            return LocalDateTime.of(number(value, 0, 4), number(value, 4, 6), number(value, 6, 8),
                    number(value, 9, 11), number(value, 11, 13), number(value, 13, 15))
                    .toInstant(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            throw SigV4Errors.badDateFormat(value);
        }
    }

    private void checkRequestTime(String written, Instant requestTime) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Instant earliest = now.minus(MAX_CLOCK_SKEW);
        Instant latest = now.plus(MAX_CLOCK_SKEW);
        if (requestTime.isBefore(earliest)) {
            throw SigV4Errors.signatureExpired(written, BASIC_FORMAT.format(earliest), BASIC_FORMAT.format(now));
        }
        if (requestTime.isAfter(latest)) {
            throw SigV4Errors.signatureNotYetCurrent(written, BASIC_FORMAT.format(latest), BASIC_FORMAT.format(now));
        }
    }

    /** Names split at ';', lowercased, empty ones dropped, order kept (signers send them sorted). */
    static List<String> parseSignedHeaders(String value) {
        List<String> names = new ArrayList<>(8);
        int start = 0;
        while (start <= value.length()) {
            int end = value.indexOf(';', start);
            if (end < 0) {
                end = value.length();
            }
            if (end > start) {
                names.add(value.substring(start, end).toLowerCase(Locale.ROOT));
            }
            start = end + 1;
        }
        return names;
    }

    /** keyid/date/region/service/terminator, trailing slashes ignored. */
    static String[] splitCredential(String credential) {
        int end = credential.length();
        while (end > 0 && credential.charAt(end - 1) == '/') {
            end--;
        }
        String[] parts = new String[5];
        int count = 0;
        int start = 0;
        while (true) {
            int slash = credential.indexOf('/', start);
            if (slash < 0 || slash >= end) {
                slash = end;
            }
            if (count == 5) {
                throw SigV4Errors.credentialNotFiveParts(credential);
            }
            parts[count++] = credential.substring(start, slash);
            if (slash == end) {
                break;
            }
            start = slash + 1;
        }
        if (count != 5) {
            throw SigV4Errors.credentialNotFiveParts(credential);
        }
        return parts;
    }

    private void checkScope(String scopeDate, String region, String scopeService, String terminator,
                            String requestTime) {
        StringBuilder wrong = new StringBuilder();
        if (!validRegion.test(region)) {
            wrong.append(SigV4Errors.scopeRegion(region));
        }
        if (!scopeService.equals(service)) {
            wrong.append(SigV4Errors.scopeService(service));
        }
        if (!terminator.equals(TERMINATOR)) {
            wrong.append(SigV4Errors.scopeTerminator(terminator));
        }
        if (!requestTime.startsWith(scopeDate) || scopeDate.length() != 8) {
            wrong.append(SigV4Errors.scopeDate(scopeDate, requestTime.substring(0, 8), requestTime));
        }
        if (!wrong.isEmpty()) {
            throw SigV4Errors.badCredentialScope(wrong.toString());
        }
    }

    private static boolean digits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static int number(String s, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            n = n * 10 + (s.charAt(i) - '0');
        }
        return n;
    }

    /** Settings for a {@link SigV4Authenticator}; the defaults make an anonymous one on the system clock. */
    public static final class Builder {
        private Credentials credentials;
        private Clock clock = Clock.systemUTC();
        private Boolean checkRequestTime;
        private String service = DYNAMODB_SERVICE;
        private Predicate<String> validRegion = region -> !region.isEmpty();

        private Builder() {}

        /** Verify signatures against these keys; null (the default) accepts any key. */
        public Builder credentials(Credentials credentials) {
            this.credentials = credentials;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Whether a request time more than {@link #MAX_CLOCK_SKEW} off the clock is rejected.
         * Default: yes when verifying, no when anonymous (DynamoDB Local does not check it, and
         * replayed or recorded requests should keep working against a local server).
         */
        public Builder checkRequestTime(boolean check) {
            this.checkRequestTime = check;
            return this;
        }

        /** The service name the credential scope must carry; "dynamodb" (DynamoDB Streams signs with it too). */
        public Builder service(String service) {
            this.service = Objects.requireNonNull(service, "service");
            return this;
        }

        /**
         * The one region a credential scope may name: the server's, as a DynamoDB endpoint serves
         * one region ("Credential should be scoped to a valid region, not 'us-east-2'. " is
         * DynamoDB's answer to a client signing for another, 3mcloud/falcano#47).
         */
        public Builder region(String region) {
            Objects.requireNonNull(region, "region");
            return validRegion(region::equals);
        }

        /** Which regions a credential scope may name; by default any non-empty name. */
        public Builder validRegion(Predicate<String> validRegion) {
            this.validRegion = Objects.requireNonNull(validRegion, "validRegion");
            return this;
        }

        /** Only these regions may be named in a credential scope. */
        public Builder regions(Collection<String> regions) {
            Set<String> allowed = Set.copyOf(regions);
            return validRegion(allowed::contains);
        }

        public SigV4Authenticator build() {
            return new SigV4Authenticator(this);
        }
    }
}
