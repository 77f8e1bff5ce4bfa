package io.stator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code stator-bench}: the load generator ({@code run}) and the comparison with peers ({@code compare}). */
@Command(name = "stator-bench", mixinStandardHelpOptions = true, version = "stator-bench 0.1.0",
        description = "Load generator for DynamoDB-compatible servers, and Stator's comparison with its peers.",
        subcommands = {BenchCommand.Run.class, BenchCommand.CompareCommand.class, BenchCommand.SoakCommand.class, BenchCommand.StreamsCommand.class,
                BenchCommand.VectorsCommand.class, BenchCommand.ReplicationCommand.class, BenchCommand.Trivial.class,
                CassandraBench.class})
public final class BenchCommand implements Runnable {

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    /** Options shared by run and compare. */
    static class LoadOptions {
        @Option(names = "--connections", description = "Concurrent keep-alive connections (default: ${DEFAULT-VALUE}).")
        int connections = 16;

        @Option(names = "--warmup", paramLabel = "SECONDS", description = "Warm-up before each measurement (default: ${DEFAULT-VALUE}).")
        int warmup = 2;

        @Option(names = "--duration", paramLabel = "SECONDS", description = "Length of each measurement (default: ${DEFAULT-VALUE}).")
        int duration = 6;

        @Option(names = "--items", description = "Items in the table (default: ${DEFAULT-VALUE}).")
        long items = 100_000;

        @Option(names = "--item-size", paramLabel = "BYTES", description = "Item size as DynamoDB measures it (default: ${DEFAULT-VALUE}).")
        int itemBytes = 1024;

        @Option(names = "--generator", paramLabel = "wrk|java", converter = GeneratorConverter.class,
                description = "What measures the closed loops: wrk (lighter; the Java generator when wrk is not "
                        + "installed) or java. Open loops (--rate), loads and scans always use the Java generator "
                        + "(default: wrk).")
        Generator generator = Generator.WRK;

        /** The generator that will run: the one asked for, or Java with a word on stderr when wrk is missing. */
        Generator generator() {
            String missing = generator.unavailable();
            if (missing != null) System.err.println("stator-bench: " + missing);
            return generator.orJava();
        }
    }

