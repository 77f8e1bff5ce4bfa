// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ImportTableInput}, as a request carries it. */
public record ImportTableInput(
        String clientToken,
        S3BucketSource s3BucketSource,
        String inputFormat,
        InputFormatOptions inputFormatOptions,
        String inputCompressionType,
        TableCreationParameters tableCreationParameters) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "ClientToken",
            "S3BucketSource",
            "InputFormat",
            "InputFormatOptions",
            "InputCompressionType",
            "TableCreationParameters");

    /** The record of the members' values, in the model's order. */
    static ImportTableInput of(Object[] values) {
        return new ImportTableInput(
                (String) values[0],
                (S3BucketSource) values[1],
                (String) values[2],
                (InputFormatOptions) values[3],
                (String) values[4],
                (TableCreationParameters) values[5]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> clientToken;
            case 1 -> s3BucketSource;
            case 2 -> inputFormat;
            case 3 -> inputFormatOptions;
            case 4 -> inputCompressionType;
            case 5 -> tableCreationParameters;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
