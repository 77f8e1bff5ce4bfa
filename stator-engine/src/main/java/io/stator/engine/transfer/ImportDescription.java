package io.stator.engine.transfer;

import io.stator.engine.jobs.StoredFields;
import java.time.Instant;
import java.util.List;

/**
 * One import, as DescribeImport shows it (ImportTableDescription), and as it is kept
 * ({@link #encode}, {@link #decode}: the stored form's member names are DynamoDB's).
 *
 * @param clientToken the request's, or a random one when it gave none
 * @param csvHeaders  the CSV's HeaderList, or null for the first line of each object
 * @param tableId     null until its table is created
 * @param endTime     null while IN_PROGRESS
 */
public record ImportDescription(String importArn, String importId, Status status, String tableArn, String tableId,
                                String tableName, String clientToken, String s3Bucket, String s3BucketOwner,
                                String s3KeyPrefix, InputFormat inputFormat, String csvDelimiter, List<String> csvHeaders,
                                Compression compression, Instant startTime, Instant endTime, long processedItemCount,
                                long importedItemCount, long errorCount, long processedSizeBytes, String failureCode,
                                String failureMessage) {

    /** DynamoDB's ImportStatus (Stator never cancels an import: no CANCELLING, CANCELLED). */
    public enum Status { IN_PROGRESS, COMPLETED, CANCELLING, CANCELLED, FAILED }

    /** DynamoDB's InputFormat. */
    public enum InputFormat { DYNAMODB_JSON, ION, CSV }

    /** DynamoDB's InputCompressionType. */
    public enum Compression { GZIP, ZSTD, NONE }

    /** The counters as they now are (an import in progress). */
    public ImportDescription counted(long processed, long imported, long errors, long sizeBytes) {
        return new ImportDescription(importArn, importId, status, tableArn, tableId, tableName, clientToken, s3Bucket,
                s3BucketOwner, s3KeyPrefix, inputFormat, csvDelimiter, csvHeaders, compression, startTime, endTime,
                processed, imported, errors, sizeBytes, failureCode, failureMessage);
    }

    /** The import as it ended (or, with IN_PROGRESS and nulls, as it runs again). */
    public ImportDescription ended(Status newStatus, Instant end, String code, String message) {
        return new ImportDescription(importArn, importId, newStatus, tableArn, tableId, tableName, clientToken, s3Bucket,
                s3BucketOwner, s3KeyPrefix, inputFormat, csvDelimiter, csvHeaders, compression, startTime, end,
                processedItemCount, importedItemCount, errorCount, processedSizeBytes, code, message);
    }

    /** The import once its table is created. */
    public ImportDescription withTableId(String id) {
        return new ImportDescription(importArn, importId, status, tableArn, id, tableName, clientToken, s3Bucket,
                s3BucketOwner, s3KeyPrefix, inputFormat, csvDelimiter, csvHeaders, compression, startTime, endTime,
                processedItemCount, importedItemCount, errorCount, processedSizeBytes, failureCode, failureMessage);
    }

    /** The stored form: a flat JSON object by DynamoDB's member names; the CSV's headers joined by NUL. */
    public byte[] encode() {
        return new StoredFields().put("ImportArn", importArn).put("ImportId", importId).put("ImportStatus", status)
                .put("TableArn", tableArn).put("TableName", tableName).put("ClientToken", clientToken)
                .put("S3Bucket", s3Bucket).put("S3BucketOwner", s3BucketOwner).put("S3KeyPrefix", s3KeyPrefix)
                .put("InputFormat", inputFormat).put("CsvDelimiter", csvDelimiter)
                .put("CsvHeaders", csvHeaders == null ? null : String.join("\u0000", csvHeaders))
                .put("InputCompressionType", compression).put("StartTime", startTime)
                .put("ProcessedItemCount", processedItemCount).put("ImportedItemCount", importedItemCount)
                .put("ErrorCount", errorCount).put("ProcessedSizeBytes", processedSizeBytes).put("TableId", tableId)
                .put("EndTime", endTime).put("FailureCode", failureCode).put("FailureMessage", failureMessage)
                .encode();
    }

    /** Reads the stored form, as this release and every earlier one wrote it. */
    public static ImportDescription decode(byte[] stored) {
        StoredFields f = StoredFields.decode(stored);
        String headers = f.text("CsvHeaders");
        return new ImportDescription(f.text("ImportArn"), f.text("ImportId"), f.constant(Status.class, "ImportStatus"),
                f.text("TableArn"), f.text("TableId"), f.text("TableName"), f.text("ClientToken"), f.text("S3Bucket"),
                f.text("S3BucketOwner"), f.text("S3KeyPrefix"), f.constant(InputFormat.class, "InputFormat"),
                f.text("CsvDelimiter"), headers == null ? null : List.of(headers.split("\u0000")),
                f.constant(Compression.class, "InputCompressionType"), f.time("StartTime"), f.time("EndTime"),
                f.count("ProcessedItemCount"), f.count("ImportedItemCount"), f.count("ErrorCount"),
                f.count("ProcessedSizeBytes"), f.text("FailureCode"), f.text("FailureMessage"));
    }
}
