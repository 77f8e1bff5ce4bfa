// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code DeleteResourcePolicyInput}, as a request carries it. */
public record DeleteResourcePolicyInput(
        String resourceArn,
        String expectedRevisionId) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ResourceArn",
            "ExpectedRevisionId");

    /** The record of the members' values, in the model's order. */
    static DeleteResourcePolicyInput of(Object[] values) {
        return new DeleteResourcePolicyInput(
                (String) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> resourceArn;
            case 1 -> expectedRevisionId;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
