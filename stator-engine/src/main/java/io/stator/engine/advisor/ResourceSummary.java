package io.stator.engine.advisor;

import java.util.List;
import java.util.Map;

/**
 * One second's or one minute's traffic on one table or global index, once its window closed (or
 * as far as an open one went): its totals, its top keys by each measure, its distinct keys, its
 * modelled partitions' units, its item sizes.
 *
 * @param period               the window's start, in seconds or minutes since the epoch
 * @param throttleEvents       throttled requests by throttling reason (every one, whoever made it)
 * @param partitionKeys        the top partition keys by each measure
 * @param partitionKeysListed  every partition key with some of a measure is in its list (a key
 *                             absent from a list had none of it)
 * @param items                the top items (partition and sort key) by each measure
 * @param partitions           units per modelled partition, by its first hash (unsigned)
 * @param itemSizes            items read or written one at a time, by size ({@link ResourceWindow#SIZE_BUCKETS})
 * @param peakReadHalves       a minute's busiest second's read units (halves); for a second, its own
 * @param peakWriteHalves      the same for write units
 * @param partitionStarts      the modelled partitions when the window opened (first hashes, unsigned, in order)
 */
record ResourceSummary(long period, long readHalves, long writeHalves, long insightsHalves, long requests,
                       Map<String, Long> throttleEvents, long distinctPartitionKeys, long distinctItems,
                       Map<KeyTable.Measure, List<KeyFigures>> partitionKeys, boolean partitionKeysListed,
                       Map<KeyTable.Measure, List<KeyFigures>> items, boolean itemsListed,
                       Map<Long, PartitionFigures> partitions, long[] itemSizes, long peakReadHalves,
                       long peakWriteHalves, long[] partitionStarts) {

    /** One modelled partition's units in a window, by its first hash. */
    record PartitionFigures(long firstHash, long readHalves, long writeHalves, long throttleEvents) {}
}
