package io.stator.engine.capacity;

import io.stator.core.key.KeyLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The partitions of one table or one global secondary index: contiguous ranges of the partition
 * key's hash (unsigned, the hash every row key starts with, see {@link KeyLayout}), each serving at
 * most 3,000 read units and 1,000 write units a second whatever the table has (developer guide,
 * burst-adaptive-capacity). Since adaptive capacity, that hard ceiling is the only per-partition
 * limit: the table's own rate is enforced by the table's bucket, not divided among partitions
 * (dynamodb-throughput.md, section 13.3).
 *
 * <p>Partitions are split, never merged: all of them in two (DynamoDB doubles its partitions when
 * throughput rises past what they serve, 2017 developer guide) when the table's throughput or an
 * on-demand table's peak asks for more, and one of them in two when it has run hot, at 80% of a
 * ceiling or more, for {@link ThroughputSettings#splitDelayMillis} without a break ("split for
 * heat", which DynamoDB completes "typically in minutes"). A split cuts the hash range at its
 * middle; all rows of one partition key share one hash, so one key is never split: a hot key
 * stays capped at the ceiling, as DynamoDB's hot-item isolation is. Where DynamoDB splits an item
 * collection by sort key (a table without local indexes), Stator does not: its ranges are of
 * partition-key hashes only (docs/dynamodb/throughput.md says so).
 *
 * <p>A partition's bucket holds two seconds of its ceiling: it may absorb one extra second's worth
 * at once. Burst capacity does not lift a partition past its ceiling ("burst capacity can't
 * alleviate partition-level throttling", AWS knowledge center), but without any slack traffic
 * spread evenly over partitions at exactly their ceiling would throttle on its own randomness; the
 * must-throttle scenarios bound it (a new on-demand table given 2.5 seconds of its partitions'
 * ceiling at once is throttled, docs/dynamodb/throughput.md). Beside it, each partition banks its
 * unused capacity as burst, spent only on what a single request costs the partition beyond one
 * second of its ceiling ({@link TokenBucket}).
 */
final class Partitions {

    static final double READ_CEILING = 3_000;
    static final double WRITE_CEILING = 1_000;
    /** No more heat splits past this many partitions of one table or index (memory stays bounded). */
    static final int MAX_PARTITIONS = 4_096;
    /** What a partition's bucket holds, in seconds of its ceiling. */
    static final int BUCKET_SECONDS = 2;
    /** The share of a ceiling at which a partition counts as hot. */
    static final double HOT_SHARE = 0.8;

    /** One hash range and its buckets. */
    static final class Partition {
        final long start;
        final TokenBucket read;
        final TokenBucket write;
        // Heat: units consumed in the current second, and since when every second was hot.
        private long second = Long.MIN_VALUE;
        private double readUnits;
        private double writeUnits;
        private long hotSinceMillis = -1;
        // Cumulative figures for operators.
        final DoubleAdder consumedRead = new DoubleAdder();
        final DoubleAdder consumedWrite = new DoubleAdder();
        final LongAdder readThrottleEvents = new LongAdder();
        final LongAdder writeThrottleEvents = new LongAdder();

        Partition(long start, long nowMillis) {
            this.start = start;
            this.read = new TokenBucket(READ_CEILING, BUCKET_SECONDS * READ_CEILING, true, nowMillis);
            this.write = new TokenBucket(WRITE_CEILING, BUCKET_SECONDS * WRITE_CEILING, true, nowMillis);
        }

        /**
         * Counts units consumed (or refused: a throttled request shows heat too); true when the
         * partition has now been hot for {@code splitDelayMillis}.
         */
        synchronized boolean record(double read, double write, long nowMillis, long splitDelayMillis) {
            long s = Math.floorDiv(nowMillis, 1000);
            if (s != second) {
                boolean hot = second == s - 1
                        && (readUnits >= HOT_SHARE * READ_CEILING || writeUnits >= HOT_SHARE * WRITE_CEILING);
                if (!hot) hotSinceMillis = -1;
                else if (hotSinceMillis < 0) hotSinceMillis = second * 1000;
                second = s;
                readUnits = 0;
                writeUnits = 0;
            }
            readUnits += read;
            writeUnits += write;
            return hotSinceMillis >= 0 && nowMillis - hotSinceMillis >= splitDelayMillis;
        }
    }

    private volatile Partition[] partitions;
    /** Told the partitions' first hashes after every split, to keep them across restarts. */
    private final Consumer<long[]> changed;

    /** {@code count} equal ranges. */
    Partitions(int count, long nowMillis, Consumer<long[]> changed) {
        Partition[] p = new Partition[Math.max(1, count)];
        for (int i = 0; i < p.length; i++) p[i] = new Partition(KeyLayout.segmentStart(i, p.length), nowMillis);
        this.partitions = p;
        this.changed = changed;
    }

    /** The partitions kept from before a restart: their first hashes, the first 0, in order. */
    Partitions(long[] starts, long nowMillis, Consumer<long[]> changed) {
        Partition[] p = new Partition[starts.length];
        for (int i = 0; i < p.length; i++) p[i] = new Partition(starts[i], nowMillis);
        this.partitions = p;
        this.changed = changed;
    }

    Partitions(int count, long nowMillis) {
        this(count, nowMillis, starts -> { });
    }

    int count() {
        return partitions.length;
    }

    /** The partition holding a hash. */
    Partition of(long hash) {
        Partition[] p = partitions;
        return p[indexOf(p, hash)];
    }

    private static int indexOf(Partition[] p, long hash) {
        int low = 0;
        int high = p.length - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (Long.compareUnsigned(p[mid].start, hash) <= 0) low = mid;
            else high = mid - 1;
        }
        return low;
    }

    /** The partitions now, in hash order. */
    Partition[] all() {
        return partitions.clone();
    }

    /** How many partitions hold hashes in {@code [first, last]} (unsigned); 0 when first is past last. */
    int countBetween(long first, long last) {
        if (Long.compareUnsigned(first, last) > 0) return 0;
        Partition[] p = partitions;
        int from = indexOf(p, first);
        int to = indexOf(p, last);
        return to - from + 1;
    }

    /** The first hash of each partition, in order (for operators and tests). */
    long[] starts() {
        Partition[] p = partitions;
        long[] starts = new long[p.length];
        for (int i = 0; i < p.length; i++) starts[i] = p[i].start;
        return starts;
    }

    /** Splits every partition in two until there are at least {@code count}. */
    synchronized void growTo(int count, long nowMillis) {
        count = Math.min(count, MAX_PARTITIONS);
        if (partitions.length >= count) return;
        // In rounds, each halving every one of the widest ranges: a table of equal ranges
        // doubles, one that split for heat (any number) evens out first; never past the ceiling.
        while (partitions.length < count) {
            Partition[] old = partitions;
            long widest = 0;
            for (int i = 0; i < old.length; i++) widest = maxUnsigned(widest, widthLess1(old, i));
            if (widest == 0) break; // every range holds one hash
            List<Partition> next = new ArrayList<>(Math.min(count, old.length * 2));
            for (int i = 0; i < old.length; i++) {
                next.add(old[i]);
                if (old.length + (next.size() - i - 1) < MAX_PARTITIONS && widthLess1(old, i) == widest) {
                    next.add(new Partition(middle(old, i), nowMillis));
                }
            }
            partitions = next.toArray(new Partition[0]);
        }
        changed.accept(starts());
    }

    /** Splits one partition in two at the middle of its range (split for heat). */
    synchronized void split(Partition hot, long nowMillis) {
        Partition[] old = partitions;
        if (old.length >= MAX_PARTITIONS) return;
        int i = Arrays.asList(old).indexOf(hot);
        if (i < 0) return; // split already
        long middle = middle(old, i);
        if (middle == hot.start) return; // a range of one hash: one key, which is never split
        Partition[] split = new Partition[old.length + 1];
        System.arraycopy(old, 0, split, 0, i + 1);
        split[i + 1] = new Partition(middle, nowMillis);
        System.arraycopy(old, i + 1, split, i + 2, old.length - i - 1);
        partitions = split;
        changed.accept(starts());
    }

    /**
     * Makes the splits another server made (its partitions' first hashes, in any order): the
     * partitions become the union of both, since partitions are only ever split, so every
     * server's are a refinement of the same first ones and the union refines both. A new range
     * starts with full buckets, as a split's upper half does.
     */
    synchronized void adopt(long[] starts, long nowMillis) {
        Partition[] old = partitions;
        List<Partition> merged = null;
        for (long start : starts) {
            Partition holder = old[indexOf(old, start)];
            if (holder.start == start) continue;
            if (merged == null) merged = new ArrayList<>(Arrays.asList(old));
            boolean known = false;
            for (Partition p : merged) known |= p.start == start;
            if (!known && merged.size() < MAX_PARTITIONS) merged.add(new Partition(start, nowMillis));
        }
        if (merged == null || merged.size() == old.length) return;
        merged.sort((a, b) -> Long.compareUnsigned(a.start, b.start));
        partitions = merged.toArray(new Partition[0]);
        changed.accept(starts());
    }

    /** Partition {@code i}'s width minus one, unsigned (the one range of 2^64 hashes gives -1, the largest). */
    private static long widthLess1(Partition[] p, int i) {
        return (i + 1 < p.length ? p[i + 1].start : 0L) - p[i].start - 1;
    }

    private static long maxUnsigned(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }

    /** The middle of partition {@code i}'s range [start, next start), unsigned; the last one ends at 2^64. */
    private static long middle(Partition[] p, int i) {
        long start = p[i].start;
        long width = (i + 1 < p.length ? p[i + 1].start : 0L) - start; // mod 2^64; 0 means all of 2^64
        return width == 0 ? start + Long.MIN_VALUE : start + (width >>> 1);
    }
}
