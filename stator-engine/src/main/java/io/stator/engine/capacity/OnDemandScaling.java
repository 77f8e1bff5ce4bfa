package io.stator.engine.capacity;

import java.util.ArrayDeque;

/**
 * How much an on-demand table or index serves at once, in one dimension (reads or writes).
 * DynamoDB's rules (developer guide, on-demand-capacity-mode): a new table sustains 4,000 write
 * and 12,000 read units a second (its warm throughput, which the user may raise); it
 * "instantly accommodates up to double the previous peak", and "throttling can occur if you exceed
 * double your previous peak within 30 minutes".
 *
 * <p>How DynamoDB measures the peak is not documented (dynamodb-throughput.md, section 10:
 * "UNKNOWN"). Stator's choice: the peak is the most units admitted in one second of the clock;
 * what the table serves at once, its <em>allowance</em>, is
 * {@code max(warm, min(2 x peak, 2 x the allowance of 30 minutes ago))}: double the peak at once,
 * but never more than double within 30 minutes. The allowance becomes partitions (one per 1,000
 * write or 3,000 read units, {@link Partitions#growTo}), so a burst spread over many keys is
 * served and a burst on few keys meets their partitions' ceilings, as on DynamoDB.
 */
final class OnDemandScaling {

    static final long WINDOW_MILLIS = 30 * 60 * 1000L;

    private double warm;
    private double peak;
    private double allowance;
    private long second = Long.MIN_VALUE;
    private double unitsThisSecond;
    /** (since, allowance) pairs: the allowance's history back to just before 30 minutes ago. */
    private final ArrayDeque<double[]> history = new ArrayDeque<>();

    OnDemandScaling(double warm, long nowMillis) {
        this.warm = warm;
        this.allowance = warm;
        history.add(new double[] {nowMillis, warm});
    }

    synchronized double allowance() {
        return allowance;
    }

    /** A new warm throughput (UpdateTable raised it, or a provisioned table switched to on demand). */
    synchronized void warm(double newWarm, long nowMillis) {
        warm = newWarm;
        update(nowMillis);
    }

    /**
     * Counts units admitted now; returns the allowance, raised when the second just closed was a
     * new peak (or 30 minutes passed since the last rise).
     */
    synchronized double record(double units, long nowMillis) {
        long s = Math.floorDiv(nowMillis, 1000);
        if (s != second) {
            peak = Math.max(peak, unitsThisSecond);
            update(nowMillis); // also lets the allowance grow once 30 minutes have passed
            second = s;
            unitsThisSecond = 0;
        }
        unitsThisSecond += units;
        return allowance;
    }

    private void update(long nowMillis) {
        double thirtyMinutesAgo = allowanceAt(nowMillis - WINDOW_MILLIS);
        double next = Math.max(warm, Math.min(2 * peak, 2 * thirtyMinutesAgo));
        if (next != allowance) {
            allowance = next;
            history.addLast(new double[] {nowMillis, next});
        }
        // Keep one entry at or before the window's start, and everything after it.
        while (history.size() > 1) {
            double[] first = history.pollFirst();
            if (history.peekFirst()[0] > nowMillis - WINDOW_MILLIS) {
                history.addFirst(first);
                break;
            }
        }
    }

    private double allowanceAt(long millis) {
        double at = history.peekFirst()[1];
        for (double[] h : history) {
            if (h[0] <= millis) at = h[1];
            else break;
        }
        return at;
    }
}
