// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code UntagResourceInput}, as a request carries it. */
public record UntagResourceInput(
        String resourceArn,
        List<String> tagKeys) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ResourceArn",
            "TagKeys");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static UntagResourceInput of(Object[] values) {
        return new UntagResourceInput(
                (String) values[0],
                (List<String>) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> resourceArn;
            case 1 -> tagKeys;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
