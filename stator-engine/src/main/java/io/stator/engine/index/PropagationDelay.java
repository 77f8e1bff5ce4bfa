package io.stator.engine.index;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a change waits before it reaches a global secondary index: a fixed delay, or a random
 * one in a range, so that applications can test what they assume about reading their own
 * writes through an eventually consistent index. Zero by default: applied as soon as possible
 * (DynamoDB's usual lag is milliseconds).
 */
public record PropagationDelay(long minMillis, long maxMillis) {

    public static final PropagationDelay NONE = new PropagationDelay(0, 0);

    public PropagationDelay {
        if (minMillis < 0 || maxMillis < minMillis) {
            throw new IllegalArgumentException("delay range " + minMillis + ".." + maxMillis + " ms");
        }
    }

    long nextMillis() {
        return minMillis == maxMillis ? minMillis : ThreadLocalRandom.current().nextLong(minMillis, maxMillis + 1);
    }

    /**
     * Parses "250ms", "2s", or a range "100ms-2s" (a bare number means milliseconds).
     *
     * @throws IllegalArgumentException with a one-line reason
     */
    public static PropagationDelay parse(String text) {
        String[] bounds = text.trim().split("-", 2);
        long min = millis(bounds[0]);
        long max = bounds.length == 2 ? millis(bounds[1]) : min;
        if (max < min) throw new IllegalArgumentException("the delay range must go from low to high: " + text);
        return new PropagationDelay(min, max);
    }

    private static long millis(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            if (t.endsWith("ms")) return Long.parseLong(t.substring(0, t.length() - 2).trim());
            if (t.endsWith("s")) return Math.round(Double.parseDouble(t.substring(0, t.length() - 1).trim()) * 1000);
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (e.g. 250ms, 2s, 100ms-2s)");
        }
    }
}
