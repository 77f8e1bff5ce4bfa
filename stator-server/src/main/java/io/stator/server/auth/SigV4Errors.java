package io.stator.server.auth;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;

/**
 * DynamoDB's authentication errors, with its exact texts (trailing spaces included: the service
 * builds several of these by appending "sentence. " fragments and sends them untrimmed).
 *
 * <p>Sources, as each factory notes: the responses captured from DynamoDB in dynalite's
 * {@code index.js} and {@code test/connection.js} (whose tests also run against DynamoDB itself);
 * DynamoDB error responses quoted in public client issue trackers; and, where DynamoDB's own
 * capture is missing, the scratchstack-aws-signature test suite, which reproduces the AWS
 * front end's error ordering and texts.
 */
final class SigV4Errors {

    private SigV4Errors() {}

    /** dynalite index.js and test/connection.js (no header; header not starting "AWS4-"). */
    static DynamoDbException missingAuthenticationToken() {
        return new DynamoDbException(ErrorType.MISSING_AUTHENTICATION_TOKEN,
                "Request is missing Authentication Token");
    }

    /** dynalite index.js. */
    static DynamoDbException foundBothHeaderAndQueryAuthentication() {
        return new DynamoDbException(ErrorType.INVALID_SIGNATURE,
                "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.");
    }

    /**
     * A parameter of the Authorization header without '=': the DynamoDB response quoted in
     * dynalite's index.js ("'Credential' not a valid key=value pair (missing equal-sign) in
     * Authorization header: '...'").
     */
    static DynamoDbException notKeyValuePair(String token, String authorization) {
        return new DynamoDbException(ErrorType.INCOMPLETE_SIGNATURE, "'" + token
                + "' not a valid key=value pair (missing equal-sign) in Authorization header: '"
                + authorization + "'");
    }

    /**
     * Missing Authorization parameters or date headers: dynalite's fragments, then the whole
     * header as received. dynalite's suite, run against DynamoDB, answers
     * "AWS4- Signature=b Credential=a" with "... Authorization=AWS4- Signature=b Credential=a",
     * and other AWS front ends quote the whole header the same way (API Gateway echoing a bearer
     * token in aws/chalice#828, SES in brendanhay/amazonka#316).
     */
    static DynamoDbException incompleteAuthorizationHeader(String missingFragments, String authorization) {
        return new DynamoDbException(ErrorType.INCOMPLETE_SIGNATURE,
                missingFragments + "Authorization=" + authorization);
    }

    static final String REQUIRES_CREDENTIAL = "Authorization header requires 'Credential' parameter. ";
    static final String REQUIRES_SIGNATURE = "Authorization header requires 'Signature' parameter. ";
    static final String REQUIRES_SIGNED_HEADERS = "Authorization header requires 'SignedHeaders' parameter. ";
    static final String REQUIRES_DATE =
            "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ";

    /** dynalite index.js: "AWS query-string parameters must include 'X'. " per missing one. */
    static DynamoDbException incompleteQueryParameters(String missingFragments) {
        return new DynamoDbException(ErrorType.INCOMPLETE_SIGNATURE,
                missingFragments + "Re-examine the query-string parameters.");
    }

    static String queryRequires(String parameter) {
        return "AWS query-string parameters must include '" + parameter + "'. ";
    }

    /** dynalite index.js (DynamoDB's response to X-Amz-Date: 201). */
    static DynamoDbException badDateFormat(String date) {
        return new DynamoDbException(ErrorType.INCOMPLETE_SIGNATURE, "Date must be in ISO-8601 'basic format'. Got '"
                + date + "'. See http://en.wikipedia.org/wiki/ISO_8601");
    }

    /**
     * dynalite index.js, and DynamoDB PutItem errors quoted by aws-sdk-go users as late as 2024
     * ("Signature expired: 20240805T055512Z is now earlier than 20240805T061917Z (20240805T063417Z
     * - 15 min.)").
     */
    static DynamoDbException signatureExpired(String requestTime, String earliest, String now) {
        return new DynamoDbException(ErrorType.INVALID_SIGNATURE, "Signature expired: " + requestTime
                + " is now earlier than " + earliest + " (" + now + " - 15 min.)");
    }

    /**
     * The AWS front end's text for a request dated in the future, as AWS services return it
     * ("Signature not yet current: ... is still later than ... (... + 5 min.)") and as
     * scratchstack's tests pin it with DynamoDB's 15-minute window.
     */
    static DynamoDbException signatureNotYetCurrent(String requestTime, String latest, String now) {
        return new DynamoDbException(ErrorType.INVALID_SIGNATURE, "Signature not yet current: " + requestTime
                + " is still later than " + latest + " (" + now + " + 15 min.)");
    }

