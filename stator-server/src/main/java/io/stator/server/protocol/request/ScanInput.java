// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code ScanInput}, as a request carries it. */
public record ScanInput(
        String tableName,
        String indexName,
        List<String> attributesToGet,
        Integer limit,
        Select select,
        Map<String, Condition> scanFilter,
        ConditionalOperator conditionalOperator,
        Unvalidated<Map<String, AttributeValue>> exclusiveStartKey,
        ReturnConsumedCapacity returnConsumedCapacity,
        Integer totalSegments,
        Integer segment,
        String projectionExpression,
        String filterExpression,
        Map<String, String> expressionAttributeNames,
        Unvalidated<Map<String, AttributeValue>> expressionAttributeValues,
        Boolean consistentRead) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "IndexName",
            "AttributesToGet",
            "Limit",
            "Select",
            "ScanFilter",
            "ConditionalOperator",
            "ExclusiveStartKey",
            "ReturnConsumedCapacity",
            "TotalSegments",
            "Segment",
            "ProjectionExpression",
            "FilterExpression",
            "ExpressionAttributeNames",
            "ExpressionAttributeValues",
            "ConsistentRead");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static ScanInput of(Object[] values) {
        return new ScanInput(
                (String) values[0],
                (String) values[1],
                (List<String>) values[2],
                (Integer) values[3],
                (Select) values[4],
                (Map<String, Condition>) values[5],
                (ConditionalOperator) values[6],
                (Unvalidated<Map<String, AttributeValue>>) values[7],
                (ReturnConsumedCapacity) values[8],
                (Integer) values[9],
                (Integer) values[10],
                (String) values[11],
                (String) values[12],
                (Map<String, String>) values[13],
                (Unvalidated<Map<String, AttributeValue>>) values[14],
                (Boolean) values[15]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> indexName;
            case 2 -> attributesToGet;
            case 3 -> limit;
            case 4 -> select;
            case 5 -> scanFilter;
            case 6 -> conditionalOperator;
            case 7 -> exclusiveStartKey;
            case 8 -> returnConsumedCapacity;
            case 9 -> totalSegments;
            case 10 -> segment;
            case 11 -> projectionExpression;
            case 12 -> filterExpression;
            case 13 -> expressionAttributeNames;
            case 14 -> expressionAttributeValues;
            case 15 -> consistentRead;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
