package io.stator.engine.transfer;

import io.stator.engine.jobs.StoredFields;
import java.time.Instant;

/**
 * One export, as DescribeExport shows it (ExportDescription), and as it is kept ({@link #encode},
 * {@link #decode}: the stored form's member names are DynamoDB's).
 *
 * @param exportTime      a full export's point in time; null for an incremental one
 * @param exportType      as requested: null when the request named none (a full export)
 * @param exportFromTime  an incremental export's period, and its view type; null for a full one
 * @param billedSizeBytes null until counted (every 10,000 items, and at the end)
 * @param itemCount       null until counted
 * @param parameters      the request's parameters, to tell the same request again by its ClientToken
 * @param offline         an export of the table as it is, run by the command line (never kept)
 */
public record ExportDescription(String exportArn, String exportId, Status status, Instant startTime, Instant endTime,
                                String exportManifest, String tableArn, String tableId, Instant exportTime,
                                String clientToken, String s3Bucket, String s3BucketOwner, String s3Prefix,
                                String s3SseAlgorithm, String s3SseKmsKeyId, String failureCode, String failureMessage,
                                Format exportFormat, Long billedSizeBytes, Long itemCount, Type exportType,
                                Instant exportFromTime, Instant exportToTime, ViewType exportViewType, String parameters,
                                boolean offline) {

    /** DynamoDB's ExportStatus. */
    public enum Status { IN_PROGRESS, COMPLETED, FAILED }

    /** DynamoDB's ExportFormat. */
    public enum Format { DYNAMODB_JSON, ION }

    /** DynamoDB's ExportType. */
    public enum Type { FULL_EXPORT, INCREMENTAL_EXPORT }

    /** DynamoDB's ExportViewType. */
    public enum ViewType { NEW_IMAGE, NEW_AND_OLD_IMAGES }

    public boolean incremental() {
        return exportType == Type.INCREMENTAL_EXPORT;
    }

    /** The counts as they now are. */
    public ExportDescription counted(long items, long billedBytes) {
        return new ExportDescription(exportArn, exportId, status, startTime, endTime, exportManifest, tableArn, tableId,
                exportTime, clientToken, s3Bucket, s3BucketOwner, s3Prefix, s3SseAlgorithm, s3SseKmsKeyId, failureCode,
                failureMessage, exportFormat, billedBytes, items, exportType, exportFromTime, exportToTime,
                exportViewType, parameters, offline);
    }

    /** The export once its manifests are written. */
    public ExportDescription withManifest(String manifest) {
        return new ExportDescription(exportArn, exportId, status, startTime, endTime, manifest, tableArn, tableId,
                exportTime, clientToken, s3Bucket, s3BucketOwner, s3Prefix, s3SseAlgorithm, s3SseKmsKeyId, failureCode,
                failureMessage, exportFormat, billedSizeBytes, itemCount, exportType, exportFromTime, exportToTime,
                exportViewType, parameters, offline);
    }

    /** The export as it ended. */
    public ExportDescription ended(Status newStatus, Instant end, String code, String message) {
        return new ExportDescription(exportArn, exportId, newStatus, startTime, end, exportManifest, tableArn, tableId,
                exportTime, clientToken, s3Bucket, s3BucketOwner, s3Prefix, s3SseAlgorithm, s3SseKmsKeyId, code, message,
                exportFormat, billedSizeBytes, itemCount, exportType, exportFromTime, exportToTime, exportViewType,
                parameters, offline);
    }

    /** The stored form: a flat JSON object by DynamoDB's member names. */
    public byte[] encode() {
        return new StoredFields().put("ExportArn", exportArn).put("ExportId", exportId).put("ExportStatus", status)
                .put("StartTime", startTime).put("TableArn", tableArn).put("TableId", tableId)
                .put("ExportTime", exportTime).put("ClientToken", clientToken).put("S3Bucket", s3Bucket)
                .put("S3BucketOwner", s3BucketOwner).put("S3Prefix", s3Prefix).put("S3SseAlgorithm", s3SseAlgorithm)
                .put("S3SseKmsKeyId", s3SseKmsKeyId).put("ExportFormat", exportFormat).put("ExportType", exportType)
                .put("ExportFromTime", exportFromTime).put("ExportToTime", exportToTime)
                .put("ExportViewType", exportViewType).put("Parameters", parameters)
                .put("Offline", offline ? "now" : null).put("ItemCount", itemCount)
                .put("BilledSizeBytes", billedSizeBytes).put("ExportManifest", exportManifest).put("EndTime", endTime)
                .put("FailureCode", failureCode).put("FailureMessage", failureMessage).encode();
    }

    /** Reads the stored form, as this release and every earlier one wrote it. */
    public static ExportDescription decode(byte[] stored) {
        StoredFields f = StoredFields.decode(stored);
        return new ExportDescription(f.text("ExportArn"), f.text("ExportId"), f.constant(Status.class, "ExportStatus"),
                f.time("StartTime"), f.time("EndTime"), f.text("ExportManifest"), f.text("TableArn"), f.text("TableId"),
                f.time("ExportTime"), f.text("ClientToken"), f.text("S3Bucket"), f.text("S3BucketOwner"),
                f.text("S3Prefix"), f.text("S3SseAlgorithm"), f.text("S3SseKmsKeyId"), f.text("FailureCode"),
                f.text("FailureMessage"), f.constant(Format.class, "ExportFormat"), f.number("BilledSizeBytes"),
                f.number("ItemCount"), f.constant(Type.class, "ExportType"), f.time("ExportFromTime"),
                f.time("ExportToTime"), f.constant(ViewType.class, "ExportViewType"), f.text("Parameters"),
                f.text("Offline") != null);
    }
}
