package io.stator.embedded;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * The time an embedded Stator runs on: the system's, moved forward by what the test asked. Every
 * timed mechanism of the server reads it (Time to Live expiry, stream retention and shard
 * iterators, token buckets and burst, ClientRequestToken windows, point-in-time recovery
 * windows), so one {@link #advance} moves them all together. It keeps running with the system's
 * time between advances: a test that moves it two hours ahead sees the server two hours ahead,
 * still ticking.
 */
public final class StatorClock extends Clock {

    private volatile Duration offset = Duration.ZERO;
    private volatile Runnable afterAdvance = () -> {};

    StatorClock() {}

    /**
     * Moves the server's time forward by {@code duration}, and returns once the work that became
     * due has been done: Time to Live deletions (with their stream records) that fell due are
     * committed when this returns.
     */
    public void advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            // DynamoDB's time only moves forward; a clock moved back would un-expire items.
            throw new IllegalArgumentException("the clock only moves forward: " + duration);
        }
        synchronized (this) {
            offset = offset.plus(duration);
        }
        afterAdvance.run();
    }

    /** How far ahead of the system's time the server runs. */
    public Duration offset() {
        return offset;
    }

    void afterAdvance(Runnable action) {
        this.afterAdvance = action;
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }

    @Override
    public long millis() {
        return System.currentTimeMillis() + offset.toMillis();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("Stator's clock is always UTC");
    }
}
