// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code TransactGetItem}, as a request carries it. */
public record TransactGetItem(
        Get get) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Get");

    /** The record of the members' values, in the model's order. */
    static TransactGetItem of(Object[] values) {
        return new TransactGetItem(
                (Get) values[0]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> get;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
