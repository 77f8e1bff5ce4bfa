// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ReplicaUpdate}, as a request carries it. */
public record ReplicaUpdate(
        CreateReplicaAction create,
        DeleteReplicaAction delete) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Create",
            "Delete");

    /** The record of the members' values, in the model's order. */
    static ReplicaUpdate of(Object[] values) {
        return new ReplicaUpdate(
                (CreateReplicaAction) values[0],
                (DeleteReplicaAction) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> create;
            case 1 -> delete;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
