// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code IncrementalExportSpecification}, as a request carries it. */
public record IncrementalExportSpecification(
        Double exportFromTime,
        Double exportToTime,
        String exportViewType) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ExportFromTime",
            "ExportToTime",
            "ExportViewType");

    /** The record of the members' values, in the model's order. */
    static IncrementalExportSpecification of(Object[] values) {
        return new IncrementalExportSpecification(
                (Double) values[0],
                (Double) values[1],
                (String) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> exportFromTime;
            case 1 -> exportToTime;
            case 2 -> exportViewType;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
