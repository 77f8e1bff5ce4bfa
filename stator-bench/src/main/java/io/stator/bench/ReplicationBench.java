package io.stator.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;

/**
 * {@code stator-bench replication}: how fast a global table's changes reach another region. Two
 * Stator processes ({@code bin/stator}, RocksDB, a data directory each) run as regions
 * {@value #SOURCE} (A) and {@value #REPLICA} (B), peers of each other with a secret made for the
 * run. For each load a table is created on A and made global with UpdateTable's ReplicaUpdates
 * (a replica in B), and A takes PutItem of new items for a while: at a fixed rate (an open loop,
 * as users' writes arrive), or as fast as A accepts them ({@code max}).
 *
 * <p>What is measured, and how:
 * <ul>
 *   <li>Items applied on B: B's DescribeTable ItemCount, which Stator keeps exact, every
 *       {@value #SAMPLE_MILLIS} ms. Every put is a new item, so the count is the number of A's
 *       changes B has applied. The rate is taken over the window after the warm-up.</li>
 *   <li>ReplicationLatency: B's {@code /metrics} series {@code dynamodb_replication_latency_milliseconds}
 *       for the table and source {@value #SOURCE}, scraped every second of the window. Each scrape's
 *       p50 and p99 are over the latest changes B received (the engine keeps 4,096); the report gives
 *       the median of the scrapes' p50 and p99, the worst p99 and the largest Maximum.</li>
 *   <li>When B caught up: after the load stops, B's count is polled until it reaches the items A
 *       acknowledged; the items over the time from the load's start to then is the rate the
 *       replication sustained, which for {@code max} is its ceiling on this machine.</li>
 * </ul>
 */
final class ReplicationBench {

    static final String SOURCE = "us-east-1";
    static final String REPLICA = "us-west-2";
    static final long SAMPLE_MILLIS = 250;
    static final long SCRAPE_MILLIS = 1_000;
    static final String METRIC = "dynamodb_replication_latency_milliseconds";
    /** How long B may apply nothing, short of every acknowledged item, before the rest count as lost. */
    static final long STALLED_NANOS = 10_000_000_000L;

    /**
     * One load on A: puts per second (an open loop), or as fast as A accepts them ({@code max});
     * {@code drain} is max with shipping to B paused by the fault hook, which is then lifted: B's
     * catch-up, A idle, is the replication's own rate.
     */
    record Load(double rate, boolean paused) {
        static final Load MAX = new Load(0, false);
        static final Load DRAIN = new Load(0, true);

        static Load parse(String s) {
            String t = s.trim().toLowerCase(Locale.ROOT);
            if (t.equals("max")) return MAX;
            if (t.equals("drain")) return DRAIN;
            double rate;
            try {
                rate = Double.parseDouble(t);
            } catch (NumberFormatException e) {
                rate = Double.NaN;
            }
            if (!(rate > 0)) throw new IllegalArgumentException("--rate wants puts per second, max or drain, got " + s);
            return new Load(rate, false);
        }

        String label() {
            return paused ? "drain" : rate == 0 ? "max" : String.format(Locale.ROOT, "%,.0f/s", rate);
        }

        String tableName() {
            return "replication_" + (paused ? "drain" : rate == 0 ? "max" : String.format(Locale.ROOT, "%.0f", rate));
        }

        String description() {
            return paused ? "drain (a backlog, A idle)" : rate == 0 ? "max (as fast as A accepts)"
                    : String.format(Locale.ROOT, "%,.0f puts/s", rate);
        }
    }

    record Options(List<Load> loads, int connections, int itemBytes, Duration warmup, Duration duration) {
        Options {
            if (loads.isEmpty() || connections < 1 || duration.isZero()) throw new IllegalArgumentException(
                    "need a load, a connection and a duration");
        }
    }

    /** Where the two regions answer: their DynamoDB APIs, and B's {@code /metrics} on the same port. */
    record Regions(Endpoint source, Endpoint replica, CpuClock sourceCpu, CpuClock replicaCpu) {}

    /** ReplicationLatency over the window's scrapes, in milliseconds (NaN when none had the series). */
    record Latency(int scrapes, double p50, double p99, double worstP99, double max) {}

