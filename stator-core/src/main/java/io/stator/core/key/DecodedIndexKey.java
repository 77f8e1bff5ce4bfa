package io.stator.core.key;

import io.stator.core.model.AttributeValue;

/**
 * A secondary-index entry's row key read back ({@link KeyLayout#decodeIndexKey}).
 *
 * @param hash              the hash of the index partition key stored in the key
 * @param indexSortKey      null for an index without a sort key
 * @param baseSortKey       null for a base table without a sort key
 */
public record DecodedIndexKey(long tableId, int indexId, long hash,
                              AttributeValue indexPartitionKey, AttributeValue indexSortKey,
                              AttributeValue basePartitionKey, AttributeValue baseSortKey) {}
