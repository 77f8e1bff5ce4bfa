package io.stator.engine.replication;

import io.stator.engine.replication.strong.GroupMember;
import io.stator.engine.replication.strong.StrongCommand;
import io.stator.engine.table.TableCodec;
import io.stator.engine.table.TableDefinition;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The messages regions send each other ({@link PeerLinks}): their names, and their bodies as
 * written here ({@link GlobalTables#receive} reads them).
 */
final class RegionMessages {

    static final String CREATE_REPLICA = "create-replica";
    static final String MEMBERS = "members";
    static final String DELETE_REPLICA = "delete-replica";
    static final String APPLY = "apply";
    static final String CONSENSUS_ADDRESS = "consensus-address";
    static final String CONSENSUS_CERTIFICATE = "consensus-certificate";
    static final String JOIN_GROUP = "join-group";
    static final String LEAVE_GROUP = "leave-group";
    /** From another server of this region to the one hosting its consensus member ({@link RelayedConsensus}). */
    static final String STRONG_PROPOSE = "strong-propose";
    static final String STRONG_CATCH_UP = "strong-catch-up";

    private RegionMessages() {}

    /** Whether the message is for the region's consensus member (handed on to the server hosting it). */
    static boolean forTheMember(String message) {
        return switch (message) {
            case STRONG_PROPOSE, STRONG_CATCH_UP, CONSENSUS_ADDRESS, CONSENSUS_CERTIFICATE, JOIN_GROUP, LEAVE_GROUP -> true;
            default -> false;
        };
    }

    /** A JOIN_GROUP message: an MRSC table's name and its group's members. */
    static byte[] join(String name, List<GroupMember> members) {
        return write(out -> {
            out.writeUTF(name);
            out.writeInt(members.size());
            for (GroupMember m : members) {
                out.writeUTF(m.region());
                out.writeUTF(m.address());
                out.writeBoolean(m.role() == GroupMember.Role.WITNESS);
            }
        });
    }

    /** A MEMBERS message: the table's definition, with its global table and the settings replicas share. */
    static byte[] members(TableDefinition table) {
        return TableCodec.encode(table);
    }

    /** An APPLY message: the table's name and changes already encoded. */
    static byte[] apply(String name, List<byte[]> changes) {
        return write(out -> {
            out.writeUTF(name);
            out.write(ReplicatedChange.encodeAll(changes));
        });
    }

    /** A message that names a table (DELETE_REPLICA, LEAVE_GROUP). */
    static byte[] name(String name) {
        return write(out -> out.writeUTF(name));
    }

    /** A STRONG_PROPOSE message: the table's name and the command ({@link StrongCommand#encode}). */
    static byte[] propose(String name, StrongCommand command) {
        return write(out -> {
            out.writeUTF(name);
            byte[] c = command.encode();
            out.writeInt(c.length);
            out.write(c);
        });
    }

    private interface Body {
        void writeTo(DataOutputStream out) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            body.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
