// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code SearchSchemaElement}, as a request carries it. */
public record SearchSchemaElement(
        String attributeName,
        String searchSchemaElementType) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "AttributeName",
            "SearchSchemaElementType");

    /** The record of the members' values, in the model's order. */
    static SearchSchemaElement of(Object[] values) {
        return new SearchSchemaElement(
                (String) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> attributeName;
            case 1 -> searchSchemaElementType;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
