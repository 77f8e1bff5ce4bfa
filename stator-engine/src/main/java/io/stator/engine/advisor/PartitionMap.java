package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;

/**
 * The modelled partitions of a table (index null) or global index: their first hashes, unsigned,
 * in order (the capacity model's, {@code Throughput.partitionStarts}). Read as each window opens.
 */
@FunctionalInterface
public interface PartitionMap {

    long[] starts(TableDefinition table, IndexDefinition index);

    /** One partition holding every hash (an engine without the throughput model). */
    PartitionMap ONE = (table, index) -> new long[] {0};

    /** Which of the partitions {@code starts} (first hashes, unsigned, in order) holds {@code hash}. */
    static int indexOf(long[] starts, long hash) {
        int low = 0;
        int high = starts.length - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (Long.compareUnsigned(starts[mid], hash) <= 0) low = mid;
            else high = mid - 1;
        }
        return low;
    }
}
