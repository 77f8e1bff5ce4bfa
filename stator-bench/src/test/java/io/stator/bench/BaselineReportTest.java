package io.stator.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A comparison with a baseline, without starting a server: the report's medians over rounds and
 * its table against the baseline, the report of a run without them unchanged, and the options
 * that cannot work together refused before anything starts.
 */
class BaselineReportTest {

    @TempDir
    Path dir;

    private static final BenchTable MATRIX = new BenchTable(Compare.MATRIX_TABLE, 10_000, 1024);

    @Test
    void reportsTheMedianOfTheRoundsAndTheChangeAgainstTheBaseline() {
        List<ServerKind> servers = List.of(ServerKind.TRIVIAL, ServerKind.STATOR, ServerKind.STATOR_BASELINE);
        List<Compare.Measurement> m = new ArrayList<>();
        m.add(get(ServerKind.TRIVIAL, 1, 20_000));
        m.add(get(ServerKind.STATOR, 1, 1_000));
        m.add(get(ServerKind.STATOR_BASELINE, 1, 2_000));
        m.add(get(ServerKind.STATOR_BASELINE, 2, 2_000));
        m.add(get(ServerKind.STATOR, 2, 2_000));
        m.add(get(ServerKind.STATOR, 3, 1_800));
        m.add(get(ServerKind.STATOR_BASELINE, 3, 2_000));
        String md = report(servers, m, 3);

        assertTrue(md.contains("## Change against the baseline"), md);
        // stator: 1,000, 2,000 and 1,800 (median 1,800) against 2,000 three times.
        assertTrue(md.contains("| get | 1,800/s (1,000–2,000) | 2,000/s (2,000–2,000) | 0.900 | -10.0% | 1.00 |"), md);
        assertTrue(md.contains("| get | 20,000/s, 1.00 ms | 1,800/s, 1.00 ms | 2,000/s, 1.00 ms |"), md);
        assertTrue(md.contains("| stator | get (round 3) |"), md);
        assertTrue(md.contains("- Rounds: the request workloads of `stator` and `stator-baseline` ran 3 times"), md);
    }

    @Test
    void aRunWithoutBaselineOrRoundsReportsAsBefore() {
        List<ServerKind> servers = List.of(ServerKind.TRIVIAL, ServerKind.STATOR);
        String md = report(servers, List.of(get(ServerKind.TRIVIAL, 1, 20_000), get(ServerKind.STATOR, 1, 1_000)), 1);

        assertFalse(md.contains("baseline"), md);
        assertFalse(md.contains("round"), md);
        assertTrue(md.contains("| get | 20,000/s, 1.00 ms | 1,000/s, 1.00 ms |"), md);
        assertTrue(md.contains("`stator`: Stator (durable, default)."), md);
    }

    @Test
    void refusesOptionsThatCannotWorkTogetherBeforeStartingAnything() {
        assertEquals(2, compare("--servers", "trivial,stator-baseline"));
        assertEquals(2, compare("--baseline", dir.toString()));
        assertEquals(2, compare("--rounds", "0"));
    }

    private int compare(String... options) {
        List<String> args = new ArrayList<>(List.of("compare", "--work-dir", dir.resolve("work").toString(),
                "--report", dir.resolve("report.md").toString()));
        args.addAll(List.of(options));
        CommandLine cli = new CommandLine(new BenchCommand());
        cli.setErr(new java.io.PrintWriter(java.io.Writer.nullWriter()));
        return cli.execute(args.toArray(String[]::new));
    }

    private String report(List<ServerKind> servers, List<Compare.Measurement> measurements, int rounds) {
        Compare.Options options = new Compare.Options(servers, List.of(Workload.GET), 16, Duration.ofSeconds(1),
                Duration.ofSeconds(3), MATRIX.itemCount(), MATRIX.itemBytes(), 0, 100, 20, 30, 20, false, rounds, Generator.WRK, null, 1000, 0);
        ServerKind.Places places = new ServerKind.Places(dir, dir, dir, servers.contains(ServerKind.STATOR_BASELINE) ? dir : null);
        List<Compare.ServerRecord> records = servers.stream().map(k -> new Compare.ServerRecord(k, places)).toList();
        Compare.Outcome outcome = new Compare.Outcome(records, measurements, null, List.of(), 60);
        return new MarkdownReport(options, outcome, "bin/stator-bench compare", "test machine").markdown("chart.svg", "");
    }

    /** A closed-loop get of 3 s at this rate, every request taking 1 ms. */
    private static Compare.Measurement get(ServerKind server, int round, double opsPerSecond) {
        Histogram latency = RunResult.newHistogram();
        latency.recordValueWithCount(1_000_000, 100);
        RunResult result = new RunResult(Math.round(opsPerSecond * 3), 0, 3, latency, latency, 0.5, 1.2, 0.1, null, RunResult.WRK);
        return new Compare.Measurement(server, "get", MATRIX, "closed", 0, 16, round, result);
    }
}
