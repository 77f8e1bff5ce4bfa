// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code CreateGlobalTableInput}, as a request carries it. */
public record CreateGlobalTableInput(
        String globalTableName,
        List<Replica> replicationGroup) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "GlobalTableName",
            "ReplicationGroup");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static CreateGlobalTableInput of(Object[] values) {
        return new CreateGlobalTableInput(
                (String) values[0],
                (List<Replica>) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> globalTableName;
            case 1 -> replicationGroup;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