    /**
     * One load's figures.
     *
     * @param replicaSeconds     from UpdateTable to the replica ACTIVE in both regions (an empty table)
     * @param acknowledged       puts A acknowledged over the whole load, warm-up included
     * @param acceptedPerSecond  puts A acknowledged per second in the window
     * @param appliedPerSecond   items B applied per second in the window
     * @param mostBehind         the most items B was behind A's acknowledged puts at a sample in the window
     * @param caughtUpSeconds    from the load's end (drain: from shipping's resumption) to B holding every
     *                           acknowledged item; NaN when B stopped applying short of them
     * @param missing            acknowledged items B did not hold when it stopped (0 when it caught up)
     * @param sustainedPerSecond items B applied per second until it held them all: from the load's start (max), or
     *                           from its first item after shipping resumed (drain); NaN for a fixed rate
     * @param putP99Millis       A's PutItem p99 in the window, from when each put was due
     * @param cores              CPU cores kept busy by A, B, the generator, and the rest of the machine: in the
     *                           window, or for drain while B caught up
     */
    record Run(Load load, double replicaSeconds, long acknowledged, long errors, String firstError,
               double acceptedPerSecond, double appliedPerSecond, long mostBehind, double caughtUpSeconds, long missing,
               double sustainedPerSecond, Latency latency, double putP99Millis, double[] cores) {}

    private ReplicationBench() {}

    /** Starts the two regions as processes, measures every load, and stops them. */
    static List<Run> run(Options options, ServerKind.Places places) throws IOException {
        Path work = places.work().resolve("replication");
        Compare.deleteRecursively(work);
        Files.createDirectories(work);
        int portA = Compare.freePort();
        int portB = Compare.freePort();
        Endpoint a = new Endpoint("127.0.0.1", portA, SOURCE);
        Endpoint b = new Endpoint("127.0.0.1", portB, REPLICA);
        // Through the environment, so that the secret is not on a command line others can read.
        Map<String, String> secret = Map.of("STATOR_REPLICATION_SECRET", UUID.randomUUID().toString());
        try (ServerProcess pa = ServerProcess.start("stator " + SOURCE, region(places, a, b, work), secret, a,
                    work.resolve(SOURCE + ".log"), Duration.ofSeconds(120));
             ServerProcess pb = ServerProcess.start("stator " + REPLICA, region(places, b, a, work), secret, b,
                    work.resolve(REPLICA + ".log"), Duration.ofSeconds(120))) {
            return measure(options, new Regions(a, b, pa.cpu(), pb.cpu()));
        } finally {
            for (String r : List.of(SOURCE, REPLICA)) Compare.deleteRecursively(work.resolve(r));
        }
    }

    /** A region's command: bin/stator as compare starts it, its region and peer, and the fault hook (drain's pause). */
    private static List<String> region(ServerKind.Places places, Endpoint self, Endpoint peer, Path work) throws IOException {
        Path data = work.resolve(self.region());
        Files.createDirectories(data);
        List<String> command = new ArrayList<>(ServerKind.STATOR.command(places, self.port(), data));
        command.addAll(List.of("--region", self.region(), "--replica-peers", peer.region() + "=" + peer,
                "--replication-faults"));
        return command;
    }

    /** Measures every load on the running regions, each on a table of its own. */
    static List<Run> measure(Options options, Regions regions) throws IOException {
        List<Run> runs = new ArrayList<>();
        for (Load load : options.loads()) {
            Run run = measureOne(options, regions, new BenchTable(load.tableName(), 1_000_000_000L, options.itemBytes()), load);
            Compare.progress("replication %s: A accepted %,.0f puts/s, B applied %,.0f/s, caught up %.1f s after, "
                            + "sustained %,.0f/s; ReplicationLatency p50 %.0f ms, p99 %.0f ms; %d errors",
                    load.label(), run.acceptedPerSecond(), run.appliedPerSecond(), run.caughtUpSeconds(),
                    run.sustainedPerSecond(), run.latency().p50(), run.latency().p99(), run.errors());
            runs.add(run);
        }
        return runs;
    }

