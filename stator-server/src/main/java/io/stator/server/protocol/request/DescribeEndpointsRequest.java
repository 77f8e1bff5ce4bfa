// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code DescribeEndpointsRequest}, as a request carries it. */
public record DescribeEndpointsRequest() implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of();

    /** The record of the members' values, in the model's order. */
    static DescribeEndpointsRequest of(Object[] values) {
        return new DescribeEndpointsRequest();
    }

    @Override
    public Object member(int index) {
        throw new IndexOutOfBoundsException(index);
    }
}
