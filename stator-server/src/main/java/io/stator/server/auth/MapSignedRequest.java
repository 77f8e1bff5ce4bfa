package io.stator.server.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.TreeMap;

/** {@link SignedRequest} over a copied, case-insensitive header map; see the factories there. */
final class MapSignedRequest implements SignedRequest {

    private final String method;
    private final String rawPath;
    private final String rawQuery;
    private final TreeMap<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final byte[] body;
    private volatile String payloadSha256;

    MapSignedRequest(String method, String rawPath, String rawQuery,
                     Map<String, ? extends List<String>> headers, byte[] body, String payloadSha256) {
        this.method = Objects.requireNonNull(method, "method");
        this.rawPath = rawPath == null ? "" : rawPath;
        this.rawQuery = rawQuery == null ? "" : rawQuery;
        for (Map.Entry<String, ? extends List<String>> e : headers.entrySet()) {
            this.headers.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
        }
        if (body == null && payloadSha256 == null) {
            body = new byte[0];
        }
        this.body = body;
        this.payloadSha256 = payloadSha256;
    }

    @Override public String method() { return method; }

    @Override public String rawPath() { return rawPath; }

    @Override public String rawQuery() { return rawQuery; }

    @Override
    public NavigableSet<String> headerNames() {
        // A view the map keeps: asking for it costs nothing per request.
        return headers.navigableKeySet();
    }

    @Override
    public List<String> headerValues(String name) {
        List<String> values = headers.get(name);
        return values == null ? List.of() : values;
    }

    @Override
    public String payloadSha256() {
        String hash = payloadSha256;
        if (hash == null) {
            hash = Crypto.hex(Crypto.sha256(body));
            payloadSha256 = hash;
        }
        return hash;
    }
}
