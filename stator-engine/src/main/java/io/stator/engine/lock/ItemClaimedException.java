package io.stator.engine.lock;

/**
 * An item was claimed by a transaction being committed. The write pipeline turns it into
 * DynamoDB's answer: TransactionConflictException for a single write, a TransactionConflict
 * cancellation reason for a transaction.
 */
public final class ItemClaimedException extends RuntimeException {

    private final int position;

    ItemClaimedException(int position) {
        super("item " + position + " is claimed by a transaction", null, false, false);
        this.position = position;
    }

    /** The position of the claimed item among the items asked for (0 for a single write). */
    public int position() { return position; }
}
