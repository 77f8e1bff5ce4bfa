package io.stator.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** How NettyHttpServer serves what its handler gives it, and what it does when the handler fails. */
class DispatchTest {

    /** A handler that answers "ok", or fails as the request's path says. */
    private static final RequestHandler FAILING = new RequestHandler() {
        @Override
        public HttpReply handle(HttpRequestData request) {
            return switch (request.path()) {
                case "/heap" -> throw new OutOfMemoryError("Java heap space");
                case "/stack" -> throw new StackOverflowError();
                case "/bug" -> throw new IllegalStateException("a bug");
                default -> new HttpReply(200, "ok".getBytes(StandardCharsets.US_ASCII));
            };
        }

        @Override
        public boolean isBrief(HttpRequestData request) {
            return request.query().equals("brief");
        }
    };

    @Test
    void outOfMemoryIsNeverAnsweredAndItsConnectionIsClosed() throws Exception {
        try (NettyHttpServer server = NettyHttpServer.start("127.0.0.1", 0, 2, 2, null, ConnectionLimits.DEFAULTS,
                FAILING)) {
            for (String target : new String[] {"/heap", "/heap?brief", "/stack", "/stack?brief"}) {
                try (RawHttp http = RawHttp.connect(server.port())) {
                    http.send(new RawHttp.Request("GET", target, Map.of(), new byte[0]));
                    // No 500 claiming anything about the request: the server cannot answer for it.
                    http.awaitClose(Duration.ofSeconds(30));
                }
            }
            // A bug that is not the machine's is an error reply, and the server goes on.
            try (RawHttp http = RawHttp.connect(server.port())) {
                assertEquals(500, http.send(new RawHttp.Request("GET", "/bug", Map.of(), new byte[0])).read().status());
                assertEquals("ok", http.send(new RawHttp.Request("GET", "/", Map.of(), new byte[0])).read().bodyText());
            }
        }
    }

    @Test
    void aLimitedExecutorRunsAtMostItsLimitAndEveryTaskInTheEnd() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            LimitedExecutor lane = new LimitedExecutor(pool, 3);
            AtomicInteger running = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(200);
            for (int i = 0; i < 200; i++) {
                lane.execute(() -> {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    running.decrementAndGet();
                    done.countDown();
                });
            }
            assertTrue(done.await(60, TimeUnit.SECONDS), "every task ran");
            assertEquals(3, most.get(), "the most tasks running at once");
        } finally {
            pool.shutdownNow();
        }
    }
}
