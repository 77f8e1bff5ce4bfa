package io.stator.engine.advisor;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One open window (a second or a minute) of one table's or global index's traffic. A second is
 * added to by each request, without a lock shared by all requests: adders, a concurrent map of
 * keys ({@link KeyTable}), an array of partitions; a minute is the sum of its seconds, each folded
 * in as it closes ({@link #fold}).
 */
final class ResourceWindow implements Rolling.Period {

    /**
     * Item sizes in powers of two: bucket 0 holds items under 1 KB, bucket i items from 2^(9+i)
     * bytes (1 KB at i = 1) up to twice that, the last one 256 KB and more (400 KB is the limit).
     */
    static final int SIZE_BUCKETS = 10;

    private final long period;
    /** The modelled partitions when the window opened: their first hashes, unsigned, in order. */
    private final long[] partitionStarts;
    final KeyTable partitionKeys;
    final KeyTable items;
    private final LongAdder readHalves = new LongAdder();
    private final LongAdder writeHalves = new LongAdder();
    /** What Contributor Insights leaves out of 3W + R (PartiQL's): the measure is derived, one adder less. */
    private final LongAdder excludedHalves = new LongAdder();
    private final LongAdder requests = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> throttleEvents = new ConcurrentHashMap<>();
    /** By the partition's index in {@link #partitionStarts}, made as first used. */
    private final AtomicReferenceArray<PartitionCounter> partitions;
    /**
     * Striped adders: every request of a workload lands in the same bucket, and one atomic
     * counter for all of them made the cores take its cache line from each other on every request.
     */
    private final LongAdder[] itemSizes = new LongAdder[SIZE_BUCKETS];

    /** @param sketched whether keys past the cap are sketched (see {@link KeyTable}) */
    ResourceWindow(long period, long[] partitionStarts, int keyCap, boolean sketched) {
        this.period = period;
        this.partitionStarts = partitionStarts;
        this.partitionKeys = new KeyTable(keyCap, sketched);
        this.items = new KeyTable(keyCap, sketched);
        this.partitions = new AtomicReferenceArray<>(Math.max(1, partitionStarts.length));
        for (int i = 0; i < SIZE_BUCKETS; i++) itemSizes[i] = new LongAdder();
    }

    @Override
    public long period() { return period; }

    /** One modelled partition's figures. */
    private static final class PartitionCounter {
        final LongAdder readHalves = new LongAdder();
        final LongAdder writeHalves = new LongAdder();
        final LongAdder throttleEvents = new LongAdder();
    }

    /**
     * One request's share of this resource: its keys (null when it has none: a Scan), its units,
     * the reasons it was throttled for here (empty when it was not), the size of the one item it
     * read or wrote (-1 for none).
     */
    void record(KeyBytes partitionKey, KeyBytes item, long partitionHash, KeyCounter.Sample sample,
                List<String> reasons, long itemBytes) {
        if (sample.readHalves() != 0) readHalves.add(sample.readHalves());
        if (sample.writeHalves() != 0) writeHalves.add(sample.writeHalves());
        long excluded = sample.readHalves() + 3 * sample.writeHalves() - sample.insightsHalves();
        if (excluded != 0) excludedHalves.add(excluded);
        requests.increment();
        for (String r : reasons) throttleEvents.computeIfAbsent(r, x -> new LongAdder()).increment();
        if (partitionKey != null) {
            partitionKeys.add(partitionKey, sample);
            PartitionCounter p = partition(partitionStarts.length == 0 ? 0
                    : PartitionMap.indexOf(partitionStarts, partitionHash));
            if (sample.readHalves() != 0) p.readHalves.add(sample.readHalves());
            if (sample.writeHalves() != 0) p.writeHalves.add(sample.writeHalves());
            if (!reasons.isEmpty()) p.throttleEvents.increment();
        }
        if (item != null) items.add(item, sample);
        if (itemBytes >= 0) itemSizes[sizeBucket(itemBytes)].increment();
    }

    /**
     * Adds another window's figures: a closed second's into the minute it is part of (a minute is
     * the sum of its seconds), or a minute's into a copy of it. A partition of the other window
     * counts in this window's partition holding its first hash (partitions only split).
     */
    void fold(ResourceWindow other) {
        readHalves.add(other.readHalves.sum());
        writeHalves.add(other.writeHalves.sum());
        excludedHalves.add(other.excludedHalves.sum());
        requests.add(other.requests.sum());
        other.throttleEvents.forEach((r, n) -> throttleEvents.computeIfAbsent(r, x -> new LongAdder()).add(n.sum()));
        for (int j = 0; j < other.partitions.length(); j++) {
            PartitionCounter o = other.partitions.get(j);
            if (o == null) continue;
            long start = other.partitionStarts.length == 0 ? 0 : other.partitionStarts[j];
            PartitionCounter p = partition(partitionStarts.length == 0 ? 0 : PartitionMap.indexOf(partitionStarts, start));
            p.readHalves.add(o.readHalves.sum());
            p.writeHalves.add(o.writeHalves.sum());
            p.throttleEvents.add(o.throttleEvents.sum());
        }
        for (int i = 0; i < SIZE_BUCKETS; i++) itemSizes[i].add(other.itemSizes[i].sum());
        partitionKeys.fold(other.partitionKeys);
        items.fold(other.items);
    }

    /** The window's counter of the partition at {@code index}, made as first used. */
    private PartitionCounter partition(int index) {
        PartitionCounter p = partitions.get(index);
        if (p == null) {
            partitions.compareAndSet(index, null, new PartitionCounter());
            p = partitions.get(index);
        }
        return p;
    }

    /** A new window of the same period and partitions holding this one's figures (for a summary of it and more). */
    ResourceWindow copy(int keyCap) {
        ResourceWindow c = new ResourceWindow(period, partitionStarts, keyCap, true);
        c.fold(this);
        return c;
    }

    /** A new, empty window of another period with this one's partitions. */
    ResourceWindow emptyFor(long otherPeriod, int keyCap) {
        return new ResourceWindow(otherPeriod, partitionStarts, keyCap, true);
    }

    /** The size buckets' names, as the findings and the console show them. */
    static final List<String> SIZE_LABELS = List.of("under 1 KB", "1-2 KB", "2-4 KB", "4-8 KB", "8-16 KB", "16-32 KB",
            "32-64 KB", "64-128 KB", "128-256 KB", "256 KB and more");

    /** The least size of bucket {@code b}: 0, then 1 KB doubling. */
    static long sizeBucketLowBytes(int b) {
        return b == 0 ? 0 : 1024L << (b - 1);
    }

    static int sizeBucket(long bytes) {
        if (bytes < 1024) return 0;
        int bucket = 64 - Long.numberOfLeadingZeros(bytes) - 10; // 1 KB..2 KB -> 1
        return Math.min(SIZE_BUCKETS - 1, bucket);
    }

    /** The window's figures, its top {@code k} keys by each of {@code measures}. */
    ResourceSummary summary(int k, List<KeyTable.Measure> measures, long peakReadHalves, long peakWriteHalves) {
        Map<KeyTable.Measure, List<KeyFigures>> pks = new EnumMap<>(KeyTable.Measure.class);
        Map<KeyTable.Measure, List<KeyFigures>> its = new EnumMap<>(KeyTable.Measure.class);
        for (KeyTable.Measure m : measures) {
            pks.put(m, partitionKeys.top(m, k));
            if (m != KeyTable.Measure.ITEMS) its.put(m, items.top(m, k));
        }
        Map<String, Long> throttles = new TreeMap<>();
        throttleEvents.forEach((r, n) -> throttles.put(r, n.sum()));
        Map<Long, ResourceSummary.PartitionFigures> parts = new TreeMap<>(Long::compareUnsigned);
        for (int i = 0; i < partitions.length(); i++) {
            PartitionCounter p = partitions.get(i);
            if (p == null) continue;
            long start = partitionStarts.length == 0 ? 0 : partitionStarts[i];
            parts.put(start, new ResourceSummary.PartitionFigures(start, p.readHalves.sum(), p.writeHalves.sum(),
                    p.throttleEvents.sum()));
        }
        long[] sizes = new long[SIZE_BUCKETS];
        for (int i = 0; i < SIZE_BUCKETS; i++) sizes[i] = itemSizes[i].sum();
        long read = readHalves.sum();
        long write = writeHalves.sum();
        return new ResourceSummary(period, read, write, read + 3 * write - excludedHalves.sum(), requests.sum(),
                throttles, partitionKeys.distinct(), items.distinct(), pks,
                !partitionKeys.overflowed() && partitionKeys.exactKeys() <= k, its,
                !items.overflowed() && items.exactKeys() <= k, parts, sizes,
                Math.max(peakReadHalves, 0), Math.max(peakWriteHalves, 0), partitionStarts);
    }

    long readHalves() { return readHalves.sum(); }

    long writeHalves() { return writeHalves.sum(); }
}
