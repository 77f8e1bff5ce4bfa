// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code CsvOptions}, as a request carries it. */
public record CsvOptions(
        String delimiter,
        List<String> headerList) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "Delimiter",
            "HeaderList");

    /** The record of the members' values, in the model's order. */
    @SuppressWarnings("unchecked")
    static CsvOptions of(Object[] values) {
        return new CsvOptions(
                (String) values[0],
                (List<String>) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> delimiter;
            case 1 -> headerList;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
