package io.stator.server.replication;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How regions prove a message is from a peer: an HMAC-SHA256, under the deployment's shared
 * secret, of the message's name, the sending region, the time it was sent and its body's SHA-256.
 * A message older or newer than {@link #WINDOW_MILLIS} is refused, so a recorded one cannot be
 * played back later.
 */
final class PeerSignatures {

    static final String REGION = "x-stator-region";
    static final String TIMESTAMP = "x-stator-timestamp";
    static final String SIGNATURE = "x-stator-signature";
    static final long WINDOW_MILLIS = 5 * 60_000;

    private final byte[] secret;

    PeerSignatures(String secret) {
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
    }

    String sign(String message, String fromRegion, long timestampMillis, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            String canonical = message + "\n" + fromRegion + "\n" + timestampMillis + "\n"
                    + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
            return HexFormat.of().formatHex(mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether the signature is this secret's for that message, sent within the window of {@code nowMillis}. */
    boolean verify(String message, String fromRegion, String timestamp, byte[] body, String signature, long nowMillis) {
        if (fromRegion == null || timestamp == null || signature == null) return false;
        long sent;
        try {
            sent = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(nowMillis - sent) > WINDOW_MILLIS) return false;
        return MessageDigest.isEqual(sign(message, fromRegion, sent, body).getBytes(StandardCharsets.UTF_8),
                signature.getBytes(StandardCharsets.UTF_8));
    }
}
