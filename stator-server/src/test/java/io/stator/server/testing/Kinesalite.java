package io.stator.server.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkSystemSetting;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * A real Kinesis-compatible server for the tests: kinesalite {@value #VERSION} (in memory), installed
 * from npm into {@code ~/.cache/stator/kinesalite-3.3.3} (outside the repository, once, shared by
 * every test run) and started as a Node.js process on a free port. It needs {@code node} and
 * {@code npm} on PATH, and the npm registry the first time. Streams are ACTIVE at once (create,
 * delete and update take 0 ms); at most {@value #SHARD_LIMIT} shards in all.
 *
 * <p>Kinesalite reports stream ARNs as {@code arn:aws:kinesis:us-east-1:000000000000:stream/NAME}
 * whatever region a client names ({@link #streamArn}), and knows streams only by StreamName: a
 * request that names the stream by StreamARN alone fails with a ValidationException.
 *
 * <p>CBOR: the SDK v2 Kinesis client speaks CBOR by default, and kinesalite 3.3.3 gets CBOR wrong
 * (record data comes back from GetRecords as a map, so the SDK cannot read it; timestamps are in
 * seconds where the SDK reads milliseconds). {@link #client} therefore builds a client that speaks
 * JSON. The SDK has no per-client switch for that, only the JVM-wide system property
 * {@code aws.cborEnabled} (environment variable {@code CBOR_ENABLED}), which it reads once, when a
 * client is built; so {@link #client} sets it to false only while it builds its client, and then
 * puts back what was there. Another thread building a CBOR client (Kinesis) at that very moment
 * would get JSON too, which real Kinesis accepts as well. A Kinesis client that is not built here
 * (e.g. the server's own, pointed at this endpoint) needs CBOR off too: for a separate server
 * process, {@code -Daws.cborEnabled=false} or {@code CBOR_ENABLED=false}.
 */
public final class Kinesalite implements AutoCloseable {

    public static final String VERSION = "3.3.3";
    /** The region and account kinesalite puts in every stream ARN. */
    public static final String ARN_REGION = "us-east-1";
    public static final String ARN_ACCOUNT = "000000000000";
    /** Kinesalite's own default (10) is too few for tests that make several streams. */
    public static final int SHARD_LIMIT = 500;

    private static final Path INSTALL_DIR =
            Path.of(System.getProperty("user.home"), ".cache", "stator", "kinesalite-" + VERSION);
    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final int START_ATTEMPTS = 5;
    private static final String READY_LINE = "Listening at";
    /** Held while {@link #client} flips {@code aws.cborEnabled}. */
    private static final Object CBOR_SETTING = new Object();

    private final Process process;
    private final Path directory;
    private final Path log;
    private final int port;

    private Kinesalite(Process process, Path directory, Path log, int port) {
        this.process = process;
        this.directory = directory;
        this.log = log;
        this.port = port;
    }

    /**
     * Installs kinesalite if it is not yet installed, starts it on a free port and waits until it
     * listens. Fails with npm's output if the installation fails, or with kinesalite's log if it
     * ends or does not listen within a minute.
     */
    public static Kinesalite start() {
        Path cli = install();
        Path directory;
        try {
            directory = Files.createTempDirectory("stator-kinesalite");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int attempt = 1; ; attempt++) {
            Path log = directory.resolve("kinesalite-" + attempt + ".log");
            int port = freePort();
            Kinesalite kinesalite = launch(cli, directory, log, port);
            try {
                kinesalite.awaitListening();
                return kinesalite;
            } catch (RuntimeException e) {
                kinesalite.stop();
                // The free port may have been taken between our look and node's bind: try another.
                if (attempt < START_ATTEMPTS && read(log).contains("EADDRINUSE")) continue;
                deleteRecursively(directory);
                throw e;
            }
        }
    }

    /** {@code http://127.0.0.1:PORT}. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** What kinesalite printed (its stdout and stderr). */
    public String log() {
        return read(log);
    }

    /** The ARN kinesalite gives the stream {@code streamName}. */
    public String streamArn(String streamName) {
        return "arn:aws:kinesis:" + ARN_REGION + ":" + ARN_ACCOUNT + ":stream/" + streamName;
    }

    /**
     * A Kinesis client for this kinesalite, with test credentials and the URL-connection HTTP client,
     * that speaks JSON rather than CBOR (see the class comment). The caller closes it.
     */
    public KinesisClient client(String region) {
        String property = SdkSystemSetting.CBOR_ENABLED.property();
        synchronized (CBOR_SETTING) {
            String previous = System.getProperty(property);
            System.setProperty(property, "false");
            try {
                return KinesisClient.builder()
                        .endpointOverride(endpoint())
                        .region(Region.of(region))
                        .credentialsProvider(StaticCredentialsProvider.create(
                                AwsBasicCredentials.create("AKIDSTATORKINESIS", "stator-kinesis-secret")))
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .build();
            } finally {
                if (previous == null) System.clearProperty(property);
                else System.setProperty(property, previous);
            }
        }
    }

    /** Ends kinesalite (and anything it started), waits for it, and removes its log. */
    @Override
    public void close() {
        stop();
        deleteRecursively(directory);
    }

    private void stop() {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
            for (ProcessHandle child : children) {
                if (child.isAlive()) child.destroyForcibly();
                child.onExit().get(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // a child that will not end is left to the operating system
        }
    }

    private static Kinesalite launch(Path cli, Path directory, Path log, int port) {
        ProcessBuilder builder = new ProcessBuilder("node", cli.toString(), "--port", Integer.toString(port),
                "--createStreamMs", "0", "--deleteStreamMs", "0", "--updateStreamMs", "0",
                "--shardLimit", Integer.toString(SHARD_LIMIT))
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
        // Kinesalite takes the ARNs' region and account from these: keep the defaults.
        builder.environment().remove("AWS_REGION");
        builder.environment().remove("AWS_DEFAULT_REGION");
        builder.environment().remove("AWS_ACCOUNT_ID");
        try {
            return new Kinesalite(builder.start(), directory, log, port);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run 'node' (Node.js must be on PATH for kinesalite)", e);
        }
    }

    private void awaitListening() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            // The line comes once node has bound the port; a mere connection might reach
            // whoever took the port if node could not bind it.
            if (read(log).contains(READY_LINE) && accepts()) return;
            if (!process.isAlive()) {
                throw new IllegalStateException("kinesalite ended (exit " + process.exitValue() + ") before it listened on "
                        + port + "; its log:\n" + read(log));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("kinesalite did not listen on " + port + " within " + START_TIMEOUT
                        + "; its log:\n" + read(log));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while kinesalite started", e);
            }
        }
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * {@code cli.js} of the installed kinesalite, installing it first if need be. npm installs into
     * a fresh directory next to the cache directory, which then becomes the cache directory in one
     * rename; so concurrent installs (parallel builds) never see a half-installed one, and the
     * loser of a race just uses the winner's.
     */
    static synchronized Path install() {
        Path cli = INSTALL_DIR.resolve("node_modules/kinesalite/cli.js");
        if (Files.isRegularFile(cli)) return cli;
        Path staging = null;
        Path output = null;
        try {
            Files.createDirectories(INSTALL_DIR.getParent());
            staging = Files.createTempDirectory(INSTALL_DIR.getParent(), INSTALL_DIR.getFileName() + ".installing-");
            output = Files.createTempFile("stator-kinesalite-npm", ".log");
            List<String> command = List.of("npm", "install", "--no-audit", "--no-fund", "--prefix", staging.toString(),
                    "kinesalite@" + VERSION);
            Process npm;
            try {
                npm = new ProcessBuilder(command).directory(staging.toFile()).redirectErrorStream(true)
                        .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                        .start();
            } catch (IOException e) {
                throw new IllegalStateException("cannot run 'npm' (Node.js and npm must be on PATH to install kinesalite)", e);
            }
            if (!npm.waitFor(INSTALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                npm.descendants().forEach(ProcessHandle::destroyForcibly);
                npm.destroyForcibly();
                npm.waitFor(30, TimeUnit.SECONDS);
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + INSTALL_TIMEOUT
                        + "; its output:\n" + read(output));
            }
            Path installed = staging.resolve("node_modules/kinesalite/cli.js");
            if (npm.exitValue() != 0 || !Files.isRegularFile(installed)) {
                throw new IllegalStateException(String.join(" ", command) + " failed (exit " + npm.exitValue()
                        + (Files.isRegularFile(installed) ? "" : ", no " + installed) + "); its output:\n" + read(output));
            }
            try {
                Files.move(staging, INSTALL_DIR, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                // Another installation won the race (fine), or something else is in the way.
                if (!Files.isRegularFile(cli)) {
                    throw new IllegalStateException("cannot move the installed kinesalite from " + staging + " to "
                            + INSTALL_DIR + " (if that is a broken installation, delete it)", e);
                }
            }
            return cli;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install kinesalite into " + INSTALL_DIR, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing kinesalite", e);
        } finally {
            if (staging != null) deleteRecursively(staging);
            if (output != null) deleteRecursively(output);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static File nullDevice() {
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    private static void deleteRecursively(Path path) {
        if (!Files.exists(path)) return;
        try (Stream<Path> paths = Files.walk(path)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // left behind in the temp directory
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // left behind in the temp directory
        }
    }
}
