package io.stator.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.capacity.ThroughputSettings;
import io.stator.server.ServerOptions;
import io.stator.server.StatorServer;
import io.stator.server.replication.ReplicationOptions;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI's short run of {@code stator-bench replication}'s measurement, on two regions started in
 * this JVM (the command itself starts them as processes with {@code bin/stator}): a fixed rate,
 * {@code max} and {@code drain}, each for a second, and B must hold every item A acknowledged,
 * with ReplicationLatency read from its {@code /metrics} (none reaching B while drain cut the link).
 */
class ReplicationBenchTest {

    @TempDir
    Path dir;

    @Test
    void measuresAFixedRateAndMaxOnTwoRegions() throws Exception {
        int portA = freePort();
        int portB = freePort();
        Endpoint a = new Endpoint("127.0.0.1", portA, ReplicationBench.SOURCE);
        Endpoint b = new Endpoint("127.0.0.1", portB, ReplicationBench.REPLICA);
        try (StatorServer sa = StatorServer.start(region(dir.resolve("a"), a, b));
             StatorServer sb = StatorServer.start(region(dir.resolve("b"), b, a))) {
            ReplicationBench.Options options = new ReplicationBench.Options(List.of(new ReplicationBench.Load(200, false),
                    ReplicationBench.Load.MAX, ReplicationBench.Load.DRAIN), 2, 1024,
                    Duration.ofMillis(500), Duration.ofSeconds(1));
            List<ReplicationBench.Run> runs = ReplicationBench.measure(options,
                    new ReplicationBench.Regions(a, b, CpuClock.NONE, CpuClock.NONE));
            assertEquals(3, runs.size());
            for (ReplicationBench.Run r : runs) {
                assertEquals(0, r.errors(), r.firstError());
                assertTrue(r.acknowledged() > 0);
                assertFalse(Double.isNaN(r.caughtUpSeconds()), "B never held every item A acknowledged: " + r);
                assertEquals(0, r.missing());
                if (r.load().paused()) {
                    // Nothing reached B while the link was cut; then all of it did.
                    assertEquals(0, r.appliedPerSecond(), r.toString());
                    assertTrue(r.sustainedPerSecond() > 0, r.toString());
                    continue;
                }
                assertTrue(r.appliedPerSecond() > 0, r.toString());
                assertTrue(r.latency().scrapes() > 0 && r.latency().p99() >= r.latency().p50(), r.latency().toString());
            }
            assertTrue(Double.isNaN(runs.getFirst().sustainedPerSecond()) && runs.get(1).sustainedPerSecond() > 0);
            // The fixed rate: 200 puts a second over 1.5 s at most (warm-up puts still unsent when the
            // window opens are skipped, so a stall on a busy machine takes some off).
            long fixed = runs.getFirst().acknowledged();
            assertTrue(fixed <= 300 && fixed >= 100, runs.getFirst().toString());
            String md = ReplicationBench.markdown(options, runs, "a machine.", "bin/stator-bench replication");
            assertTrue(md.contains("| 200 puts/s |") && md.contains("| max (as fast as A accepts) |")
                    && md.contains("| drain (a backlog, A idle) |"), md);
        }
    }

    @Test
    void readsTheTablesLatencyFromMetrics() {
        String metrics = """
                # TYPE dynamodb_replication_latency_milliseconds gauge
                dynamodb_replication_latency_milliseconds{cloudwatch_metric="ReplicationLatency",receiving_region="us-west-2",source_region="us-east-1",statistic="Average",table="t"} 45.3
                dynamodb_replication_latency_milliseconds{cloudwatch_metric="ReplicationLatency",receiving_region="us-west-2",source_region="us-east-1",statistic="Maximum",table="t"} 120.0
                dynamodb_replication_latency_milliseconds{cloudwatch_metric="ReplicationLatency",receiving_region="us-west-2",source_region="us-east-1",statistic="p50",table="t"} 8.0
                dynamodb_replication_latency_milliseconds{cloudwatch_metric="ReplicationLatency",receiving_region="us-west-2",source_region="us-east-1",statistic="p99",table="t"} 99.0
                dynamodb_replication_latency_milliseconds{cloudwatch_metric="ReplicationLatency",receiving_region="us-west-2",source_region="us-east-1",statistic="p50",table="other"} 1.0
                """;
        assertArrayEquals(new double[] {8, 99, 120}, ReplicationBench.parseLatency(metrics, "t"));
        assertNull(ReplicationBench.parseLatency(metrics, "missing"));
        ReplicationBench.Latency l = ReplicationBench.latency(List.of(new double[] {5, 20, 30}, new double[] {7, 40, 90},
                new double[] {6, 30, 50}));
        assertEquals(new ReplicationBench.Latency(3, 6, 30, 40, 90), l);
    }

    private static ServerOptions region(Path data, Endpoint self, Endpoint peer) {
        return ServerOptions.defaults(data).withPort(self.port()).with(o -> o.region = self.region())
                .withThroughput(ThroughputSettings.DEFAULTS.withMode(ThroughputSettings.Mode.REPORT))
                .withReplication(new ReplicationOptions(Map.of(peer.region(), URI.create(peer.toString())), "s3cret",
                        ReplicationOptions.DEFAULT_TOMBSTONE_RETENTION, true));
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
