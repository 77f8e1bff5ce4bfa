package io.stator.engine.index.vector;

import java.util.Arrays;

/** An entry's key as a map key: its bytes compared by content. The array is never changed. */
record EntryKey(byte[] bytes) {

    @Override
    public boolean equals(Object other) {
        return other instanceof EntryKey key && Arrays.equals(bytes, key.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return java.util.HexFormat.of().formatHex(bytes);
    }
}
