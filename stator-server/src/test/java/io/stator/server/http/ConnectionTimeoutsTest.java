package io.stator.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.RawHttp.Request;
import io.stator.server.testing.RawHttp.Response;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
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

    /** Every timeout short. */
    @RegisterExtension
    static final SharedServer strict = new SharedServer(o -> o.withConnectionLimits(ConnectionLimits.DEFAULTS
            .withIdleTimeout(SHORT).withHeaderTimeout(SHORT).withBodyTimeout(SHORT)));

    /** On {@link #strict} and {@link #shortIdle}: a table whose writes take 1.5 s (a change-log consumer holds them). */
    private static final String SLOW_TABLE = StatorTestServer.tableName();
    private static final long SLOW_WRITE_MILLIS = 1_500;

    @BeforeAll
    static void makeWritesToTheSlowTableSlow() {
        // The first connection of a JVM loads the HTTP classes on the server's side, which may
        // take longer than half a second on a busy machine: a lenient server pays for that.
        assertEquals(200, RawHttp.exchange(lenient.port(), Request.action("ListTables", "{}")).status());
        String create = "{\"TableName\": \"" + SLOW_TABLE + "\", \"BillingMode\": \"PAY_PER_REQUEST\", "
                + "\"AttributeDefinitions\": [{\"AttributeName\": \"id\", \"AttributeType\": \"S\"}], "
                + "\"KeySchema\": [{\"AttributeName\": \"id\", \"KeyType\": \"HASH\"}]}";
        for (SharedServer server : List.of(strict, shortIdle)) {
            // In one write right after connecting: a new connection has half a second for its request.
            Response created = RawHttp.exchange(server.port(), Request.action("CreateTable", create));
            assertEquals(200, created.status(), created::toString);
            server.engine().changeLog().register((batch, change) -> {
                if (change.table().name().equals(SLOW_TABLE)) Eventually.sleep(SLOW_WRITE_MILLIS);
            });
        }
    }

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
            assertClosedWhileTrickling(connection);
        }
    }

    @Test
    void aBodyTricklingInIsCutOffAtTheBodyTimeoutThoughBytesKeepComing() throws Exception {
        try (RawHttp connection = RawHttp.connect(shortBody.port())) {
            connection.writeHead("POST", "/", RawHttp.dummySignedHeaders("PutItem"), 100_000);
            assertClosedWhileTrickling(connection);
        }
    }

    /** Keeps a byte coming every 50 ms, and expects the server to close the connection, but not too soon. */
    private static void assertClosedWhileTrickling(RawHttp connection) throws Exception {
        Thread trickle = trickle(connection);
        try {
            Duration closedAfter = connection.awaitClose(CLOSED_WITHIN);
            assertTrue(closedAfter.compareTo(NOT_BEFORE) >= 0, "closed after only " + closedAfter);
        } finally {
            trickle.interrupt();
            trickle.join();
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

    @Test
    void aRequestTakingLongerThanEveryTimeoutIsAnsweredTheServersTimeIsNotTheClients() {
        String put = "{\"TableName\": \"" + SLOW_TABLE + "\", \"Item\": {\"id\": {\"S\": \"a\"}}}";
        try (RawHttp connection = RawHttp.connect(strict.port())) {
            long start = System.nanoTime();
            assertEquals(200, connection.send(Request.action("PutItem", put)).read().status());

            assertTrue(System.nanoTime() - start >= SLOW_WRITE_MILLIS * 1_000_000, "the write was not slow");
            // Idle from the reply on.
            connection.awaitClose(CLOSED_WITHIN);
        }
    }

    @Test
    void aHundredContinueIsNotTheReplyTheRequestIsOwed() {
        byte[] put = ("{\"TableName\": \"" + SLOW_TABLE + "\", \"Item\": {\"id\": {\"S\": \"b\"}}}")
                .getBytes(StandardCharsets.UTF_8);
        try (RawHttp connection = RawHttp.connect(shortIdle.port())) {
            Map<String, String> headers = RawHttp.dummySignedHeaders("PutItem");
            headers.put("Expect", "100-continue");
            connection.writeHead("POST", "/", headers, put.length);
            assertEquals(100, connection.read().status());
            connection.write(put);

            // Were the 100 the reply, the connection would count as idle while the write runs.
            assertEquals(200, connection.read().status());
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
