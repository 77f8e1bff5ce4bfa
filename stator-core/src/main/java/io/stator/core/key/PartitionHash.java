package io.stator.core.key;

import io.stator.core.model.AttributeValue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The 64-bit hash of a partition key: xxHash64 (Yann Collet's XXH64, seed 0) of the key's
 * {@link KeyEncoding#encode encoded bytes}.
 *
 * <p>The hash is the first thing after the table and index ids in every row key (see
 * {@link KeyLayout}), so it fixes the order in which Scan returns items, which rows belong to a
 * parallel-scan segment, and which hash range (partition) an item lives in for the capacity model.
 *
 * <h2>Stored format. Versioned: it must never change.</h2>
 * Changing the algorithm, the seed, the byte order of the input reads or the encoding of the
 * hashed key reorders every stored row and makes existing items unreachable. This is XXH64
 * exactly as specified (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md), checked
 * against the reference implementation's sanity vectors in the tests. The input is the key's
 * order-preserving encoding (UTF-8 for S, raw bytes for B, {@link KeyEncoding}'s N encoding), so
 * equal numbers spelled differently ("1.50", "15E-1") hash alike. The key's type is not hashed: a
 * table's partition key has one type.
 *
 * <p>Why xxHash64: it is well specified, stable across platforms, has good avalanche, and is
 * about as fast as hashing gets in plain Java (8 bytes per step, no allocation).
 */
public final class PartitionHash {

    /** The seed used for partition keys. Part of the stored format. */
    public static final long SEED = 0L;

    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private PartitionHash() {}

    /** The hash of a partition key value (S, N or B). */
    public static long of(AttributeValue partitionKey) {
        byte[] encoded = KeyEncoding.encode(partitionKey);
        return hash(encoded, 0, encoded.length);
    }

    /** The hash of an already encoded partition key. */
    public static long hash(byte[] encodedKey) {
        return hash(encodedKey, 0, encodedKey.length);
    }

    /** The hash of {@code encodedKey[off, off + len)}. */
    public static long hash(byte[] encodedKey, int off, int len) {
        return xxHash64(encodedKey, off, len, SEED);
    }

    /** XXH64 of {@code input[off, off + len)} with the given seed. */
    public static long xxHash64(byte[] input, int off, int len, long seed) {
        if (off < 0 || len < 0 || off > input.length - len) {
            throw new IndexOutOfBoundsException("range [" + off + ", " + off + "+" + len + ") of " + input.length);
        }
        int p = off;
        int end = off + len;
        long h;
        if (len >= 32) {
            long v1 = seed + P1 + P2;
            long v2 = seed + P2;
            long v3 = seed;
            long v4 = seed - P1;
            int limit = end - 32;
            do {
                v1 = round(v1, (long) LONG_LE.get(input, p));
                v2 = round(v2, (long) LONG_LE.get(input, p + 8));
                v3 = round(v3, (long) LONG_LE.get(input, p + 16));
                v4 = round(v4, (long) LONG_LE.get(input, p + 24));
                p += 32;
            } while (p <= limit);
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = mergeRound(h, v1);
            h = mergeRound(h, v2);
            h = mergeRound(h, v3);
            h = mergeRound(h, v4);
        } else {
            h = seed + P5;
        }
        h += len;
        while (p + 8 <= end) {
            h ^= round(0, (long) LONG_LE.get(input, p));
            h = Long.rotateLeft(h, 27) * P1 + P4;
            p += 8;
        }
        if (p + 4 <= end) {
            h ^= ((int) INT_LE.get(input, p) & 0xFFFFFFFFL) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            p += 4;
        }
        while (p < end) {
            h ^= (input[p] & 0xFFL) * P5;
            h = Long.rotateLeft(h, 11) * P1;
            p++;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }

    private static long round(long acc, long input) {
        acc += input * P2;
        acc = Long.rotateLeft(acc, 31);
        return acc * P1;
    }

    private static long mergeRound(long acc, long val) {
        acc ^= round(0, val);
        return acc * P1 + P4;
    }
}
