package io.stator.bench;

import java.net.URI;

/** Where a server listens, and the region its requests are signed for. */
record Endpoint(String host, int port, String region) {

    static Endpoint parse(String url, String region) {
        URI uri = URI.create(url);
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("endpoint must look like http://127.0.0.1:8000, got " + url);
        }
        return new Endpoint(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort(), region);
    }

    static Endpoint local(int port) {
        return new Endpoint("127.0.0.1", port, "us-east-1");
    }

    String hostHeader() { return host + ":" + port; }

    @Override
    public String toString() { return "http://" + hostHeader(); }
}
