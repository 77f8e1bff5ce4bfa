package io.stator.engine.replication;

import java.time.Clock;

/**
 * A hybrid logical clock (Kulkarni et al., 2014): 48 bits of the region's wall-clock
 * milliseconds and 16 bits of a counter, never going back and always past every version this
 * region has applied. A write made here after a change from another region therefore always wins
 * over that change, whatever the two clocks say; two concurrent writes are ordered by their
 * regions' clocks, as DynamoDB's "latest internal timestamp" orders them.
 */
final class HybridClock {

    private static final int COUNTER_BITS = 16;

    private final Clock clock;
    private long last;

    HybridClock(Clock clock) {
        this.clock = clock;
    }

    /** The version of a write made now: greater than every value given or observed before. */
    synchronized long next() {
        long physical = clock.millis() << COUNTER_BITS;
        last = Math.max(last + 1, physical);
        return last;
    }

    /** Takes in another region's version, so that the next write here is later than it. */
    synchronized void observe(long remote) {
        if (Long.compareUnsigned(remote, last) > 0) last = remote;
    }
}
