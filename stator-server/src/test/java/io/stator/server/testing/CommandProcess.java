package io.stator.server.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A command running in its own process, for tests of what a command prints and how it exits:
 * its stdout lines as they come (to wait for a "ready" line), and its stderr. Both streams are
 * drained continuously, so a chatty process never blocks on a full pipe.
 */
public final class CommandProcess implements AutoCloseable {

    /** What a finished command did. */
    public record Result(int exit, String stdout, String stderr) {}

    private final Process process;
    /** Stdout lines not yet taken by {@link #awaitLine}; empty Optional once stdout has ended. */
    private final LinkedBlockingQueue<Optional<String>> pending = new LinkedBlockingQueue<>();
    private final List<String> stdoutLines = new ArrayList<>();
    private final StringBuilder stderr = new StringBuilder();
    private final Thread stdoutReader;
    private final Thread stderrReader;

    private CommandProcess(Process process) {
        this.process = process;
        stdoutReader = Thread.ofVirtual().start(() -> {
            try (BufferedReader r = process.inputReader(StandardCharsets.UTF_8)) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (stdoutLines) {
                        stdoutLines.add(line);
                    }
                    pending.add(Optional.of(line));
                }
            } catch (IOException e) {
                // the process is gone
            } finally {
                pending.add(Optional.empty());
            }
        });
        stderrReader = Thread.ofVirtual().start(() -> {
            try (InputStreamReader r = new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)) {
                char[] buffer = new char[1024];
                for (int n; (n = r.read(buffer)) >= 0; ) {
                    synchronized (stderr) {
                        stderr.append(buffer, 0, n);
                    }
                }
            } catch (IOException e) {
                // the process is gone
            }
        });
    }

    /**
     * Starts {@code command} in {@code directory}, with the environment of this JVM changed by
     * {@code environment} (a null value removes a variable). Its stdin is closed.
     */
    public static CommandProcess start(List<String> command, Path directory, Map<String, String> environment) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        environment.forEach((name, value) -> {
            if (value == null) builder.environment().remove(name);
            else builder.environment().put(name, value);
        });
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            return new CommandProcess(process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
    }

    /** Runs a command to its end (at most {@code timeout}) and says what it did. */
    public static Result run(List<String> command, Path directory, Map<String, String> environment,
                             Duration timeout) throws InterruptedException {
        try (CommandProcess p = start(command, directory, environment)) {
            int exit = p.awaitExit(timeout);
            return new Result(exit, String.join("\n", p.stdoutLines()) + (p.stdoutLines().isEmpty() ? "" : "\n"),
                    p.stderr());
        }
    }

    public Process process() { return process; }

    /** The next stdout line; fails if none comes in time or the process ends first. */
    public String awaitLine(Duration timeout) throws InterruptedException {
        Optional<String> line = pending.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) throw new AssertionError("no line within " + timeout + "; stderr: " + stderr());
        if (line.isEmpty()) {
            pending.add(line);
            throw new AssertionError("exited with " + awaitExit(Duration.ofSeconds(30)) + "; stderr: " + stderr());
        }
        return line.get();
    }

    /** Waits for the process to end, and for everything it printed. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("still running after " + timeout + "; stderr: " + stderr());
        }
        stdoutReader.join(10_000);
        stderrReader.join(10_000);
        return process.exitValue();
    }

    /** Sends SIGTERM ({@link Process#destroy()}) and returns the exit code. */
    public int stop() throws InterruptedException {
        process.destroy();
        return awaitExit(Duration.ofSeconds(60));
    }

    /** Every stdout line so far. */
    public List<String> stdoutLines() {
        synchronized (stdoutLines) {
            return List.copyOf(stdoutLines);
        }
    }

    /** All of stderr so far. */
    public String stderr() {
        synchronized (stderr) {
            return stderr.toString();
        }
    }

    /** Kills the process if it still runs. */
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
