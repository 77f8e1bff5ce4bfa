package io.stator.engine.replication.strong;

/**
 * A proposal or a linearizable read got no answer from a quorum of its group within the
 * deadline ({@link ConsensusSettings#deadline()}): this region is cut off from the other two, or
 * they are down. A proposal that timed out may still commit later (its outcome is unknown, as
 * with any timeout); one that was refused never does.
 */
public final class NoQuorumException extends RuntimeException {

    public NoQuorumException(String message) {
        super(message);
    }
}
