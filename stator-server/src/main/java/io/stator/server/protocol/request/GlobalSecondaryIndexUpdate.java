// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code GlobalSecondaryIndexUpdate}, as a request carries it. */
public record GlobalSecondaryIndexUpdate(
        UpdateGlobalSecondaryIndexAction update,
        CreateGlobalSecondaryIndexAction create,
        DeleteGlobalSecondaryIndexAction delete) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Update",
            "Create",
            "Delete");

    /** The record of the members' values, in the model's order. */
    static GlobalSecondaryIndexUpdate of(Object[] values) {
        return new GlobalSecondaryIndexUpdate(
                (UpdateGlobalSecondaryIndexAction) values[0],
                (CreateGlobalSecondaryIndexAction) values[1],
                (DeleteGlobalSecondaryIndexAction) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> update;
            case 1 -> create;
            case 2 -> delete;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
