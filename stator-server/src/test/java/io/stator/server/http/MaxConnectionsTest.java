package io.stator.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.RawHttp.Request;
import io.stator.server.testing.StatorTestServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --max-connections}: at the limit, a new connection takes the place of the one that has
 * waited longest for a request (as nginx reuses its idle connections when it runs out), and is
 * refused only when every open connection is in the middle of a request.
 */
class MaxConnectionsTest {

    private static final Request HEALTH = new Request("GET", "/", Map.of(), new byte[0]);
    private static final Duration CLOSED_WITHIN = Duration.ofSeconds(10);
    /** Time for the server to have read what a client just wrote (it takes microseconds). */
    private static final long SETTLE_MILLIS = 1_000;

    private static StatorTestServer serverWithLimit(int maxConnections) {
        return StatorTestServer.start(o -> o.withConnectionLimits(ConnectionLimits.DEFAULTS
                .withMaxConnections(maxConnections)));
    }

    @Test
    void pastTheLimitTheConnectionIdleLongestIsClosedToMakeRoom() {
        try (StatorTestServer server = serverWithLimit(3)) {
            List<RawHttp> open = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    RawHttp c = RawHttp.connect(server.port());
                    open.add(c);
                    assertEquals(200, c.send(HEALTH).read().status());
                }
                RawHttp newcomer = RawHttp.connect(server.port());
                open.add(newcomer);

                assertEquals(200, newcomer.send(HEALTH).read().status());
                open.get(0).awaitClose(CLOSED_WITHIN);
                assertEquals(200, open.get(1).send(HEALTH).read().status());
                assertEquals(200, open.get(2).send(HEALTH).read().status());
            } finally {
                open.forEach(RawHttp::close);
            }
        }
    }

    @Test
    void aConnectionThatHasSentNothingYetIsIdleToo() {
        try (StatorTestServer server = serverWithLimit(2)) {
            try (RawHttp silent = RawHttp.connect(server.port());
                 RawHttp used = RawHttp.connect(server.port())) {
                Eventually.sleep(SETTLE_MILLIS);
                assertEquals(200, used.send(HEALTH).read().status());

                try (RawHttp newcomer = RawHttp.connect(server.port())) {
                    assertEquals(200, newcomer.send(HEALTH).read().status());
                    // The silent one has waited longest (since it opened).
                    silent.awaitClose(CLOSED_WITHIN);
                    assertEquals(200, used.send(HEALTH).read().status());
                }
            }
        }
    }

    @Test
    void whenEveryConnectionIsInTheMiddleOfARequestANewOneIsRefused() {
        try (StatorTestServer server = serverWithLimit(2)) {
            try (RawHttp first = RawHttp.connect(server.port());
                 RawHttp second = RawHttp.connect(server.port())) {
                byte[] start = "GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);
                assertEquals(200, first.send(HEALTH).read().status());
                assertEquals(200, second.send(HEALTH).read().status());
                first.write(start);
                second.write(start);
                Eventually.sleep(SETTLE_MILLIS);

                try (RawHttp refused = RawHttp.connect(server.port())) {
                    Duration closedAfter = refused.awaitClose(CLOSED_WITHIN);
                    assertTrue(closedAfter.toMillis() < 5_000, "refused only after " + closedAfter);
                }
                // The requests in progress were not disturbed.
                byte[] rest = "Host: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                first.write(rest);
                assertEquals(200, first.read().status());
                second.write(rest);
                assertEquals(200, second.read().status());

                // Both now wait for their next request: a newcomer takes the place of the first.
                try (RawHttp newcomer = RawHttp.connect(server.port())) {
                    assertEquals(200, newcomer.send(HEALTH).read().status());
                    first.awaitClose(CLOSED_WITHIN);
                }
            }
        }
    }

    @Test
    void aConnectionClosedByItsClientFreesItsPlace() {
        try (StatorTestServer server = serverWithLimit(1)) {
            byte[] start = "GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);
            try (RawHttp busy = RawHttp.connect(server.port())) {
                assertEquals(200, busy.send(HEALTH).read().status());
                busy.write(start);
                Eventually.sleep(SETTLE_MILLIS);
                try (RawHttp refused = RawHttp.connect(server.port())) {
                    refused.awaitClose(CLOSED_WITHIN);
                }
            }
            // The busy one is gone: its place is free, though nothing was idle to make room.
            Eventually.sleep(SETTLE_MILLIS);
            try (RawHttp next = RawHttp.connect(server.port())) {
                next.write(start);
                next.write("Host: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertEquals(200, next.read().status());
            }
        }
    }
}
