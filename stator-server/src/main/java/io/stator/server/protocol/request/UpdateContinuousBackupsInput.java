// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code UpdateContinuousBackupsInput}, as a request carries it. */
public record UpdateContinuousBackupsInput(
        String tableName,
        PointInTimeRecoverySpecification pointInTimeRecoverySpecification) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "PointInTimeRecoverySpecification");

    /** The record of the members' values, in the model's order. */
    static UpdateContinuousBackupsInput of(Object[] values) {
        return new UpdateContinuousBackupsInput(
                (String) values[0],
                (PointInTimeRecoverySpecification) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> pointInTimeRecoverySpecification;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
