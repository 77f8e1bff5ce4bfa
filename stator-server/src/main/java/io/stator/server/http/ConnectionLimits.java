package io.stator.server.http;

import java.time.Duration;

/**
 * How long a connection may take at each step, and how many may be open at once. Each is a
 * command-line option; the defaults are chosen as follows.
 *
 * <ul>
 *   <li><b>idle timeout, 120 s</b>: how long a keep-alive connection may wait for its next
 *       request. DynamoDB does not document its own; clients report that it closes idle
 *       connections after about 60 s (aws-sdk-java#1365) to 90 s (feast-dev/feast#5167). What
 *       matters more is the clients' side: an SDK retires a pooled connection after its own idle
 *       limit (Java v2: 60 s, Go v2: 90 s; botocore keeps its connections until the server
 *       closes them, and checks each before reusing it). A server that closes first races a client
 *       sending on the same connection at that moment, which then sees a reset; closing only
 *       after the longest of these limits leaves the closing to the client.</li>
 *   <li><b>header timeout, 20 s</b>: from a request's first byte to the end of its headers, and
 *       for a new connection from its opening (so the TLS handshake counts too). SDKs send the
 *       headers in one write as soon as they connect; 20 s is Apache httpd's default
 *       (mod_reqtimeout, header=20) and leaves room for a few TCP retransmissions.</li>
 *   <li><b>body timeout, 60 s</b>: from the end of the headers to the end of the body. The
 *       largest body Stator takes is 16 MB (DynamoDB's limit), which arrives in 60 s at
 *       2.2 Mbit/s; a typical request (under 1 MB) needs only about 140 kbit/s.</li>
 *   <li><b>max connections, 10,000</b>: far above what SDK pools open (50 per client for the
 *       Java and JavaScript SDKs, 10 for botocore) times the clients of a test suite or a
 *       team's service, and below common limits on open files (the process needs some for
 *       its storage too).</li>
 * </ul>
 *
 * @param idleTimeout    a connection waiting for its next request is closed after this
 * @param headerTimeout  a request's headers must arrive within this
 * @param bodyTimeout    a request's body must arrive within this after its headers
 * @param maxConnections connections open at once; past it, see {@link Connections}
 */
public record ConnectionLimits(Duration idleTimeout, Duration headerTimeout, Duration bodyTimeout,
                               int maxConnections) {

    public static final ConnectionLimits DEFAULTS = new ConnectionLimits(Duration.ofSeconds(120),
            Duration.ofSeconds(20), Duration.ofSeconds(60), 10_000);

    public ConnectionLimits {
        for (Duration d : new Duration[] {idleTimeout, headerTimeout, bodyTimeout}) {
            if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("a timeout must be positive: " + d);
        }
        if (maxConnections < 1) throw new IllegalArgumentException("maxConnections must be at least 1");
    }

    public ConnectionLimits withIdleTimeout(Duration d) {
        return new ConnectionLimits(d, headerTimeout, bodyTimeout, maxConnections);
    }

    public ConnectionLimits withHeaderTimeout(Duration d) {
        return new ConnectionLimits(idleTimeout, d, bodyTimeout, maxConnections);
    }

    public ConnectionLimits withBodyTimeout(Duration d) {
        return new ConnectionLimits(idleTimeout, headerTimeout, d, maxConnections);
    }

    public ConnectionLimits withMaxConnections(int n) {
        return new ConnectionLimits(idleTimeout, headerTimeout, bodyTimeout, n);
    }
}
