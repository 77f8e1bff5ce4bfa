package io.stator.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * SHA-256 and HMAC-SHA256 with one {@link MessageDigest} and one {@link Mac} per thread: getting
 * either from the JCA provider costs more than hashing a typical DynamoDB request, and neither is
 * thread-safe, so they are reused per (event-loop) thread rather than created per request.
 */
final class Crypto {

    private static final HexFormat HEX = HexFormat.of();

    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    });

    private static final ThreadLocal<Mac> HMAC_SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every Java platform", e);
        }
    });

    private Crypto() {}

    static byte[] sha256(byte[] data) {
        MessageDigest digest = SHA256.get();
        digest.reset();
        return digest.digest(data);
    }

    static byte[] hmacSha256(byte[] key, String data) {
        return hmacSha256(key, data.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] hmacSha256(byte[] key, byte[] data) {
        Mac mac = HMAC_SHA256.get();
        try {
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("an HMAC key of any length is valid", e);
        }
        return mac.doFinal(data);
    }

    /**
     * Whether two secrets (a signature, a session token) are equal, in a time that depends on
     * their length only, so that timing tells a prober nothing of how much of a guess was right;
     * unlike {@link MessageDigest#isEqual}, without copying them to bytes first.
     */
    static boolean constantTimeEquals(String a, String b) {
        if (a.length() != b.length()) {
            return false;
        }
        int difference = 0;
        for (int i = 0; i < a.length(); i++) {
            difference |= a.charAt(i) ^ b.charAt(i);
        }
        return difference == 0;
    }

    /** Lowercase hex, as SigV4 writes every hash and signature. */
    static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }
}
