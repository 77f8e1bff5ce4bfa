package io.stator.engine.index;

import java.util.Arrays;

/**
 * An item's entry in a secondary index: its row key and stored value (the projected
 * attributes), with the projected item's size (for IndexSizeBytes).
 */
public record IndexEntry(byte[] key, byte[] value, long size) {

    /** True when both are absent, or both have the same key and value. */
    public static boolean same(IndexEntry a, IndexEntry b) {
        if (a == null || b == null) return a == b;
        return Arrays.equals(a.key, b.key) && Arrays.equals(a.value, b.value);
    }

    /** True when both are present under one key. */
    public static boolean sameKey(IndexEntry a, IndexEntry b) {
        return a != null && b != null && Arrays.equals(a.key, b.key);
    }
}
