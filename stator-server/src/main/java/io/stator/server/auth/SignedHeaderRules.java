package io.stator.server.auth;

import java.util.List;
import java.util.Locale;
import java.util.NavigableSet;

/**
 * Which headers a signature must cover, beyond Host. A signature proves only what it covers:
 * one that leaves X-Amz-Target out can be replayed, body and Authorization header unchanged,
 * under another action (a GetItem's signature deleting the item); one that leaves the request
 * time out can be replayed forever; an unsigned X-Amz-* header (a session token, a payload hash)
 * is a claim anyone on the way could have added. So, where signatures are verified:
 * <ol>
 * <li>the header the request time came from (X-Amz-Date, else Date), unless the time came from
 *     the query string, which the signature always covers;</li>
 * <li>X-Amz-Target, which chooses the action;</li>
 * <li>every other X-Amz-* header of the request.</li>
 * </ol>
 * Nothing else is required: Content-Type is covered by the AWS SDKs of today, but long-lived
 * SDKs sent it unsigned (aws-sdk-go 0.6 signed "accept-encoding;host;x-amz-date;x-amz-target",
 * underarmour/dynago#8) and DynamoDB accepted them. X-Amzn-Trace-Id, which every SDK leaves
 * unsigned on purpose, is not an X-Amz-* header. X-Amz-Security-Token is required like any
 * other X-Amz-* header although AWS's SigV4 test suite has a signer add it after signing
 * (post-sts-header-after), a form some AWS services take: every DynamoDB client found (botocore,
 * the AWS CLI, the Java SDK) signs it, and a temporary key is accepted only with its signed token.
 *
 * <p>AWS documents the rule (the canonical headers "must include" Host and every x-amz-* header
 * the request carries) but not DynamoDB's answer when it is broken; see
 * {@link SigV4Errors#headerNotSigned} for the text used and why. The first broken rule, in the
 * order above, is reported; among other X-Amz-* headers, the first in case-insensitive order.
 *
 * <p>Cost: a few comparisons per header name; no allocation unless a rule is broken.
 */
final class SignedHeaderRules {

    private static final String AMZ_PREFIX = "x-amz-";
    private static final String X_AMZ_TARGET = "X-Amz-Target";

    private SignedHeaderRules() {}

    /**
     * Throws DynamoDB's InvalidSignatureException for the first header {@code request} carries
     * that a signature covering {@code signedHeaders} (lower case, as parsed) must cover but
     * does not.
     */
    static void check(SignedRequest request, SignatureParts parts, List<String> signedHeaders) {
        String dateHeader = parts.dateHeader();
        if (dateHeader != null && !contains(signedHeaders, dateHeader)) {
            throw SigV4Errors.headerNotSigned(dateHeader);
        }
        NavigableSet<String> names = request.headerNames();
        if (names.contains(X_AMZ_TARGET) && !contains(signedHeaders, X_AMZ_TARGET)) {
            throw SigV4Errors.headerNotSigned(X_AMZ_TARGET);
        }
        // The set is ordered without regard to case, so the X-Amz-* names are neighbours from
        // the first one at or after the prefix: walked in place, nothing copied.
        for (String name = names.ceiling(AMZ_PREFIX); name != null && startsWithAmzPrefix(name);
                name = names.higher(name)) {
            if (!contains(signedHeaders, name)) {
                throw SigV4Errors.headerNotSigned(name.toLowerCase(Locale.ROOT));
            }
        }
    }

    private static boolean startsWithAmzPrefix(String name) {
        return name.regionMatches(true, 0, AMZ_PREFIX, 0, AMZ_PREFIX.length());
    }

    /** Whether {@code name}, in any case, is among the signed headers (which are lower case). */
    private static boolean contains(List<String> signedHeaders, String name) {
        for (int i = 0; i < signedHeaders.size(); i++) {
            if (signedHeaders.get(i).equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }
}
