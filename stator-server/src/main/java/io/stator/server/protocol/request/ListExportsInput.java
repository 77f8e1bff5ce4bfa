// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ListExportsInput}, as a request carries it. */
public record ListExportsInput(
        String tableArn,
        Integer maxResults,
        String nextToken) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableArn",
            "MaxResults",
            "NextToken");

    /** The record of the members' values, in the model's order. */
    static ListExportsInput of(Object[] values) {
        return new ListExportsInput(
                (String) values[0],
                (Integer) values[1],
                (String) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableArn;
            case 1 -> maxResults;
            case 2 -> nextToken;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
