package io.stator.engine.replication.strong;

import java.io.IOException;
import java.util.List;

/**
 * What a region's MRSC tables ask of their consensus: this process's own member of each table's
 * Raft group ({@link ConsensusGroups}), or, where several servers share the region's store
 * (Cassandra), the one server of the region that hosts the member, asked over the network.
 */
public interface Consensus extends AutoCloseable {

    /**
     * Orders the command in the table's group and returns once it is committed and applied in
     * this region's store, with the store's result.
     *
     * @throws ReplicatedWriteConflictException an item is in flight from another region
     * @throws NoQuorumException not committed within the deadline (it may still commit later)
     */
    byte[] propose(String table, StrongCommand command);

    /**
     * Returns once this region's store holds every write of the table committed before the call.
     *
     * @throws NoQuorumException no leader confirmed the read index within the deadline
     */
    void catchUp(String table);

    /** Makes this region a member of the table's group (see {@link ConsensusGroups#join}). */
    void join(String table, List<GroupMember> members) throws IOException;

    /** Leaves the table's group. */
    void leave(String table) throws IOException;

    @Override
    void close() throws IOException;
}
