package io.stator.server.api.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.backup.Backup;
import io.stator.engine.backup.PointInTimeRecovery;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.io.IOException;

/**
 * Writes a backup as DynamoDB's backup operations show it: BackupDetails (CreateBackup),
 * BackupDescription (DescribeBackup, DeleteBackup) with the table's details as they were when
 * the backup was requested, and BackupSummary (ListBackups). BackupSizeBytes is shown once the
 * copy is done; every backup is USER's (on-demand).
 */
public final class BackupJson {

    private BackupJson() {}

    public static void writeDetails(JsonGenerator g, Backup b) throws IOException {
        g.writeStartObject();
        g.writeStringField("BackupArn", b.arn());
        g.writeStringField("BackupName", b.name());
        if (b.sizeBytes() >= 0) g.writeNumberField("BackupSizeBytes", b.sizeBytes());
        g.writeStringField("BackupStatus", b.status().name());
        g.writeStringField("BackupType", "USER");
        TableDescriptionJson.writeTime(g, "BackupCreationDateTime", b.creationDateTime());
        g.writeEndObject();
    }

    public static void writeDescription(JsonGenerator g, Backup b) throws IOException {
        TableDefinition t = b.source();
        g.writeStartObject();
        g.writeFieldName("BackupDetails");
        writeDetails(g, b);

        g.writeObjectFieldStart("SourceTableDetails");
        g.writeStringField("TableName", t.name());
        g.writeStringField("TableId", t.tableId());
        g.writeStringField("TableArn", b.sourceTableArn());
        g.writeNumberField("TableSizeBytes", b.sourceSizeBytes());
        TableDescriptionJson.writeKeySchema(g, t);
        TableDescriptionJson.writeTime(g, "TableCreationDateTime", t.creationDateTime());
        writeThroughput(g, t.throughput());
        g.writeNumberField("ItemCount", b.sourceItemCount());
        g.writeStringField("BillingMode", t.billingMode().name());
        g.writeEndObject();

        g.writeObjectFieldStart("SourceTableFeatureDetails");
        if (!t.localIndexes().isEmpty()) {
            g.writeArrayFieldStart("LocalSecondaryIndexes");
            for (IndexDefinition index : t.localIndexes()) {
                g.writeStartObject();
                TableDescriptionJson.writeIndexKeys(g, index);
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (!t.globalIndexes().isEmpty()) {
            g.writeArrayFieldStart("GlobalSecondaryIndexes");
            for (IndexDefinition index : t.globalIndexes()) {
                g.writeStartObject();
                TableDescriptionJson.writeIndexKeys(g, index);
                writeThroughput(g, index.throughput());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (t.stream() != null && t.stream().enabled()) {
            g.writeObjectFieldStart("StreamDescription");
            g.writeBooleanField("StreamEnabled", true);
            g.writeStringField("StreamViewType", t.stream().viewType().name());
            g.writeEndObject();
        }
        if (t.timeToLive() != null) {
            g.writeObjectFieldStart("TimeToLiveDescription");
            g.writeStringField("TimeToLiveStatus", t.timeToLive().status().name());
            if (t.timeToLive().attributeName() != null) g.writeStringField("AttributeName", t.timeToLive().attributeName());
            g.writeEndObject();
        }
        if (t.sse() != null) {
            g.writeObjectFieldStart("SSEDescription");
            g.writeStringField("Status", "ENABLED");
            g.writeStringField("SSEType", t.sse().type().name());
            g.writeStringField("KMSMasterKeyArn", t.sse().kmsMasterKeyArn());
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    public static void writeSummary(JsonGenerator g, Backup b) throws IOException {
        g.writeStartObject();
        g.writeStringField("TableName", b.source().name());
        g.writeStringField("TableId", b.source().tableId());
        g.writeStringField("TableArn", b.sourceTableArn());
        g.writeStringField("BackupArn", b.arn());
        g.writeStringField("BackupName", b.name());
        TableDescriptionJson.writeTime(g, "BackupCreationDateTime", b.creationDateTime());
        g.writeStringField("BackupStatus", b.status().name());
        g.writeStringField("BackupType", "USER");
        if (b.sizeBytes() >= 0) g.writeNumberField("BackupSizeBytes", b.sizeBytes());
        g.writeEndObject();
    }

    /**
     * {"ContinuousBackupsDescription": {"ContinuousBackupsStatus": "ENABLED",
     * "PointInTimeRecoveryDescription": {...}}}: continuous backups are ENABLED on every table
     * (API reference, UpdateContinuousBackups); the window only while point-in-time recovery is.
     */
    public static void writeContinuousBackups(JsonGenerator g, PointInTimeRecovery.RecoveryWindow window) throws IOException {
        g.writeObjectFieldStart("ContinuousBackupsDescription");
        g.writeStringField("ContinuousBackupsStatus", "ENABLED");
        g.writeObjectFieldStart("PointInTimeRecoveryDescription");
        g.writeStringField("PointInTimeRecoveryStatus", window == null ? "DISABLED" : "ENABLED");
        if (window != null) {
            g.writeNumberField("RecoveryPeriodInDays", window.recoveryPeriodInDays());
            TableDescriptionJson.writeTime(g, "EarliestRestorableDateTime", window.earliestRestorable());
            TableDescriptionJson.writeTime(g, "LatestRestorableDateTime", window.latestRestorable());
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void writeThroughput(JsonGenerator g, TableDefinition.ProvisionedThroughput p) throws IOException {
        g.writeObjectFieldStart("ProvisionedThroughput");
        g.writeNumberField("ReadCapacityUnits", p == null ? 0 : p.readCapacityUnits());
        g.writeNumberField("WriteCapacityUnits", p == null ? 0 : p.writeCapacityUnits());
        g.writeEndObject();
    }
}
