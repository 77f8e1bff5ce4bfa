package io.stator.engine.table;

import io.stator.core.model.AttributeValue;

/**
 * A table's primary key: a partition key and an optional sort key, each with its scalar type
 * (S, N or B).
 */
public record KeySchema(String partitionKey, AttributeValue.Type partitionKeyType,
                        String sortKey, AttributeValue.Type sortKeyType) {

    public boolean hasSortKey() { return sortKey != null; }

    public boolean isKeyAttribute(String name) {
        return name.equals(partitionKey) || name.equals(sortKey);
    }

    public int size() { return hasSortKey() ? 2 : 1; }
}
