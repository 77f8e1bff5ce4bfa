package io.stator.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.capacity.ThroughputSettings;
import io.stator.server.ServerOptions;
import io.stator.server.StatorServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI's short run of the generator: every workload for a fraction of a second against a
 * Stator that verifies signatures (so the generator's SigV4 is checked, not just accepted), and
 * nothing may fail. The full comparison is {@code bin/stator-bench compare}, not part of CI.
 */
class GeneratorSmokeTest {

    @TempDir
    static Path dir;

    static StatorServer server;
    static Endpoint endpoint;
    static DynamoRequests requests;
    /** 1.1 MB of items: more than one of DynamoDB's 1 MB Scan pages. */
    static final BenchTable TABLE = new BenchTable("bench_smoke", 1_000, 1_100);

    @BeforeAll
    static void startStatorAndLoad() throws Exception {
        Path credentials = Files.writeString(dir.resolve("credentials"),
                SigV4Signer.Credentials.BENCH.accessKey() + " " + SigV4Signer.Credentials.BENCH.secretKey() + "\n");
        // As the benchmark runs Stator: throughput reported, not enforced (the workloads go far past a
        // new table's, on purpose).
        server = StatorServer.start(ServerOptions.defaults(dir.resolve("data")).withPort(0).withCredentials(credentials)
                .withThroughput(ThroughputSettings.DEFAULTS.withMode(ThroughputSettings.Mode.REPORT)));
        endpoint = Endpoint.local(server.port());
        requests = new DynamoRequests(endpoint, SigV4Signer.Credentials.BENCH);
        TABLE.create(requests);
        Loader.Result load = Loader.load(requests, TABLE, 4, 60);
        assertEquals(TABLE.itemCount(), load.loaded());
        assertEquals(0, load.errors(), load.firstError());
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
    }

    @Test
    void everyWorkloadRunsWithoutErrorsClosedLoop() {
        LoadGenerator.Settings settings = new LoadGenerator.Settings(4, Duration.ofMillis(100), Duration.ofSeconds(1), 0);
        for (Workload workload : Workload.values()) {
            RunResult result = LoadGenerator.run(endpoint, workload.build(requests, TABLE), settings, CpuClock.NONE);
            if (workload == Workload.TRANSACT && result.errors() > 0) {
                // Two connections' transactions that meet on an item: one is cancelled, as DynamoDB does.
                assertTrue(result.firstError().contains("TransactionConflict"), result.firstError());
                assertTrue(result.errors() * 20 < result.operations(), result.errors() + " conflicts");
            } else {
                assertEquals(0, result.errors(), workload + ": " + result.firstError());
            }
            assertTrue(result.operations() > 0, workload + " sent nothing");
            assertTrue(result.latencyMs(99) > 0);
        }
    }

    @Test
    void openLoopKeepsItsRate() {
        LoadGenerator.Settings settings = new LoadGenerator.Settings(4, Duration.ofMillis(200), Duration.ofSeconds(1), 400);
        RunResult result = LoadGenerator.run(endpoint, Workload.GET.build(requests, TABLE), settings, CpuClock.NONE);
        assertEquals(0, result.errors(), result.firstError());
        // 400 requests fall due in the window; all are sent, late ones back to back.
        assertTrue(Math.abs(result.operations() - 400) <= 8, "sent " + result.operations());
        assertTrue(result.latency().getTotalCount() == result.operations());
    }

    @Test
    void fullScanReadsEveryItemAcrossPages() throws Exception {
        RunResult result = FullScan.run(requests, TABLE, CpuClock.NONE, 60);
        assertEquals(TABLE.itemCount(), result.operations());
        assertTrue(result.latency().getTotalCount() >= 2, "pages: " + result.latency().getTotalCount());
    }

    @Test
    void aWrongSecretIsRefusedSoTheSignaturesAboveWereChecked() throws Exception {
        DynamoRequests forged = new DynamoRequests(endpoint,
                new SigV4Signer.Credentials(SigV4Signer.Credentials.BENCH.accessKey(), "not-the-secret"));
        try (HttpConnection connection = new HttpConnection(endpoint)) {
            assertEquals(400, connection.exchange(forged.build("GetItem", TABLE.getItem(1, false))));
            assertTrue(connection.bodyText().contains("InvalidSignatureException"), connection.bodyText());
        }
    }

    @Test
    void connectionsAreSpreadOverSeveralEndpoints() throws Exception {
        try (TrivialServer first = TrivialServer.start("127.0.0.1", 0);
             TrivialServer second = TrivialServer.start("127.0.0.1", 0)) {
            List<Endpoint> both = List.of(Endpoint.local(first.port()), Endpoint.local(second.port()));
            DynamoRequests signed = new DynamoRequests(both.getFirst(), SigV4Signer.Credentials.BENCH);
            Loader.Result load = Loader.load(signed, both, TABLE, 2, 60);
            assertEquals(0, load.errors(), load.firstError());
            assertTrue(first.answered() > 0 && second.answered() > 0, first.answered() + " and " + second.answered());
            assertEquals(TABLE.itemCount(), first.answered() + second.answered());

            long firstBefore = first.answered();
            long secondBefore = second.answered();
            LoadGenerator.Settings settings = new LoadGenerator.Settings(2, Duration.ZERO, Duration.ofMillis(300), 0);
            RunResult result = LoadGenerator.run(both, Workload.PUT.build(signed, TABLE), settings, CpuClock.NONE);
            assertEquals(0, result.errors(), result.firstError());
            assertTrue(first.answered() > firstBefore && second.answered() > secondBefore);
        }
    }

    @Test
    void theTrivialServerAnswersTheGenerator() throws Exception {
        try (TrivialServer trivial = TrivialServer.start("127.0.0.1", 0)) {
            Endpoint ceiling = Endpoint.local(trivial.port());
            LoadGenerator.Settings settings = new LoadGenerator.Settings(2, Duration.ofMillis(100), Duration.ofSeconds(1), 0);
            RunResult result = LoadGenerator.run(ceiling, Workload.PUT.build(new DynamoRequests(ceiling,
                    SigV4Signer.Credentials.BENCH), TABLE), settings, CpuClock.NONE);
            assertEquals(0, result.errors(), result.firstError());
            assertTrue(result.operations() > 0);
        }
    }
}