    /**
     * dynalite's 2013 capture reads "'Host' must be a 'SignedHeader' in the AWS Authorization.";
     * the AWS front end has since named HTTP/2's pseudo-header too, as current AWS responses
     * (aws-sdk-php #2469, opensearch-php #248) and scratchstack show. The current text is used.
     */
    static DynamoDbException hostNotSigned() {
        return new DynamoDbException(ErrorType.INVALID_SIGNATURE,
                "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
    }

    /**
     * A header the signature must cover but does not: the request time's header, X-Amz-Target,
     * or another X-Amz-* header. DynamoDB's own answer to these is not on record: the only
     * DynamoDB capture (dynalite's, 2013) shows a request signing "host" alone reaching the
     * signature check. The text follows AWS's Host rule above with the header's name in its
     * place, as scratchstack-aws-signature words every header its services require
     * ("'Content-Type' must be ...", "'x-amz-request-id' must be ..."), under the same type.
     * {@code name} is spelled as DynamoDB's other messages spell it ('X-Amz-Date', 'Date',
     * 'X-Amz-Target'), and in lower case for any other X-Amz-* header, as scratchstack does.
     */
    static DynamoDbException headerNotSigned(String name) {
        return new DynamoDbException(ErrorType.INVALID_SIGNATURE,
                "'" + name + "' must be a 'SignedHeader' in the AWS Authorization.");
    }

    /**
     * X-Amz-Expires that is not a whole number. DynamoDB's own answers about X-Amz-Expires are not
     * on record (AWS's front end outside S3 is documented to ignore it: aws/aws-sdk-go#2167,
     * kubernetes-sigs/aws-iam-authenticator#258); these are S3's texts for the same mistakes
     * (its AuthorizationQueryParametersError, quoted from S3 in bryanjos/aws_auth#31 and kept by
     * MinIO's S3 error table), under the type DynamoDB gives a malformed signature parameter.
     */
    static DynamoDbException expiresNotANumber() {
        return new DynamoDbException(ErrorType.INCOMPLETE_SIGNATURE, "X-Amz-Expires should be a number");
    }

    /** X-Amz-Expires of zero or less: S3's text (see {@link #expiresNotANumber}). */
    static DynamoDbException expiresNotPositive() {
        return new DynamoDbException(ErrorType.INCOMPLETE_SIGNATURE, "X-Amz-Expires must be non-negative");
    }

    /** X-Amz-Expires past seven days: S3's text (see {@link #expiresNotANumber}). */
    static DynamoDbException expiresBeyondAWeek() {
        return new DynamoDbException(ErrorType.INCOMPLETE_SIGNATURE, "X-Amz-Expires must be less than a week "
                + "(in seconds); that is, the given X-Amz-Expires must be less than 604800 seconds");
    }

    /**
     * A presigned request sent after its X-Amz-Expires ran out: S3's words for it ("Request has
     * expired", aws/aws-sdk-js#3493), under the type DynamoDB gives an expired signature.
     */
    static DynamoDbException requestExpired() {
        return new DynamoDbException(ErrorType.INVALID_SIGNATURE, "Request has expired");
    }

    /** dynalite index.js, trailing space included. */
    static DynamoDbException unsupportedAlgorithm(String algorithm) {
        return new DynamoDbException(ErrorType.INCOMPLETE_SIGNATURE, "Unsupported AWS 'algorithm': '"
                + algorithm + "' (only AWS4-HMAC-SHA256 for now). ");
    }

    /** dynalite index.js. */
    static DynamoDbException credentialNotFiveParts(String credential) {
        return new DynamoDbException(ErrorType.INCOMPLETE_SIGNATURE,
                "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '"
                        + credential + "'");
    }

    /**
     * Wrong credential scope: the fragments, in this order, from dynalite index.js. A DynamoDB
     * response quoted in arnemolland/sigv4#15 (2020) shows the trailing space after a fragment
     * ("Credential should be scoped to correct service: 'dynamodb'. ").
     */
    static DynamoDbException badCredentialScope(String fragments) {
        return new DynamoDbException(ErrorType.INVALID_SIGNATURE, fragments);
    }

    static String scopeRegion(String region) {
        return "Credential should be scoped to a valid region, not '" + region + "'. ";
    }

    static String scopeService(String expectedService) {
        return "Credential should be scoped to correct service: '" + expectedService + "'. ";
    }

    static String scopeTerminator(String terminator) {
        return "Credential should be scoped with a valid terminator: 'aws4_request', not '" + terminator + "'. ";
    }

    static String scopeDate(String scopeDate, String requestDate, String requestTime) {
        return "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '"
                + scopeDate + "' != '" + requestDate + "', from '" + requestTime + "'.";
    }

    /** dynalite index.js. */
    static DynamoDbException unrecognizedClient() {
        return new DynamoDbException(ErrorType.UNRECOGNIZED_CLIENT,
                "The security token included in the request is invalid.");
    }

    /**
     * An X-Amz-Security-Token that is not the key's (dynalite index.js: DynamoDB omits the period
     * here), or none for a temporary key: PynamoDB/PynamoDB#603 quotes DynamoDB's answer to a
     * temporary key sent without its token, "UnrecognizedClientException ... The security token
     * included in the request is invalid", the same text.
     */
    static DynamoDbException invalidSecurityToken() {
        return new DynamoDbException(ErrorType.UNRECOGNIZED_CLIENT,
                "The security token included in the request is invalid");
    }

    /**
     * Without the canonical request and string to sign that DynamoDB appended until about 2015
     * (dynalite's 2013 capture; boto#1552): DynamoDB responses quoted since then carry this
     * sentence alone (php-simple-amazon-dynamodb#1, 2016, reports it as a 178-character string;
     * ionic-team/starters#48, 2018; boto3#482), as does scratchstack. Echoing the canonical
     * request would also hand a prober the server's view of the request.
     */
    static DynamoDbException signatureMismatch() {
        return new DynamoDbException(ErrorType.INVALID_SIGNATURE,
                "The request signature we calculated does not match the signature you provided. "
                        + "Check your AWS Secret Access Key and signing method. "
                        + "Consult the service documentation for details.");
    }
}
