package io.stator.core.key;

import io.stator.core.model.AttributeValue;

/**
 * An item's row key read back ({@link KeyLayout#decodeItemKey}): where it lives and the values of
 * its key attributes, as needed to build a LastEvaluatedKey.
 *
 * @param hash     the partition key hash stored in the key
 * @param sortKey  null for a table without a sort key
 */
public record DecodedKey(long tableId, int indexId, long hash, AttributeValue partitionKey, AttributeValue sortKey) {}
