// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code WriteRequest}, as a request carries it. */
public record WriteRequest(
        PutRequest putRequest,
        DeleteRequest deleteRequest) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "PutRequest",
            "DeleteRequest");

    /** The record of the members' values, in the model's order. */
    static WriteRequest of(Object[] values) {
        return new WriteRequest(
                (PutRequest) values[0],
                (DeleteRequest) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> putRequest;
            case 1 -> deleteRequest;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
