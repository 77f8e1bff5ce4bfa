// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ReplicationGroupUpdate}, as a request carries it. */
public record ReplicationGroupUpdate(
        CreateReplicationGroupMemberAction create,
        UpdateReplicationGroupMemberAction update,
        DeleteReplicationGroupMemberAction delete) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Create",
            "Update",
            "Delete");

    /** The record of the members' values, in the model's order. */
    static ReplicationGroupUpdate of(Object[] values) {
        return new ReplicationGroupUpdate(
                (CreateReplicationGroupMemberAction) values[0],
                (UpdateReplicationGroupMemberAction) values[1],
                (DeleteReplicationGroupMemberAction) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> create;
            case 1 -> update;
            case 2 -> delete;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
