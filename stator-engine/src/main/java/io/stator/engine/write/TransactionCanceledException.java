package io.stator.engine.write;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import java.util.List;

/**
 * DynamoDB's TransactionCanceledException: nothing of the transaction was applied, and why,
 * one reason per action in request order. The message lists the codes, as DynamoDB's does.
 */
public final class TransactionCanceledException extends DynamoDbException {

    private final transient List<CancellationReason> reasons;

    public TransactionCanceledException(List<CancellationReason> reasons) {
        super(ErrorType.TRANSACTION_CANCELED, "Transaction cancelled, please refer cancellation reasons for specific "
                + "reasons " + reasons.stream().map(CancellationReason::code).toList());
        this.reasons = List.copyOf(reasons);
    }

    /** A transaction cancelled for one action's reason, every other action being fine. */
    public static TransactionCanceledException at(int position, int actions, CancellationReason reason) {
        CancellationReason[] reasons = new CancellationReason[actions];
        java.util.Arrays.fill(reasons, CancellationReason.NONE);
        reasons[position] = reason;
        return new TransactionCanceledException(List.of(reasons));
    }

    /**
     * Cancelled because another transaction holds the action's item (DynamoDB's
     * TransactionConflict, with its message: docs/dynamodb/batches-transactions.md).
     */
    public static TransactionCanceledException conflictAt(int position, int actions) {
        return at(position, actions, new CancellationReason(CancellationReason.TRANSACTION_CONFLICT,
                WritePipeline.TRANSACTION_ONGOING, null));
    }

    /** As {@link #conflictAt}, for the item of {@code rowKeys} that another server's transaction holds. */
    public static TransactionCanceledException conflictAt(List<byte[]> rowKeys, byte[] held) {
        int at = 0;
        for (int i = 0; i < rowKeys.size(); i++) if (java.util.Arrays.equals(rowKeys.get(i), held)) at = i;
        return conflictAt(at, rowKeys.size());
    }

    public List<CancellationReason> reasons() { return reasons; }
}
