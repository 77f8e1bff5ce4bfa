// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;
import java.util.Map;

/** DynamoDB's {@code BatchGetItemInput}, as a request carries it. */
public record BatchGetItemInput(
        Map<String, KeysAndAttributes> requestItems,
        ReturnConsumedCapacity returnConsumedCapacity) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "RequestItems",
            "ReturnConsumedCapacity");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static BatchGetItemInput of(Object[] values) {
        return new BatchGetItemInput(
                (Map<String, KeysAndAttributes>) values[0],
                (ReturnConsumedCapacity) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> requestItems;
            case 1 -> returnConsumedCapacity;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
