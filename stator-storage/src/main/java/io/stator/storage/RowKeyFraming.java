package io.stator.storage;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * How a {@link CollectionStore} row key is framed, which is all a backend knows of it:
 * {@code [table id 8][kind 4][hash 8][length 2][partition key][clustering]}, integers
 * big-endian. The engine's key layout ({@code io.stator.core.key.KeyLayout}) lays out every item
 * and index-entry key in this frame; what the bytes inside mean is the engine's.
 */
public final class RowKeyFraming {

    public static final int KIND_OFFSET = 8;
    public static final int HASH_OFFSET = 12;
    public static final int LENGTH_OFFSET = 20;
    public static final int PARTITION_KEY_OFFSET = 22;

    /**
     * The one kind a backend may use for rows of its own in an item collection (Cassandra's commit
     * markers). Whoever lays out the rows (the engine) uses kinds 0 and up for items and index
     * entries and keeps its other negative kinds clear of this one.
     */
    public static final int BACKEND_KIND = -1;

    private RowKeyFraming() {}

    public static long tableId(byte[] rowKey) {
        return ByteBuffer.wrap(rowKey).getLong(0);
    }

    public static int kind(byte[] rowKey) {
        return ByteBuffer.wrap(rowKey).getInt(KIND_OFFSET);
    }

    public static long hash(byte[] rowKey) {
        return ByteBuffer.wrap(rowKey).getLong(HASH_OFFSET);
    }

    public static int partitionKeyLength(byte[] rowKey) {
        return ((rowKey[LENGTH_OFFSET] & 0xFF) << 8) | (rowKey[LENGTH_OFFSET + 1] & 0xFF);
    }

    /** Where the clustering bytes start. */
    public static int clusteringOffset(byte[] rowKey) {
        return PARTITION_KEY_OFFSET + partitionKeyLength(rowKey);
    }

    public static byte[] partitionKey(byte[] rowKey) {
        return Arrays.copyOfRange(rowKey, PARTITION_KEY_OFFSET, clusteringOffset(rowKey));
    }

    public static byte[] clustering(byte[] rowKey) {
        return Arrays.copyOfRange(rowKey, clusteringOffset(rowKey), rowKey.length);
    }

    /**
     * The row key of the parts: a backend that stores them apart (Cassandra) gives rows back
     * with their whole keys.
     */
    public static byte[] rowKey(long tableId, int kind, long hash, byte[] partitionKey, byte[] clustering) {
        if (partitionKey.length > 0xFFFF) throw new IllegalArgumentException("partition key of " + partitionKey.length + " bytes");
        return ByteBuffer.allocate(PARTITION_KEY_OFFSET + partitionKey.length + clustering.length)
                .putLong(tableId).putInt(kind).putLong(hash).putShort((short) partitionKey.length)
                .put(partitionKey).put(clustering).array();
    }

    /** The collection's identity within its table: the hash and the framed partition key, kind left out. */
    public static byte[] collection(byte[] rowKey) {
        int end = clusteringOffset(rowKey);
        byte[] c = new byte[8 + end - HASH_OFFSET];
        System.arraycopy(rowKey, 0, c, 0, 8);
        System.arraycopy(rowKey, HASH_OFFSET, c, 8, end - HASH_OFFSET);
        return c;
    }

    /** True when both keys are rows of one collection (any kinds). */
    public static boolean sameCollection(byte[] a, byte[] b) {
        int end = clusteringOffset(a);
        return end == clusteringOffset(b) && Arrays.equals(a, 0, KIND_OFFSET, b, 0, KIND_OFFSET)
                && Arrays.equals(a, HASH_OFFSET, end, b, HASH_OFFSET, end);
    }

    /** The key {@code [table][kind][hash]}: where an ordered store's rows of that hash start. */
    public static byte[] hashBound(long tableId, int kind, long hash) {
        return ByteBuffer.allocate(LENGTH_OFFSET).putLong(tableId).putInt(kind).putLong(hash).array();
    }

    /** The key {@code [table]}: where an ordered store's rows of the table start. */
    public static byte[] tablePrefix(long tableId) {
        return ByteBuffer.allocate(8).putLong(tableId).array();
    }

    /**
     * The key {@code [table][kind + 1]}: above every row of the kind (kind + 1 compared unsigned);
     * for kind -1 (the largest, unsigned), {@code [table + 1]}, above every row of the table.
     */
    public static byte[] kindUpperBound(long tableId, int kind) {
        ByteBuffer b = ByteBuffer.allocate(HASH_OFFSET).putLong(tableId);
        if (kind == -1) return ByteBuffer.allocate(8).putLong(tableId + 1).array();
        return b.putInt(kind + 1).array();
    }
}
