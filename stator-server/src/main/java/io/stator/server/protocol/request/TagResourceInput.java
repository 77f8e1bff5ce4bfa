// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code TagResourceInput}, as a request carries it. */
public record TagResourceInput(
        String resourceArn,
        List<Tag> tags) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ResourceArn",
            "Tags");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static TagResourceInput of(Object[] values) {
        return new TagResourceInput(
                (String) values[0],
                (List<Tag>) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> resourceArn;
            case 1 -> tags;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
