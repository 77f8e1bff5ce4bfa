package io.stator.server.auth;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SigV4 signing keys, derived by the HMAC chain
 * {@code HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request")} and
 * cached: a key changes only once a day per (secret, region, service), and deriving it costs four
 * HMACs against the one that signs the request.
 *
 * <p>The cache is bounded because its keys come partly from the request: a client that knows an
 * access key id but not its secret could otherwise grow it with made-up regions. Past the bound it
 * is simply emptied; a legitimate working set (keys x regions for today and yesterday) is tiny.
 */
final class SigningKeys {

    static final int MAX_ENTRIES = 4096;

    private record Scope(String secret, String date, String region, String service) {}

    private final ConcurrentHashMap<Scope, byte[]> cache = new ConcurrentHashMap<>();

    byte[] signingKey(String secret, String date, String region, String service) {
        Scope scope = new Scope(secret, date, region, service);
        byte[] key = cache.get(scope);
        if (key == null) {
            key = derive(secret, date, region, service);
            if (cache.size() >= MAX_ENTRIES) {
                cache.clear();
            }
            cache.put(scope, key);
        }
        return key;
    }

    static byte[] derive(String secret, String date, String region, String service) {
        byte[] kDate = Crypto.hmacSha256(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
        byte[] kRegion = Crypto.hmacSha256(kDate, region);
        byte[] kService = Crypto.hmacSha256(kRegion, service);
        return Crypto.hmacSha256(kService, "aws4_request");
    }

    int size() {
        return cache.size();
    }
}
