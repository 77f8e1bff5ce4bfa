package io.stator.storage;

/**
 * A commit applied nothing because a multi-item transaction of another server holds one of its
 * rows and is alive: DynamoDB answers such a write with TransactionConflict.
 */
public final class RowHeldException extends RuntimeException {
    private final byte[] key;

    public RowHeldException(byte[] key) {
        super("a transaction holds the row", null, false, false);
        this.key = key;
    }

    /** The row's key. */
    public byte[] key() { return key; }
}