    private static Run measureOne(Options options, Regions regions, BenchTable table, Load load) throws IOException {
        DynamoRequests onA = new DynamoRequests(regions.source(), SigV4Signer.Credentials.BENCH);
        DynamoRequests onB = new DynamoRequests(regions.replica(), SigV4Signer.Credentials.BENCH);
        table.create(onA);
        long t0 = System.nanoTime();
        makeGlobal(onA, onB, table);
        double replicaSeconds = (System.nanoTime() - t0) / 1e9;
        Compare.progress("replication %s: %s is global, replica in %s ACTIVE after %.1f s", load.label(),
                table.name(), REPLICA, replicaSeconds);
        if (load.paused()) setFaults(regions.source(), "{\"drop\":[\"" + REPLICA + "\"]}");

        long start = System.nanoTime() + 50_000_000;
        long windowStart = start + options.warmup().toNanos();
        long end = windowStart + options.duration().toNanos();
        Writer writer = new Writer(onA, table, options.connections(), load.rate(), start, windowStart, end);
        CpuClock generator = CpuClock.self();
        CpuClock machine = CpuClock.machine();
        List<long[]> samples = new ArrayList<>(); // {nanoTime, acknowledged, count on B}
        List<double[]> scrapes = new ArrayList<>(); // {p50, p99, max}
        long[] cpu0 = null;
        try (HttpConnection toB = new HttpConnection(regions.replica())) {
            byte[] describe = onB.build("DescribeTable", table.describeTable());
            byte[] metrics = metricsRequest(regions.replica());
            long nextScrape = windowStart;
            for (long tick = start; tick <= end; tick += SAMPLE_MILLIS * 1_000_000) {
                LoadGenerator.sleepUntil(tick);
                if (cpu0 == null && tick >= windowStart) cpu0 = cpuNow(regions, generator, machine);
                samples.add(new long[] {System.nanoTime(), writer.acknowledged.get(), itemCount(toB, describe)});
                if (tick >= nextScrape) {
                    double[] s = scrape(toB, metrics, table.name());
                    if (s != null) scrapes.add(s);
                    nextScrape += SCRAPE_MILLIS * 1_000_000;
                }
            }
            long[] cpu1 = cpuNow(regions, generator, machine);
            writer.join();
            long total = writer.acknowledged.get();
            long from = end;
            long firstAt = start;
            long firstCount = 0;
            if (load.paused()) {
                setFaults(regions.source(), "{}");
                from = System.nanoTime();
                long before = itemCount(toB, describe);
                firstAt = -1;
                while (System.nanoTime() - from < 60_000_000_000L) {
                    firstCount = itemCount(toB, describe);
                    if (firstCount > before) {
                        firstAt = System.nanoTime();
                        cpu0 = cpuNow(regions, generator, machine);
                        break;
                    }
                    LockSupport.parkNanos(5_000_000);
                }
            }
            // B that stops applying short of every acknowledged item has lost changes: the report counts them.
            long caughtUp = -1;
            long held = firstCount;
            long progressAt = System.nanoTime();
            while (firstAt >= 0 && System.nanoTime() - progressAt < STALLED_NANOS) {
                long now = itemCount(toB, describe);
                if (now >= total) {
                    caughtUp = System.nanoTime();
                    break;
                }
                if (now > held) progressAt = System.nanoTime();
                held = now;
                LockSupport.parkNanos(20_000_000);
            }
            if (load.paused()) cpu1 = cpuNow(regions, generator, machine);
            double caughtUpSeconds = caughtUp < 0 ? Double.NaN : Math.max(0, caughtUp - from) / 1e9;
            double sustained = caughtUp < 0 || (load.rate() > 0) ? Double.NaN
                    : (total - firstCount) / ((caughtUp - firstAt) / 1e9);
            return summarize(load, replicaSeconds, writer, samples, scrapes, windowStart, caughtUpSeconds,
                    caughtUp < 0 ? Math.max(0, total - held) : 0, sustained, cpu0, cpu1);
        }
    }

    private static Run summarize(Load load, double replicaSeconds, Writer writer, List<long[]> samples,
                                 List<double[]> scrapes, long windowStart, double caughtUpSeconds, long missing,
                                 double sustained, long[] cpu0, long[] cpu1) {
        long[] first = null;
        long[] last = null;
        long mostBehind = 0;
        for (long[] s : samples) {
            if (s[0] < windowStart) continue;
            if (first == null) first = s;
            last = s;
            mostBehind = Math.max(mostBehind, s[1] - s[2]);
        }
        double window = (last[0] - first[0]) / 1e9;
        double accepted = (last[1] - first[1]) / window;
        double applied = (last[2] - first[2]) / window;
        double seconds = (cpu1[0] - cpu0[0]) / 1e9;
        double[] cores = new double[4];
        for (int i = 0; i < 3; i++) cores[i] = (cpu1[i + 1] - cpu0[i + 1]) / 1e9 / seconds;
        cores[3] = Math.max(0, (cpu1[4] - cpu0[4]) / 1e9 / seconds - cores[0] - cores[1] - cores[2]);
        Histogram putLatency = writer.latency();
        return new Run(load, replicaSeconds, writer.acknowledged.get(), writer.errors.get(), writer.firstError.get(),
                accepted, applied, mostBehind, caughtUpSeconds, missing, sustained, latency(scrapes),
                putLatency.getTotalCount() == 0 ? Double.NaN : putLatency.getValueAtPercentile(99) / 1e6, cores);
    }

