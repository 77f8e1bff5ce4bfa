// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;

/** DynamoDB's {@code BatchStatementRequest}, as a request carries it. */
public record BatchStatementRequest(
        String statement,
        Unvalidated<List<AttributeValue>> parameters,
        Boolean consistentRead,
        ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Statement",
            "Parameters",
            "ConsistentRead",
            "ReturnValuesOnConditionCheckFailure");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static BatchStatementRequest of(Object[] values) {
        return new BatchStatementRequest(
                (String) values[0],
                (Unvalidated<List<AttributeValue>>) values[1],
                (Boolean) values[2],
                (ReturnValuesOnConditionCheckFailure) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> statement;
            case 1 -> parameters;
            case 2 -> consistentRead;
            case 3 -> returnValuesOnConditionCheckFailure;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
