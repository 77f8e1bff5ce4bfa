package io.stator.engine.replication;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.replication.strong.Consensus;
import io.stator.engine.replication.strong.ConsensusGroups;
import io.stator.engine.replication.strong.GroupMember;
import io.stator.engine.replication.strong.NoQuorumException;
import io.stator.engine.replication.strong.ReplicatedWriteConflictException;
import io.stator.engine.replication.strong.StrongCommand;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * MRSC where several servers share the region's store (Cassandra). A Raft group has one member
 * per region, and a member's log must stay with it, so one server of the region hosts the member
 * of every MRSC table (the one started with {@code --consensus-port}, which registers its endpoint
 * in the store at its start), and the others hand it their proposals and their waits for a
 * linearizable read. The member applies each committed write to the shared store before it
 * answers, so once it has answered, every server of the region reads what it applied. Messages
 * from other regions about the groups (their addresses, certificates, joins and leaves) that reach
 * another server are handed on the same way.
 *
 * <p>While the hosting server is down, the region's MRSC writes and strongly consistent reads fail
 * (InternalServerError, as when the region has no quorum); its eventually consistent reads are
 * served by every server. Nothing acknowledged is lost: a write is acknowledged once committed on
 * two regions' logs and applied to the shared store.
 *
 * <p>Row (REPLICATION_LOG): {@code [0xFF x 8]['M']} the hosting server's endpoint (UTF-8).
 */
final class RelayedConsensus implements Consensus {

    private static final byte[] MEMBER_KEY = {-1, -1, -1, -1, -1, -1, -1, -1, 'M'};
    private static final byte ANSWERED = 0;
    private static final byte CONFLICT = 1;
    private static final byte NO_QUORUM = 2;
    static final String NOT_HOSTED = "This server does not host the region's consensus member";

    private final Storage storage;
    private final PeerLinks links;
    /** The hosting server's endpoint as last read, or null: read again after a failure to reach it. */
    private volatile String member;

    RelayedConsensus(Storage storage, PeerLinks links) {
        this.storage = storage;
        this.links = links;
    }

    /** Records that this server hosts the region's member, reached at {@code endpoint}. */
    static void register(Storage storage, String endpoint) {
        byte[] value = endpoint.getBytes(StandardCharsets.UTF_8);
        if (Arrays.equals(storage.get(Keyspaces.REPLICATION_LOG, MEMBER_KEY), value)) return;
        try (WriteBatch batch = storage.newBatch()) {
            batch.put(Keyspaces.REPLICATION_LOG, MEMBER_KEY, value);
            storage.commit(batch);
        }
    }

    /** Whether a server of the region registered as hosting its member. */
    boolean memberRegistered() {
        return storage.get(Keyspaces.REPLICATION_LOG, MEMBER_KEY) != null;
    }

    /** Hands a message to the server hosting the member; its reply. */
    byte[] forward(String message, byte[] body) throws IOException {
        String endpoint = member;
        if (endpoint == null) {
            byte[] stored = storage.get(Keyspaces.REPLICATION_LOG, MEMBER_KEY);
            if (stored == null) {
                throw new IOException("no server of this region hosts its consensus member (--consensus-port)");
            }
            endpoint = new String(stored, StandardCharsets.UTF_8);
            member = endpoint;
        }
        try {
            return links.sendToServer(endpoint, message, body);
        } catch (IOException e) {
            member = null; // it may have moved (another server given --consensus-port since)
            throw e;
        }
    }

    @Override
    public byte[] propose(String table, StrongCommand command) {
        byte[] reply = relay(table, RegionMessages.STRONG_PROPOSE, RegionMessages.propose(table, command));
        return Arrays.copyOfRange(reply, 1, reply.length);
    }

    @Override
    public void catchUp(String table) {
        relay(table, RegionMessages.STRONG_CATCH_UP, RegionMessages.name(table));
    }

    private byte[] relay(String table, String message, byte[] body) {
        byte[] reply;
        try {
            reply = forward(message, body);
        } catch (IOException e) {
            throw new NoQuorumException("MRSC table " + table + ": the server hosting this region's member did not "
                    + "answer (" + e.getMessage() + ")");
        }
        if (reply.length == 0) throw new NoQuorumException("MRSC table " + table + ": an empty answer");
        return switch (reply[0]) {
            case ANSWERED -> reply;
            case CONFLICT -> throw new ReplicatedWriteConflictException("MRSC table " + table + ": a conflict");
            default -> throw new NoQuorumException("MRSC table " + table + ": "
                    + new String(reply, 1, reply.length - 1, StandardCharsets.UTF_8));
        };
    }

    /** The hosting server's answer to a {@link #propose} or {@link #catchUp} another server relayed. */
    static byte[] answer(Consensus member, String message, DataInputStream in) throws IOException {
        if (!(member instanceof ConsensusGroups)) {
            throw DynamoDbException.validation(NOT_HOSTED);
        }
        String table = in.readUTF();
        try {
            if (message.equals(RegionMessages.STRONG_CATCH_UP)) {
                member.catchUp(table);
                return new byte[] {ANSWERED};
            }
            byte[] command = in.readNBytes(in.readInt());
            byte[] result = member.propose(table, StrongCommand.decode(command));
            return ByteBuffer.allocate(1 + result.length).put(ANSWERED).put(result).array();
        } catch (ReplicatedWriteConflictException e) {
            return new byte[] {CONFLICT};
        } catch (NoQuorumException e) {
            byte[] why = String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(1 + why.length).put(NO_QUORUM).put(why).array();
        }
    }

    @Override
    public void join(String table, List<GroupMember> members) throws IOException {
        forward(RegionMessages.JOIN_GROUP, RegionMessages.join(table, members));
    }

    @Override
    public void leave(String table) throws IOException {
        forward(RegionMessages.LEAVE_GROUP, RegionMessages.name(table));
    }

    @Override
    public void close() {}
}
