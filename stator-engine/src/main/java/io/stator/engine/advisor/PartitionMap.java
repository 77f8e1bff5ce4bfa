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
}
