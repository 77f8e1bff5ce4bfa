package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.table.TableDefinition;
import io.stator.server.transfer.JobView;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Writes exports and imports as DynamoDB's export and import operations show them:
 * ExportDescription and ExportSummary, ImportTableDescription and ImportSummary. Times are epoch
 * seconds with a fraction; members not set are left out.
 */
final class TransferJson {

    private TransferJson() {}

    /** Where DynamoDB logs an import's bad lines (Stator logs them to the server's log). */
    static String logGroupArn(io.stator.engine.Engine engine) {
        return "arn:aws:logs:" + engine.config().region() + ":" + engine.config().accountId()
                + ":log-group:/aws-dynamodb/imports:*";
    }

    static void writeExportDescription(JsonGenerator g, JobView e) throws IOException {
        g.writeStartObject();
        string(g, "ExportArn", e.string("ExportArn"));
        string(g, "ExportStatus", e.string("ExportStatus"));
        time(g, "StartTime", e, "StartTime");
        time(g, "EndTime", e, "EndTime");
        string(g, "ExportManifest", e.string("ExportManifest"));
        string(g, "TableArn", e.string("TableArn"));
        string(g, "TableId", e.string("TableId"));
        time(g, "ExportTime", e, "ExportTime");
        string(g, "ClientToken", e.string("ClientToken"));
        string(g, "S3Bucket", e.string("S3Bucket"));
        string(g, "S3BucketOwner", e.string("S3BucketOwner"));
        string(g, "S3Prefix", e.string("S3Prefix"));
        string(g, "S3SseAlgorithm", e.string("S3SseAlgorithm"));
        string(g, "S3SseKmsKeyId", e.string("S3SseKmsKeyId"));
        string(g, "FailureCode", e.string("FailureCode"));
        string(g, "FailureMessage", e.string("FailureMessage"));
        string(g, "ExportFormat", e.string("ExportFormat"));
        number(g, "BilledSizeBytes", e, "BilledSizeBytes");
        number(g, "ItemCount", e, "ItemCount");
        string(g, "ExportType", e.string("ExportType"));
        if (e.has("ExportFromTime")) {
            g.writeObjectFieldStart("IncrementalExportSpecification");
            time(g, "ExportFromTime", e, "ExportFromTime");
            time(g, "ExportToTime", e, "ExportToTime");
            string(g, "ExportViewType", e.string("ExportViewType"));
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    static void writeExportSummary(JsonGenerator g, JobView e) throws IOException {
        g.writeStartObject();
        string(g, "ExportArn", e.string("ExportArn"));
        string(g, "ExportStatus", e.string("ExportStatus"));
        string(g, "ExportType", e.string("ExportType") == null ? "FULL_EXPORT" : e.string("ExportType"));
        g.writeEndObject();
    }

    static void writeImportDescription(JsonGenerator g, JobView i, TableDefinition table, String logGroupArn)
            throws IOException {
        g.writeStartObject();
        string(g, "ImportArn", i.string("ImportArn"));
        string(g, "ImportStatus", i.string("ImportStatus"));
        string(g, "TableArn", i.string("TableArn"));
        string(g, "TableId", i.string("TableId"));
        string(g, "ClientToken", i.string("ClientToken"));
        writeBucketSource(g, i);
        number(g, "ErrorCount", i, "ErrorCount");
        string(g, "CloudWatchLogGroupArn", logGroupArn);
        string(g, "InputFormat", i.string("InputFormat"));
        if (i.has("CsvDelimiter") || i.has("CsvHeaders")) {
            g.writeObjectFieldStart("InputFormatOptions");
            g.writeObjectFieldStart("Csv");
            string(g, "Delimiter", i.string("CsvDelimiter"));
            if (i.has("CsvHeaders")) {
                g.writeArrayFieldStart("HeaderList");
                for (String h : i.string("CsvHeaders").split("\u0000")) g.writeString(h);
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        string(g, "InputCompressionType", i.string("InputCompressionType"));
        g.writeObjectFieldStart("TableCreationParameters");
        g.writeStringField("TableName", i.string("TableName"));
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
        time(g, "StartTime", i, "StartTime");
        time(g, "EndTime", i, "EndTime");
        number(g, "ProcessedSizeBytes", i, "ProcessedSizeBytes");
        number(g, "ProcessedItemCount", i, "ProcessedItemCount");
        number(g, "ImportedItemCount", i, "ImportedItemCount");
        string(g, "FailureCode", i.string("FailureCode"));
        string(g, "FailureMessage", i.string("FailureMessage"));
        g.writeEndObject();
    }

    static void writeImportSummary(JsonGenerator g, JobView i, String logGroupArn) throws IOException {
        g.writeStartObject();
        string(g, "ImportArn", i.string("ImportArn"));
        string(g, "ImportStatus", i.string("ImportStatus"));
        string(g, "TableArn", i.string("TableArn"));
        writeBucketSource(g, i);
        string(g, "CloudWatchLogGroupArn", logGroupArn);
        string(g, "InputFormat", i.string("InputFormat"));
        time(g, "StartTime", i, "StartTime");
        time(g, "EndTime", i, "EndTime");
        g.writeEndObject();
    }

    private static void writeBucketSource(JsonGenerator g, JobView i) throws IOException {
        g.writeObjectFieldStart("S3BucketSource");
        string(g, "S3BucketOwner", i.string("S3BucketOwner"));
        string(g, "S3Bucket", i.string("S3Bucket"));
        string(g, "S3KeyPrefix", i.string("S3KeyPrefix"));
        g.writeEndObject();
    }

    private static void string(JsonGenerator g, String field, String value) throws IOException {
        if (value != null) g.writeStringField(field, value);
    }

    private static void number(JsonGenerator g, String field, JobView v, String name) throws IOException {
        if (v.has(name)) g.writeNumberField(field, v.number(name));
    }

    private static void time(JsonGenerator g, String field, JobView v, String name) throws IOException {
        if (v.has(name)) {
            g.writeFieldName(field);
            g.writeNumber(BigDecimal.valueOf(v.number(name), 3));
        }
    }
}
