// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ListBackupsInput}, as a request carries it. */
public record ListBackupsInput(
        String tableName,
        Integer limit,
        Double timeRangeLowerBound,
        Double timeRangeUpperBound,
        String exclusiveStartBackupArn,
        String backupType) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableName",
            "Limit",
            "TimeRangeLowerBound",
            "TimeRangeUpperBound",
            "ExclusiveStartBackupArn",
            "BackupType");

    /** The record of the members' values, in the model's order. */
    static ListBackupsInput of(Object[] values) {
        return new ListBackupsInput(
                (String) values[0],
                (Integer) values[1],
                (Double) values[2],
                (Double) values[3],
                (String) values[4],
                (String) values[5]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableName;
            case 1 -> limit;
            case 2 -> timeRangeLowerBound;
            case 3 -> timeRangeUpperBound;
            case 4 -> exclusiveStartBackupArn;
            case 5 -> backupType;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
