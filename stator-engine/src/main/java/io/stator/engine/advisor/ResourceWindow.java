package io.stator.engine.advisor;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One open window (a second or a minute) of one table's or global index's traffic. Everything
 * in it is added to without a lock shared by all requests: adders, a concurrent map of keys
 * ({@link KeyTable}), a concurrent map of partitions.
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
    private final LongAdder insightsHalves = new LongAdder();
    private final LongAdder requests = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> throttleEvents = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, PartitionCounter> partitions = new ConcurrentHashMap<>();
    private final AtomicLongArray itemSizes = new AtomicLongArray(SIZE_BUCKETS);

    ResourceWindow(long period, long[] partitionStarts, int keyCap) {
        this.period = period;
        this.partitionStarts = partitionStarts;
        this.partitionKeys = new KeyTable(keyCap);
        this.items = new KeyTable(keyCap);
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
        if (sample.insightsHalves() != 0) insightsHalves.add(sample.insightsHalves());
        requests.increment();
        for (String r : reasons) throttleEvents.computeIfAbsent(r, x -> new LongAdder()).increment();
        if (partitionKey != null) {
            partitionKeys.add(partitionKey, sample);
            Long start = partitionOf(partitionHash);
            PartitionCounter p = partitions.get(start);
            if (p == null) p = partitions.computeIfAbsent(start, x -> new PartitionCounter());
            if (sample.readHalves() != 0) p.readHalves.add(sample.readHalves());
            if (sample.writeHalves() != 0) p.writeHalves.add(sample.writeHalves());
            if (!reasons.isEmpty()) p.throttleEvents.increment();
        }
        if (item != null) items.add(item, sample);
        if (itemBytes >= 0) itemSizes.incrementAndGet(sizeBucket(itemBytes));
    }

    static int sizeBucket(long bytes) {
        if (bytes < 1024) return 0;
        int bucket = 64 - Long.numberOfLeadingZeros(bytes) - 10; // 1 KB..2 KB -> 1
        return Math.min(SIZE_BUCKETS - 1, bucket);
    }

    private long partitionOf(long hash) {
        return partitionStarts.length == 0 ? 0 : partitionStarts[PartitionMap.indexOf(partitionStarts, hash)];
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
        partitions.forEach((start, p) -> parts.put(start, new ResourceSummary.PartitionFigures(start, p.readHalves.sum(),
                p.writeHalves.sum(), p.throttleEvents.sum())));
        long[] sizes = new long[SIZE_BUCKETS];
        for (int i = 0; i < SIZE_BUCKETS; i++) sizes[i] = itemSizes.get(i);
        return new ResourceSummary(period, readHalves.sum(), writeHalves.sum(), insightsHalves.sum(), requests.sum(),
                throttles, partitionKeys.distinct(), items.distinct(), pks,
                !partitionKeys.overflowed() && partitionKeys.exactKeys() <= k, its,
                !items.overflowed() && items.exactKeys() <= k, parts, sizes,
                Math.max(peakReadHalves, 0), Math.max(peakWriteHalves, 0));
    }

    long readHalves() { return readHalves.sum(); }

    long writeHalves() { return writeHalves.sum(); }
}
