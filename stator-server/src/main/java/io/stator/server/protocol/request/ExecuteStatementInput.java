// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;

/** DynamoDB's {@code ExecuteStatementInput}, as a request carries it. */
public record ExecuteStatementInput(
        String statement,
        Unvalidated<List<AttributeValue>> parameters,
        Boolean consistentRead,
        String nextToken,
        ReturnConsumedCapacity returnConsumedCapacity,
        Integer limit,
        ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Statement",
            "Parameters",
            "ConsistentRead",
            "NextToken",
            "ReturnConsumedCapacity",
            "Limit",
            "ReturnValuesOnConditionCheckFailure");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static ExecuteStatementInput of(Object[] values) {
        return new ExecuteStatementInput(
                (String) values[0],
                (Unvalidated<List<AttributeValue>>) values[1],
                (Boolean) values[2],
                (String) values[3],
                (ReturnConsumedCapacity) values[4],
                (Integer) values[5],
                (ReturnValuesOnConditionCheckFailure) values[6]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> statement;
            case 1 -> parameters;
            case 2 -> consistentRead;
            case 3 -> nextToken;
            case 4 -> returnConsumedCapacity;
            case 5 -> limit;
            case 6 -> returnValuesOnConditionCheckFailure;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
