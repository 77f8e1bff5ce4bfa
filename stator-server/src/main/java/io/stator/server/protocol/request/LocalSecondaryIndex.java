// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code LocalSecondaryIndex}, as a request carries it. */
public record LocalSecondaryIndex(
        String indexName,
        List<KeySchemaElement> keySchema,
        Projection projection) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "IndexName",
            "KeySchema",
            "Projection");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static LocalSecondaryIndex of(Object[] values) {
        return new LocalSecondaryIndex(
                (String) values[0],
                (List<KeySchemaElement>) values[1],
                (Projection) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> indexName;
            case 1 -> keySchema;
            case 2 -> projection;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
