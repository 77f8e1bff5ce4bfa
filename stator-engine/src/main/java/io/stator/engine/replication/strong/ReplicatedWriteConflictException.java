package io.stator.engine.replication.strong;

/**
 * A proposal touched an item that a proposal from another region has in flight (proposed, not
 * yet applied by the leader): DynamoDB's ReplicatedWriteConflictException, which is retryable.
 * The leader refuses it before it enters the log. Public with a message-only constructor: Ratis
 * carries it from the leader to the proposer by its class name and message.
 */
public final class ReplicatedWriteConflictException extends RuntimeException {

    public ReplicatedWriteConflictException(String message) {
        super(message);
    }
}