    /** Sets A's fault hook ({@code --replication-faults}): {@code {"drop":[region]}} cuts the link, {@code {}} mends it. */
    private static void setFaults(Endpoint source, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        byte[] request = ("POST /_stator/replication/faults HTTP/1.1\r\nHost: " + source.hostHeader()
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n" + json)
                .getBytes(StandardCharsets.UTF_8);
        try (HttpConnection connection = new HttpConnection(source)) {
            if (connection.exchange(request) != 200) {
                throw new IOException("the fault hook answered " + connection.status() + ": " + connection.bodyText()
                        + " (drain needs A started with --replication-faults)");
            }
        }
    }

    /** {nanoTime, A's CPU, B's CPU, this JVM's, the machine's}. */
    private static long[] cpuNow(Regions regions, CpuClock generator, CpuClock machine) {
        return new long[] {System.nanoTime(), regions.sourceCpu().cpuNanos(), regions.replicaCpu().cpuNanos(),
                generator.cpuNanos(), machine.cpuNanos()};
    }

    static Latency latency(List<double[]> scrapes) {
        if (scrapes.isEmpty()) return new Latency(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        double[] p50 = scrapes.stream().mapToDouble(s -> s[0]).toArray();
        double[] p99 = scrapes.stream().mapToDouble(s -> s[1]).toArray();
        return new Latency(scrapes.size(), StreamCost.median(p50), StreamCost.median(p99),
                Arrays.stream(p99).max().orElseThrow(), scrapes.stream().mapToDouble(s -> s[2]).max().orElseThrow());
    }

    /**
     * UpdateTable's ReplicaUpdates creating the replica in B, then DescribeTable on A until the
     * table and its replica are ACTIVE, and on B until its table is.
     */
    private static void makeGlobal(DynamoRequests onA, DynamoRequests onB, BenchTable table) throws IOException {
        String update = "{\"TableName\":\"" + table.name() + "\",\"ReplicaUpdates\":[{\"Create\":{\"RegionName\":\""
                + REPLICA + "\"}}]}";
        try (HttpConnection a = new HttpConnection(onA.endpoint()); HttpConnection b = new HttpConnection(onB.endpoint())) {
            if (a.exchange(onA.build("UpdateTable", update)) != 200) {
                throw new IOException("UpdateTable answered " + a.status() + ": " + a.bodyText());
            }
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (true) {
                a.exchange(onA.build("DescribeTable", table.describeTable()));
                String onSource = a.bodyText().replace(" ", "");
                if (onSource.contains("\"TableStatus\":\"ACTIVE\"") && onSource.contains("\"ReplicaStatus\":\"ACTIVE\"")
                        && b.exchange(onB.build("DescribeTable", table.describeTable())) == 200
                        && b.bodyText().replace(" ", "").contains("\"TableStatus\":\"ACTIVE\"")) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("the replica of " + table.name() + " in " + REPLICA + " not ACTIVE after 120 s: "
                            + onSource);
                }
                LockSupport.parkNanos(20_000_000);
            }
        }
    }

    private static final Pattern ITEM_COUNT = Pattern.compile("\"ItemCount\"\\s*:\\s*(\\d+)");

    /** The table's ItemCount in a region (the bench tables have no index, whose counts would come after). */
    private static long itemCount(HttpConnection connection, byte[] describe) throws IOException {
        int status = connection.exchange(describe);
        Matcher m = ITEM_COUNT.matcher(connection.bodyText());
        if (status != 200 || !m.find()) throw new IOException("DescribeTable answered " + status + ": " + connection.bodyText());
        return Long.parseLong(m.group(1));
    }

    static byte[] metricsRequest(Endpoint endpoint) {
        return ("GET /metrics HTTP/1.1\r\nHost: " + endpoint.hostHeader() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** The table's ReplicationLatency from {@value #SOURCE} in a {@code /metrics} text: {p50, p99, Maximum}, or null. */
    static double[] parseLatency(String metrics, String tableName) {
        double[] out = {Double.NaN, Double.NaN, Double.NaN};
        for (String line : metrics.split("\n")) {
            if (!line.startsWith(METRIC + "{") || !line.contains("table=\"" + tableName + "\"")
                    || !line.contains("source_region=\"" + SOURCE + "\"")) {
                continue;
            }
            int slot = line.contains("statistic=\"p50\"") ? 0 : line.contains("statistic=\"p99\"") ? 1
                    : line.contains("statistic=\"Maximum\"") ? 2 : -1;
            if (slot >= 0) out[slot] = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1).trim());
        }
        return Double.isNaN(out[0]) ? null : out;
    }

    private static double[] scrape(HttpConnection connection, byte[] request, String tableName) throws IOException {
        if (connection.exchange(request) != 200) return null;
        return parseLatency(connection.bodyText(), tableName);
    }

    /**
     * PutItem of new items 0, 1, 2... on A over N connections, from {@code start} to {@code end}:
     * item {@code i} due at {@code start + i / rate} (a connection that falls behind sends its
     * late puts back to back; those of the warm-up are dropped when the window opens), or as fast
     * as each answer comes back when the rate is 0. Each
     * request is new, so it is built and signed as it goes, as {@link Loader} does.
     */
    private static final class Writer {
        final AtomicLong next = new AtomicLong();
        final AtomicLong acknowledged = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final AtomicReference<String> firstError = new AtomicReference<>();
        private final List<Histogram> latencies = new ArrayList<>();
        private final List<Thread> threads;

        /** Puts due before {@code windowStart} are the warm-up: acknowledged, not in the latency. */
        Writer(DynamoRequests requests, BenchTable table, int connections, double rate, long start, long windowStart,
               long end) {
            for (int k = 0; k < connections; k++) latencies.add(RunResult.newHistogram());
            threads = IntStream.range(0, connections).mapToObj(k -> Thread.ofPlatform().name("replication-put-" + k)
                    .start(() -> put(requests.copy(), table, rate, start, windowStart, end, latencies.get(k)))).toList();
        }

        private void put(DynamoRequests requests, BenchTable table, double rate, long start, long windowStart, long end,
                         Histogram latency) {
            LoadGenerator.sleepUntil(start);
            try (HttpConnection connection = new HttpConnection(requests.endpoint())) {
                while (true) {
                    long i = next.getAndIncrement();
                    long due = rate > 0 ? start + (long) (i * 1e9 / rate) : System.nanoTime();
                    if (due >= end) return;
                    // A warm-up put still unsent when the window opens is skipped, not sent late: the
                    // window measures the rate, not the cold servers' backlog.
                    if (due < windowStart && System.nanoTime() >= windowStart) continue;
                    LoadGenerator.sleepUntil(due);
                    String failure = null;
                    try {
                        int status = connection.exchange(requests.build("PutItem", table.putItem(i)));
                        if (status != 200) failure = status + " " + connection.bodyText();
                    } catch (IOException e) {
                        connection.close();
                        failure = e.toString();
                    }
                    if (failure == null) {
                        acknowledged.incrementAndGet();
                        if (due >= windowStart) latency.recordValue(Math.max(1, System.nanoTime() - due));
                    } else {
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, failure);
                    }
                }
            }
        }

        void join() {
            LoadGenerator.join(threads);
        }

        Histogram latency() {
            Histogram all = RunResult.newHistogram();
            for (Histogram h : latencies) all.add(h);
            return all;
        }
    }

