package io.stator.server.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock tests control, for a server started with {@code StatorTestServer.start(o -> o.withClock(clock))}:
 * the system's time until {@link #set} stops it at an instant, from which {@link #advance} moves it.
 */
public final class TestClock extends Clock {

    private volatile Instant stopped;

    /** Stops the clock at that instant. */
    public void set(Instant instant) {
        stopped = instant;
    }

    /** Moves a stopped clock on. */
    public void advance(Duration duration) {
        stopped = stopped.plus(duration);
    }

    /** Lets the clock follow the system's time again. */
    public void useSystemTime() {
        stopped = null;
    }

    @Override
    public Instant instant() {
        Instant at = stopped;
        return at != null ? at : Instant.now();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a test clock is always UTC");
    }
}
