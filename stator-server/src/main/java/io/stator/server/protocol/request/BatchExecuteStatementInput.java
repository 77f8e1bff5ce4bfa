// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code BatchExecuteStatementInput}, as a request carries it. */
public record BatchExecuteStatementInput(
        List<BatchStatementRequest> statements,
        ReturnConsumedCapacity returnConsumedCapacity) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Statements",
            "ReturnConsumedCapacity");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static BatchExecuteStatementInput of(Object[] values) {
        return new BatchExecuteStatementInput(
                (List<BatchStatementRequest>) values[0],
                (ReturnConsumedCapacity) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> statements;
            case 1 -> returnConsumedCapacity;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
