package io.stator.engine.changes;

import io.stator.core.item.ItemCodec;
import io.stator.core.model.AttributeValue;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A change's keys and images as its consumers keep them (a stream's records, the Kinesis outbox):
 * each {@code i32 length (-1: absent) + ItemCodec bytes}. Persisted.
 */
public final class ChangeImages {

    private ChangeImages() {}

    public static void write(DataOutputStream out, Map<String, AttributeValue> item) throws IOException {
        if (item == null) {
            out.writeInt(-1);
            return;
        }
        byte[] encoded = ItemCodec.encode(item);
        out.writeInt(encoded.length);
        out.write(encoded);
    }

    /** The next item written by {@link #write}, or null for an absent one. */
    public static Map<String, AttributeValue> read(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0) return null;
        byte[] bytes = new byte[length];
        in.get(bytes);
        return ItemCodec.decode(bytes);
    }
}
