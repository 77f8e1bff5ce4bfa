package io.stator.engine.read;

import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.capacity.Usage;
import java.util.List;
import java.util.Map;

/**
 * What one read returned: one page of a Query or Scan, or the item of a single-item read.
 *
 * @param items            the items that passed the filter, projected, in order (empty when
 *                         only counted)
 * @param count            how many items passed the filter
 * @param scannedCount     the items read
 * @param bytesRead        the sizes of the items read, summed, by DynamoDB's item-size rules
 * @param lastEvaluatedKey the key to continue from, or null when the range is exhausted
 * @param usage            what was read, as the capacity meter prices it
 * @param consumed         what the operation was charged for it; null until it was charged
 */
public record Page(List<Map<String, AttributeValue>> items, int count, int scannedCount, long bytesRead,
                   Map<String, AttributeValue> lastEvaluatedKey, Usage.Read usage, ConsumedCapacity consumed) {

    /** The page with what the operation was charged for it. */
    public Page charged(ConsumedCapacity charged) {
        return new Page(items, count, scannedCount, bytesRead, lastEvaluatedKey, usage, charged);
    }

    /** The one item of a single-item read, or null when there is none. */
    public Map<String, AttributeValue> item() {
        return items.isEmpty() ? null : items.get(0);
    }
}
