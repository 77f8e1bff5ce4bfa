package io.stator.engine.lock;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link ItemLocks} in one process: item locks striped by row key, so writes to one item are
 * serialized and writes to different items almost never wait for each other. A fixed array of
 * locks costs nothing per item and never grows. A single write holds one stripe; a transaction
 * holds several, always taken in ascending stripe order (the canonical order), so no two
 * writers can wait for each other in a cycle. Item collections have stripes of their own,
 * taken after item stripes, never before. Transactions' claims are kept in
 * {@link TransactionClaims}.
 */
public final class StripedItemLocks implements ItemLocks {

    private static final int ITEM_STRIPES = 4096;
    private static final int COLLECTION_STRIPES = 1024;

    private final Stripes items = new Stripes(ITEM_STRIPES);
    private final Stripes collections = new Stripes(COLLECTION_STRIPES);
    private final TransactionClaims claims = new TransactionClaims();

    @Override
    public Held lockForWrite(byte[] rowKey) {
        // Checked before the lock, which a committing transaction holds: the write fails at once,
        // as DynamoDB's does, instead of waiting for the transaction to finish. A transaction
        // that claims the item after this check waits for this write's lock, and sees its result.
        if (claims.isClaimed(rowKey)) throw new ItemClaimedException(0);
        return lock(rowKey);
    }

    @Override
    public Held claimAndLock(List<byte[]> rowKeys) {
        Object owner = new Object();
        int conflict = claims.claimAll(rowKeys, owner);
        if (conflict >= 0) throw new ItemClaimedException(conflict);
        int[] locked;
        try {
            locked = items.lockAll(rowKeys);
        } catch (RuntimeException | Error e) {
            claims.release(rowKeys, owner);
            throw e;
        }
        return () -> {
            try {
                items.unlockAll(locked);
            } finally {
                claims.release(rowKeys, owner);
            }
        };
    }

    @Override
    public int firstClaimed(List<byte[]> rowKeys) {
        return claims.firstClaimed(rowKeys);
    }

    @Override
    public Held lock(byte[] rowKey) {
        Stripe stripe = items.stripeFor(rowKey);
        stripe.lock();
        return stripe;
    }

    @Override
    public Held lockCollections(List<byte[]> collectionKeys) {
        if (collectionKeys.size() == 1) {
            Stripe stripe = collections.stripeFor(collectionKeys.get(0));
            stripe.lock();
            return stripe;
        }
        int[] locked = collections.lockAll(collectionKeys);
        return () -> collections.unlockAll(locked);
    }

    @Override
    public void awaitWritesInFlight() {
        items.awaitAll();
    }

    /** A lock that releases itself when the holder closes it: a single stripe is held without allocating. */
    private static final class Stripe extends ReentrantLock implements Held {
        @Override
        public void close() {
            unlock();
        }
    }

    /** A power-of-two array of locks, picked by a hash of the key. */
    private static final class Stripes {
        private final Stripe[] stripes;
        private final int mask;

        Stripes(int countPowerOfTwo) {
            stripes = new Stripe[countPowerOfTwo];
            for (int i = 0; i < stripes.length; i++) stripes[i] = new Stripe();
            mask = countPowerOfTwo - 1;
        }

        Stripe stripeFor(byte[] key) {
            return stripes[stripeOf(key)];
        }

        private int stripeOf(byte[] key) {
            int h = Arrays.hashCode(key);
            h ^= (h >>> 16);
            return h & mask;
        }

        /** Locks the stripes of all the keys, in ascending order; returns them for {@link #unlockAll}. */
        int[] lockAll(List<byte[]> keys) {
            int[] order = keys.stream().mapToInt(this::stripeOf).sorted().distinct().toArray();
            for (int stripe : order) stripes[stripe].lock();
            return order;
        }

        void unlockAll(int[] locked) {
            for (int i = locked.length - 1; i >= 0; i--) stripes[locked[i]].unlock();
        }

        /** Takes and releases every stripe in turn: whoever held one when called has let it go. */
        void awaitAll() {
            for (Stripe stripe : stripes) {
                stripe.lock();
                stripe.unlock();
            }
        }
    }
}
