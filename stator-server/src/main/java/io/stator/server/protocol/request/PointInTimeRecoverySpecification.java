// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code PointInTimeRecoverySpecification}, as a request carries it. */
public record PointInTimeRecoverySpecification(
        Boolean pointInTimeRecoveryEnabled,
        Integer recoveryPeriodInDays) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "PointInTimeRecoveryEnabled",
            "RecoveryPeriodInDays");

    /** The record of the members' values, in the model's order. */
    static PointInTimeRecoverySpecification of(Object[] values) {
        return new PointInTimeRecoverySpecification(
                (Boolean) values[0],
                (Integer) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> pointInTimeRecoveryEnabled;
            case 1 -> recoveryPeriodInDays;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
