// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ListTablesInput}, as a request carries it. */
public record ListTablesInput(
        String exclusiveStartTableName,
        Integer limit) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ExclusiveStartTableName",
            "Limit");

    /** The record of the members' values, in the model's order. */
    static ListTablesInput of(Object[] values) {
        return new ListTablesInput(
                (String) values[0],
                (Integer) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> exclusiveStartTableName;
            case 1 -> limit;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
