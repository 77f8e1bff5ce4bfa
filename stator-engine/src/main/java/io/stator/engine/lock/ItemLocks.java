package io.stator.engine.lock;

import java.util.List;

/**
 * How writers of one item exclude each other, and how transactions claim their items. The write
 * pipeline asks for these guarantees through this interface only: in one process they are
 * striped locks and a claim table ({@link StripedItemLocks}); a backend shared by several
 * servers provides them by compare-and-set on claim records instead.
 *
 * <p>The guarantees: a write holds its item from reading it to committing it, so its condition
 * and its change are atomic with respect to every other write of the item. A transaction claims
 * all its items (all or none) before it holds them; a single write that meets a claim fails at
 * once, as DynamoDB's does (TransactionConflictException), rather than waiting for the
 * transaction. Several items are always held in one canonical order, so no two writers wait for
 * each other in a cycle. Item collections (a partition key's items on a table with a local
 * index) are held only while their size is checked and changed, after their items, never
 * before.
 */
public interface ItemLocks {

    /** What a writer holds; closing it releases everything it holds. */
    interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * A single write's hold on its item; waits for other writers of the item.
     *
     * @throws ItemClaimedException at once when a committing transaction has claimed the item
     */
    Held lockForWrite(byte[] rowKey);

    /**
     * A transaction's hold on its items: claims them all for the transaction, or none, then
     * holds them in canonical order (writes already under way finish first).
     *
     * @throws ItemClaimedException naming the position of the first item another transaction claimed
     */
    Held claimAndLock(List<byte[]> rowKeys);

    /** The position of the first item a committing transaction has claimed, or -1 (TransactGetItems). */
    int firstClaimed(List<byte[]> rowKeys);

    /** Holds one item for work that is not a client's write (an index backfill copying it). */
    Held lock(byte[] rowKey);

    /** Holds item collections, named by any bytes that identify them, while their size is checked and changed. */
    Held lockCollections(List<byte[]> collectionKeys);

    /**
     * Waits until every writer that holds an item now has released it: a write that starts
     * afterwards sees everything committed before this call returned (index backfills).
     */
    void awaitWritesInFlight();
}
