// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ListTagsOfResourceInput}, as a request carries it. */
public record ListTagsOfResourceInput(
        String resourceArn,
        String nextToken) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ResourceArn",
            "NextToken");

    /** The record of the members' values, in the model's order. */
    static ListTagsOfResourceInput of(Object[] values) {
        return new ListTagsOfResourceInput(
                (String) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> resourceArn;
            case 1 -> nextToken;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
