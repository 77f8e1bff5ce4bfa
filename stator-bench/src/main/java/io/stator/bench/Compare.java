package io.stator.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code stator-bench compare}: starts each server in turn on this machine, runs the same
 * workloads against each, and collects what the report shows.
 *
 * <p>Two phases per database server, each on a freshly started process:
 * <ol>
 * <li>the workload matrix, on a table of {@code items} items of {@code itemBytes} (the issue's
 *     targets are set for 100,000 items of 1 KB): startup time, idle memory, load, every
 *     request workload closed-loop, a full scan, and {@code get} open-loop at half the peak the
 *     server reached (nginx: at half of Stator's, the rate its target compares them at); for
 *     Stator and nginx also {@code get} over {@code manyConnections} connections;</li>
 * <li>the large table ({@code largeItems} of {@code largeItemBytes}, 1,000,000 of 100 B):
 *     memory after loading it, a full scan, {@code get} and {@code put}.</li>
 * </ol>
 * A fresh process per phase makes the memory after loading the large table that table's cost,
 * not the sum of both. A server that loads slowly stops loading at the load budget and runs
 * its workloads on the items it has; the report says how many that was.
 *
 * <p>Stator's durable mode and its baseline (another checkout, {@code --baseline}) run their
 * request workloads in {@code rounds} rounds, each on a freshly started and loaded process,
 * taking turns, before their large tables: a change to Stator is judged on the median of each,
 * so that a drift in what else the machine runs reaches both alike. The startup, the memory, the
 * scan, the open loop and the profile are the first round's.
 *
 * <p>Closed loops are measured by {@code generator} (wrk by default, see {@link WrkGenerator});
 * open loops, loads and scans by the Java generator. After every server, {@code soakMinutes} of
 * Stator under changing load ({@link Soak}) give its resident memory minute by minute.
 */
final class Compare {

    /**
     * @param generator      what measures the closed loops (wrk falls back to java when it is not installed)
     * @param generatorNote  why the generator is not the one asked for, or null
     * @param manyConnections connections of the extra {@code get} of Stator and nginx; 0 skips it
     * @param soakMinutes    minutes of Stator's soak after the servers; 0 skips it
     */
    record Options(List<ServerKind> servers, List<Workload> workloads, int connections, Duration warmup,
                   Duration duration, long items, int itemBytes, long largeItems, int largeItemBytes,
                   double loadBudgetSeconds, double largeLoadBudgetSeconds, double scanBudgetSeconds, boolean profile,
                   int rounds, Generator generator, String generatorNote, int manyConnections, int soakMinutes) {}

    /**
     * Stator's budget for the large table, above the peers': its scan target is about 1,000,000
     * items, which it loads in about two minutes here; more would push the run past 30 minutes.
     */
    static final double STATOR_LARGE_LOAD_BUDGET_SECONDS = 150;

    /**
     * One measured workload on one server. {@code mode} is "closed" or "open"; {@code round} counts
     * from 1; {@code connections}: the run's connections (one for a scan).
     */
    record Measurement(ServerKind server, String workload, BenchTable table, String mode, double offeredRate,
                       int connections, int round, RunResult result) {}

    /** What one server's runs found besides the measurements. */
    static final class ServerRecord {
        final ServerKind kind;
        final String description;
        /** Stator's checkout and its commit (null for the other servers, or outside git). */
        final Path checkout;
        final String commit;
        double startupMillis = Double.NaN;
        double idleMegabytes = Double.NaN;
        double loadedMegabytes = Double.NaN;
        Loader.Result load;
        Loader.Result largeLoad;
        final List<String> notes = new ArrayList<>();

        ServerRecord(ServerKind kind, ServerKind.Places places) {
            this.kind = kind;
            this.checkout = kind.checkout(places);
            this.commit = checkout == null ? null : ServerKind.gitCommit(checkout);
            this.description = kind.description(commit);
        }
    }

    /** {@code soak}: Stator's minutes under load, empty when not run. */
    record Outcome(List<ServerRecord> servers, List<Measurement> measurements, Profile.Report profile,
                   List<Soak.Minute> soak, double seconds) {}

    /** The matrix's table; the report tells its measurements from the large table's by this name. */
    static final String MATRIX_TABLE = "bench_matrix";

    private final Options options;
    private final ServerKind.Places places;
    private final List<Measurement> measurements = new ArrayList<>();
    private Profile.Report profile;

    Compare(Options options, ServerKind.Places places) {
        this.options = options;
        this.places = places;
    }

    Outcome run() throws IOException {
        long t0 = System.nanoTime();
        List<ServerRecord> records = options.servers().stream().map(kind -> new ServerRecord(kind, places)).toList();
        List<ServerRecord> inRounds = records.stream().filter(r -> r.kind.measuredInRounds()).toList();
        for (ServerRecord record : runningOrder(records)) {
            if (record.kind.measuredInRounds()) {
                // Stator and its baseline run together, where the first of them is in the order.
                if (record == inRounds.get(0)) runRounds(inRounds);
            } else if (available(record) && attempt(record, () -> runMatrix(record, 1))
                    && record.kind.database && options.largeItems() > 0) {
                attempt(record, () -> runLargeTable(record));
            }
        }
        List<Soak.Minute> soak = List.of();
        ServerRecord stator = records.stream().filter(r -> r.kind == ServerKind.STATOR).findFirst().orElse(null);
        if (options.soakMinutes() > 0 && stator != null && stator.notes.stream().noneMatch(n -> n.startsWith("not run"))) {
            try {
                soak = Soak.run(new Soak.Options(null, options.soakMinutes(), options.connections(), options.items(),
                        options.itemBytes()), places);
            } catch (IOException | RuntimeException e) {
                stator.notes.add("the soak stopped with an error: " + e.getMessage());
                progress("stator: the soak stopped with an error: " + e);
            }
        }
        return new Outcome(records, measurements, profile, soak, (System.nanoTime() - t0) / 1e9);
    }

    /**
     * The order the servers run in: as given, but nginx after Stator, since nginx's open loop runs
     * at Stator's rate. The report keeps the given order.
     */
    private static List<ServerRecord> runningOrder(List<ServerRecord> records) {
        List<ServerRecord> order = new ArrayList<>(records);
        int stator = order.stream().map(r -> r.kind).toList().indexOf(ServerKind.STATOR);
        int nginx = order.stream().map(r -> r.kind).toList().indexOf(ServerKind.NGINX);
        if (stator >= 0 && nginx >= 0 && nginx < stator) order.add(stator, order.remove(nginx));
        return order;
    }

    /**
     * The request matrix of Stator and its baseline, round after round, then their large tables.
     * The order turns every round (stator, baseline; baseline, stator; ...): over an even number
     * of rounds a machine load that grows or falls steadily through the run weighs on both alike.
     * Both are prepared (built, their class caches made) before the first round, so that the
     * rounds follow one another without that wait.
     */
    private void runRounds(List<ServerRecord> records) {
        List<ServerRecord> running = new ArrayList<>(records.stream().filter(this::available).toList());
        for (int round = 1; round <= options.rounds(); round++) {
            // A copy: a server stopped by an error leaves the running ones during the round.
            for (ServerRecord record : List.copyOf(round % 2 == 1 ? running : running.reversed())) {
                int r = round;
                if (options.rounds() > 1) progress("%s: round %d of %d", record.kind.label, round, options.rounds());
                if (!attempt(record, () -> runMatrix(record, r))) running.remove(record);
            }
        }
        if (options.largeItems() <= 0) return;
        for (ServerRecord record : running) attempt(record, () -> runLargeTable(record));
    }

    /** Whether the server can run here; notes why not when it cannot. */
    private boolean available(ServerRecord record) {
        String missing = record.kind.unavailable(places);
        if (missing == null) return true;
        record.notes.add("not run: " + missing);
        progress(record.kind.label + ": not run: " + missing);
        return false;
    }

    private interface Phase {
        void run() throws IOException;
    }

    /** Runs one phase on a server; an error stops that server (noted), not the comparison. */
    private static boolean attempt(ServerRecord record, Phase phase) {
        try {
            phase.run();
            return true;
        } catch (IOException | RuntimeException e) {
            record.notes.add("stopped by an error: " + e.getMessage());
            progress(record.kind.label + ": stopped by an error: " + e);
            return false;
        }
    }

    /**
     * The matrix on a fresh process. A later round measures the request workloads again on a
     * process started and loaded alike, and only them.
     */
    private void runMatrix(ServerRecord record, int round) throws IOException {
        ServerKind kind = record.kind;
        BenchTable table = new BenchTable(MATRIX_TABLE, options.items(), options.itemBytes());
        try (ServerProcess server = start(kind, "matrix", round)) {
            // A later round waits as the first does before reading the idle memory, so that its
            // process reaches the workloads as the first round's did.
            pause(Duration.ofSeconds(2));
            if (round == 1) {
                record.startupMillis = server.startupMillis();
                record.idleMegabytes = server.residentMegabytes();
                progress("%s: started in %.0f ms, %.0f MB resident when idle", kind.label, record.startupMillis,
                        record.idleMegabytes);
            } else {
                progress("%s: round %d: started in %.0f ms", kind.label, round, server.startupMillis());
            }
            DynamoRequests requests = new DynamoRequests(server.endpoint(), SigV4Signer.Credentials.BENCH);
            List<Workload> workloads = options.workloads();
            if (kind.database) {
                table.create(requests);
                Loader.Result load = Loader.load(requests, table, options.connections(), options.loadBudgetSeconds());
                if (round == 1) record.load = load;
                table = loaded(record, table, load, options.loadBudgetSeconds(), round);
            }
            LoadGenerator.Settings closed = new LoadGenerator.Settings(options.connections(), options.warmup(),
                    options.duration(), 0);
            if (!kind.database) {
                // The fixed-reply servers answer everything alike: the request kinds that differ in size suffice.
                workloads = workloads.stream().filter(w -> w == Workload.GET || w == Workload.PUT || w == Workload.QUERY).toList();
            }
            if (kind == ServerKind.TRIVIAL) {
                // A database server's JIT (and the generator's) warm up during the load; this one has none.
                options.generator().run(server.endpoint(), Workload.GET.build(requests, table),
                        closed.withDuration(Duration.ZERO, options.warmup().multipliedBy(3)), CpuClock.NONE, places.work());
            }
            for (Workload workload : workloads) {
                // Compactions of what the last workload wrote (a put overwrites ~100,000 items) would
                // otherwise be billed to the next: an update right after a put ran at a fifth of its rate.
                if (kind.database) settle(server);
                measure(server, requests, table, workload, closed, round);
            }
            if (round > 1) return;
            if (kind.database) {
                settle(server);
                scan(record, server, requests, table);
            }
            double rate = openLoopRate(record, table);
            if (rate > 0) measure(server, requests, table, Workload.GET, closed.withRate(rate), 1);
            if ((kind == ServerKind.STATOR || kind == ServerKind.NGINX) && options.manyConnections() > 0
                    && workloads.contains(Workload.GET)) {
                if (options.generator() == Generator.WRK) {
                    measure(server, requests, table, Workload.GET, closed.withConnections(options.manyConnections()), 1);
                } else {
                    record.notes.add(String.format("get over %,d connections not measured: it needs wrk (the Java "
                            + "generator would run a thread per connection)", options.manyConnections()));
                }
            }
            // Profiled after it was measured, on the same process and table, so the recorder cannot touch the numbers.
            if (kind == ServerKind.STATOR && options.profile()) {
                try {
                    profile = Profile.record(server, requests, table, closed, places.work());
                } catch (IOException e) {
                    // A JDK without jcmd or JFR loses the profile, not the rest of the comparison.
                    record.notes.add("not profiled: " + e.getMessage());
                }
            }
        }
    }

    private void runLargeTable(ServerRecord record) throws IOException {
        ServerKind kind = record.kind;
        BenchTable table = new BenchTable("bench_large", options.largeItems(), options.largeItemBytes());
        try (ServerProcess server = start(kind, "large", 1)) {
            DynamoRequests requests = new DynamoRequests(server.endpoint(), SigV4Signer.Credentials.BENCH);
            table.create(requests);
            double budget = kind.isStator() ? Math.max(STATOR_LARGE_LOAD_BUDGET_SECONDS, options.largeLoadBudgetSeconds())
                    : options.largeLoadBudgetSeconds();
            record.largeLoad = Loader.load(requests, table, options.connections(), budget);
            pause(Duration.ofSeconds(2));
            record.loadedMegabytes = server.residentMegabytes();
            table = loaded(record, table, record.largeLoad, budget, 1);
            settle(server);
            scan(record, server, requests, table);
            LoadGenerator.Settings closed = new LoadGenerator.Settings(options.connections(), options.warmup(),
                    options.duration(), 0);
            measure(server, requests, table, Workload.GET, closed, 1);
            measure(server, requests, table, Workload.PUT, closed, 1);
        }
    }

    /**
     * Waits, after a load or a workload, until the server is idle (under a tenth of a core for a
     * second), at most a minute: what a load leaves running (RocksDB's and LevelDB's compactions of the
     * fresh data, a JIT's queue) took up to a core for seconds, and the first workload measured
     * after it (get) paid for it alone, at two thirds of its rate later in the same run.
     */
    private static void settle(ServerProcess server) {
        CpuClock cpu = server.cpu();
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        long before = cpu.cpuNanos();
        while (System.nanoTime() < deadline) {
            pause(Duration.ofSeconds(1));
            long now = cpu.cpuNanos();
            if (now - before < 100_000_000L) return;
            before = now;
        }
        progress("%s: still busy a minute after its load; measured anyway", server.name());
    }

    /**
     * The table a load left for the workloads to run on: all its items, or the whole partitions
     * that a load stopped by its budget wrote (noted for the report).
     */
    private BenchTable loaded(ServerRecord record, BenchTable table, Loader.Result load, double budget, int round) {
        progress("%s: loaded %,d items of %d B in %.1f s (%,.0f items/s)%s", record.kind.label, load.loaded(),
                table.itemBytes(), load.seconds(), load.itemsPerSecond(),
                Double.isNaN(record.loadedMegabytes) ? "" : String.format(", %.0f MB resident", record.loadedMegabytes));
        if (load.loaded() >= table.itemCount()) return table;
        String note = String.format("loaded %,d of %,d items of %d B within the %.0f s load budget",
                load.loaded(), table.itemCount(), table.itemBytes(), budget);
        record.notes.add(round > 1 ? "round " + round + ": " + note : note);
        long whole = load.loaded() / BenchTable.ITEMS_PER_PARTITION * BenchTable.ITEMS_PER_PARTITION;
        return table.withItemCount(Math.max(BenchTable.ITEMS_PER_PARTITION, whole));
    }

    /**
     * The rate of the server's open loop: half of its closed-loop {@code get} on the table; nginx's
     * at Stator's rate instead (their p99s at one rate are a target), or at half of its own peak,
     * noted, when Stator did not run before it. 0: no {@code get} to start from.
     */
    private double openLoopRate(ServerRecord record, BenchTable table) {
        if (record.kind == ServerKind.NGINX) {
            Optional<Measurement> stator = measurements.stream().filter(m -> m.server() == ServerKind.STATOR
                    && m.workload().equals(Workload.GET.label()) && m.mode().equals("open")).findFirst();
            if (stator.isPresent()) return stator.get().offeredRate();
            record.notes.add("open loop at half of its own peak: Stator's was not measured");
        }
        return measurements.stream()
                .filter(m -> m.server() == record.kind && m.workload().equals(Workload.GET.label()) && m.table().equals(table)
                        && m.mode().equals("closed") && m.connections() == options.connections())
                .findFirst()
                .map(peak -> Math.max(1, Math.floor(peak.result().throughput() / 2)))
                .orElse(0.0);
    }

    private void measure(ServerProcess server, DynamoRequests requests, BenchTable table, Workload workload,
                         LoadGenerator.Settings settings, int round) throws IOException {
        Workload.RequestSource source = workload.build(requests, table);
        RunResult result = options.generator().run(server.endpoint(), source, settings, server.cpu(), places.work());
        String mode = settings.rate() > 0 ? "open" : "closed";
        measurements.add(new Measurement(ServerKind.parse(server.name()), workload.label(), table, mode,
                settings.rate(), settings.connections(), round, result));
        progress("%s: %-11s %-6s%s %,10.0f ops/s  p50 %7.2f ms  p99 %7.2f ms  errors %d  (%s %.2f, server %.2f, other %.2f cores)%s",
                server.name(), workload.label(), mode,
                settings.connections() == options.connections() ? "" : String.format(" ×%,d", settings.connections()),
                result.throughput(), result.latencyMs(50), result.latencyMs(99), result.errors(), result.generator(),
                result.clientCores(), result.serverCores(), result.otherCores(),
                result.firstError() == null ? "" : "  first error: " + abbreviate(result.firstError()));
    }

    private void scan(ServerRecord record, ServerProcess server, DynamoRequests requests, BenchTable table)
            throws IOException {
        RunResult result = FullScan.run(requests, table, server.cpu(), options.scanBudgetSeconds());
        if (result.operations() < table.itemCount()) {
            record.notes.add(String.format("the scan of %,d items stopped at the %.0f s scan budget after %,d items",
                    table.itemCount(), options.scanBudgetSeconds(), result.operations()));
        }
        measurements.add(new Measurement(ServerKind.parse(server.name()), "scan", table, "closed", 0, 1, 1, result));
        progress("%s: scan of %,d items of %d B in %.2f s (%,.0f items/s, %d pages)", server.name(),
                result.operations(), table.itemBytes(), result.seconds(), result.throughput(),
                result.latency().getTotalCount());
    }

    /** Starts the server on an empty data directory; every round keeps its own log, the data directory is reused. */
    private ServerProcess start(ServerKind kind, String phase, int round) throws IOException {
        int port = freePort();
        Path data = places.work().resolve(kind.label + "-" + phase);
        deleteRecursively(data);
        Files.createDirectories(data);
        String log = kind.label + "-" + phase + (round > 1 ? "-round" + round : "") + ".log";
        ServerProcess server = ServerProcess.start(kind.label, kind.command(places, port, data), Map.of(),
                Endpoint.local(port), places.work().resolve(log), Duration.ofSeconds(120));
        // A comparison stopped with Ctrl-C or SIGTERM stops the server it was measuring too.
        Thread stopServer = new Thread(server::close, "stop-" + kind.label);
        Runtime.getRuntime().addShutdownHook(stopServer);
        server.onClose(() -> {
            try {
                Runtime.getRuntime().removeShutdownHook(stopServer);
            } catch (IllegalStateException shuttingDown) {
                // Already in the shutdown that runs the hook.
            }
        });
        return server;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    static void pause(Duration d) {
        LoadGenerator.sleepUntil(System.nanoTime() + d.toNanos());
    }

    private static String abbreviate(String s) {
        return s.length() <= 160 ? s : s.substring(0, 160) + "...";
    }

    /** Seconds always shown (LocalTime's own text drops them when they are 0). */
    private static final java.time.format.DateTimeFormatter PROGRESS_TIME = java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss");

    static void progress(String format, Object... args) {
        System.err.println("[" + PROGRESS_TIME.format(java.time.LocalTime.now()) + "] " + String.format(format, args));
    }
}
