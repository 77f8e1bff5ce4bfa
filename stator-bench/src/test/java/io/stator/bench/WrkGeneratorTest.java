package io.stator.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * wrk as the closed-loop generator, for a second or so against real servers: its counts and
 * latencies read back, the requests it sends picked as the workload's, its errors counted.
 * wrk must be installed (Debian's wrk; .ci/run installs it).
 */
class WrkGeneratorTest {

    @TempDir
    Path dir;

    static final BenchTable TABLE = new BenchTable("bench_wrk", 1_000, 200);

    @BeforeAll
    static void wrkIsInstalled() {
        assertNotNull(WrkGenerator.binary(), "wrk is not installed: apt-get install -y wrk nginx-light");
    }

    @Test
    void measuresTheTrivialServerAndCountsWhatItAnswered() throws Exception {
        try (TrivialServer trivial = TrivialServer.start("127.0.0.1", 0)) {
            Endpoint endpoint = Endpoint.local(trivial.port());
            Workload.RequestSource source = Workload.PUT.build(new DynamoRequests(endpoint, SigV4Signer.Credentials.BENCH), TABLE);
            LoadGenerator.Settings settings = new LoadGenerator.Settings(4, Duration.ZERO, Duration.ofSeconds(1), 0);
            RunResult result = WrkGenerator.run(endpoint, source, settings, CpuClock.NONE, dir);

            assertEquals(RunResult.WRK, result.generator());
            assertEquals(0, result.errors(), result.firstError());
            assertTrue(result.operations() > 100, "operations: " + result.operations());
            // The server answered every request wrk counted, and at most one in flight per connection more.
            long answered = trivial.answered();
            assertTrue(answered >= result.operations() && answered <= result.operations() + 4,
                    answered + " answered, " + result.operations() + " counted");
            assertTrue(result.seconds() >= 0.9 && result.seconds() < 2, "seconds: " + result.seconds());
            assertTrue(result.latencyMs(50) > 0 && result.latencyMs(50) <= result.latencyMs(99)
                    && result.latencyMs(99) <= result.latencyMs(99.9) && result.latencyMs(99.9) <= result.maxMs(),
                    result.latencyMs(50) + " " + result.latencyMs(99) + " " + result.latencyMs(99.9) + " " + result.maxMs());
            assertEquals(result.operations(), result.latency().getTotalCount());
            assertTrue(result.clientCores() > 0, "wrk's CPU was not read");
        }
    }

    @Test
    void sendsTheWorkloadsRequestsDrawnAsTheJavaGeneratorDraws() throws Exception {
        Map<String, AtomicLong> targets = new ConcurrentHashMap<>();
        Set<String> bodies = ConcurrentHashMap.newKeySet();
        HttpServer server = server(exchange -> {
            targets.computeIfAbsent(exchange.getRequestHeaders().getFirst("X-Amz-Target"), t -> new AtomicLong()).incrementAndGet();
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            return 200;
        });
        try {
            Endpoint endpoint = Endpoint.local(server.getAddress().getPort());
            Workload.RequestSource source = Workload.MIXED.build(new DynamoRequests(endpoint, SigV4Signer.Credentials.BENCH), TABLE);
            RunResult result = WrkGenerator.run(endpoint, source,
                    new LoadGenerator.Settings(2, Duration.ZERO, Duration.ofSeconds(1), 0), CpuClock.NONE, dir);

            assertEquals(0, result.errors(), result.firstError());
            long gets = targets.getOrDefault("DynamoDB_20120810.GetItem", new AtomicLong()).get();
            long updates = targets.getOrDefault("DynamoDB_20120810.UpdateItem", new AtomicLong()).get();
            assertEquals(Set.of("DynamoDB_20120810.GetItem", "DynamoDB_20120810.UpdateItem"), targets.keySet());
            // 50% each, within what chance allows over a few thousand requests.
            double share = gets / (double) (gets + updates);
            assertTrue(share > 0.4 && share < 0.6, gets + " gets, " + updates + " updates");
            // Keys drawn at random over the table, not a few replayed.
            assertTrue(bodies.size() > Math.min(500, (gets + updates) / 3), bodies.size() + " distinct of " + (gets + updates));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void countsAnswersOver399AsErrors() throws Exception {
        HttpServer server = server(exchange -> {
            exchange.getRequestBody().readAllBytes();
            return 400;
        });
        try {
            Endpoint endpoint = Endpoint.local(server.getAddress().getPort());
            Workload.RequestSource source = Workload.GET.build(new DynamoRequests(endpoint, SigV4Signer.Credentials.BENCH), TABLE);
            RunResult result = WrkGenerator.run(endpoint, source,
                    new LoadGenerator.Settings(2, Duration.ZERO, Duration.ofSeconds(1), 0), CpuClock.NONE, dir);

            assertEquals(0, result.operations());
            assertTrue(result.errors() > 0);
            assertTrue(result.firstError().contains("status over 399"), result.firstError());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void readsBackWrksPercentiles() {
        String output = """
                Running 1s test @ http://127.0.0.1:1/
                stator-bench-result
                duration_us 2000000
                requests 10000
                errors_status 10
                errors_connect 1
                errors_read 2
                errors_write 0
                errors_timeout 3
                latency_us 50.000 200
                latency_us 90.000 400
                latency_us 99.000 900
                latency_us 99.900 3000
                latency_us 100 12000
                """;
        RunResult r = WrkGenerator.parse(output, new double[] {0.3, 1.1, 0.2});
        assertEquals(9_990, r.operations());
        assertEquals(16, r.errors());
        assertEquals(2.0, r.seconds());
        assertEquals(4_995, r.throughput());
        assertEquals(0.2, r.latencyMs(50), 0.001);
        assertEquals(0.4, r.latencyMs(90), 0.001);
        assertEquals(0.9, r.latencyMs(99), 0.001);
        assertEquals(3.0, r.latencyMs(99.9), 0.003);
        assertEquals(12.0, r.maxMs(), 0.012);
        assertEquals(0.3, r.clientCores());
        assertEquals(1.1, r.serverCores());
    }

    private interface Answer {
        int status(HttpExchange exchange) throws IOException;
    }

    /** The JDK's HTTP server (keep-alive, bodies read), answering every request with the status given. */
    private static HttpServer server(Answer answer) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.createContext("/", exchange -> {
            byte[] body = TrivialServer.BODY;
            exchange.getResponseHeaders().set("Content-Type", SigV4Signer.CONTENT_TYPE);
            exchange.sendResponseHeaders(answer.status(exchange), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }
}
