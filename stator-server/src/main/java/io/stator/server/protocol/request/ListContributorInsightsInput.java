// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ListContributorInsightsInput}, as a request carries it. */
public record ListContributorInsightsInput(
        String tableName,
        String nextToken,
        Integer maxResults) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "NextToken",
            "MaxResults");

    /** The record of the members' values, in the model's order. */
    static ListContributorInsightsInput of(Object[] values) {
        return new ListContributorInsightsInput(
                (String) values[0],
                (String) values[1],
                (Integer) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> nextToken;
            case 2 -> maxResults;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
