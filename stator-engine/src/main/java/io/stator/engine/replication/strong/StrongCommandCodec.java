package io.stator.engine.replication.strong;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A Raft log entry of an MRSC table: a {@link StrongCommand} and the id of the proposal that
 * carried it (its proposer waits for that id to be applied). Stored in every member's log, so
 * the layout is versioned by its first byte; big-endian throughout:
 *
 * <pre>
 * u8   format, 2 (1: without the time, read as 0)
 * i64  proposal id, most significant bits
 * i64  proposal id, least significant bits
 * u16  origin region's length in bytes, then its UTF-8 bytes
 * i64  the proposal's time, epoch ms (format 2)
 * i32  key count (at least 1), then per key: i32 length, bytes
 * i32  payload length, bytes
 * </pre>
 */
final class StrongCommandCodec {

    static final byte FORMAT = 2;

    /** A decoded entry. */
    record Entry(UUID proposal, StrongCommand command) {}

    private StrongCommandCodec() {}

    static byte[] encode(UUID proposal, StrongCommand command) {
        byte[] region = command.originRegion().getBytes(StandardCharsets.UTF_8);
        if (region.length > 0xFFFF) throw new IllegalArgumentException("origin region longer than 65535 bytes");
        List<byte[]> keys = command.keys();
        byte[] payload = command.payload();
        int size = 1 + 16 + 2 + region.length + 8 + 4 + 4 + payload.length;
        for (byte[] key : keys) size += 4 + key.length;
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(FORMAT);
        out.putLong(proposal.getMostSignificantBits()).putLong(proposal.getLeastSignificantBits());
        out.putShort((short) region.length).put(region);
        out.putLong(command.proposedMillis());
        out.putInt(keys.size());
        for (byte[] key : keys) out.putInt(key.length).put(key);
        out.putInt(payload.length).put(payload);
        return out.array();
    }

    static Entry decode(ByteBuffer in) {
        try {
            byte format = in.get();
            if (format != FORMAT && format != 1) throw corrupt("unknown format " + format);
            UUID proposal = new UUID(in.getLong(), in.getLong());
            String region = new String(bytes(in, Short.toUnsignedInt(in.getShort())), StandardCharsets.UTF_8);
            long millis = format == 1 ? 0 : in.getLong();
            int count = in.getInt();
            // Each key takes at least its 4-byte length: a larger count is corrupt, not an allocation.
            if (count < 1 || count > in.remaining() / 4) throw corrupt("key count " + count);
            List<byte[]> keys = new ArrayList<>(count);
            for (int i = 0; i < count; i++) keys.add(bytes(in, in.getInt()));
            byte[] payload = bytes(in, in.getInt());
            if (in.hasRemaining()) throw corrupt(in.remaining() + " trailing bytes");
            return new Entry(proposal, new StrongCommand(region, millis, keys, payload));
        } catch (BufferUnderflowException e) {
            throw corrupt("truncated");
        }
    }

    private static byte[] bytes(ByteBuffer in, int length) {
        if (length < 0 || length > in.remaining()) throw corrupt("length " + length + " past the end");
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    private static IllegalArgumentException corrupt(String what) {
        return new IllegalArgumentException("corrupt MRSC log entry: " + what);
    }
}
