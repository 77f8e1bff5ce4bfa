package io.stator.engine.cluster;

import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.Keyspace;
import io.stator.storage.RowKeyFraming;
import java.util.Arrays;

/**
 * Where the rows kept one collection per shard live on shared storage: DynamoDB Streams' records
 * (keys {@code [table id 8][stream creation 8][slot 2]} then the sequence number, 8 bytes, or
 * nothing for the shard's head row: StreamRecords) and the Kinesis destinations' outbox (keys
 * {@code [table id 8][0 8][bucket 2]} then the change's time and a unique number: KinesisOutbox).
 * A shard is one collection of its key space's reserved table, its first 18 bytes the partition
 * key, the rest the clustering: rows commit with their items in one transaction on
 * compare-and-set, and a range within a shard is a range of one collection.
 */
final class ShardedRows {

    private static final int SHARD_BYTES = 18;

    private ShardedRows() {}

    static boolean isSharded(Keyspace k) {
        return k == Keyspaces.STREAM_RECORDS || k == Keyspaces.KINESIS_OUTBOX;
    }

    static byte[] row(Keyspace k, byte[] key) {
        return RowKeyFraming.rowKey(SharedStorage.metaTable(k), 0, 0, Arrays.copyOf(key, SHARD_BYTES),
                Arrays.copyOfRange(key, SHARD_BYTES, key.length));
    }

    static byte[] key(byte[] rowKey) {
        byte[] shard = RowKeyFraming.partitionKey(rowKey);
        byte[] rest = RowKeyFraming.clustering(rowKey);
        byte[] key = Arrays.copyOf(shard, shard.length + rest.length);
        System.arraycopy(rest, 0, key, shard.length, rest.length);
        return key;
    }

    /** Whether two keys are of one shard ({@code b} null: no). */
    static boolean sameShard(byte[] a, byte[] b) {
        return b != null && Arrays.equals(a, 0, SHARD_BYTES, b, 0, SHARD_BYTES);
    }
}
