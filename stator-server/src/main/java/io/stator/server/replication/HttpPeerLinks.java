package io.stator.server.replication;

import io.stator.engine.replication.PeerLinks;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The engine's {@link PeerLinks} over HTTP: each message a signed POST to the peer's
 * {@code /_stator/replication/v1/<message>} ({@link ReplicationEndpoint}), with short timeouts
 * so that a paused or dead region only delays the work meant for it. The same to another server of
 * this region, at the endpoint it registered (several servers sharing the region's store).
 */
final class HttpPeerLinks implements PeerLinks {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final String region;
    private final Map<String, URI> peers;
    private final PeerSignatures signatures;
    private final Clock clock;
    private final ReplicationFaults faults;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT).build();

    HttpPeerLinks(String region, Map<String, URI> peers, PeerSignatures signatures, Clock clock, ReplicationFaults faults) {
        this.region = region;
        this.peers = peers;
        this.signatures = signatures;
        this.clock = clock;
        this.faults = faults;
    }

    @Override
    public Set<String> regions() {
        return peers.keySet();
    }

    @Override
    public byte[] send(String peer, String message, byte[] body) throws IOException {
        URI base = peers.get(peer);
        if (base == null) throw new IOException("no peer region " + peer);
        if (faults.drops(peer)) throw new IOException("dropped by the fault hook: " + message + " to " + peer);
        long delay = faults.delayMillis(peer);
        if (delay > 0) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        return post(peer, base, message, body);
    }

    @Override
    public byte[] sendToServer(String endpoint, String message, byte[] body) throws IOException {
        URI base;
        try {
            base = URI.create(endpoint);
        } catch (IllegalArgumentException e) {
            throw new IOException("not a server's endpoint: " + endpoint, e);
        }
        return post(endpoint, base, message, body);
    }

    private byte[] post(String to, URI base, String message, byte[] body) throws IOException {
        try {
            long now = clock.millis();
            HttpRequest request = HttpRequest.newBuilder(base.resolve(ReplicationEndpoint.PREFIX + message))
                    .timeout(REQUEST_TIMEOUT)
                    .header(PeerSignatures.REGION, region)
                    .header(PeerSignatures.TIMESTAMP, Long.toString(now))
                    .header(PeerSignatures.SIGNATURE, signatures.sign(message, region, now, body))
                    .header("content-type", "application/octet-stream")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() == 200) return response.body();
            String text = new String(response.body(), StandardCharsets.UTF_8);
            int colon = text.indexOf(": ");
            if (response.statusCode() == 400 && colon > 0) {
                throw new Refused(text.substring(0, colon), text.substring(colon + 2));
            }
            throw new IOException(to + " answered " + response.statusCode() + ": " + text);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
