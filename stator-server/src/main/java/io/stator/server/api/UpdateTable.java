package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.OnDemandThroughput;
import io.stator.engine.table.TableDefinition.ProvisionedThroughput;
import io.stator.engine.table.TableDefinition.StreamSpecification;
import io.stator.engine.table.TableDefinition.WarmThroughput;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * UpdateTable: billing mode, provisioned throughput, streams, encryption, table class, deletion
 * protection, on-demand and warm throughput. Changes apply at once; the response says UPDATING,
 * as DynamoDB's does. DynamoDB wants some changes alone in their request (deletion protection,
 * encryption, table class, warm throughput), and refuses no-op throughput changes.
 */
final class UpdateTable implements Action {

    private static final String NOTHING_TO_UPDATE = "At least one of ProvisionedThroughput, BillingMode, "
            + "UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, "
            + "MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, "
            + "OnDemandThroughput, WarmThroughput or TableClass is required";

    /** Members that change something. */
    private static final List<String> UPDATES = List.of("ProvisionedThroughput", "BillingMode", "StreamSpecification",
            "GlobalSecondaryIndexUpdates", "SSESpecification", "ReplicaUpdates", "MultiRegionConsistency",
            "GlobalTableWitnessUpdates", "DeletionProtectionEnabled", "OnDemandThroughput", "WarmThroughput",
            "TableClass", "GlobalTableSettingsReplicationMode");

    private final Engine engine;

    UpdateTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        int updates = 0;
        for (String member : UPDATES) {
            if (request.has(member)) updates++;
        }
        if (updates == 0) throw DynamoDbException.validation(NOTHING_TO_UPDATE);
        NotYetSupported.refuse(request, "GlobalSecondaryIndexUpdates", "ReplicaUpdates", "MultiRegionConsistency",
                "GlobalTableWitnessUpdates", "GlobalTableSettingsReplicationMode");
        if (updates > 1) {
            mustBeAlone(request, "DeletionProtectionEnabled", "DeletionProtection modification must be the only operation in the request");
            mustBeAlone(request, "SSESpecification", "Server-Side Encryption modification must be the only operation in the request");
            mustBeAlone(request, "TableClass", "TableClass modification must be the only operation in the request");
            mustBeAlone(request, "WarmThroughput", "WarmThroughput must be the only operation in the request");
            if (request.has("StreamSpecification") && request.has("ProvisionedThroughput")) {
                throw DynamoDbException.invalidParameter("You cannot modify stream status while updating table IOPS");
            }
        }
        Struct throughput = request.struct("ProvisionedThroughput");
        if ("PROVISIONED".equals(request.string("BillingMode")) && throughput == null) {
            throw DynamoDbException.invalidParameter("ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
        }
        if (throughput != null) TableSettings.checkThroughputBounds(throughput);

        String name = engine.catalog().require(request.string("TableName"), NotFoundMessage.WITH_TABLE_NAME).name();
        TableDefinition updated = engine.catalog().update(name, table -> apply(request, table));
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.write(response.json(), updated, engine.catalog().arns(), TableDescriptionJson.Context.UPDATE);
    }

