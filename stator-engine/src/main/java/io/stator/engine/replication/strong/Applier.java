package io.stator.engine.replication.strong;

/**
 * Applies an MRSC table's committed commands to its items, on every replica, in the log's order
 * (the engine's replicated-image write plugs in here). {@link TableStateMachine} relies on this
 * contract:
 *
 * <ul>
 *   <li><b>Deterministic.</b> The effect and the result depend only on the item store's state and
 *       the command, never on the clock, the region or the thread, so every replica ends in the
 *       same state and the proposer gets the same result bytes wherever it stands.</li>
 *   <li><b>One thread, increasing indexes.</b> Calls come from the group's apply thread, each
 *       index once in a process's life, in increasing order. The index is the same on every
 *       replica, and so is the stream sequence number given with it ({@link TableStateMachine}),
 *       which the command's stream record carries.</li>
 *   <li><b>Durable on return, index included.</b> The effect and the index are committed together
 *       (one storage batch), since a snapshot records the applied index and a restart replays
 *       only the log after it.</li>
 *   <li><b>Idempotent by index.</b> After a restart the log since the last snapshot is applied
 *       again: an index at or below the last one the store recorded changes nothing (what it then
 *       returns is not used: nobody waits for a replayed command).</li>
 *   <li><b>Outcomes are results, not exceptions.</b> A refused write (a condition that no longer
 *       holds) is a result. An exception means the store failed: this member then applies
 *       nothing more of the group until it restarts, since skipping an index would make it
 *       diverge.</li>
 * </ul>
 */
@FunctionalInterface
public interface Applier {

    /** A witness's: it keeps the log and the applied index, and no items. */
    Applier NOTHING = (index, sequence, command) -> new byte[0];

    byte[] apply(long index, long sequence, StrongCommand command);
}
