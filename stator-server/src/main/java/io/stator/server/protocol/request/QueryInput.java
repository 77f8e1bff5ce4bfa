// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** DynamoDB's {@code QueryInput}, as a request carries it. */
public record QueryInput(
        String tableName,
        String indexName,
        Select select,
        List<String> attributesToGet,
        Integer limit,
        Boolean consistentRead,
        Map<String, Condition> keyConditions,
        Map<String, Condition> queryFilter,
        ConditionalOperator conditionalOperator,
        Boolean scanIndexForward,
        Unvalidated<Map<String, AttributeValue>> exclusiveStartKey,
        ReturnConsumedCapacity returnConsumedCapacity,
        String projectionExpression,
        String filterExpression,
        String keyConditionExpression,
        Map<String, String> expressionAttributeNames,
        Unvalidated<Map<String, AttributeValue>> expressionAttributeValues) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "IndexName",
            "Select",
            "AttributesToGet",
            "Limit",
            "ConsistentRead",
            "KeyConditions",
            "QueryFilter",
            "ConditionalOperator",
            "ScanIndexForward",
            "ExclusiveStartKey",
            "ReturnConsumedCapacity",
            "ProjectionExpression",
            "FilterExpression",
            "KeyConditionExpression",
            "ExpressionAttributeNames",
            "ExpressionAttributeValues");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static QueryInput of(Object[] values) {
        return new QueryInput(
                (String) values[0],
                (String) values[1],
                (Select) values[2],
                (List<String>) values[3],
                (Integer) values[4],
                (Boolean) values[5],
                (Map<String, Condition>) values[6],
                (Map<String, Condition>) values[7],
                (ConditionalOperator) values[8],
                (Boolean) values[9],
                (Unvalidated<Map<String, AttributeValue>>) values[10],
                (ReturnConsumedCapacity) values[11],
                (String) values[12],
                (String) values[13],
                (String) values[14],
                (Map<String, String>) values[15],
                (Unvalidated<Map<String, AttributeValue>>) values[16]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> indexName;
            case 2 -> select;
            case 3 -> attributesToGet;
            case 4 -> limit;
            case 5 -> consistentRead;
            case 6 -> keyConditions;
            case 7 -> queryFilter;
            case 8 -> conditionalOperator;
            case 9 -> scanIndexForward;
            case 10 -> exclusiveStartKey;
            case 11 -> returnConsumedCapacity;
            case 12 -> projectionExpression;
            case 13 -> filterExpression;
            case 14 -> keyConditionExpression;
            case 15 -> expressionAttributeNames;
            case 16 -> expressionAttributeValues;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
