package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.table.TableArns;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes a TableDescription as DynamoDB does (CreateTable, DescribeTable, UpdateTable,
 * DeleteTable), including which members it leaves out:
 * <ul>
 *   <li>AttributeDefinitions come back sorted by name;</li>
 *   <li>BillingModeSummary only once the table has been on-demand (DynamoDB shows none for a
 *       table that was always provisioned), with LastUpdateToPayPerRequestDateTime except in the
 *       CreateTable response;</li>
 *   <li>StreamSpecification only while a stream is enabled; the latest stream label and ARN stay
 *       after it is disabled;</li>
 *   <li>SSEDescription only for KMS encryption; TableClassSummary only when the class is not the
 *       default or was changed; OnDemandThroughput only when set;</li>
 *   <li>WarmThroughput always outside the CreateTable response: the configured values, else
 *       DynamoDB's baseline (12,000 reads and 4,000 writes per second on demand, the provisioned
 *       throughput otherwise); DeletionProtectionEnabled always.</li>
 * </ul>
 */
final class TableDescriptionJson {

    /** The baseline warm throughput of an on-demand table. */
    static final long ON_DEMAND_WARM_READS = 12_000;
    static final long ON_DEMAND_WARM_WRITES = 4_000;

    enum Context { CREATE, DESCRIBE, UPDATE, DELETE }

    private TableDescriptionJson() {}

    static void write(JsonGenerator g, TableDefinition t, TableArns arns, Context context) throws IOException {
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
        g.writeArrayFieldStart("KeySchema");
        writeKeyElement(g, t.keySchema().partitionKey(), "HASH");
        if (t.keySchema().hasSortKey()) writeKeyElement(g, t.keySchema().sortKey(), "RANGE");
        g.writeEndArray();

        g.writeStringField("TableStatus", switch (context) {
            case CREATE -> "CREATING";
            case DESCRIBE -> "ACTIVE";
            case UPDATE -> "UPDATING";
            case DELETE -> "DELETING";
        });
        writeTime(g, "CreationDateTime", t.creationDateTime());

        TableDefinition.ProvisionedThroughput p = t.throughput();
        g.writeObjectFieldStart("ProvisionedThroughput");
        if (p.lastIncreaseDateTime() != null) writeTime(g, "LastIncreaseDateTime", p.lastIncreaseDateTime());
        if (p.lastDecreaseDateTime() != null) writeTime(g, "LastDecreaseDateTime", p.lastDecreaseDateTime());
        g.writeNumberField("NumberOfDecreasesToday", p.numberOfDecreasesToday());
        g.writeNumberField("ReadCapacityUnits", p.readCapacityUnits());
        g.writeNumberField("WriteCapacityUnits", p.writeCapacityUnits());
        g.writeEndObject();

        g.writeNumberField("TableSizeBytes", 0);
        g.writeNumberField("ItemCount", 0);
        g.writeStringField("TableArn", arns.tableArn(t.name()));
        g.writeStringField("TableId", t.tableId());

        if (t.billingMode() == BillingMode.PAY_PER_REQUEST || t.lastUpdateToPayPerRequestDateTime() != null) {
            g.writeObjectFieldStart("BillingModeSummary");
            g.writeStringField("BillingMode", t.billingMode().name());
            if (context != Context.CREATE && t.lastUpdateToPayPerRequestDateTime() != null) {
                writeTime(g, "LastUpdateToPayPerRequestDateTime", t.lastUpdateToPayPerRequestDateTime());
            }
            g.writeEndObject();
        }

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

        if (t.sse() != null) {
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

        if (t.onDemandThroughput() != null) {
            g.writeObjectFieldStart("OnDemandThroughput");
            g.writeNumberField("MaxReadRequestUnits", t.onDemandThroughput().maxReadRequestUnits());
            g.writeNumberField("MaxWriteRequestUnits", t.onDemandThroughput().maxWriteRequestUnits());
            g.writeEndObject();
        }

        if (context != Context.CREATE || t.warmThroughput() != null) {
            long reads;
            long writes;
            if (t.warmThroughput() != null) {
                reads = t.warmThroughput().readUnitsPerSecond();
                writes = t.warmThroughput().writeUnitsPerSecond();
            } else if (t.billingMode() == BillingMode.PAY_PER_REQUEST) {
                reads = ON_DEMAND_WARM_READS;
                writes = ON_DEMAND_WARM_WRITES;
            } else {
                reads = p.readCapacityUnits();
                writes = p.writeCapacityUnits();
            }
            g.writeObjectFieldStart("WarmThroughput");
            g.writeNumberField("ReadUnitsPerSecond", reads);
            g.writeNumberField("WriteUnitsPerSecond", writes);
            g.writeStringField("Status", context == Context.CREATE ? "UPDATING" : "ACTIVE");
            g.writeEndObject();
        }

        g.writeEndObject();
    }

    private static void writeKeyElement(JsonGenerator g, String name, String keyType) throws IOException {
        g.writeStartObject();
        g.writeStringField("AttributeName", name);
        g.writeStringField("KeyType", keyType);
        g.writeEndObject();
    }

    /** DynamoDB sends times as epoch seconds with a fraction, e.g. 1700000000.123. */
    static void writeTime(JsonGenerator g, String field, Instant instant) throws IOException {
        g.writeFieldName(field);
        g.writeNumber(java.math.BigDecimal.valueOf(instant.toEpochMilli(), 3));
    }
}
