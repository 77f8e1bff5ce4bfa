package io.stator.server.api.checks;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.write.CancellationReason;
import io.stator.engine.write.TransactionCanceledException;

/**
 * The first action of a transaction whose key does not fit its table. DynamoDB reports it, once
 * the request's own errors are known, as that action's ValidationError, every other action
 * None.
 */
public final class KeyMismatches {

    private DynamoDbException first;
    private int position = -1;

    /** @param e a KeySchemaMismatchException, or PartiQL's key missing from WHERE */
    public void record(int action, DynamoDbException e) {
        if (first == null) {
            first = e;
            position = action;
        }
    }

    public void throwIfAny(int actions) {
        if (first != null) throw TransactionCanceledException.at(position, actions, CancellationReason.of(first));
    }
}
