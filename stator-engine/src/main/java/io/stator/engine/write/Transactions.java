package io.stator.engine.write;

import io.stator.engine.advisor.Operation;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.capacity.Usage;
import java.util.ArrayList;
import java.util.List;

/**
 * TransactWriteItems: all or nothing (the {@link WritePipeline} applies it), and idempotent for
 * ten minutes when it carries a ClientRequestToken ({@link TransactionTokens}): a retry of a
 * committed transaction applies nothing and is billed as reading its items.
 */
public final class Transactions {

    private final WritePipeline pipeline;
    private final TransactionTokens tokens;
    private final CapacityMeter meter;

    public Transactions(WritePipeline pipeline, TransactionTokens tokens, CapacityMeter meter) {
        this.pipeline = pipeline;
        this.tokens = tokens;
        this.meter = meter;
    }

    /**
     * A transaction's ClientRequestToken and a digest of its whole request (the same token with
     * another request is refused).
     */
    public record ClientToken(String token, byte[] fingerprint) {}

    /**
     * What a transaction did: per action, the item before and after and the units consumed
     * (transactional rates). A replay of a committed transaction (same ClientRequestToken and
     * request) applies nothing, has no items, and consumes per action the reading of its item
     * as the transaction saw it.
     */
    public record WriteOutcome(List<WriteResult> results, boolean replayed) {}

    /**
     * Applies every action, or none (TransactionCanceledException, one reason per action); the
     * actions name distinct items ({@link TransactionItems}).
     *
     * @param token null when the request has no ClientRequestToken
     */
    public WriteOutcome write(List<ItemWrite> actions, ClientToken token) {
        return write(actions, token, Operation.TRANSACT_WRITE_ITEMS);
    }

    /** As {@link #write(List, ClientToken)}, of {@code operation} (ExecuteTransaction's). */
    public WriteOutcome write(List<ItemWrite> actions, ClientToken token, Operation operation) {
        List<byte[]> rowKeys = new ArrayList<>(actions.size());
        for (ItemWrite action : actions) {
            TransactionItems.checkNotStronglyReplicated(action.table());
            rowKeys.add(action.rowKey());
        }
        TransactionItems.checkDistinct(rowKeys);
        if (token == null) return new WriteOutcome(pipeline.writeTransaction(actions, null, operation), false);
        // Outside the try: a retry refused because the first is still running must not end the
        // first one's run (it would let a third request run beside the first).
        long[] replayed = tokens.begin(token.token(), token.fingerprint());
        boolean committed = false;
        try {
            if (replayed != null) return new WriteOutcome(replay(actions, replayed), true);
            List<WriteResult> results = pipeline.writeTransaction(actions,
                    (batch, billedSizes) -> tokens.record(batch, token.token(), token.fingerprint(), billedSizes),
                    operation);
            committed = true;
            return new WriteOutcome(results, false);
        } finally {
            tokens.finish(token.token(), committed);
        }
    }

    /**
     * A committed transaction retried: nothing is applied; each action is billed as a
     * transactional read of its item as the transaction saw it ({@code billedSizes}).
     */
    private List<WriteResult> replay(List<ItemWrite> actions, long[] billedSizes) {
        List<WriteResult> results = new ArrayList<>(actions.size());
        for (int i = 0; i < actions.size(); i++) {
            results.add(new WriteResult(actions.get(i), null, null,
                    meter.charge(new Usage.Read(null, billedSizes[i], 0, true, true)), -1));
        }
        return results;
    }
}
