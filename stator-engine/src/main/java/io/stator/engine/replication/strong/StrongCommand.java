package io.stator.engine.replication.strong;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * One write of an MRSC table as its Raft group orders it: opaque bytes (the engine's full item
 * image: key, new image or delete) with the region the write came from, when by its clock, and the
 * keys of the items it touches. Conflicts are found on the keys ({@link ConsensusGroups}); the
 * payload is the {@link Applier}'s alone; the time is where its stream record's number starts
 * ({@link TableStateMachine}). The arrays are copied in and out, so a command is a value: equal
 * commands have equal contents.
 *
 * @param proposedMillis the proposing region's clock at the proposal, epoch milliseconds
 */
public record StrongCommand(String originRegion, long proposedMillis, List<byte[]> keys, byte[] payload) {

    /** A command without a time (tests of the consensus alone). */
    public StrongCommand(String originRegion, List<byte[]> keys, byte[] payload) {
        this(originRegion, 0, keys, payload);
    }

    public StrongCommand {
        Objects.requireNonNull(originRegion, "originRegion");
        if (originRegion.isEmpty()) throw new IllegalArgumentException("originRegion is empty");
        if (keys.isEmpty()) throw new IllegalArgumentException("a command touches at least one item");
        keys = keys.stream().map(byte[]::clone).toList();
        payload = payload.clone();
    }

    /**
     * The command as bytes, in its log entry's layout ({@link StrongCommandCodec}, without a
     * proposal of its own): what a server hands the server of its region that hosts the member.
     */
    public byte[] encode() {
        return StrongCommandCodec.encode(new UUID(0, 0), this);
    }

    /** A command from {@link #encode}'s bytes; IllegalArgumentException when they are not one. */
    public static StrongCommand decode(byte[] bytes) {
        return StrongCommandCodec.decode(ByteBuffer.wrap(bytes)).command();
    }

    @Override
    public List<byte[]> keys() { return keys.stream().map(byte[]::clone).toList(); }

    @Override
    public byte[] payload() { return payload.clone(); }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof StrongCommand that)) return false;
        if (!originRegion.equals(that.originRegion) || proposedMillis != that.proposedMillis
                || !Arrays.equals(payload, that.payload)) {
            return false;
        }
        if (keys.size() != that.keys.size()) return false;
        for (int i = 0; i < keys.size(); i++) {
            if (!Arrays.equals(keys.get(i), that.keys.get(i))) return false;
        }
        return true;
    }

    @Override
    public int hashCode() {
        int hash = (originRegion.hashCode() * 31 + Long.hashCode(proposedMillis)) * 31 + Arrays.hashCode(payload);
        for (byte[] key : keys) hash = hash * 31 + Arrays.hashCode(key);
        return hash;
    }

    @Override
    public String toString() {
        return "StrongCommand[from " + originRegion + ", " + keys.size() + " key(s), " + payload.length + " bytes]";
    }
}
