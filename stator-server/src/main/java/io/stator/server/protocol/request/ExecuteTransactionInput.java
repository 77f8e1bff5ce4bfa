// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ExecuteTransactionInput}, as a request carries it. */
public record ExecuteTransactionInput(
        List<ParameterizedStatement> transactStatements,
        String clientRequestToken,
        ReturnConsumedCapacity returnConsumedCapacity) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TransactStatements",
            "ClientRequestToken",
            "ReturnConsumedCapacity");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static ExecuteTransactionInput of(Object[] values) {
        return new ExecuteTransactionInput(
                (List<ParameterizedStatement>) values[0],
                (String) values[1],
                (ReturnConsumedCapacity) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> transactStatements;
            case 1 -> clientRequestToken;
            case 2 -> returnConsumedCapacity;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
