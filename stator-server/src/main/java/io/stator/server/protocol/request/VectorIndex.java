// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code VectorIndex}, as a request carries it. */
public record VectorIndex(
        String indexName,
        VectorAttributeDefinition vectorAttribute,
        List<SearchSchemaElement> searchSchema,
        Projection projection,
        Long dimensions,
        String distanceFunction) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "IndexName",
            "VectorAttribute",
            "SearchSchema",
            "Projection",
            "Dimensions",
            "DistanceFunction");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static VectorIndex of(Object[] values) {
        return new VectorIndex(
                (String) values[0],
                (VectorAttributeDefinition) values[1],
                (List<SearchSchemaElement>) values[2],
                (Projection) values[3],
                (Long) values[4],
                (String) values[5]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> indexName;
            case 1 -> vectorAttribute;
            case 2 -> searchSchema;
            case 3 -> projection;
            case 4 -> dimensions;
            case 5 -> distanceFunction;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
