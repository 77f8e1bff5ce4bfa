package io.stator.engine.item;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Item locks striped by row key: writes to one item are serialized, writes to different items
 * almost never wait for each other. A fixed array of locks costs nothing per item and never
 * grows; two items sharing a stripe only wait, they cannot deadlock, because a single-item
 * write holds one stripe at a time.
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
        int h = Arrays.hashCode(rowKey);
        h ^= (h >>> 16);
        return stripes[h & mask];
    }

    /** Takes and releases every stripe in turn: whoever held one when called has let it go. */
    void awaitAll() {
        for (ReentrantLock stripe : stripes) {
            stripe.lock();
            stripe.unlock();
        }
    }
}