    static final class GeneratorConverter implements CommandLine.ITypeConverter<Generator> {
        @Override
        public Generator convert(String value) {
            return Generator.parse(value);
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Runs workloads against a running server and prints what they measured.")
    static final class Run extends LoadOptions implements Callable<Integer> {
        @Option(names = "--endpoint", split = ",", description = "The server, or several servers of one deployment "
                + "separated by commas, over which the connections are spread round-robin; requests are signed for "
                + "the first one's host (default: ${DEFAULT-VALUE}).")
        List<String> endpoints = List.of("http://127.0.0.1:8000");

        @Option(names = "--region", description = "Region to sign for (default: ${DEFAULT-VALUE}).")
        String region = "us-east-1";

        @Option(names = "--access-key", description = "Access key id to sign with (default: ${DEFAULT-VALUE}).")
        String accessKey = SigV4Signer.Credentials.BENCH.accessKey();

        @Option(names = "--secret-key", description = "Secret access key to sign with.")
        String secretKey = SigV4Signer.Credentials.BENCH.secretKey();

        @Option(names = "--table", description = "Table name (default: ${DEFAULT-VALUE}).")
        String table = "bench";

        @Option(names = "--create", description = "Create the table first.")
        boolean create;

        @Option(names = "--write-isolation", paramLabel = "SETTING", description = "With --create: tag the table "
                + "with this system:write_isolation (always_use_lwt, only_rmw_uses_lwt, forbid_rmw, unsafe_rmw); "
                + "default: no tag, the server's --write-isolation.")
        String writeIsolation;

        @Option(names = "--workload", split = ",", description = "Workloads, in order: load, scan, or any of "
                + "get, get-strong, put, update, transact, query, mixed, read-mostly, hot-key (default: ${DEFAULT-VALUE}).")
        List<String> workloads = List.of("get");

        @Option(names = "--rate", description = "Requests per second over all connections (open loop); 0 for as fast as possible (default: ${DEFAULT-VALUE}).")
        double rate;

        @Override
        public Integer call() throws IOException {
            List<Endpoint> targets = endpoints.stream().map(e -> Endpoint.parse(e.trim(), region)).toList();
            DynamoRequests requests = new DynamoRequests(targets.getFirst(), new SigV4Signer.Credentials(accessKey, secretKey));
            BenchTable t = new BenchTable(table, items, itemBytes);
            if (create) t.create(requests, writeIsolation);
            LoadGenerator.Settings settings = new LoadGenerator.Settings(connections, Duration.ofSeconds(warmup),
                    Duration.ofSeconds(duration), rate);
            Generator measuring = generator();
            Path work = Files.createTempDirectory("stator-bench-run");
            try {
                for (String w : workloads) run(w, targets, requests, t, settings, measuring, work);
            } finally {
                Compare.deleteRecursively(work);
            }
            return 0;
        }

        private void run(String w, List<Endpoint> targets, DynamoRequests requests, BenchTable t,
                         LoadGenerator.Settings settings, Generator measuring, Path work) throws IOException {
            switch (w) {
                case "load" -> {
                    Loader.Result r = Loader.load(requests, targets, t, connections, Double.MAX_VALUE);
                    System.out.printf(Locale.ROOT, "load: %,d items of %d B in %.1f s: %,.0f items/s, %d errors, generator %.2f cores%n",
                            r.loaded(), itemBytes, r.seconds(), r.itemsPerSecond(), r.errors(), r.clientCores());
                }
                case "scan" -> print("scan", FullScan.run(requests, t, CpuClock.NONE, Double.MAX_VALUE));
                default -> print(w, measuring.run(targets, Workload.parse(w).build(requests, t), settings, CpuClock.NONE, work));
            }
        }

        private static void print(String workload, RunResult r) {
            System.out.printf(Locale.ROOT, "%s: %,.0f ops/s, p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms, "
                            + "%d errors, generator (%s) %.2f cores, other processes %.2f cores%s%n",
                    workload, r.throughput(), r.latencyMs(50), r.latencyMs(99), r.latencyMs(99.9), r.maxMs(), r.errors(),
                    r.generator(), r.clientCores(), r.otherCores(), r.firstError() == null ? "" : "; first error: " + r.firstError());
        }
    }

    @Command(name = "compare", mixinStandardHelpOptions = true,
            description = "Installs and starts the peers (dynalite, moto), Stator, nginx and a trivial HTTP server on "
                    + "this machine, runs the same workloads against each, and writes a Markdown report with a chart.")
    static final class CompareCommand extends LoadOptions implements Callable<Integer> {
        @Option(names = "--servers", split = ",", completionCandidates = ServerLabels.class, description = "Servers to "
                + "run, of ${COMPLETION-CANDIDATES} (default: all but stator-baseline, which --baseline adds).")
        List<String> servers = new ArrayList<>();

        @Option(names = "--workloads", split = ",", description = "Request workloads of the matrix (default: all but "
                + "transact, which dynalite does not serve).")
        List<String> workloads = new ArrayList<>();

        @Option(names = "--large-items", description = "Items in the large table, 0 to skip it (default: ${DEFAULT-VALUE}).")
        long largeItems = 1_000_000;

        @Option(names = "--large-item-size", paramLabel = "BYTES", description = "Item size of the large table (default: ${DEFAULT-VALUE}).")
        int largeItemBytes = 100;

        @Option(names = "--load-budget", paramLabel = "SECONDS", description = "Longest a server may take to load the "
                + "matrix table; a slower one runs on the items it loaded (default: ${DEFAULT-VALUE}).")
        double loadBudget = 45;

        @Option(names = "--large-load-budget", paramLabel = "SECONDS", description = "The same for the large table; "
                + "Stator gets at least 150 s, to load the 1,000,000 items its scan target is about (default: ${DEFAULT-VALUE}).")
        double largeLoadBudget = 75;

        @Option(names = "--scan-budget", paramLabel = "SECONDS", description = "Longest a full scan may take; a slower "
                + "one reports the rate of the part it read (default: ${DEFAULT-VALUE}).")
        double scanBudget = 45;

        @Option(names = "--no-profile", description = "Skip profiling Stator.")
        boolean noProfile;

        @Option(names = "--quick", description = "A short run of a few minutes: 10,000 items, a 100,000-item large table, 1 s warm-up, 3 s measurements.")
        boolean quick;

        @Option(names = "--report", description = "Where to write the report; the chart goes beside it as .svg (default: target/stator-bench/benchmarks.md).")
        Path report;

        @Option(names = "--work-dir", description = "Data directories, server logs and recordings (default: target/stator-bench).")
        Path workDir;

        @Option(names = "--cache-dir", description = "Where peers are installed (default: ~/.cache/stator-bench).")
        Path cacheDir;

        @Option(names = "--baseline", paramLabel = "DIR", description = "Another checkout of Stator (a git worktree of "
                + "an older commit, say), measured in the same run as server stator-baseline: its bin/stator is "
                + "prepared and started as stator's. The default servers then include it.")
        Path baseline;

        @Option(names = "--many-connections", paramLabel = "N", description = "Connections of the extra closed-loop "
                + "get of stator and nginx (wrk only), reported beside the --connections figure; 0 skips it "
                + "(default: ${DEFAULT-VALUE}).")
        int manyConnections = 1000;

        @Option(names = "--soak-minutes", paramLabel = "N", description = "Minutes of stator under changing load "
                + "after the servers, for its resident memory over time; 0 skips it (default: 10, or 0 with --quick).")
        Integer soakMinutes;

        @Option(names = "--rounds", paramLabel = "N", description = "Rounds of the request workloads of stator and "
                + "stator-baseline, each on a freshly started and loaded process, the two taking turns; the report "
                + "shows the median of each workload (default: ${DEFAULT-VALUE}).")
        int rounds = 1;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            Path home = Path.of(System.getProperty("stator.home", ".")).toAbsolutePath().normalize();
            Path work = workDir != null ? workDir : home.resolve("target/stator-bench");
            Path cache = cacheDir != null ? cacheDir : Path.of(System.getProperty("user.home"), ".cache", "stator-bench");
            Path out = report != null ? report : work.resolve("benchmarks.md");
            if (quick) {
                items = 10_000;
                largeItems = Math.min(largeItems, 100_000);
                warmup = 1;
                duration = 3;
                loadBudget = 20;
                largeLoadBudget = 30;
                scanBudget = 20;
            }
            Path baselineHome = baseline == null ? null : baseline.toAbsolutePath().normalize();
            List<ServerKind> kinds = servers.isEmpty()
                    ? Stream.of(ServerKind.values()).filter(k -> k != ServerKind.STATOR_BASELINE || baselineHome != null).toList()
                    : servers.stream().map(ServerKind::parse).toList();
            check(kinds, baselineHome);
            List<Workload> matrix = workloads.isEmpty()
                    ? Stream.of(Workload.values()).filter(w -> w != Workload.TRANSACT).toList()
                    : workloads.stream().map(Workload::parse).toList();
            Generator measuring = generator();
            Compare.Options options = new Compare.Options(kinds, matrix, connections, Duration.ofSeconds(warmup),
                    Duration.ofSeconds(duration), items, itemBytes, largeItems, largeItemBytes, loadBudget,
                    largeLoadBudget, scanBudget, !noProfile, rounds, measuring,
                    measuring == generator ? null : generator.unavailable(), manyConnections,
                    soakMinutes != null ? soakMinutes : quick ? 0 : 10);
            Files.createDirectories(work);
            String machine = Machine.describe();
            Compare.progress("machine: %s", machine);
            Compare.Outcome outcome = new Compare(options, new ServerKind.Places(home, cache, work, baselineHome)).run();
            String name = out.getFileName().toString();
            Path chart = out.resolveSibling(name.endsWith(".md") ? name.substring(0, name.length() - 3) + ".svg" : name + ".svg");
            new MarkdownReport(options, outcome, commandLine(), machine).write(out, chart);
            Compare.progress("report: %s, chart: %s (%.1f minutes)", out, chart, outcome.seconds() / 60);
            return 0;
        }

        /** Options that cannot work together stop the run before anything starts, not after the first servers ran. */
        private void check(List<ServerKind> kinds, Path baselineHome) {
            if (rounds < 1) throw new ParameterException(spec.commandLine(), "--rounds must be at least 1, not " + rounds);
            if (manyConnections < 0 || (soakMinutes != null && soakMinutes < 0)) {
                throw new ParameterException(spec.commandLine(), "--many-connections and --soak-minutes cannot be negative");
            }
            if (baselineHome == null) {
                if (kinds.contains(ServerKind.STATOR_BASELINE)) {
                    throw new ParameterException(spec.commandLine(),
                            "server stator-baseline needs --baseline DIR, the checkout of Stator to compare with");
                }
                return;
            }
            if (!kinds.contains(ServerKind.STATOR_BASELINE)) {
                throw new ParameterException(spec.commandLine(), "--baseline is measured as server stator-baseline, "
                        + "which --servers leaves out; add it (e.g. --servers trivial,stator,stator-baseline)");
            }
            if (!Files.isExecutable(baselineHome.resolve("bin/stator"))) {
                throw new ParameterException(spec.commandLine(), "--baseline " + baseline
                        + ": no executable bin/stator there; DIR must be a checkout of Stator");
            }
        }

        /** The servers' labels, for the help of --servers. */
        static final class ServerLabels implements Iterable<String> {
            @Override
            public Iterator<String> iterator() {
                return Stream.of(ServerKind.values()).map(k -> k.label).iterator();
            }
        }

        private static String commandLine() {
            return "bin/stator-bench " + System.getProperty("stator.bench.args", "compare").trim();
        }
    }