    /** The table's new definition; runs under the catalog lock (see Catalog.update). */
    private TableDefinition apply(Struct request, TableDefinition table) {
        Struct throughput = request.struct("ProvisionedThroughput");
        BillingMode mode = request.has("BillingMode") ? BillingMode.valueOf(request.string("BillingMode")) : table.billingMode();
        if (throughput != null && mode == BillingMode.PAY_PER_REQUEST) {
            throw DynamoDbException.invalidParameter(
                    "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
        }
        Instant now = engine.config().clock().instant();
        TableDefinition.Builder changed = table.toBuilder();

        if (mode != table.billingMode()) {
            changed.billingMode = mode;
            if (mode == BillingMode.PAY_PER_REQUEST) {
                changed.lastUpdateToPayPerRequestDateTime = now;
                changed.throughput = new ProvisionedThroughput(0, 0, table.throughput().lastIncreaseDateTime(),
                        table.throughput().lastDecreaseDateTime(), table.throughput().numberOfDecreasesToday());
            }
        }
        if (throughput != null) {
            long read = throughput.longValue("ReadCapacityUnits");
            long write = throughput.longValue("WriteCapacityUnits");
            ProvisionedThroughput current = table.throughput();
            if (mode == table.billingMode() && read == current.readCapacityUnits()
                    && write == current.writeCapacityUnits()) {
                throw DynamoDbException.validation("The provisioned throughput for the table will not change. The "
                        + "requested value equals the current value. Current ReadCapacityUnits provisioned for the table: "
                        + current.readCapacityUnits() + ". Requested ReadCapacityUnits: " + read + ". Current "
                        + "WriteCapacityUnits provisioned for the table: " + current.writeCapacityUnits()
                        + ". Requested WriteCapacityUnits: " + write + ". Refer to the Amazon DynamoDB Developer Guide "
                        + "for current limits and how to request higher limits.");
            }
            TableSettings.checkThroughputQuota(throughput, engine.config().region());
            changed.throughput = changedThroughput(current, read, write, now);
        }

        Struct stream = request.struct("StreamSpecification");
        if (stream != null) changeStream(table, changed, stream, now);

        Struct sse = request.struct("SSESpecification");
        if (sse != null) {
            TableDefinition.SseSpecification next = TableSettings.sse(sse, engine.config());
            if (next == null && table.sse() == null) {
                throw DynamoDbException.invalidParameter("Table is already encrypted by default");
            }
            changed.sse = next;
        }
        if (request.has("TableClass")) {
            changed.tableClass = TableSettings.tableClass(request.string("TableClass"));
            changed.tableClassLastUpdateDateTime = now;
        }
        if (request.has("DeletionProtectionEnabled")) {
            changed.deletionProtectionEnabled = request.bool("DeletionProtectionEnabled");
        }
        Struct onDemand = request.struct("OnDemandThroughput");
        if (onDemand != null) {
            if (mode == BillingMode.PROVISIONED) {
                throw DynamoDbException.invalidParameter("MaxReadRequestUnits for OnDemandThroughput cannot be "
                        + "specified when the table BillingMode is PROVISIONED");
            }
            OnDemandThroughput old = table.onDemandThroughput();
            changed.onDemandThroughput = new OnDemandThroughput(
                    valueOr(onDemand.longValue("MaxReadRequestUnits"), old == null ? -1 : old.maxReadRequestUnits()),
                    valueOr(onDemand.longValue("MaxWriteRequestUnits"), old == null ? -1 : old.maxWriteRequestUnits()));
        }
        Struct warm = request.struct("WarmThroughput");
        if (warm != null) {
            WarmThroughput old = table.warmThroughput();
            changed.warmThroughput = new WarmThroughput(
                    valueOr(warm.longValue("ReadUnitsPerSecond"), old == null ? 0 : old.readUnitsPerSecond()),
                    valueOr(warm.longValue("WriteUnitsPerSecond"), old == null ? 0 : old.writeUnitsPerSecond()));
        }

        return changed.build();
    }

    private static void mustBeAlone(Struct request, String member, String message) {
        if (request.has(member)) throw DynamoDbException.invalidParameter(message);
    }

    private static ProvisionedThroughput changedThroughput(ProvisionedThroughput current, long read, long write,
                                                           Instant now) {
        Instant lastIncrease = current.lastIncreaseDateTime();
        Instant lastDecrease = current.lastDecreaseDateTime();
        int decreasesToday = current.numberOfDecreasesToday();
        if (read > current.readCapacityUnits() || write > current.writeCapacityUnits()) lastIncrease = now;
        if (read < current.readCapacityUnits() || write < current.writeCapacityUnits()) {
            boolean sameDay = lastDecrease != null && lastDecrease.atZone(ZoneOffset.UTC).toLocalDate()
                    .equals(now.atZone(ZoneOffset.UTC).toLocalDate());
            decreasesToday = sameDay ? decreasesToday + 1 : 1;
            lastDecrease = now;
        }
        return new ProvisionedThroughput(read, write, lastIncrease, lastDecrease, decreasesToday);
    }

    private void changeStream(TableDefinition table, TableDefinition.Builder changed, Struct stream, Instant now) {
        boolean enable = stream.bool("StreamEnabled");
        String viewType = stream.string("StreamViewType");
        boolean hasStream = table.stream() != null && table.stream().enabled();
        if (enable) {
            if (hasStream) {
                throw DynamoDbException.validation("Table already has an enabled stream: TableName: " + table.name());
            }
            if (viewType == null) {
                throw DynamoDbException.invalidParameter("If stream is being enabled then UpdateViewType is required");
            }
            changed.stream = new StreamSpecification(true, TableSettings.streamViewType(viewType));
            changed.latestStreamLabel = TableSettings.streamLabel(now);
        } else {
            if (viewType != null) {
                throw DynamoDbException.invalidParameter(
                        "If stream is being disabled, then UpdateViewType must not be specified");
            }
            if (!hasStream) {
                throw DynamoDbException.validation("Table has no stream to disable: TableName: " + table.name());
            }
            changed.stream = null;
        }
    }

    private static long valueOr(Long value, long fallback) {
        return value == null ? fallback : value;
    }
}
