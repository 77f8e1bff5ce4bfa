// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code PutResourcePolicyInput}, as a request carries it. */
public record PutResourcePolicyInput(
        String resourceArn,
        String policy,
        String expectedRevisionId,
        Boolean confirmRemoveSelfResourceAccess) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ResourceArn",
            "Policy",
            "ExpectedRevisionId",
            "ConfirmRemoveSelfResourceAccess");

    /** The record of the members' values, in the model's order. */
    static PutResourcePolicyInput of(Object[] values) {
        return new PutResourcePolicyInput(
                (String) values[0],
                (String) values[1],
                (String) values[2],
                (Boolean) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> resourceArn;
            case 1 -> policy;
            case 2 -> expectedRevisionId;
            case 3 -> confirmRemoveSelfResourceAccess;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
