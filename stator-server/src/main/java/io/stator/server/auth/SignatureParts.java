package io.stator.server.auth;

/**
 * The signature fields of a request, from whichever carries them: the Authorization header
 * ({@code AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...} plus an X-Amz-Date
 * or Date header) or the query string (X-Amz-Algorithm, X-Amz-Credential, X-Amz-SignedHeaders,
 * X-Amz-Signature, X-Amz-Date). Parsing reports what is missing or malformed with DynamoDB's
 * texts; everything after that (date format, scope, signature) is the authenticator's.
 *
 * @param algorithm the algorithm as written: the header's first word, or X-Amz-Algorithm
 * @param credential "keyid/date/region/service/term", not yet split
 * @param signedHeaders the SignedHeaders value, not yet split (may be empty)
 * @param requestTime the X-Amz-Date (or Date) value, not yet parsed
 * @param dateHeader the header the request time came from, as DynamoDB's messages spell it
 *     ("X-Amz-Date" or "Date"); null when it came from the query string, which the signature
 *     always covers
 * @param securityToken the X-Amz-Security-Token, or null
 * @param queryAuthentication true when the fields came from the query string
 * @param expiresSeconds X-Amz-Expires (query string only), or {@link #NO_EXPIRY}
 */
record SignatureParts(String algorithm, String credential, String signature, String signedHeaders,
                      String requestTime, String dateHeader, String securityToken, boolean queryAuthentication,
                      int expiresSeconds) {

    static final String X_AMZ_DATE = "X-Amz-Date";
    static final String DATE = "Date";
    /** {@link #expiresSeconds} of a request that names no X-Amz-Expires. */
    static final int NO_EXPIRY = -1;
    /** The longest X-Amz-Expires: seven days, as long as a signing key lives. */
    static final int MAX_EXPIRES_SECONDS = 604_800;

    static SignatureParts fromAuthorizationHeader(String authorization, SignedRequest request) {
        String header = authorization.strip();
        int length = header.length();
        int i = 0;
        while (i < length && !isSeparator(header.charAt(i), false)) {
            i++;
        }
        String algorithm = header.substring(0, i);

        // Parameters are "key=value", separated by commas and/or whitespace; the last of a
        // repeated key wins; keys this check does not know are ignored, as AWS ignores them.
        String credential = null;
        String signature = null;
        String signedHeaders = null;
        while (i < length) {
            while (i < length && isSeparator(header.charAt(i), true)) {
                i++;
            }
            int start = i;
            while (i < length && !isSeparator(header.charAt(i), true)) {
                i++;
            }
            if (start == i) {
                break;
            }
            int eq = header.indexOf('=', start);
            if (eq < 0 || eq >= i) {
                throw SigV4Errors.notKeyValuePair(header.substring(start, i), header);
            }
            String key = header.substring(start, eq);
            String value = header.substring(eq + 1, i);
            switch (key) {
                case "Credential" -> credential = value;
                case "Signature" -> signature = value;
                case "SignedHeaders" -> signedHeaders = value;
                default -> { }
            }
        }

        String dateHeader = X_AMZ_DATE;
        String requestTime = nonEmpty(request.header(X_AMZ_DATE));
        if (requestTime == null) {
            dateHeader = DATE;
            requestTime = nonEmpty(request.header(DATE));
        }

        // A present but empty parameter counts as given: DynamoDB lets an empty SignedHeaders
        // through to the Host check (dynalite notes it), and AWS front ends answer
        // "Credential=..., SignedHeaders=, Signature=" with that check too.
        StringBuilder missing = new StringBuilder();
        if (credential == null) {
            missing.append(SigV4Errors.REQUIRES_CREDENTIAL);
        }
        if (signature == null) {
            missing.append(SigV4Errors.REQUIRES_SIGNATURE);
        }
        if (signedHeaders == null) {
            missing.append(SigV4Errors.REQUIRES_SIGNED_HEADERS);
        }
        if (requestTime == null) {
            missing.append(SigV4Errors.REQUIRES_DATE);
        }
        if (!missing.isEmpty()) {
            throw SigV4Errors.incompleteAuthorizationHeader(missing.toString(), header);
        }
        return new SignatureParts(algorithm, credential, signature, signedHeaders, requestTime, dateHeader,
                nonEmpty(request.header("X-Amz-Security-Token")), false, NO_EXPIRY);
    }

    static SignatureParts fromQuery(QueryParameters query) {
        String algorithm = nonEmpty(query.value("X-Amz-Algorithm"));
        String credential = nonEmpty(query.value("X-Amz-Credential"));
        String signature = nonEmpty(query.value("X-Amz-Signature"));
        String signedHeaders = nonEmpty(query.value("X-Amz-SignedHeaders"));
        String requestTime = nonEmpty(query.value("X-Amz-Date"));
        StringBuilder missing = new StringBuilder();
        if (algorithm == null) {
            missing.append(SigV4Errors.queryRequires("X-Amz-Algorithm"));
        }
        if (credential == null) {
            missing.append(SigV4Errors.queryRequires("X-Amz-Credential"));
        }
        if (signature == null) {
            missing.append(SigV4Errors.queryRequires("X-Amz-Signature"));
        }
        if (signedHeaders == null) {
            missing.append(SigV4Errors.queryRequires("X-Amz-SignedHeaders"));
        }
        if (requestTime == null) {
            missing.append(SigV4Errors.queryRequires("X-Amz-Date"));
        }
        if (!missing.isEmpty()) {
            throw SigV4Errors.incompleteQueryParameters(missing.toString());
        }
        // For the query form AWS answers an unknown algorithm as it answers a header that does
        // not start with "AWS4-": no authentication token at all (scratchstack's rule 7a).
        if (!algorithm.equals(SigV4Authenticator.ALGORITHM)) {
            throw SigV4Errors.missingAuthenticationToken();
        }
        // See SigV4Authenticator ("Signatures in the query string") for what X-Amz-Expires does.
        int expires = expiresSeconds(query.value("X-Amz-Expires"));
        return new SignatureParts(algorithm, credential, signature, signedHeaders, requestTime, null,
                nonEmpty(query.value("X-Amz-Security-Token")), true, expires);
    }

    /**
     * X-Amz-Expires: how many seconds after its request time a presigned request may be sent, 1
     * to 604,800 (seven days, a signing key's life), or {@link #NO_EXPIRY} when absent. A value
     * that is not a whole number, or out of that range, is refused with S3's texts (see
     * {@link SigV4Errors#expiresNotANumber}).
     */
    static int expiresSeconds(String value) {
        if (value == null) {
            return NO_EXPIRY;
        }
        int digits = value.startsWith("-") ? 1 : 0;
        if (value.length() == digits) {
            throw SigV4Errors.expiresNotANumber();
        }
        for (int i = digits; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                throw SigV4Errors.expiresNotANumber();
            }
        }
        if (digits == 1 || value.chars().allMatch(c -> c == '0')) {
            throw SigV4Errors.expiresNotPositive();
        }
        String significant = value.replaceFirst("^0+", "");
        if (significant.length() > 7 || Integer.parseInt(significant) > MAX_EXPIRES_SECONDS) {
            throw SigV4Errors.expiresBeyondAWeek();
        }
        return Integer.parseInt(significant);
    }

    private static boolean isSeparator(char c, boolean commaToo) {
        return c == ' ' || c == '\t' || (commaToo && c == ',');
    }

    private static String nonEmpty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
