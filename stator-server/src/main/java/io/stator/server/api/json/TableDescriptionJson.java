package io.stator.server.api.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableArns;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.OnDemandThroughput;
import io.stator.engine.table.TableDefinition.WarmThroughput;
import io.stator.engine.table.GlobalTable;
import io.stator.engine.table.TableDefinition;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes a TableDescription as DynamoDB does (CreateTable, DescribeTable, UpdateTable; DeleteTable's
 * brief one: {@link #writeDeleted}), including which members it leaves out:
 * <ul>
 *   <li>AttributeDefinitions come back sorted by name;</li>
 *   <li>BillingModeSummary only once the table has been on-demand (DynamoDB shows none for a
 *       table that was always provisioned), with LastUpdateToPayPerRequestDateTime except in the
 *       response that created or switched the table;</li>
 *   <li>StreamSpecification only while a stream is enabled; the latest stream label and ARN stay
 *       after it is disabled;</li>
 *   <li>SSEDescription only for KMS encryption; TableClassSummary only when the class is not the
 *       default or was changed; OnDemandThroughput only when a maximum is set, and only the
 *       members that are set;</li>
 *   <li>WarmThroughput always outside the CreateTable response (see
 *       {@link TableDefinition#effectiveWarmThroughput}), in it only when requested;
 *       DeletionProtectionEnabled always.</li>
 * </ul>
 */
public final class TableDescriptionJson {

    /**
     * What a response says beyond the table's definition: its TableStatus, and the marks of
     * changes DynamoDB is still applying (it applies most table changes asynchronously).
     *
     * @param payPerRequestDate    whether BillingModeSummary shows LastUpdateToPayPerRequestDateTime
     * @param warmThroughputStatus WarmThroughput's Status
     * @param sseUpdating          whether SSEDescription says only {"Status": "UPDATING"}
     * @param unsetOnDemandMembers whether OnDemandThroughput members without a maximum show as -1
     */
    public record View(String tableStatus, boolean payPerRequestDate, String warmThroughputStatus, boolean sseUpdating,
                boolean unsetOnDemandMembers) {
        public static final View CREATED = new View("CREATING", false, "UPDATING", false, false);
        public static final View DESCRIBED = new View("ACTIVE", true, "ACTIVE", false, false);

        public boolean creating() { return tableStatus.equals(CREATED.tableStatus); }
    }

    private TableDescriptionJson() {}

    public static void write(JsonGenerator g, TableDefinition t, Catalog catalog, View view) throws IOException {
        TableArns arns = catalog.arns();
        g.writeStartObject();

        g.writeArrayFieldStart("AttributeDefinitions");
        List<AttributeDefinition> defs = new ArrayList<>(t.attributeDefinitions());
        defs.sort(Comparator.comparing(AttributeDefinition::name));
        for (AttributeDefinition d : defs) {
            g.writeStartObject();
            g.writeStringField("AttributeName", d.name());
            g.writeStringField("AttributeType", d.type().name());
            g.writeEndObject();
        }
        g.writeEndArray();

        g.writeStringField("TableName", t.name());
        writeKeySchema(g, t);

        // A table a restore or an import is still filling is CREATING until every item is in; one
        // --table-creation-delay holds is CREATING or UPDATING until it passes.
        g.writeStringField("TableStatus", t.filling() ? "CREATING" : t.transition() != null ? t.transition().status().name()
                : globalStatus(t, arns.region(), view.tableStatus()));
        writeTime(g, "CreationDateTime", t.creationDateTime());

        writeProvisionedThroughput(g, t.throughput());

        g.writeNumberField("TableSizeBytes", catalog.counters().sizeBytes(t.id()));
        g.writeNumberField("ItemCount", catalog.counters().itemCount(t.id()));
        g.writeStringField("TableArn", arns.tableArn(t.name()));
        g.writeStringField("TableId", t.tableId());

        if (t.billingMode() == BillingMode.PAY_PER_REQUEST || t.lastUpdateToPayPerRequestDateTime() != null) {
            g.writeObjectFieldStart("BillingModeSummary");
            g.writeStringField("BillingMode", t.billingMode().name());
            if (view.payPerRequestDate() && t.lastUpdateToPayPerRequestDateTime() != null) {
                writeTime(g, "LastUpdateToPayPerRequestDateTime", t.lastUpdateToPayPerRequestDateTime());
            }
            g.writeEndObject();
        }

        writeIndexes(g, t, catalog, view);

        if (t.stream() != null && t.stream().enabled()) {
            g.writeObjectFieldStart("StreamSpecification");
            g.writeBooleanField("StreamEnabled", true);
            g.writeStringField("StreamViewType", t.stream().viewType().name());
            g.writeEndObject();
        }
        if (t.latestStreamLabel() != null) {
            g.writeStringField("LatestStreamLabel", t.latestStreamLabel());
            g.writeStringField("LatestStreamArn", arns.streamArn(t.name(), t.latestStreamLabel()));
        }

        if (view.sseUpdating()) {
            g.writeObjectFieldStart("SSEDescription");
            g.writeStringField("Status", "UPDATING");
            g.writeEndObject();
        } else if (t.sse() != null) {
            g.writeObjectFieldStart("SSEDescription");
            g.writeStringField("Status", "ENABLED");
            g.writeStringField("SSEType", t.sse().type().name());
            g.writeStringField("KMSMasterKeyArn", t.sse().kmsMasterKeyArn());
            g.writeEndObject();
        }

        if (t.tableClass() != TableDefinition.TableClass.STANDARD || t.tableClassLastUpdateDateTime() != null) {
            g.writeObjectFieldStart("TableClassSummary");
            g.writeStringField("TableClass", t.tableClass().name());
            if (t.tableClassLastUpdateDateTime() != null) {
                writeTime(g, "LastUpdateDateTime", t.tableClassLastUpdateDateTime());
            }
            g.writeEndObject();
        }

        g.writeBooleanField("DeletionProtectionEnabled", t.deletionProtectionEnabled());

        if (t.restore() != null) {
            g.writeObjectFieldStart("RestoreSummary");
            if (t.restore().sourceBackupArn() != null) g.writeStringField("SourceBackupArn", t.restore().sourceBackupArn());
            g.writeStringField("SourceTableArn", t.restore().sourceTableArn());
            writeTime(g, "RestoreDateTime", t.restore().restoreDateTime());
            g.writeBooleanField("RestoreInProgress", t.restore().inProgress());
            g.writeEndObject();
        }

        OnDemandThroughput onDemand = t.onDemandThroughput();
        boolean showRead = onDemand != null && (view.unsetOnDemandMembers() || onDemand.maxReadRequestUnits() != -1);
        boolean showWrite = onDemand != null && (view.unsetOnDemandMembers() || onDemand.maxWriteRequestUnits() != -1);
        if (showRead || showWrite) {
            g.writeObjectFieldStart("OnDemandThroughput");
            if (showRead) g.writeNumberField("MaxReadRequestUnits", onDemand.maxReadRequestUnits());
            if (showWrite) g.writeNumberField("MaxWriteRequestUnits", onDemand.maxWriteRequestUnits());
            g.writeEndObject();
        }

        if (!view.creating() || t.warmThroughput() != null) {
            WarmThroughput warm = t.effectiveWarmThroughput();
            g.writeObjectFieldStart("WarmThroughput");
            g.writeNumberField("ReadUnitsPerSecond", warm.readUnitsPerSecond());
            g.writeNumberField("WriteUnitsPerSecond", warm.writeUnitsPerSecond());
            g.writeStringField("Status", view.warmThroughputStatus());
            g.writeEndObject();
        }

        writeVectorIndexes(g, t, catalog, view);
        writeGlobalTable(g, t.globalTable(), arns.region());
        g.writeEndObject();
    }

    /**
     * A replica's TableStatus: CREATING while it is being created and filled here, UPDATING while
     * the global table gains or loses a replica, else as the view says.
     */
    private static String globalStatus(TableDefinition t, String region, String status) {
        GlobalTable global = t.globalTable();
        if (global == null) return status;
        GlobalTable.Replica here = global.replica(region);
        if (here != null && here.status() == GlobalTable.ReplicaStatus.CREATING) return "CREATING";
        return global.changing() ? "UPDATING" : status;
    }

    /**
     * What a replica sets for itself, as it was given ("If not described, uses the source table's
     * provisioned throughput settings": ReplicaDescription in the API reference).
     */
    private static void writeOverrides(JsonGenerator g, GlobalTable.Overrides o) throws IOException {
        if (o.kmsMasterKeyId() != null) g.writeStringField("KMSMasterKeyId", o.kmsMasterKeyId());
        if (o.readCapacityUnits() != null) {
            g.writeObjectFieldStart("ProvisionedThroughputOverride");
            g.writeNumberField("ReadCapacityUnits", o.readCapacityUnits());
            g.writeEndObject();
        }
        if (o.maxReadRequestUnits() != null) {
            g.writeObjectFieldStart("OnDemandThroughputOverride");
            g.writeNumberField("MaxReadRequestUnits", o.maxReadRequestUnits());
            g.writeEndObject();
        }
        if (!o.indexes().isEmpty()) {
            g.writeArrayFieldStart("GlobalSecondaryIndexes");
            for (GlobalTable.IndexOverride i : o.indexes()) {
                g.writeStartObject();
                g.writeStringField("IndexName", i.indexName());
                if (i.readCapacityUnits() != null) {
                    g.writeObjectFieldStart("ProvisionedThroughputOverride");
                    g.writeNumberField("ReadCapacityUnits", i.readCapacityUnits());
                    g.writeEndObject();
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (o.tableClass() != null) {
            g.writeObjectFieldStart("ReplicaTableClassSummary");
            g.writeStringField("TableClass", o.tableClass());
            g.writeEndObject();
        }
    }

    /**
     * A global table's members: Replicas lists the other regions only (as DynamoDB's does, observed
     * in 2026: "never lists itself"), with GlobalTableVersion and the settings' replication mode
     * of a same-account global table; a regional table has none of them.
     */
    private static void writeGlobalTable(JsonGenerator g, GlobalTable global, String region) throws IOException {
        if (global == null) return;
        g.writeArrayFieldStart("Replicas");
        for (GlobalTable.Replica r : global.replicas()) {
            if (r.region().equals(region)) continue;
            g.writeStartObject();
            g.writeStringField("RegionName", r.region());
            g.writeStringField("ReplicaStatus", r.status().name());
            if (r.statusDescription() != null) g.writeStringField("ReplicaStatusDescription", r.statusDescription());
            if (r.status() == GlobalTable.ReplicaStatus.CREATING) {
                g.writeStringField("ReplicaStatusPercentProgress", Integer.toString(r.percentProgress()));
            }
            if (r.inaccessibleSince() != null) writeTime(g, "ReplicaInaccessibleDateTime", r.inaccessibleSince());
            if (r.overrides() != null) writeOverrides(g, r.overrides());
            g.writeStringField("GlobalTableSettingsReplicationMode", "ENABLED_WITH_OVERRIDES");
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringField("GlobalTableVersion", GlobalTable.VERSION);
        g.writeStringField("GlobalTableSettingsReplicationMode", "ENABLED_WITH_OVERRIDES");
        if (global.consistency() == GlobalTable.Consistency.STRONG) {
            g.writeStringField("MultiRegionConsistency", "STRONG");
            if (global.witness() != null) {
                g.writeArrayFieldStart("GlobalTableWitnesses");
                g.writeStartObject();
                g.writeStringField("RegionName", global.witness().region());
                g.writeStringField("WitnessStatus", global.witness().status().name());
                g.writeEndObject();
                g.writeEndArray();
            }
        }
    }

    /**
     * VectorIndexes, in the order created (the last member in the SDK's order). Backfilling is
     * shown while an index added by UpdateTable is built, and absent otherwise: DynamoDB removes
     * it rather than setting it false (docs/dynamodb/vector-search.md §6.1). SearchSchema is absent
     * when the index has none.
     */
    private static void writeVectorIndexes(JsonGenerator g, TableDefinition t, Catalog catalog, View view)
            throws IOException {
        if (t.vectorIndexes().isEmpty()) return;
        g.writeArrayFieldStart("VectorIndexes");
        for (IndexDefinition index : t.vectorIndexes()) {
            IndexDefinition.Vector vector = index.vector();
            g.writeStartObject();
            g.writeStringField("IndexName", index.name());
            if (!index.partitionKey().isEmpty() || !vector.inlineFilters().isEmpty()) {
                g.writeArrayFieldStart("SearchSchema");
                for (IndexDefinition.KeyAttribute k : index.partitionKey()) writeSearchSchemaElement(g, k.name(), "HASH");
                for (IndexDefinition.KeyAttribute k : vector.inlineFilters()) {
                    writeSearchSchemaElement(g, k.name(), "INLINE_FILTER");
                }
                g.writeEndArray();
            }
            writeProjection(g, index);
            g.writeObjectFieldStart("VectorAttribute");
            g.writeStringField("AttributeName", vector.attribute());
            g.writeEndObject();
            g.writeNumberField("Dimensions", vector.dimensions());
            g.writeStringField("DistanceFunction", vector.distanceFunction().name());
            g.writeStringField("IndexStatus", view.creating() ? "CREATING" : index.status().name());
            if (index.status() == IndexDefinition.IndexStatus.CREATING && index.backfilling()) {
                g.writeBooleanField("Backfilling", true);
            }
            boolean fresh = view.creating() || index.status() == IndexDefinition.IndexStatus.CREATING;
            g.writeNumberField("IndexSizeBytes", fresh ? 0 : catalog.counters().indexSizeBytes(t.id(), index.id()));
            g.writeNumberField("ItemCount", fresh ? 0 : catalog.counters().indexItemCount(t.id(), index.id()));
            g.writeStringField("IndexArn", catalog.arns().tableArn(t.name()) + "/index/" + index.name());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void writeSearchSchemaElement(JsonGenerator g, String name, String type) throws IOException {
        g.writeStartObject();
        g.writeStringField("AttributeName", name);
        g.writeStringField("SearchSchemaElementType", type);
        g.writeEndObject();
    }

    /**
     * DeleteTable's TableDescription: DynamoDB describes the table being deleted briefly, without
     * AttributeDefinitions, KeySchema, CreationDateTime, indexes, stream or warm throughput. Real
     * responses recorded: `aws dynamodb delete-table` in eu-central-1, 2025 (TableName,
     * TableStatus, ProvisionedThroughput, TableSizeBytes, ItemCount, TableArn, TableId,
     * DeletionProtectionEnabled, in that order), and in ap-south-1 (TableClassSummary too); the
     * AWS CLI's own example (the first five). BillingModeSummary of an on-demand table is shown
     * as TableClassSummary is (no recorded response of an on-demand table).
     */
    public static void writeDeleted(JsonGenerator g, TableDefinition t, Catalog catalog) throws IOException {
        g.writeStartObject();
        g.writeStringField("TableName", t.name());
        g.writeStringField("TableStatus", "DELETING");
        writeProvisionedThroughput(g, t.throughput());
        g.writeNumberField("TableSizeBytes", catalog.counters().sizeBytes(t.id()));
        g.writeNumberField("ItemCount", catalog.counters().itemCount(t.id()));
        g.writeStringField("TableArn", catalog.arns().tableArn(t.name()));
        g.writeStringField("TableId", t.tableId());
        if (t.billingMode() == BillingMode.PAY_PER_REQUEST) {
            g.writeObjectFieldStart("BillingModeSummary");
            g.writeStringField("BillingMode", t.billingMode().name());
            if (t.lastUpdateToPayPerRequestDateTime() != null) {
                writeTime(g, "LastUpdateToPayPerRequestDateTime", t.lastUpdateToPayPerRequestDateTime());
            }
            g.writeEndObject();
        }
        if (t.tableClass() != TableDefinition.TableClass.STANDARD || t.tableClassLastUpdateDateTime() != null) {
            g.writeObjectFieldStart("TableClassSummary");
            g.writeStringField("TableClass", t.tableClass().name());
            g.writeEndObject();
        }
        g.writeBooleanField("DeletionProtectionEnabled", t.deletionProtectionEnabled());
        g.writeEndObject();
    }

    /**
     * LocalSecondaryIndexes and GlobalSecondaryIndexes, in the order they were given. A global
     * index shows its status (CREATING in the CreateTable response), Backfilling while being
     * built by UpdateTable, its throughput and, outside the CreateTable response, its warm
     * throughput; a local index has none of these.
     */
    private static void writeIndexes(JsonGenerator g, TableDefinition t, Catalog catalog, View view)
            throws IOException {
        if (!t.localIndexes().isEmpty()) {
            g.writeArrayFieldStart("LocalSecondaryIndexes");
            for (IndexDefinition index : t.localIndexes()) {
                g.writeStartObject();
                writeIndexCommon(g, t, index, catalog, view);
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (!t.globalIndexes().isEmpty()) {
            g.writeArrayFieldStart("GlobalSecondaryIndexes");
            for (IndexDefinition index : t.globalIndexes()) {
                g.writeStartObject();
                writeIndexCommon(g, t, index, catalog, view);
                g.writeStringField("IndexStatus", view.creating() ? "CREATING" : index.status().name());
                if (index.status() == IndexDefinition.IndexStatus.CREATING && index.backfilling()) {
                    g.writeBooleanField("Backfilling", true);
                }
                writeProvisionedThroughput(g, index.throughput());
                if (index.onDemandThroughput() != null) {
                    g.writeObjectFieldStart("OnDemandThroughput");
                    g.writeNumberField("MaxReadRequestUnits", index.onDemandThroughput().maxReadRequestUnits());
                    g.writeNumberField("MaxWriteRequestUnits", index.onDemandThroughput().maxWriteRequestUnits());
                    g.writeEndObject();
                }
                if (!view.creating()) {
                    WarmThroughput warm = index.warmThroughput() != null ? index.warmThroughput()
                            : t.billingMode() == BillingMode.PAY_PER_REQUEST ? WarmThroughput.ON_DEMAND_BASELINE
                            : new WarmThroughput(index.throughput().readCapacityUnits(), index.throughput().writeCapacityUnits());
                    g.writeObjectFieldStart("WarmThroughput");
                    g.writeNumberField("ReadUnitsPerSecond", warm.readUnitsPerSecond());
                    g.writeNumberField("WriteUnitsPerSecond", warm.writeUnitsPerSecond());
                    g.writeStringField("Status", "ACTIVE");
                    g.writeEndObject();
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        }
    }

    private static void writeIndexCommon(JsonGenerator g, TableDefinition t, IndexDefinition index, Catalog catalog,
                                         View view) throws IOException {
        writeIndexKeys(g, index);
        // A new index shows no items until built, as DynamoDB's show none until their next
        // refresh (docs/dynamodb/indexes.md §3.2, §7.1).
        boolean fresh = view.creating() || index.status() == IndexDefinition.IndexStatus.CREATING;
        g.writeNumberField("IndexSizeBytes", fresh ? 0 : catalog.counters().indexSizeBytes(t.id(), index.id()));
        g.writeNumberField("ItemCount", fresh ? 0 : catalog.counters().indexItemCount(t.id(), index.id()));
        g.writeStringField("IndexArn", catalog.arns().tableArn(t.name()) + "/index/" + index.name());
    }

    /** An index's IndexName, KeySchema and Projection. */
    public static void writeIndexKeys(JsonGenerator g, IndexDefinition index) throws IOException {
        g.writeStringField("IndexName", index.name());
        g.writeArrayFieldStart("KeySchema");
        for (IndexDefinition.KeyAttribute k : index.partitionKey()) writeKeyElement(g, k.name(), "HASH");
        for (IndexDefinition.KeyAttribute k : index.sortKey()) writeKeyElement(g, k.name(), "RANGE");
        g.writeEndArray();
        writeProjection(g, index);
    }

    private static void writeProjection(JsonGenerator g, IndexDefinition index) throws IOException {
        g.writeObjectFieldStart("Projection");
        g.writeStringField("ProjectionType", index.projectionType().name());
        if (!index.nonKeyAttributes().isEmpty()) {
            g.writeArrayFieldStart("NonKeyAttributes");
            for (String a : index.nonKeyAttributes()) g.writeString(a);
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /** A table's KeySchema. */
    public static void writeKeySchema(JsonGenerator g, TableDefinition t) throws IOException {
        g.writeArrayFieldStart("KeySchema");
        writeKeyElement(g, t.keySchema().partitionKey(), "HASH");
        if (t.keySchema().hasSortKey()) writeKeyElement(g, t.keySchema().sortKey(), "RANGE");
        g.writeEndArray();
    }

    private static void writeKeyElement(JsonGenerator g, String name, String keyType) throws IOException {
        g.writeStartObject();
        g.writeStringField("AttributeName", name);
        g.writeStringField("KeyType", keyType);
        g.writeEndObject();
    }

    /** A table's or a global index's ProvisionedThroughput, with DynamoDB's bookkeeping of its changes. */
    private static void writeProvisionedThroughput(JsonGenerator g, TableDefinition.ProvisionedThroughput p)
            throws IOException {
        g.writeObjectFieldStart("ProvisionedThroughput");
        if (p.lastIncreaseDateTime() != null) writeTime(g, "LastIncreaseDateTime", p.lastIncreaseDateTime());
        if (p.lastDecreaseDateTime() != null) writeTime(g, "LastDecreaseDateTime", p.lastDecreaseDateTime());
        g.writeNumberField("NumberOfDecreasesToday", p.numberOfDecreasesToday());
        g.writeNumberField("ReadCapacityUnits", p.readCapacityUnits());
        g.writeNumberField("WriteCapacityUnits", p.writeCapacityUnits());
        g.writeEndObject();
    }

    /** DynamoDB sends times as epoch seconds with a fraction, e.g. 1700000000.123. */
    public static void writeTime(JsonGenerator g, String field, Instant instant) throws IOException {
        g.writeFieldName(field);
        g.writeNumber(BigDecimal.valueOf(instant.toEpochMilli(), 3));
    }
}
