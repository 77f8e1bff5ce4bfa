package io.stator.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's targets (issue 17's), computed from a run's measurements, without starting a server. */
class TargetsReportTest {

    @TempDir
    Path dir;

    private static final BenchTable MATRIX = new BenchTable(Compare.MATRIX_TABLE, 10_000, 1024);

    @Test
    void checksEachTargetAgainstTheServersItNames() {
        List<ServerKind> servers = List.of(ServerKind.NGINX, ServerKind.STATOR, ServerKind.DYNALITE_MEMORY,
                ServerKind.DYNALITE_DISK);
        List<Compare.Measurement> m = List.of(
                closed(ServerKind.NGINX, "get", 16, 40_000, 0), closed(ServerKind.NGINX, "put", 16, 40_000, 0),
                closed(ServerKind.STATOR, "get", 16, 25_000, 0), closed(ServerKind.STATOR, "put", 16, 12_000, 0),
                closed(ServerKind.DYNALITE_MEMORY, "get", 16, 4_000, 0), closed(ServerKind.DYNALITE_DISK, "get", 16, 6_000, 0),
                closed(ServerKind.DYNALITE_MEMORY, "put", 16, 1_000, 0),
                open(ServerKind.STATOR, 12_500, 3_000_000), open(ServerKind.NGINX, 12_500, 500_000),
                closed(ServerKind.STATOR, "get", 1000, 22_000, 0), closed(ServerKind.NGINX, "get", 1000, 30_000, 3));
        List<Compare.ServerRecord> records = servers.stream()
                .map(k -> new Compare.ServerRecord(k, new ServerKind.Places(dir, dir, dir, null))).toList();
        records.get(1).startupMillis = 400;
        records.get(1).idleMegabytes = 120;
        List<Soak.Minute> soak = List.of(new Soak.Minute(1, 300, 9_000, 0), new Soak.Minute(2, 280, 9_000, 0),
                new Soak.Minute(3, 290, 9_000, 0));
        Compare.Options options = new Compare.Options(servers, List.of(Workload.GET, Workload.PUT), 16, Duration.ofSeconds(1),
                Duration.ofSeconds(3), MATRIX.itemCount(), MATRIX.itemBytes(), 0, 100, 20, 30, 20, false, 1,
                Generator.WRK, null, 1000, 3);
        String md = new MarkdownReport(options, new Compare.Outcome(records, m, null, soak, 60),
                "bin/stator-bench compare", "test machine").markdown("chart.svg", "");

        assertTrue(md.contains("| `get` throughput ≥ 50% of nginx's | 25,000 vs 40,000 ops/s: 63% | yes |"), md);
        // dynalite: the faster of its two modes.
        assertTrue(md.contains("| `get` throughput ≥ 5× dynalite's | 25,000 vs 6,000 ops/s: 4.2× | **no**: 83% of the way |"), md);
        assertTrue(md.contains("| `put` throughput ≥ 40% of nginx's | 12,000 vs 40,000 ops/s: 30% | **no**: short by 10 points |"), md);
        assertTrue(md.contains("| `put` throughput ≥ 5× dynalite's | 12,000 vs 1,000 ops/s: 12.0× | yes |"), md);
        assertTrue(md.contains("| `query` throughput ≥ 5× dynalite's | – | not measured (query not in --workloads) |"), md);
        assertTrue(md.contains("at the same rate | 3.00 ms vs 0.50 ms at 12,500/s: 6.0× | **no**: 2.0× too slow |"), md);
        assertTrue(md.contains("no errors | 22,000 vs 25,000 ops/s: 88%, 0 errors | yes |"), md);
        assertTrue(md.contains("| startup to first served request < 0.5 s | 400 ms | yes |"), md);
        assertTrue(md.contains("| idle resident memory < 150 MB | 120 MB | yes |"), md);
        assertTrue(md.contains("| 290 MB at the end of minute 3 vs 280 MB at the end of minute 2: +3.6% | yes |"), md);
        // The 1,000-connection figures beside the 16-connection ones, not mixed into the matrix.
        assertTrue(md.contains("| nginx | 40,000/s | 30,000/s | -25% | 1.00 ms | 3 |"), md);
        assertTrue(md.contains("| get | 40,000/s, 1.00 ms | 25,000/s, 1.00 ms | 4,000/s, 1.00 ms | 6,000/s, 1.00 ms |"), md);
        assertTrue(md.contains("Closed loops: wrk (`wrk -t1`"), md);
    }

    private static Compare.Measurement closed(ServerKind server, String workload, int connections, double opsPerSecond,
                                              long errors) {
        return new Compare.Measurement(server, workload, MATRIX, "closed", 0, connections, 1,
                result(opsPerSecond, 1_000_000, errors, RunResult.WRK));
    }

    private static Compare.Measurement open(ServerKind server, double rate, long p99Nanos) {
        return new Compare.Measurement(server, "get", MATRIX, "open", rate, 16, 1, result(rate, p99Nanos, 0, RunResult.JAVA));
    }

    /** 3 s at this rate, every request taking {@code nanos}. */
    private static RunResult result(double opsPerSecond, long nanos, long errors, String generator) {
        Histogram latency = RunResult.newHistogram();
        latency.recordValueWithCount(nanos, 100);
        return new RunResult(Math.round(opsPerSecond * 3), errors, 3, latency, latency, 0.4, 1.2, 0.1,
                errors == 0 ? null : "wrk counted errors", generator);
    }
}
