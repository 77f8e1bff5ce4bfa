// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code TransactWriteItem}, as a request carries it. */
public record TransactWriteItem(
        ConditionCheck conditionCheck,
        Put put,
        Delete delete,
        Update update) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ConditionCheck",
            "Put",
            "Delete",
            "Update");

    /** The record of the members' values, in the model's order. */
    static TransactWriteItem of(Object[] values) {
        return new TransactWriteItem(
                (ConditionCheck) values[0],
                (Put) values[1],
                (Delete) values[2],
                (Update) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> conditionCheck;
            case 1 -> put;
            case 2 -> delete;
            case 3 -> update;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
