// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;

/** DynamoDB's {@code ExpectedAttributeValue}, as a request carries it. */
public record ExpectedAttributeValue(
        Unvalidated<AttributeValue> value,
        Boolean exists,
        String comparisonOperator,
        Unvalidated<List<AttributeValue>> attributeValueList) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Value",
            "Exists",
            "ComparisonOperator",
            "AttributeValueList");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static ExpectedAttributeValue of(Object[] values) {
        return new ExpectedAttributeValue(
                (Unvalidated<AttributeValue>) values[0],
                (Boolean) values[1],
                (String) values[2],
                (Unvalidated<List<AttributeValue>>) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> value;
            case 1 -> exists;
            case 2 -> comparisonOperator;
            case 3 -> attributeValueList;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
