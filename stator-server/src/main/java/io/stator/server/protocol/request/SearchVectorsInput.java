// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code SearchVectorsInput}, as a request carries it. */
public record SearchVectorsInput(
        String tableName,
        String indexName,
        ReturnConsumedCapacity returnConsumedCapacity,
        Map<String, String> expressionAttributeNames,
        Unvalidated<Map<String, AttributeValue>> expressionAttributeValues,
        String projectionExpression,
        Unvalidated<List<AttributeValue>> searchVector,
        String searchConditionExpression,
        Integer topK) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "IndexName",
            "ReturnConsumedCapacity",
            "ExpressionAttributeNames",
            "ExpressionAttributeValues",
            "ProjectionExpression",
            "SearchVector",
            "SearchConditionExpression",
            "TopK");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static SearchVectorsInput of(Object[] values) {
        return new SearchVectorsInput(
                (String) values[0],
                (String) values[1],
                (ReturnConsumedCapacity) values[2],
                (Map<String, String>) values[3],
                (Unvalidated<Map<String, AttributeValue>>) values[4],
                (String) values[5],
                (Unvalidated<List<AttributeValue>>) values[6],
                (String) values[7],
                (Integer) values[8]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> indexName;
            case 2 -> returnConsumedCapacity;
            case 3 -> expressionAttributeNames;
            case 4 -> expressionAttributeValues;
            case 5 -> projectionExpression;
            case 6 -> searchVector;
            case 7 -> searchConditionExpression;
            case 8 -> topK;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
