// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code SSESpecification}, as a request carries it. */
public record SSESpecification(
        Boolean enabled,
        String sseType,
        String kmsMasterKeyId) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Enabled",
            "SSEType",
            "KMSMasterKeyId");

    /** The record of the members' values, in the model's order. */
    static SSESpecification of(Object[] values) {
        return new SSESpecification(
                (Boolean) values[0],
                (String) values[1],
                (String) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> enabled;
            case 1 -> sseType;
            case 2 -> kmsMasterKeyId;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
