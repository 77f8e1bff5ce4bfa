package io.stator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code stator-bench soak}: Stator (durable, started by {@code bin/stator --memory SIZE}) under
 * changing load for many minutes, its resident memory read at the end of each minute. Every
 * minute runs each of {@link #WORKLOADS} in turn, as fast as it goes, over the same items (puts
 * overwrite, so the data does not grow): what RSS does then is what the server holds on to, not
 * what it stores. The figure that matters is RSS at the end against RSS after five minutes, once
 * the caches and the heap have filled.
 */
final class Soak {

    /**
     * The minute at whose end Stator counts as warmed up, in {@code compare}'s soak: by then its
     * caches and heap have taken the table and the workloads' mix (the load comes before minute 1).
     */
    static final int WARMED_UP_MINUTE = 2;

    /** Each minute's load: reads, overwrites, updates, queries and a hot key, a quarter minute each. */
    static final List<Workload> WORKLOADS = List.of(Workload.MIXED, Workload.PUT, Workload.QUERY, Workload.HOT_KEY);

    /** {@code memory}: Stator's --memory, or null for its default (as {@code compare} runs it). */
    record Options(String memory, int minutes, int connections, long items, int itemBytes) {}

    /** One minute of load and the resident memory at its end. */
    record Minute(int minute, double residentMegabytes, double requestsPerSecond, long errors) {}

    private Soak() {}

    static List<Minute> run(Options options, ServerKind.Places places) throws IOException {
        int port = Compare.freePort();
        Path data = places.work().resolve("stator-soak");
        Compare.deleteRecursively(data);
        Files.createDirectories(data);
        List<String> command = new ArrayList<>(ServerKind.STATOR.command(places, port, data));
        if (options.memory() != null) command.addAll(List.of("--memory", options.memory()));
        Endpoint endpoint = Endpoint.local(port);
        List<Minute> minutes = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start("stator", command, Map.of(), endpoint,
                places.work().resolve("stator-soak.log"), Duration.ofSeconds(120))) {
            DynamoRequests requests = new DynamoRequests(endpoint, SigV4Signer.Credentials.BENCH);
            BenchTable table = new BenchTable("soak", options.items(), options.itemBytes());
            table.create(requests);
            Loader.Result load = Loader.load(requests, table, options.connections(), Double.MAX_VALUE);
            Compare.progress("soak: loaded %,d items in %.1f s, RSS %.0f MB", load.loaded(), load.seconds(),
                    server.residentMegabytes());
            Duration slice = Duration.ofSeconds(60 / WORKLOADS.size());
            LoadGenerator.Settings settings = new LoadGenerator.Settings(options.connections(), Duration.ZERO, slice, 0);
            List<Workload.RequestSource> sources = new ArrayList<>();
            for (Workload w : WORKLOADS) sources.add(w.build(requests, table));
            for (int minute = 1; minute <= options.minutes(); minute++) {
                long operations = 0;
                long errors = 0;
                double seconds = 0;
                for (Workload.RequestSource source : sources) {
                    RunResult r = LoadGenerator.run(endpoint, source, settings, CpuClock.NONE);
                    operations += r.operations();
                    errors += r.errors();
                    seconds += r.seconds();
                }
                Minute m = new Minute(minute, server.residentMegabytes(), operations / seconds, errors);
                minutes.add(m);
                Compare.progress("soak: minute %d: RSS %.0f MB, %,.0f requests/s, %d errors", minute,
                        m.residentMegabytes(), m.requestsPerSecond(), m.errors());
            }
        }
        return minutes;
    }

    /** The report's section: RSS minute by minute (every minute up to 5, then every 5th) and the ratio. */
    static String markdown(Options options, List<Minute> minutes, String machine) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "## Memory over %d minutes%n%n", options.minutes()));
        md.append(String.format(Locale.ROOT, "`bin/stator --memory %s` (durable), %,d items of %d B, %d connections; "
                + "each minute runs %s for %d s each, as fast as they go (puts overwrite: the data does not grow). "
                + "Resident memory (VmRSS) at the end of each minute. Machine: %s Made by `bin/stator-bench soak "
                + "--minutes %d --memory %s`.%n%n", options.memory(), options.items(), options.itemBytes(),
                options.connections(), String.join(", ", WORKLOADS.stream().map(Workload::label).toList()),
                60 / WORKLOADS.size(), machine, options.minutes(), options.memory()));
        md.append("| minute | RSS | requests/s | errors |\n|---:|---:|---:|---:|\n");
        for (Minute m : minutes) {
            if (m.minute() <= 5 || m.minute() % 5 == 0 || m.minute() == minutes.size()) {
                md.append(String.format(Locale.ROOT, "| %d | %.0f MB | %,.0f | %d |%n", m.minute(),
                        m.residentMegabytes(), m.requestsPerSecond(), m.errors()));
            }
        }
        Minute last = minutes.get(minutes.size() - 1);
        double peak = minutes.stream().mapToDouble(Minute::residentMegabytes).max().orElse(Double.NaN);
        if (minutes.size() >= 5) {
            Minute fifth = minutes.get(4);
            md.append(String.format(Locale.ROOT, "%nRSS after %d minutes: %.0f MB, %+.1f%% of the %.0f MB after 5 "
                            + "minutes (the target: within 10%%); highest %.0f MB.%n",
                    last.minute(), last.residentMegabytes(),
                    100 * (last.residentMegabytes() / fifth.residentMegabytes() - 1), fifth.residentMegabytes(), peak));
        }
        return ReportSection.SOAK.wrap(md.toString());
    }
}
