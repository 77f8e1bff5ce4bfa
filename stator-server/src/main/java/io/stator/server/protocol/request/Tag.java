// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code Tag}, as a request carries it. */
public record Tag(
        String key,
        String value) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Key",
            "Value");

    /** The record of the members' values, in the model's order. */
    static Tag of(Object[] values) {
        return new Tag(
                (String) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> key;
            case 1 -> value;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