    @Command(name = "soak", mixinStandardHelpOptions = true,
            description = "Runs Stator (bin/stator --memory SIZE, durable) under changing load for many minutes and "
                    + "writes its resident memory, minute by minute, into the report's memory section.")
    static final class SoakCommand implements Callable<Integer> {
        @Option(names = "--minutes", description = "Minutes of load (default: ${DEFAULT-VALUE}).")
        int minutes = 30;

        @Option(names = "--memory", paramLabel = "SIZE", description = "Stator's --memory (default: ${DEFAULT-VALUE}).")
        String memory = "1GB";

        @Mixin
        SectionOptions section = new SectionOptions();

        @Override
        public Integer call() throws IOException {
            if (minutes < 1) throw new IllegalArgumentException("--minutes must be at least 1");
            Soak.Options options = new Soak.Options(memory, minutes, section.connections, section.items, section.itemBytes);
            List<Soak.Minute> result = Soak.run(options, section.places());
            section.write(ReportSection.SOAK, Soak.markdown(options, result, Machine.describe()));
            return 0;
        }
    }

    @Command(name = "streams", mixinStandardHelpOptions = true,
            description = "Measures put and update on a table without a stream and on one with a NEW_AND_OLD_IMAGES "
                    + "stream, in one Stator (durable), and writes the figures into the report's streams section.")
    static final class StreamsCommand implements Callable<Integer> {
        @Option(names = "--rounds", description = "Measurements per workload and table (default: ${DEFAULT-VALUE}).")
        int rounds = 5;

