// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code TransactGetItemsInput}, as a request carries it. */
public record TransactGetItemsInput(
        List<TransactGetItem> transactItems,
        ReturnConsumedCapacity returnConsumedCapacity) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TransactItems",
            "ReturnConsumedCapacity");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static TransactGetItemsInput of(Object[] values) {
        return new TransactGetItemsInput(
                (List<TransactGetItem>) values[0],
                (ReturnConsumedCapacity) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> transactItems;
            case 1 -> returnConsumedCapacity;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
