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
 */
record SignatureParts(String algorithm, String credential, String signature, String signedHeaders,
                      String requestTime, String dateHeader, String securityToken, boolean queryAuthentication) {

    static final String X_AMZ_DATE = "X-Amz-Date";
    static final String DATE = "Date";

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
        String requestTime = nonEmpty(request.firstHeader(X_AMZ_DATE));
        if (requestTime == null) {
            dateHeader = DATE;
            requestTime = nonEmpty(request.firstHeader(DATE));
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
                nonEmpty(request.firstHeader("X-Amz-Security-Token")), false);
    }

    static SignatureParts fromQuery(QueryParameters query) {
        String algorithm = nonEmpty(query.first("X-Amz-Algorithm"));
        String credential = nonEmpty(query.first("X-Amz-Credential"));
        String signature = nonEmpty(query.first("X-Amz-Signature"));
        String signedHeaders = nonEmpty(query.first("X-Amz-SignedHeaders"));
        String requestTime = nonEmpty(query.first("X-Amz-Date"));
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
        // X-Amz-Expires, when present, is part of the signed query and otherwise ignored: the
        // request time must be within 15 minutes of the server clock, as in the header form. See
        // SigV4Authenticator ("Signatures in the query string").
        return new SignatureParts(algorithm, credential, signature, signedHeaders, requestTime, null,
                nonEmpty(query.first("X-Amz-Security-Token")), true);
    }

    private static boolean isSeparator(char c, boolean commaToo) {
        return c == ' ' || c == '\t' || (commaToo && c == ',');
    }

    private static String nonEmpty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
