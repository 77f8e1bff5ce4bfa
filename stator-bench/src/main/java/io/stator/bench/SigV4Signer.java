package io.stator.bench;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs DynamoDB requests with AWS Signature Version 4, correctly, so the generator works against
 * any server that checks signatures (Stator with --credentials, DynamoDB itself) as well as those
 * that only look at their form (dynalite, moto, Stator's default).
 *
 * <p>Why the request time is fixed per signer: a workload pre-signs its requests once and replays
 * them for seconds, well within the 15 minutes of clock skew servers allow. The signing key
 * depends only on that date, so it is derived once; a signature then costs two SHA-256 digests
 * and one HMAC. Not thread-safe (it reuses its digest and MAC): one signer per thread.
 */
final class SigV4Signer {

    static final String CONTENT_TYPE = "application/x-amz-json-1.0";
    private static final String SIGNED_HEADERS = "content-type;host;x-amz-date;x-amz-target";
    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final String accessKey;
    private final String amzDate;
    private final String scope;
    private final MessageDigest sha256;
    private final Mac hmac;

    SigV4Signer(Credentials credentials, String region, Instant now) {
        this.accessKey = credentials.accessKey();
        this.amzDate = AMZ_DATE.format(now);
        String day = amzDate.substring(0, 8);
        this.scope = day + "/" + region + "/dynamodb/aws4_request";
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
            this.hmac = Mac.getInstance("HmacSHA256");
            byte[] key = ("AWS4" + credentials.secretKey()).getBytes(StandardCharsets.UTF_8);
            for (String part : new String[] {day, region, "dynamodb", "aws4_request"}) key = hmac(key, part);
            hmac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks SHA-256 or HmacSHA256", e);
        }
    }

    String amzDate() { return amzDate; }

    /** The value of the Authorization header for a POST to {@code /} with these headers and body. */
    String authorization(String host, String target, byte[] body) {
        String canonicalRequest = "POST\n/\n\n"
                + "content-type:" + CONTENT_TYPE + "\n"
                + "host:" + host + "\n"
                + "x-amz-date:" + amzDate + "\n"
                + "x-amz-target:" + target + "\n\n"
                + SIGNED_HEADERS + "\n"
                + hex(sha256.digest(body));
        String stringToSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n"
                + hex(sha256.digest(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        String signature = hex(hmac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        return "AWS4-HMAC-SHA256 Credential=" + accessKey + "/" + scope + ", SignedHeaders=" + SIGNED_HEADERS
                + ", Signature=" + signature;
    }

    private static byte[] hmac(byte[] key, String data) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    private static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(out);
    }

    /** An access key pair; servers in their default modes accept any. */
    record Credentials(String accessKey, String secretKey) {
        static final Credentials BENCH = new Credentials("AKIDSTATORBENCH", "stator-bench-secret");
    }
}
