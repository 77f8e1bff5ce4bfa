package io.stator.bench;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop measurements with wrk (Debian's package, 4.1): a C event loop that sends the same
 * pre-built, pre-signed requests as the Java generator, through a Lua script
 * ({@code wrk-workload.lua}) that picks them as {@link Workload.RequestSource#next} does.
 *
 * <p>Why: the Java generator (a platform thread per connection) keeps a third to half a core of
 * a 2-core machine busy, which a faster server would need. wrk's share is measured the same way,
 * from its process's CPU time over the measured window, and shown beside every figure.
 *
 * <p>How a measurement runs: the requests go to a file in the work directory; a warm-up is a
 * separate short wrk run (new connections); the measured run's window starts when every wrk
 * thread has loaded the requests (the script says so on stderr, just before wrk starts its clock).
 * wrk counts whole seconds, so durations are rounded up to them. Its summary gives the counts;
 * the latency histogram is rebuilt from 119 of wrk's percentiles (exact at those, in
 * microseconds). wrk's latencies carry its own correction: after the run it adds, for every
 * response slower than twice the mean, samples at that latency minus one mean, minus two, ...
 * (as if requests had been due at the mean's pace), so its tail is higher than the same
 * responses' service times.
 */
final class WrkGenerator {

    /**
     * wrk's threads. One: against nginx on this 2-core machine, {@code -t1} took about 13 µs of
     * CPU per request (75,000/s on 0.98 cores) and {@code -t2} about 15 µs (65,000/s on 0.99),
     * and one thread leaves the other core to the server.
     */
    static final int THREADS = 1;

    /** A request unanswered for this long counts as a timeout (wrk's --timeout). */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final long SEED = 0xBE7C4L;
    private static final String READY = "stator-bench: thread ";
    private static final String RESULT = "stator-bench-result";

    private WrkGenerator() {}

    /** The wrk binary, or null when it is not installed. */
    static Path binary() {
        return ServerKind.which("wrk");
    }

    /** Runs the warm-up, then the measurement, on one endpoint; {@code settings.rate()} must be 0 (closed loop). */
    static RunResult run(Endpoint endpoint, Workload.RequestSource source, LoadGenerator.Settings settings,
                         CpuClock server, Path workDir) throws IOException {
        if (settings.rate() > 0) throw new IllegalArgumentException("wrk runs closed loops only");
        Path wrk = binary();
        if (wrk == null) throw new IOException("wrk is not installed (apt-get install wrk)");
        Files.createDirectories(workDir);
        Path script = workDir.resolve("stator-bench-wrk.lua");
        try (InputStream in = WrkGenerator.class.getResourceAsStream("wrk-workload.lua")) {
            if (in == null) throw new IOException("wrk-workload.lua is missing from the class path");
            Files.write(script, in.readAllBytes());
        }
        Path requests = workDir.resolve("wrk-requests.bin");
        writeRequests(source, requests);
        try {
            if (!settings.warmup().isZero()) {
                runOnce(wrk, script, requests, endpoint, settings.connections(), seconds(settings.warmup()), server, workDir);
            }
            return runOnce(wrk, script, requests, endpoint, settings.connections(), seconds(settings.duration()), server, workDir);
        } finally {
            // Up to a few hundred MB; the next measurement writes its own.
            Files.deleteIfExists(requests);
        }
    }

    private static int seconds(Duration d) {
        return (int) Math.max(1, (d.toMillis() + 999) / 1000);
    }

    /** The requests file the script reads (its format is described at the top of the script). */
    static void writeRequests(Workload.RequestSource source, Path file) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            int[] draws = source.draws();
            ascii(out, String.format(Locale.ROOT, "stator-bench-requests %d %d %d%n", source.keys(),
                    source.parts().length, draws == null ? 0 : draws.length));
            StringBuilder shares = new StringBuilder();
            for (double s : source.shares()) shares.append(shares.isEmpty() ? "" : " ").append(s);
            ascii(out, shares.append('\n').toString());
            if (draws != null) {
                StringBuilder line = new StringBuilder(draws.length * 7);
                for (int d : draws) line.append(d).append(' ');
                ascii(out, line.toString());
            }
            out.write('\n');
            for (byte[][] part : source.parts()) {
                for (byte[] request : part) {
                    ascii(out, request.length + "\n");
                    out.write(request);
                }
            }
        }
    }

    private static void ascii(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.US_ASCII));
    }

    private static RunResult runOnce(Path wrk, Path script, Path requests, Endpoint endpoint, int connections,
                                     int seconds, CpuClock server, Path workDir) throws IOException {
        int threads = Math.min(THREADS, connections);
        List<String> command = new ArrayList<>(List.of(wrk.toString(), "-t" + threads, "-c" + connections,
                "-d" + seconds + "s", "--timeout", TIMEOUT.toSeconds() + "s", "-s", script.toString(),
                "http://" + endpoint.hostHeader() + "/", "--", requests.toString(), Long.toString(SEED)));
        command = withOpenFiles(command, connections + 64);
        Path output = workDir.resolve("wrk-output.txt");
        Process process = new ProcessBuilder(command).redirectOutput(output.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        CpuClock client = CpuClock.ofProcess(process.pid());
        StringBuilder errors = new StringBuilder();
        double[] cores = null;
        try (BufferedReader stderr = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            int ready = 0;
            for (String line; (line = stderr.readLine()) != null; ) {
                if (!line.startsWith(READY)) {
                    errors.append(line).append('\n');
                } else if (++ready == threads) {
                    // The last thread has loaded: wrk starts its clock now and stops it after `seconds`.
                    // The window ends a little before, so that wrk is still running when it is read.
                    long t0 = System.nanoTime();
                    RunResult.CpuSample cpu0 = RunResult.CpuSample.take(client, server);
                    LoadGenerator.sleepUntil(t0 + seconds * 1_000_000_000L - 30_000_000L);
                    RunResult.CpuSample cpu1 = RunResult.CpuSample.take(client, server);
                    cores = cpu1.coresSince(cpu0, (System.nanoTime() - t0) / 1e9);
                }
            }
        }
        try {
            if (!process.waitFor(seconds + 60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("wrk did not finish within " + (seconds + 60) + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while wrk ran", e);
        }
        String out = Files.readString(output);
        if (process.exitValue() != 0 || cores == null || !out.contains(RESULT)) {
            throw new IOException("wrk failed (exit " + process.exitValue() + "): " + (errors + out).strip());
        }
        return parse(out, cores);
    }

    /**
     * wrk needs a file descriptor per connection; when this process's soft limit is lower, wrk
     * starts through a shell that raises it (as far as the hard limit allows; past it, the
     * connections that cannot open count as connect errors).
     */
    private static List<String> withOpenFiles(List<String> command, int needed) {
        if (openFilesLimit() >= needed) return command;
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", "ulimit -n \"$1\" 2>/dev/null; shift; exec \"$@\"",
                "sh", Integer.toString(needed)));
        wrapped.addAll(command);
        return wrapped;
    }

    private static long openFilesLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux: let wrk try.
        }
        return Long.MAX_VALUE;
    }

    /** What the script's done() printed, as a RunResult; {@code cores}: wrk's, the server's and the rest's. */
    static RunResult parse(String output, double[] cores) {
        Map<String, Long> values = new HashMap<>();
        TreeMap<Double, Long> percentiles = new TreeMap<>();
        String result = output.substring(output.indexOf(RESULT) + RESULT.length());
        for (String line : result.strip().split("\n")) {
            String[] f = line.trim().split(" ");
            if (f[0].equals("latency_us")) {
                percentiles.put(Double.parseDouble(f[1]), Long.parseLong(f[2]));
            } else if (f.length == 2) {
                values.put(f[0], Long.parseLong(f[1]));
            }
        }
        long requests = values.get("requests");
        long status = values.get("errors_status");
        long connect = values.get("errors_connect");
        long read = values.get("errors_read");
        long write = values.get("errors_write");
        long timeout = values.get("errors_timeout");
        long errors = status + connect + read + write + timeout;
        String firstError = errors == 0 ? null : String.format(Locale.ROOT, "wrk counted %,d responses with a status "
                + "over 399, %,d connect, %,d read and %,d write errors, %,d timeouts (wrk keeps no response bodies; "
                + "--generator java shows the first)", status, connect, read, write, timeout);
        // wrk's latencies include the answers over 399; they are few when they matter, and cannot be told apart.
        Histogram latency = histogram(percentiles, requests - status);
        return new RunResult(requests - status, errors, values.get("duration_us") / 1e6, latency, latency,
                cores[0], cores[1], cores[2], firstError, RunResult.WRK);
    }

    /**
     * A histogram of {@code count} values with wrk's percentiles: the responses between two of
     * them are recorded at the upper one, so that each percentile of the grid reads back as wrk
     * gave it (HdrHistogram's rounding to 3 significant digits aside).
     */
    static Histogram histogram(TreeMap<Double, Long> percentilesMicros, long count) {
        Histogram h = RunResult.newHistogram();
        if (count == 0) return h;
        long recorded = 0;
        for (Map.Entry<Double, Long> e : percentilesMicros.entrySet()) {
            // As HdrHistogram counts to a percentile: rounded up.
            long upTo = Math.min(count, Math.max(1, (long) Math.ceil(e.getKey() / 100.0 * count)));
            if (upTo > recorded) {
                h.recordValueWithCount(Math.max(1, e.getValue() * 1000), upTo - recorded);
                recorded = upTo;
            }
        }
        return h;
    }
}