        @Option(names = "--duration", paramLabel = "SECONDS", description = "Seconds per measurement (default: ${DEFAULT-VALUE}).")
        int seconds = 6;

        @Mixin
        SectionOptions section = new SectionOptions();

        @Override
        public Integer call() throws IOException {
            if (rounds < 1 || seconds < 1) throw new IllegalArgumentException("--rounds and --duration must be at least 1");
            StreamCost.Options options = new StreamCost.Options(rounds, section.connections, section.items,
                    section.itemBytes, Duration.ofSeconds(2), Duration.ofSeconds(seconds));
            StreamCost.Outcome outcome = StreamCost.run(options, section.places());
            section.write(ReportSection.STREAMS, StreamCost.markdown(options, outcome, Machine.describe()));
            return 0;
        }
    }

    @Command(name = "vectors", mixinStandardHelpOptions = true,
            description = "Measures vector search (issue 32): loads clustered vectors into a Stator table with a "
                    + "EUCLIDEAN vector index, measures the build rate, recall@10 against exact search, SearchVectors/s "
                    + "and p99 at TopK 10, and memory; then the same data in hnswlib and faiss (Debian's python3-hnswlib "
                    + "and python3-faiss, in process); writes the report's vector section.")
    static final class VectorsCommand implements Callable<Integer> {
        @Option(names = "--shapes", split = ",", paramLabel = "COUNTxDIMENSIONS", description = "Data sets to run, "
                + "one after another (default: the issue's, ${DEFAULT-VALUE}; 20000x128,20000x768 runs in minutes).")
        List<String> shapes = List.of("100000x768", "1000000x128");

