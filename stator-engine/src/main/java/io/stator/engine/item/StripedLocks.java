package io.stator.engine.item;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Item locks striped by row key: writes to one item are serialized, writes to different items
 * almost never wait for each other. A fixed array of locks costs nothing per item and never
 * grows. A single-item write holds one stripe at a time; a transaction holds several, always
 * taken in ascending stripe order, so no two writers can wait for each other in a cycle.
 */
final class StripedLocks {

    private final ReentrantLock[] stripes;
    private final int mask;

    StripedLocks(int stripeCountPowerOfTwo) {
        if (Integer.bitCount(stripeCountPowerOfTwo) != 1) throw new IllegalArgumentException("power of two");
        stripes = new ReentrantLock[stripeCountPowerOfTwo];
        for (int i = 0; i < stripes.length; i++) stripes[i] = new ReentrantLock();
        mask = stripeCountPowerOfTwo - 1;
    }

    ReentrantLock lockFor(byte[] rowKey) {
        return stripes[stripeOf(rowKey)];
    }

    private int stripeOf(byte[] rowKey) {
        int h = Arrays.hashCode(rowKey);
        h ^= (h >>> 16);
        return h & mask;
    }

    /** Locks the stripes of all the row keys, in ascending order; returns them for {@link #unlockAll}. */
    int[] lockAll(List<byte[]> rowKeys) {
        int[] order = rowKeys.stream().mapToInt(this::stripeOf).sorted().distinct().toArray();
        for (int stripe : order) stripes[stripe].lock();
        return order;
    }

    void unlockAll(int[] locked) {
        for (int i = locked.length - 1; i >= 0; i--) stripes[locked[i]].unlock();
    }

    /** Takes and releases every stripe in turn: whoever held one when called has let it go. */
    void awaitAll() {
        for (ReentrantLock stripe : stripes) {
            stripe.lock();
            stripe.unlock();
        }
    }
}
