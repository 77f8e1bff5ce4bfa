package io.stator.server.auth;

import java.util.List;
import java.util.Map;
import java.util.NavigableSet;

/**
 * The parts of an HTTP request that a SigV4 signature covers, as plain values: the HTTP layer
 * adapts its own request type to this (or copies into {@link #of}), and nothing from Netty
 * reaches the check.
 *
 * <p>Path and query are the raw, still percent-encoded text from the request line: the canonical
 * request is defined over what the client sent, so decoding them first would lose information.
 */
public interface SignedRequest {

    /** The HTTP method, e.g. "POST". */
    String method();

    /** The path of the request target exactly as received (percent-encoded, no query). */
    String rawPath();

    /** The query string exactly as received, without the '?'; empty when there is none. */
    String rawQuery();

    /**
     * The names of the request's headers, ordered without regard to case (so that all names
     * starting with one prefix are neighbours), each once, as first received. A view of the
     * request, not a copy: callers read it and never change it.
     */
    NavigableSet<String> headerNames();

    /**
     * Every value of the header {@code name}, matched case-insensitively, in arrival order;
     * an empty list when the header is absent. Never null.
     */
    List<String> headerValues(String name);

    /**
     * The lowercase hex SHA-256 of the body as received. Only asked for when a signature is
     * verified, so an implementation should compute it lazily. A client-sent
     * {@code x-amz-content-sha256} header is a claim, not a hash of what arrived: never return it
     * in place of hashing the body.
     */
    String payloadSha256();

    /** The first value of the header {@code name}, or null when absent. */
    default String firstHeader(String name) {
        List<String> values = headerValues(name);
        return values.isEmpty() ? null : values.get(0);
    }

    /**
     * The header {@code name} as one value: a header sent on several lines reads as its values
     * joined with ',' (RFC 9110 section 5.3), which is also what a signature covers of it (the
     * canonical request joins them so), so that a repeated header cannot mean one thing to the
     * signature and another to the check; null when absent.
     */
    default String header(String name) {
        List<String> values = headerValues(name);
        return values.isEmpty() ? null : values.size() == 1 ? values.get(0) : String.join(",", values);
    }

    /**
     * A request over the given values. Header names are matched case-insensitively; entries whose
     * names differ only in case are merged in map iteration order. The body is not copied and is
     * hashed at most once, on first need.
     */
    static SignedRequest of(String method, String rawPath, String rawQuery,
                            Map<String, ? extends List<String>> headers, byte[] body) {
        return new MapSignedRequest(method, rawPath, rawQuery, headers, body, null);
    }

    /** As {@link #of}, with the body's SHA-256 already computed by the caller (lowercase hex). */
    static SignedRequest withPayloadSha256(String method, String rawPath, String rawQuery,
                                           Map<String, ? extends List<String>> headers,
                                           String payloadSha256) {
        return new MapSignedRequest(method, rawPath, rawQuery, headers, null, payloadSha256);
    }

    /**
     * As {@link #of}, splitting a raw request target ("/path?query", as in the HTTP request
     * line) at its first '?'.
     */
    static SignedRequest ofTarget(String method, String rawTarget,
                                  Map<String, ? extends List<String>> headers, byte[] body) {
        int q = rawTarget.indexOf('?');
        return q < 0
                ? of(method, rawTarget, "", headers, body)
                : of(method, rawTarget.substring(0, q), rawTarget.substring(q + 1), headers, body);
    }
}
