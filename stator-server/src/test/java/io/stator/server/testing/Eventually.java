package io.stator.server.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for what a global secondary index shows: its entries follow the table asynchronously (as
 * DynamoDB's do), so a test reads until the expected result appears, with a deadline, instead of
 * sleeping for a guessed time.
 */
public final class Eventually {

    private static final long DEADLINE_MILLIS = 10_000;

    private Eventually() {}

    /** Reads until {@code done} holds, and returns that read; fails after the deadline. */
    public static <T> T until(String what, Supplier<T> read, Predicate<T> done) {
        return until(what, Duration.ofMillis(DEADLINE_MILLIS), read, done);
    }

    /**
     * As {@link #until(String, Supplier, Predicate)}, within {@code deadline}: for what takes
     * seconds by design (a stream consumer's lease and shard hand-offs), given room for a loaded
     * machine.
     */
    public static <T> T until(String what, Duration deadline, Supplier<T> read, Predicate<T> done) {
        long end = System.nanoTime() + deadline.toNanos();
        T last;
        while (true) {
            last = read.get();
            if (done.test(last)) return last;
            if (System.nanoTime() > end) break;
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return fail("not within " + deadline.toMillis() + " ms: " + what + "; last read: " + last);
    }

    /** Sleeps, for tests that must let time pass (a propagation delay, writers in flight). */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
