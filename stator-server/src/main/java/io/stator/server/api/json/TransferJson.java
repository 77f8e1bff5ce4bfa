package io.stator.server.api.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.transfer.ExportDescription;
import io.stator.engine.transfer.ImportDescription;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * Writes exports and imports as DynamoDB's export and import operations show them:
 * ExportDescription and ExportSummary, ImportTableDescription and ImportSummary. Times are epoch
 * seconds with a fraction; members not set are left out.
 */
public final class TransferJson {

    private TransferJson() {}

    /** Where DynamoDB logs an import's bad lines (Stator logs them to the server's log). */
    public static String logGroupArn(io.stator.engine.Engine engine) {
        return "arn:aws:logs:" + engine.config().region() + ":" + engine.config().accountId()
                + ":log-group:/aws-dynamodb/imports:*";
    }

    public static void writeExportDescription(JsonGenerator g, ExportDescription e) throws IOException {
        g.writeStartObject();
        string(g, "ExportArn", e.exportArn());
        string(g, "ExportStatus", e.status());
        time(g, "StartTime", e.startTime());
        time(g, "EndTime", e.endTime());
        string(g, "ExportManifest", e.exportManifest());
        string(g, "TableArn", e.tableArn());
        string(g, "TableId", e.tableId());
        time(g, "ExportTime", e.exportTime());
        string(g, "ClientToken", e.clientToken());
        string(g, "S3Bucket", e.s3Bucket());
        string(g, "S3BucketOwner", e.s3BucketOwner());
        string(g, "S3Prefix", e.s3Prefix());
        string(g, "S3SseAlgorithm", e.s3SseAlgorithm());
        string(g, "S3SseKmsKeyId", e.s3SseKmsKeyId());
        string(g, "FailureCode", e.failureCode());
        string(g, "FailureMessage", e.failureMessage());
        string(g, "ExportFormat", e.exportFormat());
        number(g, "BilledSizeBytes", e.billedSizeBytes());
        number(g, "ItemCount", e.itemCount());
        string(g, "ExportType", e.exportType());
        if (e.exportFromTime() != null) {
            g.writeObjectFieldStart("IncrementalExportSpecification");
            time(g, "ExportFromTime", e.exportFromTime());
            time(g, "ExportToTime", e.exportToTime());
            string(g, "ExportViewType", e.exportViewType());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    public static void writeExportSummary(JsonGenerator g, ExportDescription e) throws IOException {
        g.writeStartObject();
        string(g, "ExportArn", e.exportArn());
        string(g, "ExportStatus", e.status());
        string(g, "ExportType", e.exportType() == null ? ExportDescription.Type.FULL_EXPORT : e.exportType());
        g.writeEndObject();
    }

    public static void writeImportDescription(JsonGenerator g, ImportDescription i, TableDefinition table, String logGroupArn)
            throws IOException {
        g.writeStartObject();
        string(g, "ImportArn", i.importArn());
        string(g, "ImportStatus", i.status());
        string(g, "TableArn", i.tableArn());
        string(g, "TableId", i.tableId());
        string(g, "ClientToken", i.clientToken());
        writeBucketSource(g, i);
        g.writeNumberField("ErrorCount", i.errorCount());
        string(g, "CloudWatchLogGroupArn", logGroupArn);
        string(g, "InputFormat", i.inputFormat());
        if (i.csvDelimiter() != null || i.csvHeaders() != null) {
            g.writeObjectFieldStart("InputFormatOptions");
            g.writeObjectFieldStart("Csv");
            string(g, "Delimiter", i.csvDelimiter());
            if (i.csvHeaders() != null) {
                g.writeArrayFieldStart("HeaderList");
                for (String h : i.csvHeaders()) g.writeString(h);
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        string(g, "InputCompressionType", i.compression());
        g.writeObjectFieldStart("TableCreationParameters");
        g.writeStringField("TableName", i.tableName());
        if (table != null) {
            g.writeArrayFieldStart("AttributeDefinitions");
            for (TableDefinition.AttributeDefinition d : table.attributeDefinitions()) {
                g.writeStartObject();
                g.writeStringField("AttributeName", d.name());
                g.writeStringField("AttributeType", d.type().name());
                g.writeEndObject();
            }
            g.writeEndArray();
            TableDescriptionJson.writeKeySchema(g, table);
            g.writeStringField("BillingMode", table.billingMode().name());
            if (!table.globalIndexes().isEmpty()) {
                g.writeArrayFieldStart("GlobalSecondaryIndexes");
                for (var index : table.globalIndexes()) {
                    g.writeStartObject();
                    TableDescriptionJson.writeIndexKeys(g, index);
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
        }
        g.writeEndObject();
        time(g, "StartTime", i.startTime());
        time(g, "EndTime", i.endTime());
        g.writeNumberField("ProcessedSizeBytes", i.processedSizeBytes());
        g.writeNumberField("ProcessedItemCount", i.processedItemCount());
        g.writeNumberField("ImportedItemCount", i.importedItemCount());
        string(g, "FailureCode", i.failureCode());
        string(g, "FailureMessage", i.failureMessage());
        g.writeEndObject();
    }

    public static void writeImportSummary(JsonGenerator g, ImportDescription i, String logGroupArn) throws IOException {
        g.writeStartObject();
        string(g, "ImportArn", i.importArn());
        string(g, "ImportStatus", i.status());
        string(g, "TableArn", i.tableArn());
        writeBucketSource(g, i);
        string(g, "CloudWatchLogGroupArn", logGroupArn);
        string(g, "InputFormat", i.inputFormat());
        time(g, "StartTime", i.startTime());
        time(g, "EndTime", i.endTime());
        g.writeEndObject();
    }

    private static void writeBucketSource(JsonGenerator g, ImportDescription i) throws IOException {
        g.writeObjectFieldStart("S3BucketSource");
        string(g, "S3BucketOwner", i.s3BucketOwner());
        string(g, "S3Bucket", i.s3Bucket());
        string(g, "S3KeyPrefix", i.s3KeyPrefix());
        g.writeEndObject();
    }

    /** A text member, or an enum's constant as DynamoDB names it; left out when null. */
    private static void string(JsonGenerator g, String field, Object value) throws IOException {
        if (value != null) g.writeStringField(field, value instanceof Enum<?> e ? e.name() : value.toString());
    }

    private static void number(JsonGenerator g, String field, Long value) throws IOException {
        if (value != null) g.writeNumberField(field, value);
    }

    private static void time(JsonGenerator g, String field, Instant value) throws IOException {
        if (value != null) {
            g.writeFieldName(field);
            g.writeNumber(BigDecimal.valueOf(value.toEpochMilli(), 3));
        }
    }
}
