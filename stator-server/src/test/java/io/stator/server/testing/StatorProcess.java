package io.stator.server.testing;

import io.stator.engine.EngineConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Stator as a separate JVM, started the way {@code bin/stator} starts it (its command-line main
 * class, on the test class path, with the JVM flags it needs), so that a test can kill it with
 * SIGKILL: no shutdown hook, no close, nothing flushed that was not already on its way to disk.
 */
public final class StatorProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("Stator listening on (http://\\S+)");
    /** What the JVM's debug agent prints when started with {@link Breakpoints#JVM_OPTION}. */
    private static final Pattern DEBUG_PORT = Pattern.compile("Listening for transport dt_socket at address: (\\d+)");

    private final Process process;
    private final Path stderr;
    private final URI endpoint;
    private final int debugPort;
    private final DynamoDbClient client;

    private StatorProcess(Process process, Path stderr, Started started) {
        this.process = process;
        this.stderr = stderr;
        this.endpoint = started.endpoint();
        this.debugPort = started.debugPort();
        this.client = StatorTestServer.newClient(endpoint, EngineConfig.DEFAULT_REGION,
                StatorTestServer.ACCESS_KEY, StatorTestServer.SECRET_KEY);
    }

    /**
     * Starts a server on any free port over {@code dataDirectory} with a 256 MB heap and waits
     * until it listens. Its stderr goes to {@code stderrFile}, shown if it fails to start.
     */
    public static StatorProcess start(Path dataDirectory, Path stderrFile) throws IOException, InterruptedException {
        return start(dataDirectory, stderrFile, List.of("-Xmx256m"));
    }

    /**
     * As {@link #start(Path, Path)}, with {@code jvmOptions} (heap size, GC logging, ...) added
     * after the flags bin/stator always passes, as its {@code STATOR_JAVA_OPTS} are.
     */
    public static StatorProcess start(Path dataDirectory, Path stderrFile, List<String> jvmOptions)
            throws IOException, InterruptedException {
        return start(dataDirectory, stderrFile, jvmOptions, List.of());
    }

    /**
     * As {@link #start(Path, Path, List)}, with {@code statorOptions} (such as
     * {@code --gsi-propagation-delay 2s}, or {@code --port 22001} instead of a free port) added to
     * Stator's own command line.
     */
    public static StatorProcess start(Path dataDirectory, Path stderrFile, List<String> jvmOptions,
                                      List<String> statorOptions) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED"); // RocksDB's JNI
        if (Runtime.version().feature() >= 24) {
            command.add("--sun-misc-unsafe-memory-access=allow"); // Netty; JDK 24+ warn otherwise
        }
        command.addAll(List.of("-XX:+UseSerialGC", "-Xss1m", "-XX:+ExitOnOutOfMemoryError")); // as bin/stator
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("io.stator.server.cli.StatorCommand");
        // Any free port, unless the caller chose one (Regions: each region knows its peers' ports).
        if (!statorOptions.contains("--port")) command.addAll(List.of("--port", "0"));
        // No data directory for a server on shared storage (--storage cassandra).
        if (dataDirectory != null) command.addAll(List.of("--data-dir", dataDirectory.toString()));
        // These tests load data faster than a new DynamoDB table would take it; throughput is
        // ThrottlingTest's subject, so they report capacity without throttling unless they ask.
        if (!statorOptions.contains("--throughput")) command.addAll(List.of("--throughput", "report"));
        command.addAll(statorOptions);
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(stderrFile.toFile()))
                .start();
        try {
            return new StatorProcess(process, stderrFile, awaitEndpoint(process, stderrFile));
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /** Where the server listens, and its debug agent's port (0 without one). */
    private record Started(URI endpoint, int debugPort) {}

    /** Reads stdout until the "listening" line, then keeps draining it so the server never blocks. */
    private static Started awaitEndpoint(Process process, Path stderr) throws InterruptedException, IOException {
        CompletableFuture<URI> endpoint = new CompletableFuture<>();
        int[] debugPort = {0};
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    Matcher debug = DEBUG_PORT.matcher(line);
                    if (debug.matches()) debugPort[0] = Integer.parseInt(debug.group(1));
                    Matcher m = LISTENING.matcher(line);
                    if (m.matches()) endpoint.complete(URI.create(m.group(1)));
                }
            } catch (IOException e) {
                // the process died; reported below
            }
            endpoint.completeExceptionally(new IllegalStateException("Stator ended its output without listening"));
        }, "stator-process-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            // The agent's line comes first, so it is read by the time the server listens.
            URI uri = endpoint.get(60, TimeUnit.SECONDS);
            return new Started(uri, debugPort[0]);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Stator did not start (alive: " + process.isAlive() + ")"
                    + stderrText(stderr), e);
        }
    }

    /** A client of this server (no retries). */
    public DynamoDbClient client() { return client; }

    public URI endpoint() { return endpoint; }

    /**
     * The server's debugger: a process started with {@link Breakpoints#JVM_OPTION} can be stopped
     * at a chosen point of its code, to be killed there.
     */
    public Breakpoints breakpoints() {
        if (debugPort == 0) throw new IllegalStateException("started without " + Breakpoints.JVM_OPTION);
        return Breakpoints.attach(debugPort);
    }

    /** The server's process id (to read its {@code /proc/<pid>/status}, say). */
    public long pid() { return process.pid(); }

    /** Whether the server is still running (it exits by itself on an OutOfMemoryError, say). */
    public boolean isAlive() { return process.isAlive(); }

    /** SIGKILL, and wait until the process is gone. Returns its exit status. */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) throw new IllegalStateException("Stator did not die");
        return process.exitValue();
    }

    /**
     * SIGTERM, as Ctrl-C or a service manager stop it: the server closes cleanly (its shutdown
     * hook). Waits until the process is gone and returns its exit status.
     */
    public int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) throw new IllegalStateException("Stator did not stop");
        return process.exitValue();
    }

    /** What the server wrote to stderr, for failure messages. */
    public String stderrText() {
        return stderrText(stderr);
    }

    private static String stderrText(Path stderr) {
        try {
            String text = Files.exists(stderr) ? Files.readString(stderr) : "";
            return text.isBlank() ? "" : "\nStator's stderr:\n" + text;
        } catch (IOException e) {
            return "\n(could not read Stator's stderr: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        client.close();
        if (process.isAlive()) kill();
    }
}
