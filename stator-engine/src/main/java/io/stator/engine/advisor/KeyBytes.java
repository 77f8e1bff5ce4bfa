package io.stator.engine.advisor;

import io.stator.core.key.KeyEncoding;
import io.stator.core.key.KeyLayout;
import io.stator.core.key.XxHash64;
import io.stator.core.model.AttributeValue;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A partition key, or an item's key (partition and sort key), as the bytes of a row key that
 * already exist: a view of {@code [from, to)} of the row key, never a copy. The row keys an
 * operation made are not changed after, so the view can be kept. Its fingerprint is the partition
 * key's 64-bit hash that the row key carries ({@link KeyLayout}), for an item hashed on with the
 * sort key's bytes (XXH64, seeded with it): recording a key hashes nothing more than its sort key,
 * and keys are told apart by it ({@link #equals}). The values are read back only
 * when a report shows them ({@link #values}).
 */
final class KeyBytes {

    private final byte[] array;
    private final int from;
    private final int to;
    /** A 64-bit fingerprint: distinct keys' differ but for a vanishing chance (distinct counts use it). */
    final long fingerprint;

    private KeyBytes(byte[] array, int from, int to, long fingerprint) {
        this.array = array;
        this.from = from;
        this.to = to;
        this.fingerprint = fingerprint;
    }

    /** The partition key of a row key (a table's item, an index entry, a partition's prefix). */
    static KeyBytes partition(byte[] rowKey) {
        return new KeyBytes(rowKey, KeyLayout.HASH_OFFSET, partitionEnd(rowKey), KeyLayout.hashOf(rowKey));
    }

    /** A table item's key: the whole row key after the table and index ids. */
    static KeyBytes item(byte[] rowKey) {
        int pkEnd = partitionEnd(rowKey);
        return new KeyBytes(rowKey, KeyLayout.HASH_OFFSET, rowKey.length, mix(KeyLayout.hashOf(rowKey), rowKey, pkEnd,
                rowKey.length));
    }

    /**
     * An index entry's item, as the index sees it: its partition and sort key (the table's key
     * that follows in the entry is not the index's item).
     */
    static KeyBytes indexItem(byte[] entryKey, IndexDefinition index) {
        int pkEnd = partitionEnd(entryKey);
        int end = pkEnd;
        for (IndexDefinition.KeyAttribute k : index.sortKey()) end = componentEnd(entryKey, end, k.type());
        return new KeyBytes(entryKey, KeyLayout.HASH_OFFSET, end, mix(KeyLayout.hashOf(entryKey), entryKey, pkEnd, end));
    }

    private static int partitionEnd(byte[] rowKey) {
        int length = ((rowKey[KeyLayout.PARTITION_KEY_LENGTH_OFFSET] & 0xFF) << 8)
                | (rowKey[KeyLayout.PARTITION_KEY_LENGTH_OFFSET + 1] & 0xFF);
        return KeyLayout.PARTITION_KEY_OFFSET + length;
    }

    private static int componentEnd(byte[] key, int off, AttributeValue.Type type) {
        return type == AttributeValue.Type.N ? KeyEncoding.numberEnd(key, off, key.length)
                : KeyEncoding.delimitedEnd(key, off, key.length);
    }

    /** The sort key's bytes hashed (XXH64) with the partition key's hash as the seed: a 64-bit fingerprint of the item. */
    private static long mix(long hash, byte[] a, int from, int to) {
        return XxHash64.hash(a, from, to - from, hash);
    }

    /**
     * The row key's bytes up to the key's end (what {@link #values} reads: the layout's header, the
     * partition key and what follows), to publish the key to the other servers ({@link ObservationRows}).
     */
    byte[] published() {
        return Arrays.copyOf(array, to);
    }

    int from() {
        return from;
    }

    /** A key another server published: {@link #published}'s bytes, where the key starts, its fingerprint. */
    static KeyBytes restored(byte[] bytes, int from, long fingerprint) {
        return new KeyBytes(bytes, from, bytes.length, fingerprint);
    }

    /** The partition key's hash: which modelled partition the key lives in. */
    long partitionHash() {
        return KeyLayout.hashOf(array);
    }

    @Override
    public int hashCode() {
        return (int) (fingerprint ^ (fingerprint >>> 32));
    }

    /**
     * Keys of equal length and fingerprint are taken as equal: the bytes are not compared (they
     * are another request's, cold in memory, and comparing them was a fifth of what recording a
     * read cost). Two distinct keys of a window would share a counter with a chance of about
     * n^2 / 2^65 for n keys: 5 in 10^13 for 4,096.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof KeyBytes k && k.fingerprint == fingerprint && k.to - k.from == to - from;
    }

    /** Orders keys by their bytes: reports list equal figures in a stable order. */
    int compareBytes(KeyBytes other) {
        return Arrays.compareUnsigned(array, from, to, other.array, other.from, other.to);
    }

    // ---- reading the values back ----------------------------------------------------------------

    /**
     * The key's attributes and values: the table's (index null) or the index's partition key, and
     * its sort key when this is an item's key. Null when the bytes cannot be read (they always can;
     * a report never fails on one key).
     */
    Map<String, AttributeValue> values(TableDefinition table, IndexDefinition index) {
        try {
            Map<String, AttributeValue> out = new LinkedHashMap<>();
            int pkEnd = partitionEnd(array);
            int pkFrom = KeyLayout.PARTITION_KEY_OFFSET;
            if (index == null || !index.global()) {
                KeySchema k = table.keySchema();
                out.put(k.partitionKey(), KeyEncoding.decode(k.partitionKeyType(), array, pkFrom, pkEnd - pkFrom));
                if (to > pkEnd) {
                    if (index == null) {
                        out.put(k.sortKey(), KeyEncoding.decode(k.sortKeyType(), array, pkEnd, to - pkEnd));
                    } else {
                        components(out, index.sortKey(), pkEnd);
                    }
                }
                return out;
            }
            if (index.partitionKey().size() == 1) {
                IndexDefinition.KeyAttribute a = index.partitionKey().get(0);
                out.put(a.name(), KeyEncoding.decode(a.type(), array, pkFrom, pkEnd - pkFrom));
            } else {
                components(out, index.partitionKey(), pkFrom);
            }
            if (to > pkEnd) components(out, index.sortKey(), pkEnd);
            return out;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private int components(Map<String, AttributeValue> out, List<IndexDefinition.KeyAttribute> parts, int off) {
        List<IndexDefinition.KeyAttribute> attributes = new ArrayList<>(parts);
        for (IndexDefinition.KeyAttribute a : attributes) {
            int end = componentEnd(array, off, a.type());
            if (a.type() == AttributeValue.Type.N) {
                out.put(a.name(), new AttributeValue.N(KeyEncoding.decodeNumber(array, off, end)));
            } else {
                byte[] raw = KeyEncoding.decodeDelimited(array, off, end);
                out.put(a.name(), KeyEncoding.decode(a.type(), raw, 0, raw.length));
            }
            off = end;
        }
        return off;
    }
}