    /** The report's section: the set-up, one row per load, and what bounds the figures. */
    static String markdown(Options options, List<Run> runs, String machine, String command) {
        StringBuilder md = new StringBuilder();
        md.append("## Global tables: replication\n\n");
        md.append(String.format(Locale.ROOT, "Two `bin/stator` processes on this machine (RocksDB, a data directory "
                + "each), regions %s (A) and %s (B), peers over HTTP on 127.0.0.1 with a shared secret. For each load, "
                + "a table is created on A and made global (UpdateTable `ReplicaUpdates` Create %s), then A takes "
                + "PutItem of new items of %,d B over %d connections for %d s after %d s of warm-up: at a fixed rate "
                + "(an open loop), as fast as A accepts them (*max*), or as fast with shipping to B cut by the test-only "
                + "fault hook, mended when the load ends (*drain*: B catching up a backlog, A idle).%n%n",
                SOURCE, REPLICA, REPLICA, options.itemBytes(), options.connections(), options.duration().toSeconds(),
                options.warmup().toSeconds()));
        md.append(String.format(Locale.ROOT, "*B applied*: B's DescribeTable ItemCount (exact in Stator), sampled "
                + "every %d ms; every put is a new item, so it counts A's changes B applied. *ReplicationLatency*: B's "
                + "`/metrics` series `%s` for the table, scraped every second of the window; each scrape's p50 and p99 "
                + "cover the latest 4,096 changes B received; shown: the median of the scrapes' p50 and p99, the worst "
                + "p99, the largest Maximum. *B caught up*: from the load's end (drain: from the link's mending) until "
                + "B held every item A acknowledged. *Sustained*: items B applied per second until then, from the load's "
                + "start (max) or from its first applied item (drain; the shipper retries a cut link after a back-off of "
                + "up to 2 s, which *B caught up* includes). *A's put p99*: from when each put was due. *CPU*: over the "
                + "window; for drain, from B's first applied item until it caught up. *Never*: B applied nothing for "
                + "10 s short of every acknowledged item; the items it lacked.%n%n",
                SAMPLE_MILLIS, METRIC));
        md.append(String.format(Locale.ROOT, "Machine: %s Other processes share these cores (the *other* CPU column). "
                + "Made by `%s`.%n%n", machine, command));
        md.append("| load on A | A accepted | B applied | most behind | B caught up | sustained | "
                + "ReplicationLatency p50 | p99 (worst) | max | A's put p99 | CPU A · B · generator · other | errors |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
        for (Run r : runs) {
            md.append(String.format(Locale.ROOT, "| %s | %,.0f/s | %,.0f/s | %,d | %s | %s | %s | %s (%s) | %s | "
                            + "%s | %.2f · %.2f · %.2f · %.2f | %d |%n",
                    r.load().description(), r.acceptedPerSecond(), r.appliedPerSecond(), r.mostBehind(),
                    Double.isNaN(r.caughtUpSeconds())
                            ? String.format(Locale.ROOT, "**never: %,d missing**", r.missing())
                            : String.format(Locale.ROOT, "%.1f s", r.caughtUpSeconds()),
                    Double.isNaN(r.sustainedPerSecond()) ? "–" : String.format(Locale.ROOT, "%,.0f/s", r.sustainedPerSecond()),
                    ms(r.latency().p50()), ms(r.latency().p99()), ms(r.latency().worstP99()), ms(r.latency().max()),
                    ms(r.putP99Millis()), r.cores()[0], r.cores()[1], r.cores()[2], r.cores()[3], r.errors()));
        }
        md.append("\n");
        for (Run r : runs) {
            if (r.firstError() != null) md.append("First error (").append(r.load().label()).append("): `")
                    .append(r.firstError().replace('`', '\'')).append("`\n\n");
        }
        for (Run r : runs) {
            if (r.load().paused() && !Double.isNaN(r.sustainedPerSecond()) && r.cores()[1] > 0) {
                md.append(String.format(Locale.ROOT, "Drain: B applied %,.0f items/s on %.2f cores of its own, %.0f µs of "
                        + "B's CPU per item.%n%n", r.sustainedPerSecond(), r.cores()[1],
                        r.cores()[1] / r.sustainedPerSecond() * 1e6));
            } else if (!r.load().paused() && r.appliedPerSecond() >= 0.95 * r.acceptedPerSecond()) {
                md.append(String.format(Locale.ROOT, "%s: B applied as fast as A accepted (%,.0f/s against %,.0f/s), "
                        + "never more than %,d items behind at a sample.%n%n", r.load().label(), r.appliedPerSecond(),
                        r.acceptedPerSecond(), r.mostBehind()));
            }
        }
        md.append(String.format(Locale.ROOT, "Each replica of an empty table was ACTIVE in both regions %s s after "
                + "UpdateTable.%n%n", String.join(", ", runs.stream()
                .map(r -> String.format(Locale.ROOT, "%.1f", r.replicaSeconds())).toList())));
        md.append("""
                How it works, which is what bounds the figures: one shipper thread per peer region sends A's changes \
                of a table in order, in batches of up to 500 changes (or about 1 MB), each batch one HTTP request \
                that B answers once it has applied the whole batch, item by item, through its write pipeline (the \
                item lock, the stored version read and compared, then the item, its counters, its stream record and \
                its version in one commit per item). Batches to one region do not overlap: the replication's rate is \
                one batch per round trip, B's apply time times the batch plus a batch's encoding, signing and HTTP. \
                A, B and the generator share this machine's cores, so what one takes the others lack.
                """);
        return ReportSection.REPLICATION.wrap(md.toString());
    }

    private static String ms(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, v < 10 ? "%.1f ms" : "%.0f ms", v);
    }
}
