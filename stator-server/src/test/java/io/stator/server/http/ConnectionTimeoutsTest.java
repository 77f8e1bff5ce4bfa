package io.stator.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.RawHttp.Request;
import io.stator.server.testing.SharedServer;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The three timeouts of a connection (idle between requests, headers, body), each on a server
 * where it alone is half a second (the others five), so that a client that holds a connection
 * without finishing what it started is cut off, however it trickles its bytes, and a client
 * within the limits is served. Bounds are generous: the server closes no earlier than its
 * timeout after the moment it measures from, and within a few seconds after.
 */
class ConnectionTimeoutsTest {

    private static final Duration SHORT = Duration.ofMillis(500);
    /** What the tests tolerate before calling a connection held open: ten times the timeout and more. */
    private static final Duration CLOSED_WITHIN = Duration.ofSeconds(10);
    /** How early a close may seem from the client's side (it starts its clock after the server). */
    private static final Duration NOT_BEFORE = Duration.ofMillis(250);

    private static final Duration LONG = Duration.ofSeconds(5);
    private static final ConnectionLimits PATIENT = ConnectionLimits.DEFAULTS
            .withIdleTimeout(LONG).withHeaderTimeout(LONG).withBodyTimeout(LONG);

    @RegisterExtension
    static final SharedServer shortIdle = new SharedServer(o -> o.withConnectionLimits(PATIENT.withIdleTimeout(SHORT)));

    @RegisterExtension
    static final SharedServer shortHeaders = new SharedServer(o -> o.withConnectionLimits(
            PATIENT.withHeaderTimeout(SHORT)));

    @RegisterExtension
    static final SharedServer shortBody = new SharedServer(o -> o.withConnectionLimits(PATIENT.withBodyTimeout(SHORT)));

    @RegisterExtension
    static final SharedServer lenient = new SharedServer(o -> o.withConnectionLimits(PATIENT));

    private static final Request HEALTH = new Request("GET", "/", Map.of(), new byte[0]);

    @Test
    void anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() {
        try (RawHttp connection = RawHttp.connect(shortIdle.port())) {
            assertEquals(200, connection.send(HEALTH).read().status());

            Duration closedAfter = connection.awaitClose(CLOSED_WITHIN);

            assertTrue(closedAfter.compareTo(NOT_BEFORE) >= 0, "closed after only " + closedAfter);
        }
    }

    @Test
    void aKeepAliveConnectionServesRequestsSpacedWithinTheIdleTimeout() {
        try (RawHttp connection = RawHttp.connect(lenient.port())) {
            for (int i = 0; i < 3; i++) {
                assertEquals(200, connection.send(Request.action("ListTables", "{}")).read().status());
                Eventually.sleep(1_000);
            }
            assertEquals(200, connection.send(HEALTH).read().status());
        }
    }

    @Test
    void aConnectionThatSendsNothingIsClosedAfterTheHeaderTimeout() {
        try (RawHttp connection = RawHttp.connect(shortHeaders.port())) {
            Duration closedAfter = connection.awaitClose(CLOSED_WITHIN);

            assertTrue(closedAfter.compareTo(NOT_BEFORE) >= 0, "closed after only " + closedAfter);
        }
    }

    @Test
    void headersTricklingInAreCutOffAtTheHeaderTimeoutThoughBytesKeepComing() throws Exception {
        try (RawHttp connection = RawHttp.connect(shortHeaders.port())) {
            connection.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
            // One byte every 50 ms: the connection is never quiet for long, which is what a
            // "no read for N seconds" timer would wait for.
            Thread trickle = trickle(connection);
            try {
                Duration closedAfter = connection.awaitClose(CLOSED_WITHIN);
                assertTrue(closedAfter.compareTo(NOT_BEFORE) >= 0, "closed after only " + closedAfter);
            } finally {
                trickle.interrupt();
                trickle.join();
            }
        }
    }

    @Test
    void aBodyTricklingInIsCutOffAtTheBodyTimeoutThoughBytesKeepComing() throws Exception {
        try (RawHttp connection = RawHttp.connect(shortBody.port())) {
            connection.writeHead("POST", "/", RawHttp.dummySignedHeaders("PutItem"), 100_000);
            Thread trickle = trickle(connection);
            try {
                Duration closedAfter = connection.awaitClose(CLOSED_WITHIN);
                assertTrue(closedAfter.compareTo(NOT_BEFORE) >= 0, "closed after only " + closedAfter);
            } finally {
                trickle.interrupt();
                trickle.join();
            }
        }
    }

    @Test
    void aRequestArrivingInPiecesWithinTheTimeoutsIsServed() {
        byte[] body = "{}".getBytes(StandardCharsets.US_ASCII);
        try (RawHttp connection = RawHttp.connect(lenient.port())) {
            StringBuilder head = new StringBuilder("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            RawHttp.dummySignedHeaders("ListTables").forEach((name, value) ->
                    head.append(name).append(": ").append(value).append("\r\n"));
            head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
            String whole = head.toString();
            int third = whole.length() / 3;
            for (String piece : new String[] {whole.substring(0, third), whole.substring(third, 2 * third),
                    whole.substring(2 * third)}) {
                connection.write(piece.getBytes(StandardCharsets.US_ASCII));
                Eventually.sleep(500);
            }
            connection.write(new byte[] {body[0]});
            Eventually.sleep(500);
            connection.write(new byte[] {body[1]});

            assertEquals(200, connection.read().status());
            // ...and the connection is kept for the next request.
            assertEquals(200, connection.send(HEALTH).read().status());
        }
    }

    /** Writes one byte every 50 ms until interrupted or the connection fails. */
    private static Thread trickle(RawHttp connection) {
        return Thread.ofVirtual().start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    connection.write(new byte[] {'a'});
                    Thread.sleep(50);
                }
            } catch (UncheckedIOException | InterruptedException e) {
                // closed by the server (what the test waits for), or the test is done
            }
        });
    }
}
