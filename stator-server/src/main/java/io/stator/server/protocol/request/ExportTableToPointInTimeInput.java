// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code ExportTableToPointInTimeInput}, as a request carries it. */
public record ExportTableToPointInTimeInput(
        String tableArn,
        Double exportTime,
        String clientToken,
        String s3Bucket,
        String s3BucketOwner,
        String s3Prefix,
        String s3SseAlgorithm,
        String s3SseKmsKeyId,
        String exportFormat,
        String exportType,
        IncrementalExportSpecification incrementalExportSpecification) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "TableArn",
            "ExportTime",
            "ClientToken",
            "S3Bucket",
            "S3BucketOwner",
            "S3Prefix",
            "S3SseAlgorithm",
            "S3SseKmsKeyId",
            "ExportFormat",
            "ExportType",
            "IncrementalExportSpecification");

    /** The record of the members' values, in the model's order. */
    static ExportTableToPointInTimeInput of(Object[] values) {
        return new ExportTableToPointInTimeInput(
                (String) values[0],
                (Double) values[1],
                (String) values[2],
                (String) values[3],
                (String) values[4],
                (String) values[5],
                (String) values[6],
                (String) values[7],
                (String) values[8],
                (String) values[9],
                (IncrementalExportSpecification) values[10]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> tableArn;
            case 1 -> exportTime;
            case 2 -> clientToken;
            case 3 -> s3Bucket;
            case 4 -> s3BucketOwner;
            case 5 -> s3Prefix;
            case 6 -> s3SseAlgorithm;
            case 7 -> s3SseKmsKeyId;
            case 8 -> exportFormat;
            case 9 -> exportType;
            case 10 -> incrementalExportSpecification;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
