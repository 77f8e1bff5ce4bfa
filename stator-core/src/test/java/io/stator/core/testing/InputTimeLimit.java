package io.stator.core.testing;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A time limit on each input of a fuzz test, whichever way Jazzer runs it. While fuzzing,
 * libFuzzer's own -timeout (the build's fuzz.timeout) stops an input that hangs and saves it;
 * but Jazzer replays the corpus as plain JUnit invocations first, where nothing would stop one.
 * So a watchdog thread watches the input being run and, once it has run for twice
 * fuzz.timeout (libFuzzer goes first when it can), prints where it is stuck and what the input
 * was, and ends the JVM with libFuzzer's exit code for a timeout (70): the build fails with
 * "The forked VM terminated", and this output says why.
 *
 * <p>stator-server's fuzz tests use it too (stator-core's test jar).
 */
public final class InputTimeLimit {

    private static final long LIMIT_NANOS = limit().toNanos() * 2;

    private static volatile Thread runner;
    private static volatile long startedAt;
    private static volatile byte[] input;

    static {
        Thread watchdog = new Thread(InputTimeLimit::watch, "fuzz-input-time-limit");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private InputTimeLimit() {}

    /** Runs {@code test} on {@code bytes} (null when the input is not at hand) within the limit. */
    public static void run(byte[] bytes, Runnable test) {
        input = bytes;
        startedAt = System.nanoTime();
        runner = Thread.currentThread();
        try {
            test.run();
        } finally {
            runner = null;
        }
    }

    private static void watch() {
        while (true) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            Thread stuck = runner;
            if (stuck != null && System.nanoTime() - startedAt > LIMIT_NANOS) {
                StringBuilder report = new StringBuilder("\nFUZZ INPUT TIMEOUT: an input ran for more than ")
                        .append(Duration.ofNanos(LIMIT_NANOS).toMillis()).append(" ms; stuck in:\n");
                for (StackTraceElement e : stuck.getStackTrace()) report.append("\tat ").append(e).append('\n');
                byte[] bytes = input;
                if (bytes != null) {
                    report.append("input sha1 ").append(sha1(bytes)).append(", base64 ")
                            .append(Base64.getEncoder().encodeToString(bytes)).append('\n');
                }
                // Straight to the process's stderr: a test runner's System.err may be buffered, and
                // the halt would lose it.
                try (FileOutputStream stderr = new FileOutputStream(FileDescriptor.err)) {
                    stderr.write(report.toString().getBytes(StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                    // Nowhere left to report to; the exit code still says it.
                }
                Runtime.getRuntime().halt(70);
            }
        }
    }

    /** fuzz.timeout (as the build gives it: "10s", "2m"), else 10 seconds. */
    private static Duration limit() {
        String text = System.getProperty("fuzz.timeout", "10s").strip().toLowerCase(java.util.Locale.ROOT);
        long n = Long.parseLong(text.replaceAll("[^0-9]", ""));
        return text.endsWith("ms") ? Duration.ofMillis(n) : text.endsWith("m") ? Duration.ofMinutes(n)
                : text.endsWith("h") ? Duration.ofHours(n) : Duration.ofSeconds(n);
    }

    private static String sha1(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
