package io.stator.server.testing;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A SigV4 signer written for tests from AWS's description of the algorithm, independent of the
 * server's code, that signs exactly the headers it is told to: what a hand-written or old client
 * does when it leaves a header out of SignedHeaders. The AWS SDKs sign every header they send, so
 * they cannot make such requests.
 *
 * <p>Only what DynamoDB requests need: header values are trimmed, not folded; names and values of
 * query parameters are encoded with SigV4's unreserved set.
 */
public final class ManualSigV4 {

    public static final DateTimeFormatter BASIC = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final String accessKeyId;
    private final String secret;
    private final String region;
    private final String service;

    public ManualSigV4(String accessKeyId, String secret, String region, String service) {
        this.accessKeyId = accessKeyId;
        this.secret = secret;
        this.region = region;
        this.service = service;
    }

    /** For DynamoDB in {@code region}. */
    public ManualSigV4(String accessKeyId, String secret, String region) {
        this(accessKeyId, secret, region, "dynamodb");
    }

    /**
     * Headers of a DynamoDB call to {@code port} on 127.0.0.1 at {@code at} (Host as {@link RawHttp}
     * sends it, Content-Type, X-Amz-Date, X-Amz-Target), before signing; add or remove some, then
     * sign with {@link #signHeaders}.
     */
    public static Map<String, String> dynamoDbHeaders(int port, String action, Instant at) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "127.0.0.1:" + port);
        headers.put("Content-Type", RawHttp.JSON_1_0);
        headers.put("X-Amz-Date", BASIC.format(at));
        headers.put("X-Amz-Target", "DynamoDB_20120810." + action);
        return headers;
    }

    /**
     * The Authorization header for a POST to / with {@code headers} (Host included) and
     * {@code body}, covering exactly {@code signedHeaders} (lower case); the time is the
     * X-Amz-Date header's, else the Date header's.
     */
    public String authorization(Map<String, String> headers, List<String> signedHeaders, String body) {
        return authorization(headers, signedHeaders, body.getBytes(StandardCharsets.UTF_8));
    }

    /** As {@link #authorization(Map, List, String)}, for a body of any bytes (a compressed one). */
    public String authorization(Map<String, String> headers, List<String> signedHeaders, byte[] body) {
        String time = header(headers, "x-amz-date");
        if (time == null) time = header(headers, "date");
        List<String> sorted = new ArrayList<>(signedHeaders);
        sorted.sort(null);
        String signature = signature("POST", "", headers, sorted, body, time);
        return "AWS4-HMAC-SHA256 Credential=" + accessKeyId + "/" + scope(time) + ", SignedHeaders="
                + String.join(";", sorted) + ", Signature=" + signature;
    }

    /**
     * A raw request for {@link RawHttp}: {@code headers} without Host (RawHttp writes it), plus
     * the Authorization header covering {@code signedHeaders}.
     */
    public RawHttp.Request signHeaders(Map<String, String> headers, List<String> signedHeaders, String body) {
        Map<String, String> sent = new LinkedHashMap<>(headers);
        sent.remove("Host");
        sent.put("Authorization", authorization(headers, signedHeaders, body));
        return RawHttp.Request.post(sent, body);
    }

    /**
     * A presigned POST: the signature and its parameters ({@code extraParameters} too, e.g.
     * X-Amz-Expires or X-Amz-Security-Token) in the query string, {@code headers} (Host
     * included) covered as far as {@code signedHeaders} says, the time {@code at}.
     */
    public RawHttp.Request presign(Map<String, String> headers, List<String> signedHeaders, String body, Instant at,
                                   Map<String, String> extraParameters) {
        String time = BASIC.format(at);
        List<String> sorted = new ArrayList<>(signedHeaders);
        sorted.sort(null);
        Map<String, String> parameters = new TreeMap<>();
        parameters.put("X-Amz-Algorithm", "AWS4-HMAC-SHA256");
        parameters.put("X-Amz-Credential", accessKeyId + "/" + scope(time));
        parameters.put("X-Amz-Date", time);
        parameters.put("X-Amz-SignedHeaders", String.join(";", sorted));
        parameters.putAll(extraParameters);
        StringBuilder query = new StringBuilder();
        parameters.forEach((name, value) -> {
            if (!query.isEmpty()) query.append('&');
            query.append(encode(name)).append('=').append(encode(value));
        });
        String signature = signature("POST", query.toString(), headers, sorted, body, time);
        Map<String, String> sent = new LinkedHashMap<>(headers);
        sent.remove("Host");
        return new RawHttp.Request("POST", "/?" + query + "&X-Amz-Signature=" + signature, sent,
                body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A GET of {@code path} with {@code parameters} (sent and signed in their order, which must be
     * SigV4's: sorted by name), signed at {@code at} with the Host and X-Amz-Date headers, to
     * 127.0.0.1:{@code port}: how a client signs a call to the advisor's read API.
     */
    public RawHttp.Request signGet(int port, String path, Map<String, String> parameters, Instant at) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "127.0.0.1:" + port);
        headers.put("X-Amz-Date", BASIC.format(at));
        StringBuilder query = new StringBuilder();
        parameters.forEach((name, value) -> {
            if (!query.isEmpty()) query.append('&');
            query.append(encode(name)).append('=').append(encode(value));
        });
        String time = BASIC.format(at);
        List<String> signed = List.of("host", "x-amz-date");
        String signature = signature("GET", path, query.toString(), headers, signed, new byte[0], time);
        Map<String, String> sent = new LinkedHashMap<>(headers);
        sent.remove("Host");
        sent.put("Authorization", "AWS4-HMAC-SHA256 Credential=" + accessKeyId + "/" + scope(time)
                + ", SignedHeaders=host;x-amz-date, Signature=" + signature);
        return new RawHttp.Request("GET", path + (query.isEmpty() ? "" : "?" + query), sent, new byte[0]);
    }

    private String scope(String time) {
        return time.substring(0, 8) + "/" + region + "/" + service + "/aws4_request";
    }

    private String signature(String method, String canonicalQuery, Map<String, String> headers,
                             List<String> sortedSignedHeaders, String body, String time) {
        return signature(method, canonicalQuery, headers, sortedSignedHeaders, body.getBytes(StandardCharsets.UTF_8), time);
    }

    private String signature(String method, String canonicalQuery, Map<String, String> headers,
                             List<String> sortedSignedHeaders, byte[] body, String time) {
        return signature(method, "/", canonicalQuery, headers, sortedSignedHeaders, body, time);
    }

    private String signature(String method, String path, String canonicalQuery, Map<String, String> headers,
                             List<String> sortedSignedHeaders, byte[] body, String time) {
        StringBuilder canonical = new StringBuilder();
        canonical.append(method).append('\n').append(path).append('\n').append(canonicalQuery).append('\n');
        for (String name : sortedSignedHeaders) {
            String value = header(headers, name);
            canonical.append(name).append(':').append(value == null ? "" : value.strip()).append('\n');
        }
        canonical.append('\n').append(String.join(";", sortedSignedHeaders)).append('\n')
                .append(hex(sha256(body)));
        String stringToSign = "AWS4-HMAC-SHA256\n" + time + "\n" + scope(time) + "\n"
                + hex(sha256(canonical.toString().getBytes(StandardCharsets.UTF_8)));
        byte[] key = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), time.substring(0, 8));
        key = hmac(key, region);
        key = hmac(key, service);
        key = hmac(key, "aws4_request");
        return hex(hmac(key, stringToSign));
    }

    private static String header(Map<String, String> headers, String lowerCaseName) {
        for (Map.Entry<String, String> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(lowerCaseName)) return e.getValue();
        }
        return null;
    }

    private static String encode(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~') {
                sb.append(c);
            } else {
                sb.append('%').append(String.format("%02X", b & 0xFF));
            }
        }
        return sb.toString();
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
