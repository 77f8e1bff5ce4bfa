package io.stator.core.item;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.Utf8;
import java.util.List;
import java.util.Map;

/**
 * How much of a Query or Scan page's 1 MB an item uses up. DynamoDB measures the page in its
 * internal item format, not by the documented item size: attribute names take one byte however
 * long they are, strings carry a 1 to 3 byte length, and the sort key is stored apart. The
 * formula is dynalite's, calibrated on four boundary cases recorded against DynamoDB (25 items
 * of about 42 KB just under and just over 1 MiB), which it reproduces to the byte and which the
 * documented item size does not:
 * <pre>
 * pageBytes(item) = 2 + S + (1 + floor((1 + S) / 3072)) * (18 + R)
 * </pre>
 * where R is the plain size of the sort key's value (0 without a sort key) and S sums, over the
 * other attributes, 1 + the stored size of the value: S: length + 1..3; B, N: size + 1; sets:
 * members + count + 1; NULL: 0; BOOL: 1; L: 3 + sum of (1 + element); M: 3 + count + sum of
 * (member + 1). Strings count UTF-8 bytes here (dynalite counts UTF-16 units; the difference
 * only shows for non-ASCII text, where no recorded case exists).
 */
public final class PageSize {

    /** A Query or Scan page ends once the items read reach this many bytes (1 MiB). */
    public static final long PAGE_LIMIT = 1024 * 1024;

    private PageSize() {}

    /** @param sortKeyName the table's sort key attribute, or null */
    public static long of(Map<String, AttributeValue> item, String sortKeyName) {
        long s = 0;
        long r = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            if (e.getKey().equals(sortKeyName)) {
                r = ItemSize.ofValue(e.getValue());
            } else {
                s += stored(e.getValue()) + 1;
            }
        }
        return fromParts(s, r);
    }

    /** The formula above, from S and R. */
    static long fromParts(long s, long r) {
        return 2 + s + (1 + (1 + s) / 3072) * (18 + r);
    }

    /** The stored size of a value, its name aside. */
    private static long stored(AttributeValue value) {
        switch (value) {
            case AttributeValue.S str -> {
                long length = Utf8.encodedLength(str.value());
                return length + (length < 128 ? 1 : length < 16384 ? 2 : 3);
            }
            case AttributeValue.B b -> {
                return b.value().length + 1;
            }
            case AttributeValue.N n -> {
                return ItemSize.ofNumber(n.value()) + 1;
            }
            case AttributeValue.SS ss -> {
                return ItemSize.ofValue(ss) + ss.values().size() + 1;
            }
            case AttributeValue.NS ns -> {
                return ItemSize.ofValue(ns) + ns.values().size() + 1;
            }
            case AttributeValue.BS bs -> {
                return ItemSize.ofValue(bs) + bs.values().size() + 1;
            }
            case AttributeValue.NULL nul -> {
                return 0;
            }
            case AttributeValue.BOOL bool -> {
                return 1;
            }
            case AttributeValue.L l -> {
                List<AttributeValue> values = l.values();
                long size = 3;
                for (AttributeValue v : values) size += 1 + stored(v);
                return size;
            }
            case AttributeValue.M m -> {
                long size = 3 + m.values().size();
                for (AttributeValue v : m.values().values()) size += stored(v) + 1;
                return size;
            }
        }
    }
}
