// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code UpdateContributorInsightsInput}, as a request carries it. */
public record UpdateContributorInsightsInput(
        String tableName,
        String indexName,
        String contributorInsightsAction,
        String contributorInsightsMode) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "IndexName",
            "ContributorInsightsAction",
            "ContributorInsightsMode");

    /** The record of the members' values, in the model's order. */
    static UpdateContributorInsightsInput of(Object[] values) {
        return new UpdateContributorInsightsInput(
                (String) values[0],
                (String) values[1],
                (String) values[2],
                (String) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> indexName;
            case 2 -> contributorInsightsAction;
            case 3 -> contributorInsightsMode;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
