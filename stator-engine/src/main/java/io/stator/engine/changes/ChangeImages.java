package io.stator.engine.changes;

import io.stator.core.item.ItemCodec;
import io.stator.core.item.ItemSize;
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
        writeEncoded(out, ItemCodec.encode(item));
    }

    /** As {@link #write}, for an item its caller has already encoded with {@link ItemCodec}. */
    public static void writeEncoded(DataOutputStream out, byte[] encoded) throws IOException {
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

    /**
     * A record's SizeBytes as DynamoDB reports it in a stream record and a Kinesis record: the keys
     * and both images, each by DynamoDB's item size.
     */
    public static long sizeBytes(Map<String, AttributeValue> keys, Map<String, AttributeValue> newImage,
                                 Map<String, AttributeValue> oldImage) {
        return ItemSize.of(keys) + (newImage == null ? 0 : ItemSize.of(newImage))
                + (oldImage == null ? 0 : ItemSize.of(oldImage));
    }
}
