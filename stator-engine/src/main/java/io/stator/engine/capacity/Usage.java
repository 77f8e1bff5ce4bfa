package io.stator.engine.capacity;

import io.stator.engine.table.IndexDefinition;
import java.util.List;

/**
 * What an operation read or wrote, described for the {@link CapacityMeter}: the sizes DynamoDB
 * bills by, per table and index. Every operation describes its work this way, and only the
 * meter turns a description into units.
 */
public sealed interface Usage {

    /**
     * One item written (or, for a transaction's ConditionCheck, checked: billed as a write of
     * the item it checks, with nothing written).
     *
     * @param oldItemBytes the item's size before the write, 0 when absent
     * @param newItemBytes its size after, 0 when deleted or absent
     * @param indexes      the index entries the write changed
     * @param transactional part of TransactWriteItems (the table's units count twice)
     * @param partitionHash the hash of the item's partition key: the partition it is written in
     */
    record Write(long oldItemBytes, long newItemBytes, List<IndexWrite> indexes, boolean transactional,
                 long partitionHash) implements Usage {}

    /**
     * One index entry changed by a write: written (its key is new or its value changed),
     * removed, or moved (its key changed: removed and written).
     *
     * @param indexName    as ConsumedCapacity names the index
     * @param indexId      the index's id in its table: how the meter finds its buckets
     * @param vector       a vector index's entry: metered in bytes, not units
     * @param removedBytes the size of the entry removed, or -1 when none is
     * @param writtenBytes the size of the entry written, or -1 when none is
     * @param partitionHash the hash of the index partition key of the entry written (else of the
     *                      one removed): the index partition the write lands in
     */
    record IndexWrite(String indexName, int indexId, boolean global, boolean vector, long removedBytes,
                      long writtenBytes, long partitionHash) {}

    /**
     * Items read: one (GetItem, a batch's or a transaction's get) or a page of a Query or Scan.
     *
     * @param index         the index read, or null for the table
     * @param bytesRead     the sizes of the items (or index entries) read, summed
     * @param bytesFetched  on a local index, the sizes of the items fetched from the table for
     *                      its entries (billed to the table), summed; 0 otherwise
     * @param transactional part of TransactGetItems, or a replayed TransactWriteItems (twice the units)
     * @param firstHash     the first partition-key hash (unsigned) the page's range covered
     * @param lastHash      the last one, inclusive: a Scan page is billed at least the minimum
     *                      once per partition it visited
     */
    record Read(IndexDefinition index, long bytesRead, long bytesFetched, boolean consistentRead,
                boolean transactional, long firstHash, long lastHash) implements Usage {

        /** A read within one partition key's rows. */
        public Read(IndexDefinition index, long bytesRead, long bytesFetched, boolean consistentRead,
                    boolean transactional) {
            this(index, bytesRead, bytesFetched, consistentRead, transactional, 0, 0);
        }
    }
}
