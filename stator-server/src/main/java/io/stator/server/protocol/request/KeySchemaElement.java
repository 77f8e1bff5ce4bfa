// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code KeySchemaElement}, as a request carries it. */
public record KeySchemaElement(
        String attributeName,
        String keyType) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "AttributeName",
            "KeyType");

    /** The record of the members' values, in the model's order. */
    static KeySchemaElement of(Object[] values) {
        return new KeySchemaElement(
                (String) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> attributeName;
            case 1 -> keyType;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
