package io.stator.core.key;

import io.stator.core.model.AttributeValue;
import java.util.Arrays;
import java.util.List;

/**
 * The row-key ranges that reads cover, built from a partition key and a sort-key condition: one
 * item, one partition of the table (narrowed by its sort key), or one partition of a secondary
 * index (narrowed by equality on its first sort-key attributes and a condition on the next).
 * Every read, whatever its action, is a walk of one of these ranges (see {@link KeyLayout} for
 * why the rows of one partition are contiguous and sorted by sort key).
 */
public final class KeyRanges {

    private KeyRanges() {}

    /** Exactly the row {@code rowKey}. */
    public static KeyRange item(byte[] rowKey) {
        return new KeyRange(rowKey, KeyLayout.successor(rowKey));
    }

    /** The whole table or index (a scan), or one segment of it (a parallel scan). */
    public static KeyRange segment(long tableId, int indexId, int segment, int totalSegments) {
        return KeyLayout.segmentBounds(tableId, indexId, segment, totalSegments);
    }

    /**
     * One partition of a table (or of any index keyed like one: a single partition attribute
     * and a sort key stored last), optionally narrowed by a sort-key condition.
     */
    public static KeyRange partition(PartitionHash hash, long tableId, int indexId, AttributeValue partitionKey, SortKeyCondition sortKey) {
        byte[] prefix = KeyLayout.partitionPrefix(hash, tableId, indexId, partitionKey);
        byte[] end = KeyLayout.prefixUpperBound(prefix);
        if (sortKey == null) return new KeyRange(prefix, end);
        return switch (sortKey) {
            case SortKeyCondition.Equal e -> item(key(hash, tableId, indexId, partitionKey, e.value()));
            case SortKeyCondition.LessThan lt -> new KeyRange(prefix, key(hash, tableId, indexId, partitionKey, lt.value()));
            case SortKeyCondition.LessOrEqual le ->
                    new KeyRange(prefix, KeyLayout.successor(key(hash, tableId, indexId, partitionKey, le.value())));
            case SortKeyCondition.GreaterThan gt ->
                    new KeyRange(KeyLayout.successor(key(hash, tableId, indexId, partitionKey, gt.value())), end);
            case SortKeyCondition.GreaterOrEqual ge -> new KeyRange(key(hash, tableId, indexId, partitionKey, ge.value()), end);
            case SortKeyCondition.Between b -> new KeyRange(key(hash, tableId, indexId, partitionKey, b.lower()),
                    KeyLayout.successor(key(hash, tableId, indexId, partitionKey, b.upper())));
            case SortKeyCondition.BeginsWith bw -> {
                // S and B sort keys are stored as their raw bytes, last in the key, so every key
                // that begins with the prefix shares the prefix's row-key bytes.
                byte[] start = key(hash, tableId, indexId, partitionKey, bw.prefix());
                yield new KeyRange(start, KeyLayout.prefixUpperBound(start));
            }
        };
    }

    /**
     * One partition of a secondary index (equality on every partition-key attribute), narrowed
     * by equality on its first sort-key attributes ({@code sortKeyPrefix}) and a condition on the
     * next one, attribute by attribute in their self-delimiting form.
     */
    public static KeyRange indexPartition(PartitionHash hash, long tableId, int indexId, List<AttributeValue> partitionKey,
                                          List<AttributeValue> sortKeyPrefix, SortKeyCondition sortKey) {
        byte[] prefix = concat(KeyLayout.indexPartitionPrefix(hash, tableId, indexId, partitionKey),
                KeyLayout.components(sortKeyPrefix));
        byte[] end = KeyLayout.prefixUpperBound(prefix);
        if (sortKey == null) return new KeyRange(prefix, end);
        return switch (sortKey) {
            case SortKeyCondition.Equal e -> under(concat(prefix, component(e.value())));
            case SortKeyCondition.LessThan lt -> new KeyRange(prefix, concat(prefix, component(lt.value())));
            case SortKeyCondition.LessOrEqual le ->
                    new KeyRange(prefix, KeyLayout.prefixUpperBound(concat(prefix, component(le.value()))));
            case SortKeyCondition.GreaterThan gt ->
                    new KeyRange(KeyLayout.prefixUpperBound(concat(prefix, component(gt.value()))), end);
            case SortKeyCondition.GreaterOrEqual ge -> new KeyRange(concat(prefix, component(ge.value())), end);
            case SortKeyCondition.Between b -> new KeyRange(concat(prefix, component(b.lower())),
                    KeyLayout.prefixUpperBound(concat(prefix, component(b.upper()))));
            case SortKeyCondition.BeginsWith bw -> under(concat(prefix, KeyLayout.componentPrefix(bw.prefix())));
        };
    }

    private static byte[] key(PartitionHash hash, long tableId, int indexId, AttributeValue partitionKey,
                              AttributeValue sortKey) {
        return KeyLayout.encodeItemKey(hash, tableId, indexId, partitionKey, sortKey);
    }

    private static KeyRange under(byte[] prefix) {
        return new KeyRange(prefix, KeyLayout.prefixUpperBound(prefix));
    }

    private static byte[] component(AttributeValue value) {
        return KeyLayout.components(List.of(value));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
