// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code UpdateGlobalTableInput}, as a request carries it. */
public record UpdateGlobalTableInput(
        String globalTableName,
        List<ReplicaUpdate> replicaUpdates) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "GlobalTableName",
            "ReplicaUpdates");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static UpdateGlobalTableInput of(Object[] values) {
        return new UpdateGlobalTableInput(
                (String) values[0],
                (List<ReplicaUpdate>) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> globalTableName;
            case 1 -> replicaUpdates;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
