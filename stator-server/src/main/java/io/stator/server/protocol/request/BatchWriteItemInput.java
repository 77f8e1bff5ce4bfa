// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;
import java.util.Map;

/** DynamoDB's {@code BatchWriteItemInput}, as a request carries it. */
public record BatchWriteItemInput(
        Map<String, List<WriteRequest>> requestItems,
        ReturnConsumedCapacity returnConsumedCapacity,
        ReturnItemCollectionMetrics returnItemCollectionMetrics) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "RequestItems",
            "ReturnConsumedCapacity",
            "ReturnItemCollectionMetrics");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static BatchWriteItemInput of(Object[] values) {
        return new BatchWriteItemInput(
                (Map<String, List<WriteRequest>>) values[0],
                (ReturnConsumedCapacity) values[1],
                (ReturnItemCollectionMetrics) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> requestItems;
            case 1 -> returnConsumedCapacity;
            case 2 -> returnItemCollectionMetrics;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
