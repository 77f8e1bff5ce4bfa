package io.stator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code stator-bench streams}: what a DynamoDB stream costs a write. One Stator (durable, started
 * by {@code bin/stator}) holds two tables of the same items, one without a stream and one with a
 * NEW_AND_OLD_IMAGES stream (the view that writes the most: both images in every record). Each
 * round measures {@code put} and {@code update} on both, alternating which table goes first, so
 * that the machine's drift over the run falls on both alike; the figure is each side's median.
 * The target comes from the Streams issue: put no more than 15% slower with the stream.
 */
final class StreamCost {

    static final List<Workload> WORKLOADS = List.of(Workload.PUT, Workload.UPDATE);

    /** The most a NEW_AND_OLD_IMAGES stream may take off put throughput. */
    static final double PUT_TARGET = 0.15;

    record Options(int rounds, int connections, long items, int itemBytes, Duration warmup, Duration duration) {}

    /** Throughput of every round, without and with the stream, per workload. */
    record Outcome(Map<Workload, double[]> plain, Map<Workload, double[]> streamed, long errors) {}

    private StreamCost() {}

    static Outcome run(Options options, ServerKind.Places places) throws IOException {
        int port = Compare.freePort();
        Path data = places.work().resolve("stator-streams");
        Compare.deleteRecursively(data);
        Files.createDirectories(data);
        Endpoint endpoint = Endpoint.local(port);
        try (ServerProcess server = ServerProcess.start("stator", ServerKind.STATOR.command(places, port, data), Map.of(),
                endpoint, places.work().resolve("stator-streams.log"), Duration.ofSeconds(120))) {
            DynamoRequests requests = new DynamoRequests(endpoint, SigV4Signer.Credentials.BENCH);
            BenchTable plain = new BenchTable("plain", options.items(), options.itemBytes());
            BenchTable streamed = new BenchTable("streamed", options.items(), options.itemBytes());
            for (BenchTable table : List.of(plain, streamed)) {
                table.create(requests);
                Loader.Result load = Loader.load(requests, table, options.connections(), Double.MAX_VALUE);
                Compare.progress("streams: loaded %,d items into %s in %.1f s", load.loaded(), table.name(), load.seconds());
            }
            enableStream(requests, streamed);
            LoadGenerator.Settings settings = new LoadGenerator.Settings(options.connections(), options.warmup(),
                    options.duration(), 0);
            Outcome outcome = new Outcome(new EnumMap<>(Workload.class), new EnumMap<>(Workload.class), 0);
            long errors = 0;
            for (Workload w : WORKLOADS) {
                outcome.plain().put(w, new double[options.rounds()]);
                outcome.streamed().put(w, new double[options.rounds()]);
                Workload.RequestSource plainSource = w.build(requests, plain);
                Workload.RequestSource streamedSource = w.build(requests, streamed);
                for (int round = 0; round < options.rounds(); round++) {
                    boolean plainFirst = round % 2 == 0;
                    for (boolean withStream : plainFirst ? new boolean[] {false, true} : new boolean[] {true, false}) {
                        RunResult r = LoadGenerator.run(endpoint, withStream ? streamedSource : plainSource, settings, CpuClock.NONE);
                        (withStream ? outcome.streamed() : outcome.plain()).get(w)[round] = r.throughput();
                        errors += r.errors();
                        Compare.progress("streams: %s round %d %s: %,.0f/s, %d errors", w.label(), round + 1,
                                withStream ? "with the stream" : "without", r.throughput(), r.errors());
                    }
                }
            }
            return new Outcome(outcome.plain(), outcome.streamed(), errors);
        }
    }

    private static void enableStream(DynamoRequests requests, BenchTable table) throws IOException {
        try (HttpConnection connection = new HttpConnection(requests.endpoint())) {
            String body = "{\"TableName\":\"" + table.name() + "\",\"StreamSpecification\":"
                    + "{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}";
            if (connection.exchange(requests.build("UpdateTable", body)) != 200) {
                throw new IOException("UpdateTable answered " + connection.status() + ": " + connection.bodyText());
            }
        }
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The report's section: each round's figures, the medians and the put target. */
    static String markdown(Options options, Outcome outcome, String machine) {
        StringBuilder md = new StringBuilder();
        md.append("## What a stream costs a write\n\n");
        md.append(String.format(Locale.ROOT, "One `bin/stator` (durable), two tables of %,d items of %d B, one without "
                + "a stream and one with a NEW_AND_OLD_IMAGES stream; %d connections, %d rounds of %d s (after %d s "
                + "of warm-up) per workload and table, the two tables alternating which goes first. Machine: %s "
                + "Made by `bin/stator-bench streams`.%n%n", options.items(), options.itemBytes(), options.connections(),
                options.rounds(), options.duration().toSeconds(), options.warmup().toSeconds(), machine));
        md.append("| workload | without a stream | with NEW_AND_OLD_IMAGES | change | rounds without | rounds with |\n");
        md.append("|---|---:|---:|---:|---|---|\n");
        for (Workload w : WORKLOADS) {
            double without = median(outcome.plain().get(w));
            double with = median(outcome.streamed().get(w));
            md.append(String.format(Locale.ROOT, "| %s | %,.0f/s | %,.0f/s | %+.1f%% | %s | %s |%n", w.label(), without,
                    with, 100 * (with / without - 1), rounds(outcome.plain().get(w)), rounds(outcome.streamed().get(w))));
        }
        double cost = 1 - median(outcome.streamed().get(Workload.PUT)) / median(outcome.plain().get(Workload.PUT));
        String measured = cost >= 0 ? String.format(Locale.ROOT, "%.1f%% slower", 100 * cost)
                : String.format(Locale.ROOT, "%.1f%% faster (no cost above the rounds' spread)", -100 * cost);
        md.append(String.format(Locale.ROOT, "%nTarget: put no more than %.0f%% slower with the stream: %s, %s. "
                + "Errors: %d.%n", 100 * PUT_TARGET, measured, cost <= PUT_TARGET ? "met" : "**not met**", outcome.errors()));
        return ReportSection.STREAMS.wrap(md.toString());
    }

    private static String rounds(double[] values) {
        List<String> out = new ArrayList<>();
        for (double v : values) out.add(String.format(Locale.ROOT, "%,.0f", v));
        return String.join(" · ", out);
    }
}
