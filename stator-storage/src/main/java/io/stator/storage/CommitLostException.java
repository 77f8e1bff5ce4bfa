package io.stator.storage;

/**
 * A commit applied nothing because a row was no longer as the committer read it
 * ({@link WriteBatch#expect}): another server changed it in between. The committer reads again
 * and starts over.
 */
public final class CommitLostException extends RuntimeException {
    public CommitLostException() {
        super("a row changed since it was read", null, false, false);
    }
}