        @Option(names = "--queries", description = "Query vectors (default: ${DEFAULT-VALUE}).")
        int queries = 1000;

        @Option(names = "--clusters", description = "Gaussian clusters of the data (default: ${DEFAULT-VALUE}).")
        int clusters = 100;

        @Option(names = "--seed", description = "Seed of the data and the queries (default: ${DEFAULT-VALUE}).")
        long seed = 32;

        @Option(names = "--load-connections", description = "Connections writing the vectors (default: ${DEFAULT-VALUE}).")
        int loadConnections = 4;

        @Option(names = "--connections", description = "Connections of the second search measurement; the first has "
                + "one (default: ${DEFAULT-VALUE}).")
        int connections = 4;

        @Option(names = "--warmup", paramLabel = "SECONDS", description = "Warm-up before each search measurement (default: ${DEFAULT-VALUE}).")
        int warmup = 2;

        @Option(names = "--duration", paramLabel = "SECONDS", description = "Length of each search measurement (default: ${DEFAULT-VALUE}).")
        int duration = 10;

        @Option(names = "--no-reference", description = "Skip hnswlib and faiss.")
        boolean noReference;

        @Option(names = "--report", description = "The report to write the section into; the rest of it is kept "
                + "(default: target/stator-bench/benchmarks.md).")
        Path report;

        @Option(names = "--work-dir", description = "Data directory, data files and logs (default: target/stator-bench).")
        Path workDir;

        @Override
        public Integer call() throws IOException {
            if (queries < 1 || clusters < 1 || loadConnections < 1 || connections < 1 || warmup < 0 || duration < 1) {
                throw new IllegalArgumentException("--queries, --clusters, --load-connections, --connections and "
                        + "--duration must be at least 1, --warmup at least 0");
            }
            VectorBench.Options options = new VectorBench.Options(shapes.stream().map(VectorBench.Shape::parse).toList(),
                    queries, clusters, seed, loadConnections, connections, Duration.ofSeconds(warmup),
                    Duration.ofSeconds(duration), !noReference);
            SectionOptions section = new SectionOptions();
            section.report = report;
            section.workDir = workDir;
            String machine = Machine.describe();
            List<VectorBench.ShapeOutcome> outcomes = VectorBench.run(options, section.places());
            section.write(ReportSection.VECTORS, VectorReport.markdown(options, outcomes, machine,
                    "bin/stator-bench " + System.getProperty("stator.bench.args", "vectors").trim()));
            return 0;
        }
    }

    @Command(name = "replication", mixinStandardHelpOptions = true,
            description = "Measures global tables' replication: starts two Stator regions (bin/stator, RocksDB) "
                    + "as peers, makes a table of A global with a replica in B, puts new items on A at each --rate, "
                    + "and reports the items B applied per second, its ReplicationLatency p50 and p99 (from B's "
                    + "/metrics) and when it caught up; writes the report's replication section.")
    static final class ReplicationCommand implements Callable<Integer> {
        @Option(names = "--rate", split = ",", paramLabel = "PUTS|max|drain", description = "Loads on A, each on a "
                + "table of its own: puts per second (an open loop); max, as fast as A accepts them; drain, as fast "
                + "with shipping to B cut (the test-only fault hook), then B's catch-up timed "
                + "(default: ${DEFAULT-VALUE}).")
        List<String> rates = List.of("2000", "max", "drain");

        @Option(names = "--duration", paramLabel = "SECONDS", description = "Length of each load's measurement "
                + "(default: ${DEFAULT-VALUE}).")
        int duration = 20;

