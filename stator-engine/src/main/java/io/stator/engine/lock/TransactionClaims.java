package io.stator.engine.lock;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The items held by transactions being committed. DynamoDB does not make a write wait for a
 * transaction on the same item: the write fails with TransactionConflictException, and a
 * transaction meeting another one is cancelled (reason TransactionConflict). A transaction
 * claims all its items, or none, before it takes their locks; a claim is released once the
 * transaction has committed or given up.
 */
final class TransactionClaims {

    private final ConcurrentHashMap<RowKey, Object> claims = new ConcurrentHashMap<>();

    /** True when a transaction holds the item. */
    boolean isClaimed(byte[] rowKey) {
        return !claims.isEmpty() && claims.containsKey(new RowKey(rowKey));
    }

    /**
     * Claims every item for {@code owner}, or none.
     *
     * @return -1 when all are claimed, else the position of the first item another transaction holds
     */
    int claimAll(List<byte[]> rowKeys, Object owner) {
        for (int i = 0; i < rowKeys.size(); i++) {
            Object holder = claims.putIfAbsent(new RowKey(rowKeys.get(i)), owner);
            if (holder != null && holder != owner) {
                release(rowKeys.subList(0, i), owner);
                return i;
            }
        }
        return -1;
    }

    /** The position of the first item a transaction holds, or -1. */
    int firstClaimed(List<byte[]> rowKeys) {
        if (claims.isEmpty()) return -1;
        for (int i = 0; i < rowKeys.size(); i++) if (claims.containsKey(new RowKey(rowKeys.get(i)))) return i;
        return -1;
    }

    void release(List<byte[]> rowKeys, Object owner) {
        for (byte[] k : rowKeys) claims.remove(new RowKey(k), owner);
    }

    /** A row key as a map key (arrays compare by identity). */
    private record RowKey(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof RowKey k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }
}
