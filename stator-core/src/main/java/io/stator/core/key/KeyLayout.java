package io.stator.core.key;

import io.stator.core.model.AttributeValue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * The row keys under which items and index entries are stored, and the key ranges that Scan,
 * Query, parallel-scan segments and DeleteTable read or delete.
 *
 * <p>Why this shape: storage sorts keys as unsigned bytes. Putting the table and index ids first
 * keeps each table and each index contiguous (one range to scan or drop). Putting the partition
 * key's hash next makes Scan run in hash order as DynamoDB's does, turns parallel-scan segments
 * and capacity partitions into hash ranges, and spreads hot key prefixes. The partition key
 * follows with a length prefix, so that all rows of one partition key share one prefix that no
 * other partition key's rows start with (without it, partition key "a" with sort key "bc" would
 * interleave with partition key "ab"). The sort key comes last, in its order-preserving encoding,
 * so that a partition's rows are sorted by sort key and Query is one range read.
 *
 * <h2>Stored format (versions 1 and 2). Versioned: it must never change silently.</h2>
 * A table keeps the layout it was created with, named by its {@link PartitionHash}: version 1
 * ({@link PartitionHash#XXH64}) for tables created before version 2, version 2
 * ({@link PartitionHash#DYNAMODB}, DynamoDB's hash and so DynamoDB's Scan order) since. They
 * differ only in the hash and in the 8 bytes version 2 adds to an index entry.
 * All integers big-endian, so that unsigned byte order is numeric order.
 * <pre>
 * base-table item (and any row unique by its own partition and sort key):
 *   offset 0   8 bytes  table id        (a catalog-assigned long >= 0)
 *   offset 8   4 bytes  index id        (an int >= 0; 0 = the base table)
 *   offset 12  8 bytes  hash            ({@link PartitionHash} of the encoded partition key)
 *   offset 20  2 bytes  partition key length n (0..65535; DynamoDB allows at most 2048)
 *   offset 22  n bytes  partition key   ({@link KeyEncoding#encode}: UTF-8 / raw bytes / N encoding)
 *   offset 22+n         sort key, absent for a table without one ({@link KeyEncoding#encode}: raw,
 *                       since it is last; a key type tells how to read it back)
 *
 * secondary-index entry (several items may share one index key, so the base key follows):
 *   [table id 8][index id 4][hash of index partition key 8][length 2][index partition key]
 *   [index sort key, if the index has one: N encoding, or S/B in the delimited form of
 *    {@link KeyEncoding#writeDelimited} since it is no longer last]
 *   [version 2 only: {@link PartitionHash#ofItemKey} of the base key 8, which orders the items
 *    sharing an index key as DynamoDB does]
 *   [base partition key length 2][base partition key][base sort key, raw, if the table has one]
 * </pre>
 * Bounds: {@link #tableUpperBound} is the 8-byte prefix of table id + 1, {@link #indexUpperBound}
 * the 12-byte prefix of index id + 1 (compared unsigned, so Long.MAX_VALUE + 1 still sorts above).
 * Parallel scan segment {@code s} of {@code N} holds the hashes {@code h} (unsigned) with
 * {@code ceil(s * 2^64 / N) <= h < ceil((s + 1) * 2^64 / N)}, that is
 * {@code s == floor(h * N / 2^64)} ({@link #segmentOf}).
 */
public final class KeyLayout {

    /** The index id of the base table. */
    public static final int BASE_TABLE_INDEX_ID = 0;

    public static final int TABLE_ID_BYTES = 8;
    public static final int INDEX_ID_BYTES = 4;
    public static final int HASH_BYTES = 8;
    public static final int LENGTH_PREFIX_BYTES = 2;

    /** Where the partition key hash starts in a row key. */
    public static final int HASH_OFFSET = TABLE_ID_BYTES + INDEX_ID_BYTES;
    /** Where the partition key's length prefix starts in a row key. */
    public static final int PARTITION_KEY_LENGTH_OFFSET = HASH_OFFSET + HASH_BYTES;
    /** Where the partition key's bytes start in a row key. */
    public static final int PARTITION_KEY_OFFSET = PARTITION_KEY_LENGTH_OFFSET + LENGTH_PREFIX_BYTES;

    /** The longest encoded key component the 2-byte length prefix can describe. */
    public static final int MAX_LENGTH_PREFIXED_BYTES = 0xFFFF;

    private static final VarHandle LONG_BE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_BE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private KeyLayout() {}

    // ---------------------------------------------------------------------------------------
    // Row keys

    /**
     * The row key of an item: {@code [table][index][hash][partition key][sort key]}.
     *
     * @param sortKeyOrNull the sort key, or null for a table (or index) without one
     */
    public static byte[] encodeItemKey(PartitionHash hash, long tableId, int indexId, AttributeValue partitionKey,
                                       AttributeValue sortKeyOrNull) {
        byte[] pk = KeyEncoding.encode(partitionKey);
        byte[] sk = sortKeyOrNull == null ? null : KeyEncoding.encode(sortKeyOrNull);
        int skLen = sk == null ? 0 : sk.length;
        byte[] key = new byte[PARTITION_KEY_OFFSET + checkPrefixed(pk.length) + skLen];
        writePartitionPrefix(key, tableId, indexId, pk, hash.of(partitionKey));
        if (sk != null) System.arraycopy(sk, 0, key, PARTITION_KEY_OFFSET + pk.length, skLen);
        return key;
    }

    /**
     * The row key of a secondary-index entry: the index's partition and sort key, then the base
     * table's key, which makes the entry unique and lets the item be fetched.
     *
     * @param indexSortKeyOrNull null for an index without a sort key
     * @param baseSortKeyOrNull  null for a base table without a sort key
     */
    public static byte[] encodeIndexKey(PartitionHash hash, long tableId, int indexId,
                                        AttributeValue indexPartitionKey, AttributeValue indexSortKeyOrNull,
                                        AttributeValue basePartitionKey, AttributeValue baseSortKeyOrNull) {
        byte[] pk = KeyEncoding.encode(indexPartitionKey);
        checkPrefixed(pk.length);
        byte[] isk = null;
        AttributeValue.N iskNumber = null; // written in place, not allocated first
        int iskLen = 0;
        if (indexSortKeyOrNull instanceof AttributeValue.N n) {
            iskNumber = n;
            iskLen = KeyEncoding.numberLength(n.value());
        } else if (indexSortKeyOrNull != null) {
            isk = KeyEncoding.encode(indexSortKeyOrNull);
            iskLen = KeyEncoding.delimitedLength(isk);
        }
        byte[] bpk = KeyEncoding.encode(basePartitionKey);
        checkPrefixed(bpk.length);
        byte[] bsk = baseSortKeyOrNull == null ? null : KeyEncoding.encode(baseSortKeyOrNull);
        int bskLen = bsk == null ? 0 : bsk.length;

        int tie = hash.ordersIndexTiesByHash() ? HASH_BYTES : 0;
        byte[] key = new byte[PARTITION_KEY_OFFSET + pk.length + iskLen + tie + LENGTH_PREFIX_BYTES + bpk.length + bskLen];
        writePartitionPrefix(key, tableId, indexId, pk, hash.of(indexPartitionKey));
        int p = PARTITION_KEY_OFFSET + pk.length;
        if (iskNumber != null) {
            p = KeyEncoding.writeNumber(iskNumber.value(), key, p);
        } else if (isk != null) {
            p = KeyEncoding.writeDelimited(isk, key, p);
        }
        p = writeTie(hash, key, p, basePartitionKey, baseSortKeyOrNull);
        writeShort(key, p, bpk.length);
        p += LENGTH_PREFIX_BYTES;
        System.arraycopy(bpk, 0, key, p, bpk.length);
        p += bpk.length;
        if (bsk != null) System.arraycopy(bsk, 0, key, p, bskLen);
        return key;
    }

    // ---------------------------------------------------------------------------------------
    // Index entries with keys of one or several attributes (DynamoDB's multi-attribute keys)
    //
    // [table][index][hash][partition key parts, length-prefixed][sort key parts][base key]
    // A one-attribute partition key is written as a table's is (its raw encoding); several are
    // written as their components, one after another. Sort key parts are components. A
    // component is self-delimiting and order-preserving: N in its number encoding, S and B in
    // their delimited form. Comparing two entries' bytes thus compares their sort keys part by
    // part, left to right, as DynamoDB orders multi-attribute sort keys.

    /** The stored bytes of an index partition key (hashed, and length-prefixed in the row key). */
    public static byte[] indexPartitionBytes(List<AttributeValue> parts) {
        if (parts.size() == 1) return KeyEncoding.encode(parts.get(0));
        return components(parts);
    }

    /** The key parts as consecutive self-delimiting components. */
    public static byte[] components(List<AttributeValue> parts) {
        int length = 0;
        for (AttributeValue v : parts) length += componentLength(v);
        byte[] out = new byte[length];
        int p = 0;
        for (AttributeValue v : parts) p = writeComponent(v, out, p);
        return out;
    }

    private static int componentLength(AttributeValue v) {
        if (v instanceof AttributeValue.N n) return KeyEncoding.numberLength(n.value());
        return KeyEncoding.delimitedLength(KeyEncoding.encode(v));
    }

    private static int writeComponent(AttributeValue v, byte[] dst, int off) {
        if (v instanceof AttributeValue.N n) return KeyEncoding.writeNumber(n.value(), dst, off);
        return KeyEncoding.writeDelimited(KeyEncoding.encode(v), dst, off);
    }

    /**
     * The bytes every component starting with {@code prefix} (an S or B) starts with: its
     * delimited form without the terminator, for begins_with on an index sort key.
     */
    public static byte[] componentPrefix(AttributeValue prefix) {
        byte[] raw = KeyEncoding.encode(prefix);
        byte[] full = new byte[KeyEncoding.delimitedLength(raw)];
        KeyEncoding.writeDelimited(raw, full, 0);
        return Arrays.copyOf(full, full.length - 2);
    }

    /** The prefix of every entry of one index partition key. */
    public static byte[] indexPartitionPrefix(PartitionHash hash, long tableId, int indexId,
                                              List<AttributeValue> partitionParts) {
        byte[] pk = indexPartitionBytes(partitionParts);
        byte[] key = new byte[PARTITION_KEY_OFFSET + checkPrefixed(pk.length)];
        writePartitionPrefix(key, tableId, indexId, pk, hash.of(partitionParts));
        return key;
    }

    /** The row key of an index entry (see above). */
    public static byte[] encodeIndexEntryKey(PartitionHash hash, long tableId, int indexId,
                                             List<AttributeValue> partitionParts,
                                             List<AttributeValue> sortParts, AttributeValue basePartitionKey,
                                             AttributeValue baseSortKeyOrNull) {
        byte[] pk = indexPartitionBytes(partitionParts);
        checkPrefixed(pk.length);
        byte[] sk = components(sortParts);
        byte[] bpk = KeyEncoding.encode(basePartitionKey);
        checkPrefixed(bpk.length);
        byte[] bsk = baseSortKeyOrNull == null ? null : KeyEncoding.encode(baseSortKeyOrNull);
        int bskLen = bsk == null ? 0 : bsk.length;
        int tie = hash.ordersIndexTiesByHash() ? HASH_BYTES : 0;
        byte[] key = new byte[PARTITION_KEY_OFFSET + pk.length + sk.length + tie + LENGTH_PREFIX_BYTES + bpk.length + bskLen];
        writePartitionPrefix(key, tableId, indexId, pk, hash.of(partitionParts));
        int p = PARTITION_KEY_OFFSET + pk.length;
        System.arraycopy(sk, 0, key, p, sk.length);
        p += sk.length;
        p = writeTie(hash, key, p, basePartitionKey, baseSortKeyOrNull);
        writeShort(key, p, bpk.length);
        p += LENGTH_PREFIX_BYTES;
        System.arraycopy(bpk, 0, key, p, bpk.length);
        p += bpk.length;
        if (bsk != null) System.arraycopy(bsk, 0, key, p, bskLen);
        return key;
    }

    /**
     * The prefix shared by all rows of one partition key in one table or index: the Query range
     * is {@code [partitionPrefix, prefixUpperBound(partitionPrefix))}, narrowed by the sort key.
     */
    public static byte[] partitionPrefix(PartitionHash hash, long tableId, int indexId, AttributeValue partitionKey) {
        byte[] pk = KeyEncoding.encode(partitionKey);
        byte[] key = new byte[PARTITION_KEY_OFFSET + checkPrefixed(pk.length)];
        writePartitionPrefix(key, tableId, indexId, pk, hash.of(partitionKey));
        return key;
    }

    /** The prefix of every row of a table, its base items and all its index entries. */
    public static byte[] tablePrefix(long tableId) {
        byte[] key = new byte[TABLE_ID_BYTES];
        LONG_BE.set(key, 0, checkTableId(tableId));
        return key;
    }

    /** The smallest key above every row of the table (exclusive bound). */
    public static byte[] tableUpperBound(long tableId) {
        byte[] key = new byte[TABLE_ID_BYTES];
        LONG_BE.set(key, 0, checkTableId(tableId) + 1); // unsigned: MAX_VALUE + 1 still sorts above
        return key;
    }

    /** The prefix of every row of one index of a table (index id 0: the base table's items). */
    public static byte[] indexPrefix(long tableId, int indexId) {
        byte[] key = new byte[HASH_OFFSET];
        LONG_BE.set(key, 0, checkTableId(tableId));
        INT_BE.set(key, TABLE_ID_BYTES, checkIndexId(indexId));
        return key;
    }

    /** The smallest key above every row of the index (exclusive bound). */
    public static byte[] indexUpperBound(long tableId, int indexId) {
        byte[] key = new byte[HASH_OFFSET];
        LONG_BE.set(key, 0, checkTableId(tableId));
        INT_BE.set(key, TABLE_ID_BYTES, checkIndexId(indexId) + 1);
        return key;
    }

    /**
     * The smallest key above every key that starts with {@code prefix} (an exclusive upper
     * bound), or null if there is none (a prefix of only 0xFF bytes).
     */
    public static byte[] prefixUpperBound(byte[] prefix) {
        int i = prefix.length - 1;
        while (i >= 0 && prefix[i] == (byte) 0xFF) i--;
        if (i < 0) return null;
        byte[] bound = Arrays.copyOf(prefix, i + 1);
        bound[i]++;
        return bound;
    }

    /** The smallest key strictly above {@code key}: for an exclusive start (LastEvaluatedKey). */
    public static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    // ---------------------------------------------------------------------------------------
    // Hash ranges: parallel scan segments and partitions

    /**
     * The key range of parallel-scan segment {@code segment} of {@code totalSegments} in one
     * table or index: the segments split the 64-bit hash space into equal ranges, in order, and
     * together cover the whole index exactly once.
     */
    public static KeyRange segmentBounds(long tableId, int indexId, int segment, int totalSegments) {
        if (totalSegments < 1 || segment < 0 || segment >= totalSegments) {
            throw new IllegalArgumentException("segment " + segment + " of " + totalSegments);
        }
        byte[] from = hashBound(tableId, indexId, segmentStart(segment, totalSegments));
        byte[] to = segment == totalSegments - 1
                ? indexUpperBound(tableId, indexId)
                : hashBound(tableId, indexId, segmentStart(segment + 1, totalSegments));
        return new KeyRange(from, to);
    }

    /**
     * The first hash (unsigned) of segment {@code segment} of {@code totalSegments}:
     * {@code ceil(segment * 2^64 / totalSegments)}. Segment 0 starts at 0.
     */
    public static long segmentStart(int segment, int totalSegments) {
        if (totalSegments < 1 || segment < 0 || segment >= totalSegments) {
            throw new IllegalArgumentException("segment " + segment + " of " + totalSegments);
        }
        // 2^64 = q * N + r with 0 <= r < N, then ceil(i * 2^64 / N) = i * q + ceil(i * r / N).
        // i * r < N^2 < 2^62 cannot overflow; i * q wraps only when N = 1 (q = 2^64), where i = 0.
        long n = totalSegments;
        long q = Long.divideUnsigned(-1L, n);
        long r = Long.remainderUnsigned(-1L, n) + 1;
        if (r == n) {
            q++;
            r = 0;
        }
        long i = segment;
        return i * q + (i * r + n - 1) / n;
    }

    /** The segment of {@code totalSegments} that a hash falls in: {@code floor(hash * N / 2^64)}. */
    public static int segmentOf(long hash, int totalSegments) {
        if (totalSegments < 1) throw new IllegalArgumentException("totalSegments " + totalSegments);
        return (int) Math.unsignedMultiplyHigh(hash, totalSegments);
    }

    /** The key {@code [table][index][hash]}: where the rows with that hash start. */
    public static byte[] hashBound(long tableId, int indexId, long hash) {
        byte[] key = new byte[PARTITION_KEY_LENGTH_OFFSET];
        LONG_BE.set(key, 0, checkTableId(tableId));
        INT_BE.set(key, TABLE_ID_BYTES, checkIndexId(indexId));
        LONG_BE.set(key, HASH_OFFSET, hash);
        return key;
    }

    // ---------------------------------------------------------------------------------------
    // Reading keys back

    public static long tableIdOf(byte[] rowKey) {
        checkLength(rowKey, TABLE_ID_BYTES);
        return (long) LONG_BE.get(rowKey, 0);
    }

    public static int indexIdOf(byte[] rowKey) {
        checkLength(rowKey, HASH_OFFSET);
        return (int) INT_BE.get(rowKey, TABLE_ID_BYTES);
    }

    /** The partition key hash stored in a row key. */
    public static long hashOf(byte[] rowKey) {
        checkLength(rowKey, PARTITION_KEY_LENGTH_OFFSET);
        return (long) LONG_BE.get(rowKey, HASH_OFFSET);
    }

    /**
     * Reads an item's row key ({@link #encodeItemKey}) back into its parts, given the key
     * attribute types (from the table's or index's key schema).
     *
     * @param sortKeyTypeOrNull null for a table without a sort key
     * @throws IllegalArgumentException if the bytes are not such a row key
     */
    public static DecodedKey decodeItemKey(byte[] rowKey, AttributeValue.Type partitionKeyType,
                                           AttributeValue.Type sortKeyTypeOrNull) {
        int pkEnd = partitionKeyEnd(rowKey);
        AttributeValue pk = KeyEncoding.decode(partitionKeyType, rowKey, PARTITION_KEY_OFFSET, pkEnd - PARTITION_KEY_OFFSET);
        AttributeValue sk = null;
        if (sortKeyTypeOrNull != null) {
            sk = KeyEncoding.decode(sortKeyTypeOrNull, rowKey, pkEnd, rowKey.length - pkEnd);
        } else if (pkEnd != rowKey.length) {
            throw KeyEncoding.malformed((rowKey.length - pkEnd) + " bytes after the partition key of a key without sort key");
        }
        return new DecodedKey(tableIdOf(rowKey), indexIdOf(rowKey), hashOf(rowKey), pk, sk);
    }

    /**
     * Reads an index entry's row key ({@link #encodeIndexKey}) back into its parts.
     *
     * @throws IllegalArgumentException if the bytes are not such a row key
     */
    public static DecodedIndexKey decodeIndexKey(PartitionHash hash, byte[] rowKey,
                                                 AttributeValue.Type indexPartitionKeyType,
                                                 AttributeValue.Type indexSortKeyTypeOrNull,
                                                 AttributeValue.Type basePartitionKeyType,
                                                 AttributeValue.Type baseSortKeyTypeOrNull) {
        int p = partitionKeyEnd(rowKey);
        AttributeValue ipk = KeyEncoding.decode(indexPartitionKeyType, rowKey, PARTITION_KEY_OFFSET, p - PARTITION_KEY_OFFSET);
        AttributeValue isk = null;
        if (indexSortKeyTypeOrNull == AttributeValue.Type.N) {
            int end = KeyEncoding.numberEnd(rowKey, p, rowKey.length);
            isk = new AttributeValue.N(KeyEncoding.decodeNumber(rowKey, p, end));
            p = end;
        } else if (indexSortKeyTypeOrNull == AttributeValue.Type.S || indexSortKeyTypeOrNull == AttributeValue.Type.B) {
            int end = KeyEncoding.delimitedEnd(rowKey, p, rowKey.length);
            isk = KeyEncoding.decodeDelimitedValue(indexSortKeyTypeOrNull, rowKey, p, end);
            p = end;
        } else if (indexSortKeyTypeOrNull != null) {
            throw new IllegalArgumentException("Not a key attribute type: " + indexSortKeyTypeOrNull);
        }
        if (hash.ordersIndexTiesByHash()) p += HASH_BYTES;
        if (p + LENGTH_PREFIX_BYTES > rowKey.length) throw KeyEncoding.malformed("no base partition key");
        int bpkLen = readShort(rowKey, p);
        p += LENGTH_PREFIX_BYTES;
        if (bpkLen > rowKey.length - p) throw KeyEncoding.malformed("base partition key runs past the key");
        AttributeValue bpk = KeyEncoding.decode(basePartitionKeyType, rowKey, p, bpkLen);
        p += bpkLen;
        AttributeValue bsk = null;
        if (baseSortKeyTypeOrNull != null) {
            bsk = KeyEncoding.decode(baseSortKeyTypeOrNull, rowKey, p, rowKey.length - p);
        } else if (p != rowKey.length) {
            throw KeyEncoding.malformed((rowKey.length - p) + " bytes after the base partition key");
        }
        return new DecodedIndexKey(tableIdOf(rowKey), indexIdOf(rowKey), hashOf(rowKey), ipk, isk, bpk, bsk);
    }

    // ---------------------------------------------------------------------------------------

    private static void writePartitionPrefix(byte[] key, long tableId, int indexId, byte[] pk, long hash) {
        LONG_BE.set(key, 0, checkTableId(tableId));
        INT_BE.set(key, TABLE_ID_BYTES, checkIndexId(indexId));
        writeShort(key, PARTITION_KEY_LENGTH_OFFSET, pk.length);
        System.arraycopy(pk, 0, key, PARTITION_KEY_OFFSET, pk.length);
        LONG_BE.set(key, HASH_OFFSET, hash);
    }

    /** Key layout 2's hash of the table's key in an index entry, ordering items that share an index key. */
    private static int writeTie(PartitionHash hash, byte[] key, int p, AttributeValue basePartitionKey,
                                AttributeValue baseSortKeyOrNull) {
        if (!hash.ordersIndexTiesByHash()) return p;
        LONG_BE.set(key, p, hash.ofItemKey(basePartitionKey, baseSortKeyOrNull));
        return p + HASH_BYTES;
    }

    /** The offset just past the partition key of a row key. */
    private static int partitionKeyEnd(byte[] rowKey) {
        checkLength(rowKey, PARTITION_KEY_OFFSET);
        int end = PARTITION_KEY_OFFSET + readShort(rowKey, PARTITION_KEY_LENGTH_OFFSET);
        if (end > rowKey.length) throw KeyEncoding.malformed("partition key runs past the end of the key");
        return end;
    }

    private static void writeShort(byte[] dst, int off, int value) {
        dst[off] = (byte) (value >>> 8);
        dst[off + 1] = (byte) value;
    }

    private static int readShort(byte[] src, int off) {
        return ((src[off] & 0xFF) << 8) | (src[off + 1] & 0xFF);
    }

    private static int checkPrefixed(int length) {
        if (length > MAX_LENGTH_PREFIXED_BYTES) {
            throw new IllegalArgumentException("Key component of " + length + " bytes exceeds " + MAX_LENGTH_PREFIXED_BYTES);
        }
        return length;
    }

    private static long checkTableId(long tableId) {
        if (tableId < 0) throw new IllegalArgumentException("Negative table id " + tableId);
        return tableId;
    }

    private static int checkIndexId(int indexId) {
        if (indexId < 0) throw new IllegalArgumentException("Negative index id " + indexId);
        return indexId;
    }

    private static void checkLength(byte[] key, int atLeast) {
        if (key.length < atLeast) {
            throw KeyEncoding.malformed("row key of " + key.length + " bytes, expected at least " + atLeast);
        }
    }
}
