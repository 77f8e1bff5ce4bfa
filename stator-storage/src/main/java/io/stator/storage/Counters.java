package io.stator.storage;

/** The stored form of a counter (see {@link WriteBatch#addToCounter}): 8 bytes, little-endian. */
public final class Counters {

    private Counters() {}

    public static byte[] encode(long value) {
        byte[] bytes = new byte[8];
        for (int i = 0; i < 8; i++) bytes[i] = (byte) (value >>> (8 * i));
        return bytes;
    }

    /** The counter's value; 0 for an absent counter (null). */
    public static long decode(byte[] bytes) {
        if (bytes == null) return 0;
        long value = 0;
        for (int i = 7; i >= 0; i--) value = (value << 8) | (bytes[i] & 0xFF);
        return value;
    }
}
