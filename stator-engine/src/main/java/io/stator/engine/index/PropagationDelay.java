package io.stator.engine.index;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How late something the server does in the background may be: a fixed delay, or one in a
 * range, so that applications can test what they assume about it. {@code --gsi-propagation-delay}
 * delays changes on their way to global secondary indexes (none by default: DynamoDB's usual lag
 * is milliseconds; {@link #SYNCHRONOUS} with 0); {@code --ttl-delay} delays Time to Live's
 * deletions past an item's expiry.
 */
public record PropagationDelay(long minMillis, long maxMillis, boolean synchronous) {

    /** As soon as possible after the write answers: DynamoDB's usual lag is milliseconds. */
    public static final PropagationDelay NONE = new PropagationDelay(0, 0);

    /**
     * Before the write answers ({@code --gsi-propagation-delay 0}): a read of a global index right
     * after a write finds it, as on DynamoDB Local, for suites written against it. The change
     * still goes through the durable queue, so that one item's changes keep their order.
     */
    public static final PropagationDelay SYNCHRONOUS = new PropagationDelay(0, 0, true);

    public PropagationDelay {
        if (minMillis < 0 || maxMillis < minMillis || synchronous && maxMillis > 0) {
            throw new IllegalArgumentException("delay range " + minMillis + ".." + maxMillis + " ms");
        }
    }

    public PropagationDelay(long minMillis, long maxMillis) {
        this(minMillis, maxMillis, false);
    }

    /** A delay drawn afresh each time, anywhere in the range. */
    long nextMillis() {
        return minMillis == maxMillis ? minMillis : ThreadLocalRandom.current().nextLong(minMillis, maxMillis + 1);
    }

    /**
     * A delay in the range that is always the same for one hash (of an item's key, say), so that
     * whoever computes it again finds the same.
     */
    public long millisFor(long hash) {
        return minMillis == maxMillis ? minMillis : minMillis + Math.floorMod(hash, maxMillis - minMillis + 1);
    }

    /**
     * Parses "250ms", "2s", "5m", "1h", or a range "100ms-2s", "1h-48h" (a bare number means
     * milliseconds).
     *
     * @throws IllegalArgumentException with a one-line reason
     */
    public static PropagationDelay parse(String text) {
        String[] bounds = text.trim().split("-", 2);
        long min = millis(bounds[0], text);
        long max = bounds.length == 2 ? millis(bounds[1], text) : min;
        if (max < min) throw new IllegalArgumentException("the delay range must go from low to high: " + text);
        return new PropagationDelay(min, max);
    }

    private static long millis(String bound, String text) {
        String t = bound.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.endsWith("ms")) return Long.parseLong(t.substring(0, t.length() - 2).trim());
            if (t.endsWith("s")) return scaled(t, 1_000);
            if (t.endsWith("m")) return scaled(t, 60_000);
            if (t.endsWith("h")) return scaled(t, 3_600_000);
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (e.g. 250ms, 2s, 100ms-2s, 1h-48h)");
        }
    }

    /** The number before the unit, in milliseconds; absurdly large ones are refused rather than wrapped. */
    private static long scaled(String t, long unitMillis) {
        double value = Double.parseDouble(t.substring(0, t.length() - 1).trim());
        double millis = value * unitMillis;
        if (!(millis >= 0 && millis < Long.MAX_VALUE / 4)) throw new NumberFormatException(t);
        return Math.round(millis);
    }
}
