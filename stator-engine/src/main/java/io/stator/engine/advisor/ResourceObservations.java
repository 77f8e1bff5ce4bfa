package io.stator.engine.advisor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One table's or one global secondary index's traffic: a window per second (the time DynamoDB's
 * limits are enforced over) and one per minute (Contributor Insights' and the console's), the
 * last {@value #SECONDS_KEPT} seconds' and {@value #MINUTES_KEPT} minutes' summaries.
 */
final class ResourceObservations {

    static final int SECONDS_KEPT = 300;
    /**
     * Keys a second counts exactly (at most; a minute counts {@link Observations#KEY_CAP}): a key
     * that matters to a one-second limit takes hundreds of requests in it and is among its first
     * thousand keys; a small map stays in the cores' caches, and its lookup is most of what
     * recording a request costs.
     */
    static final int SECOND_KEY_CAP = 1_024;
    static final int MINUTES_KEPT = 60;
    /** Keys kept of each closed second, by each measure. */
    static final int SECOND_TOP = 10;
    /** Keys kept of each closed minute, by each measure: twice Contributor Insights' 25. */
    static final int MINUTE_TOP = 50;
    static final List<KeyTable.Measure> SECOND_MEASURES = List.of(KeyTable.Measure.READ, KeyTable.Measure.WRITE,
            KeyTable.Measure.INSIGHTS, KeyTable.Measure.THROTTLES);
    static final List<KeyTable.Measure> MINUTE_MEASURES = List.of(KeyTable.Measure.values());

    /**
     * A key leads a minute when it took at least this share of its write units (F6's level,
     * {@link TimeBucketKeys#HOT_SHARE}): the leads are kept past the minutes' summaries.
     */
    static final double LEAD_SHARE = 0.8;
    /** Leads kept: a run of minutes led by one key is one. */
    static final int LEADS_KEPT = 256;

    private final Rolling<ResourceWindow, ResourceSummary> seconds;
    /** Fed by the seconds as they close, and rolled on, under {@link #minuteLock} only. */
    private final Rolling<ResourceWindow, ResourceSummary> minutes;
    private final Object minuteLock = new Object();
    private final int keyCap;
    /** The runs of closed minutes one key led, oldest first (guarded by itself). */
    private final ArrayDeque<Lead> leads = new ArrayDeque<>();

    /**
     * Closed minutes led by one partition key (with {@link #LEAD_SHARE} or more of their write
     * units), as a run: consecutive leads by one key are one run, whatever minutes no key led lie
     * between them. Kept beyond the 60 minutes' summaries, so that a key that leads for a day (a
     * date as the key) is seen to move on.
     */
    record Lead(KeyBytes key, long firstMinute, long lastMinute, long keyWriteHalves, long writeHalves) {}

    /** @param partitionStarts the resource's modelled partitions now (read as each window opens) */
    ResourceObservations(Supplier<long[]> partitionStarts, int keyCap) {
        this.keyCap = keyCap;
        int secondCap = Math.min(keyCap, SECOND_KEY_CAP);
        this.seconds = new Rolling<>(1_000, SECONDS_KEPT, p -> new ResourceWindow(p, partitionStarts.get(), secondCap,
                false),
                this::closeSecond);
        this.minutes = new Rolling<>(60_000, MINUTES_KEPT, p -> new ResourceWindow(p, partitionStarts.get(), keyCap, true),
                this::closeMinute);
    }

    /**
     * One request's share, into the second open now. Its minute gets it when the second closes:
     * recording a request costs one window's work, not two (the minute's was a tenth of a get's
     * time in the benchmark).
     */
    void record(long nowMillis, KeyBytes partitionKey, KeyBytes item, long partitionHash, KeyCounter.Sample sample,
                List<String> reasons, long itemBytes) {
        seconds.at(nowMillis).record(partitionKey, item, partitionHash, sample, reasons, itemBytes);
    }

    /**
     * A closed second: summarised, and folded into its minute (by the request that rolled it on,
     * once a second; the others go on into the new second). A minute is closed only here or by a
     * report, both under the lock, so that no second is folded into a minute already summarised.
     */
    private ResourceSummary closeSecond(ResourceWindow second) {
        ResourceSummary summary = second.summary(SECOND_TOP, SECOND_MEASURES, second.readHalves(), second.writeHalves());
        synchronized (minuteLock) {
            minutes.at(second.period() * 1_000).fold(second);
        }
        return summary;
    }

    /** A minute's summary, with its busiest second's units (its seconds were closed first). */
    private ResourceSummary closeMinute(ResourceWindow w) {
        long[] peaks = peaks(w.period(), seconds.closed());
        ResourceSummary summary = w.summary(MINUTE_TOP, MINUTE_MEASURES, peaks[0], peaks[1]);
        lead(summary);
        return summary;
    }

    /** Notes the minute's leader, if a key led it. */
    private void lead(ResourceSummary minute) {
        List<KeyFigures> top = minute.partitionKeys().getOrDefault(KeyTable.Measure.WRITE, List.of());
        if (top.isEmpty() || minute.writeHalves() == 0) return;
        KeyFigures leader = top.get(0);
        if (leader.writeHalves() < LEAD_SHARE * minute.writeHalves()) return;
        synchronized (leads) {
            Lead last = leads.peekLast();
            if (last != null && last.key().equals(leader.key())) {
                leads.pollLast();
                leads.addLast(new Lead(last.key(), last.firstMinute(), minute.period(),
                        last.keyWriteHalves() + leader.writeHalves(), last.writeHalves() + minute.writeHalves()));
                return;
            }
            leads.addLast(new Lead(leader.key(), minute.period(), minute.period(), leader.writeHalves(),
                    minute.writeHalves()));
            while (leads.size() > LEADS_KEPT) leads.removeFirst();
        }
    }

    /** The runs of closed minutes up to {@code nowMillis} one key led, oldest first. */
    List<Lead> leads(long nowMillis) {
        roll(nowMillis);
        synchronized (leads) {
            return new ArrayList<>(leads);
        }
    }

    private static long[] peaks(long minute, List<ResourceSummary> secondsClosed) {
        long read = 0;
        long write = 0;
        for (ResourceSummary s : secondsClosed) {
            if (Math.floorDiv(s.period(), 60) != minute) continue;
            read = Math.max(read, s.readHalves());
            write = Math.max(write, s.writeHalves());
        }
        return new long[] {read, write};
    }

    /** Every second kept up to {@code nowMillis}, the one open included, oldest first. */
    List<ResourceSummary> seconds(long nowMillis) {
        roll(nowMillis);
        List<ResourceSummary> all = new ArrayList<>(seconds.closed());
        ResourceWindow open = seconds.current();
        if (open != null) all.add(open.summary(SECOND_TOP, SECOND_MEASURES, open.readHalves(), open.writeHalves()));
        return all;
    }

    /**
     * Every minute kept up to {@code nowMillis}, the one open included (its closed seconds and the
     * second open now, summed in a copy), oldest first.
     */
    List<ResourceSummary> minutes(long nowMillis) {
        roll(nowMillis);
        List<ResourceSummary> all = new ArrayList<>(minutes.closed());
        ResourceWindow second = seconds.current();
        ResourceWindow open;
        synchronized (minuteLock) {
            ResourceWindow minute = minutes.current();
            open = minute == null ? null : minute.copy(keyCap);
        }
        if (second != null) {
            long secondsMinute = Math.floorDiv(second.period(), 60);
            if (open == null || open.period() < secondsMinute) open = second.emptyFor(secondsMinute, keyCap);
            if (open.period() == secondsMinute) open.fold(second);
        }
        if (open != null) {
            long[] peaks = peaks(open.period(), seconds(nowMillis));
            all.add(open.summary(MINUTE_TOP, MINUTE_MEASURES, peaks[0], peaks[1]));
        }
        return all;
    }

    /** Closes the windows whose time is over (seconds first: a minute is the sum of its seconds). */
    private void roll(long nowMillis) {
        if (seconds.current() != null) seconds.at(nowMillis);
        synchronized (minuteLock) {
            if (minutes.current() != null) minutes.at(nowMillis);
        }
    }
}
