package io.stator.engine.replication;

import io.stator.core.item.ItemCodec;
import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ItemVersion;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One change of one item as a region ships it to the others: the item's key, its whole new image
 * (null for a delete) and its version. Whole images, never the update that made them, so that
 * applying one is idempotent and the order they arrive in does not matter: a replica keeps the
 * greatest version.
 *
 * @param writtenAtMillis when the origin region committed it (its clock): ReplicationLatency's start
 */
public record ReplicatedChange(Map<String, AttributeValue> key, Map<String, AttributeValue> newImage,
                               ItemVersion version, long writtenAtMillis) {

    /**
     * Format version 1: u8 1; i32 n; n bytes key (ItemCodec); i32 n (-1: a delete); n bytes image;
     * i32 n; n bytes version ({@link ItemVersion#encode}); i64 writtenAtMillis.
     */
    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    void write(DataOutputStream out) throws IOException {
        out.writeByte(1);
        writeBytes(out, ItemCodec.encode(key));
        writeBytes(out, newImage == null ? null : ItemCodec.encode(newImage));
        writeBytes(out, version.encode());
        out.writeLong(writtenAtMillis);
    }

    public static ReplicatedChange decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt replicated change", e);
        }
    }

    static ReplicatedChange read(DataInputStream in) throws IOException {
        int format = in.readUnsignedByte();
        if (format != 1) throw new IOException("unknown replicated change format " + format);
        Map<String, AttributeValue> key = ItemCodec.decode(readBytes(in));
        byte[] image = readBytes(in);
        byte[] version = readBytes(in);
        return new ReplicatedChange(key, image == null ? null : ItemCodec.decode(image),
                ItemVersion.decode(version, 0, version.length), in.readLong());
    }

    /** A batch of changes, as one message carries them: i32 n; n changes. */
    static byte[] encodeAll(List<byte[]> encodedChanges) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(encodedChanges.size());
            for (byte[] c : encodedChanges) out.write(c);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static List<ReplicatedChange> decodeAll(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<ReplicatedChange> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(read(in));
        return out;
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        if (b == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) return null;
        return in.readNBytes(n);
    }
}
