// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ListGlobalTablesInput}, as a request carries it. */
public record ListGlobalTablesInput(
        String exclusiveStartGlobalTableName,
        Integer limit,
        String regionName) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ExclusiveStartGlobalTableName",
            "Limit",
            "RegionName");

    /** The record of the members' values, in the model's order. */
    static ListGlobalTablesInput of(Object[] values) {
        return new ListGlobalTablesInput(
                (String) values[0],
                (Integer) values[1],
                (String) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> exclusiveStartGlobalTableName;
            case 1 -> limit;
            case 2 -> regionName;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
