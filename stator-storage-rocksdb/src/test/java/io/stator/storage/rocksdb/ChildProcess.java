package io.stator.storage.rocksdb;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Runs {@link StorageChild} in a separate JVM (same java, same class path) and reads its lines. */
final class ChildProcess implements AutoCloseable {

    private static final String EOF = "\u0000EOF";

    private final Process process;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ChildProcess(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        Thread reader = new Thread(this::pump, "child-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    static ChildProcess start(Path stderr, String... args) throws IOException {
        return start(stderr, List.of(), args);
    }

    /** As {@link #start(Path, String...)}, with {@code jvmOptions} (system properties, say) for the child's JVM. */
    static ChildProcess start(Path stderr, List<String> jvmOptions, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-Xmx128m");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(StorageChild.class.getName());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()))
                .start();
        return new ChildProcess(process, stderr);
    }

    private void pump() {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process died; EOF below
        } finally {
            lines.add(EOF);
        }
    }

    /** The next line; fails the test after the timeout or if the child's output ends. */
    String nextLine(long timeoutSeconds) throws InterruptedException {
        String line = lines.poll(timeoutSeconds, TimeUnit.SECONDS);
        if (line == null) {
            throw new AssertionError("no output from the child process within " + timeoutSeconds + " s" + stderrText());
        }
        if (line.equals(EOF)) {
            lines.add(EOF);
            throw new AssertionError("the child process ended its output (alive: " + process.isAlive() + ")" + stderrText());
        }
        return line;
    }

    /** The lines printed before the output ended (call after the process died). */
    List<String> remainingLines(long timeoutSeconds) throws InterruptedException {
        List<String> rest = new ArrayList<>();
        while (true) {
            String line = lines.poll(timeoutSeconds, TimeUnit.SECONDS);
            if (line == null || line.equals(EOF)) {
                return rest;
            }
            rest.add(line);
        }
    }

    void awaitLine(String expected, long timeoutSeconds) throws InterruptedException {
        String line = nextLine(timeoutSeconds);
        if (!line.equals(expected)) {
            throw new AssertionError("expected '" + expected + "' from the child process, got '" + line + "'" + stderrText());
        }
    }

    /** SIGKILL: no shutdown hooks, no close, no flush of anything still in user space. */
    int killHard() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the child process did not die");
        }
        return process.exitValue();
    }

    Process process() {
        return process;
    }

    String stderrText() {
        try {
            String text = Files.exists(stderr) ? Files.readString(stderr) : "";
            return text.isBlank() ? "" : "\nchild stderr:\n" + text;
        } catch (IOException e) {
            return "\n(could not read child stderr: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
