// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code TransactWriteItemsInput}, as a request carries it. */
public record TransactWriteItemsInput(
        List<TransactWriteItem> transactItems,
        ReturnConsumedCapacity returnConsumedCapacity,
        ReturnItemCollectionMetrics returnItemCollectionMetrics,
        String clientRequestToken) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TransactItems",
            "ReturnConsumedCapacity",
            "ReturnItemCollectionMetrics",
            "ClientRequestToken");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static TransactWriteItemsInput of(Object[] values) {
        return new TransactWriteItemsInput(
                (List<TransactWriteItem>) values[0],
                (ReturnConsumedCapacity) values[1],
                (ReturnItemCollectionMetrics) values[2],
                (String) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> transactItems;
            case 1 -> returnConsumedCapacity;
            case 2 -> returnItemCollectionMetrics;
            case 3 -> clientRequestToken;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
