// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;

/** DynamoDB's {@code Condition}, as a request carries it. */
public record Condition(
        Unvalidated<List<AttributeValue>> attributeValueList,
        String comparisonOperator) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "AttributeValueList",
            "ComparisonOperator");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static Condition of(Object[] values) {
        return new Condition(
                (Unvalidated<List<AttributeValue>>) values[0],
                (String) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> attributeValueList;
            case 1 -> comparisonOperator;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