        @Option(names = "--warmup", paramLabel = "SECONDS", description = "Load before each measurement: the "
                + "servers start cold, and a backlog from their first seconds would count in the window "
                + "(default: ${DEFAULT-VALUE}).")
        int warmup = 5;

        @Option(names = "--connections", description = "Connections putting on A (default: ${DEFAULT-VALUE}).")
        int connections = 4;

        @Option(names = "--item-size", paramLabel = "BYTES", description = "Item size as DynamoDB measures it (default: ${DEFAULT-VALUE}).")
        int itemBytes = 1024;

        @Option(names = "--report", description = "The report to write the section into; the rest of it is kept "
                + "(default: target/stator-bench/benchmarks.md).")
        Path report;

        @Option(names = "--work-dir", description = "Data directories (deleted after) and server logs (default: target/stator-bench).")
        Path workDir;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            if (duration < 1 || warmup < 0 || connections < 1) {
                throw new ParameterException(spec.commandLine(),
                        "--duration and --connections must be at least 1, --warmup at least 0");
            }
            List<ReplicationBench.Load> loads;
            try {
                loads = rates.stream().map(ReplicationBench.Load::parse).toList();
                new BenchTable("replication", BenchTable.ITEMS_PER_PARTITION, itemBytes); // refuses a size too small
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            ReplicationBench.Options options = new ReplicationBench.Options(loads, connections, itemBytes,
                    Duration.ofSeconds(warmup), Duration.ofSeconds(duration));
            SectionOptions section = new SectionOptions();
            section.report = report;
            section.workDir = workDir;
            String machine = Machine.describe();
            List<ReplicationBench.Run> runs = ReplicationBench.run(options, section.places());
            section.write(ReportSection.REPLICATION, ReplicationBench.markdown(options, runs, machine,
                    "bin/stator-bench " + System.getProperty("stator.bench.args", "replication").trim()));
            return 0;
        }
    }

    /** The options of the subcommands that write one section of the report (soak, streams). */
    static final class SectionOptions {
        @Option(names = "--connections", description = "Concurrent keep-alive connections (default: ${DEFAULT-VALUE}).")
        int connections = 16;

        @Option(names = "--items", description = "Items in each table (default: ${DEFAULT-VALUE}).")
        long items = 100_000;

        @Option(names = "--item-size", paramLabel = "BYTES", description = "Item size as DynamoDB measures it (default: ${DEFAULT-VALUE}).")
        int itemBytes = 1024;

        @Option(names = "--report", description = "The report to write the section into; the rest of it is kept "
                + "(default: target/stator-bench/benchmarks.md).")
        Path report;

        @Option(names = "--work-dir", description = "Data directory and server log (default: target/stator-bench).")
        Path workDir;

        private Path home() {
            return Path.of(System.getProperty("stator.home", ".")).toAbsolutePath().normalize();
        }

        private Path work() {
            return workDir != null ? workDir : home().resolve("target/stator-bench");
        }

        /** Where the server's data and log go (created). */
        ServerKind.Places places() throws IOException {
            Files.createDirectories(work());
            return new ServerKind.Places(home(), work(), work(), null);
        }

        /** Writes the section into the report, in place of its last run's. */
        void write(ReportSection which, String section) throws IOException {
            Path out = report != null ? report : work().resolve("benchmarks.md");
            which.write(out, section);
            Compare.progress("report: %s", out);
        }
    }

    @Command(name = "trivial-server", mixinStandardHelpOptions = true,
            description = "Serves a fixed small JSON body to every request: the machine's ceiling.")
    static final class Trivial implements Callable<Integer> {
        @Option(names = "--host", description = "Address (default: ${DEFAULT-VALUE}).")
        String host = "127.0.0.1";

        @Option(names = "--port", description = "Port (default: ${DEFAULT-VALUE}).")
        int port = 8001;

        @Override
        public Integer call() throws InterruptedException {
            TrivialServer.serve(host, port);
            return 0;
        }
    }

    public static void main(String[] args) {
        int code = new CommandLine(new BenchCommand()).execute(args);
        if (code != 0) System.exit(code);
    }
}
