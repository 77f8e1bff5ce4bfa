package io.stator.core.key;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A range of row keys: {@code from} inclusive, {@code to} exclusive, compared as unsigned bytes.
 * The arrays are not copied; do not modify them.
 */
public record KeyRange(byte[] from, byte[] to) {

    /** True if {@code key} lies in this range. */
    public boolean contains(byte[] key) {
        return Arrays.compareUnsigned(key, from) >= 0 && Arrays.compareUnsigned(key, to) < 0;
    }

    @Override public boolean equals(Object o) {
        return o instanceof KeyRange other && Arrays.equals(from, other.from) && Arrays.equals(to, other.to);
    }

    @Override public int hashCode() { return 31 * Arrays.hashCode(from) + Arrays.hashCode(to); }

    @Override public String toString() {
        return "[" + HexFormat.of().formatHex(from) + ", " + HexFormat.of().formatHex(to) + ")";
    }
}
