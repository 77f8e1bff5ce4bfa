package io.stator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A server under test, started as its own process: the time from starting it to its first
 * successful request (the startup time a user waits), its resident memory and its CPU time,
 * read from /proc while it runs. Memory and CPU are the process's and its descendants' (nginx
 * serves from worker processes).
 */
final class ServerProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Endpoint endpoint;
    private final Path log;
    private final double startupMillis;
    private Runnable onClose = () -> { };

    private ServerProcess(String name, Process process, Endpoint endpoint, Path log, double startupMillis) {
        this.name = name;
        this.process = process;
        this.endpoint = endpoint;
        this.log = log;
        this.startupMillis = startupMillis;
    }

    /**
     * Starts the command and waits until the endpoint answers ListTables with 200, polling every
     * millisecond so the wait adds little to what is measured.
     */
    static ServerProcess start(String name, List<String> command, Map<String, String> environment, Endpoint endpoint,
                               Path log, Duration timeout) throws IOException {
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().putAll(environment);
        byte[] probe = new DynamoRequests(endpoint, SigV4Signer.Credentials.BENCH).build("ListTables", "{}");
        long t0 = System.nanoTime();
        Process process = builder.start();
        long deadline = t0 + timeout.toNanos();
        while (true) {
            try (HttpConnection connection = new HttpConnection(endpoint)) {
                if (connection.exchange(probe) == 200) break;
            } catch (IOException notYet) {
                // Not listening yet.
            }
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + " before answering: " + tail(log));
            }
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new IOException(name + " did not answer within " + timeout.toSeconds() + " s: " + tail(log));
            }
            LockSupport.parkNanos(1_000_000);
        }
        double startup = (System.nanoTime() - t0) / 1e6;
        return new ServerProcess(name, process, endpoint, log, startup);
    }

    String name() { return name; }

    Endpoint endpoint() { return endpoint; }

    double startupMillis() { return startupMillis; }

    long pid() { return process.pid(); }

    CpuClock cpu() { return CpuClock.ofProcessTree(process.pid()); }

    /**
     * Resident memory now, in MB (VmRSS of /proc/PID/status), summed over the process and its
     * descendants (pages they share count once per process, as VmRSS counts them).
     */
    double residentMegabytes() {
        double own = residentMegabytes(process.pid());
        return own + process.descendants().mapToDouble(d -> residentMegabytes(d.pid()))
                .filter(mb -> !Double.isNaN(mb)).sum();
    }

    private static double residentMegabytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // The process is gone; report nothing rather than fail the run.
        }
        return Double.NaN;
    }

    void onClose(Runnable action) {
        this.onClose = action;
    }

    /**
     * Stops it as a user would (SIGTERM), then for good if it lingers; then its descendants that
     * outlived it (nginx's workers keep serving when their master is killed).
     */
    @Override
    public void close() {
        onClose.run();
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }
}
