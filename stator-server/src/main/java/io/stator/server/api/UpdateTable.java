package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.ProvisionedThroughput;
import io.stator.engine.table.TableDefinition.SseSpecification;
import io.stator.engine.table.TableDefinition.StreamSpecification;
import io.stator.engine.table.TableDefinition.TableClass;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * UpdateTable: billing mode, provisioned throughput, streams, encryption, table class, deletion
 * protection, on-demand and warm throughput.
 *
 * <p>DynamoDB takes one kind of change per request (deletion protection, encryption, table class,
 * on-demand and warm throughput each alone; a billing switch may bring throughput or a stream
 * change), refuses no-op throughput changes and more than four throughput decreases a UTC day
 * but one an hour after them, and never lowers a table's warm throughput.
 *
 * <p>Stator applies a change at once: DescribeTable shows it from the next call. The response,
 * though, is DynamoDB's, which is written while its change is still under way: TableStatus
 * UPDATING (ACTIVE for the changes DynamoDB makes without it: deletion protection, on-demand and
 * warm throughput, encryption), and the provisioned units, table class and warm throughput from
 * before the change.
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

    /** Changes after which DynamoDB's response still says ACTIVE. */
    private static final Set<String> CHANGES_WHILE_ACTIVE = Set.of("DeletionProtectionEnabled", "OnDemandThroughput",
            "WarmThroughput", "SSESpecification");

    private static final int DECREASES_BEFORE_HOURLY_LIMIT = 4;
    private static final Duration DECREASE_INTERVAL = Duration.ofHours(1);
    private static final DateTimeFormatter DECREASE_TIME = DateTimeFormatter.ofPattern(
            "EEEE, MMMM d, yyyy 'at' h:mm:ss a 'Coordinated Universal Time'", Locale.US).withZone(ZoneOffset.UTC);
    private static final String NO_WARM_DECREASE = "current WarmThroughput, decreasing WarmThroughput is not supported";

    private final Engine engine;

    UpdateTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        Set<String> updates = new LinkedHashSet<>();
        for (String member : UPDATES) {
            if (request.has(member)) updates.add(member);
        }
        // DynamoDB drops these when empty (alone, it fails them with an internal error).
        for (String member : List.of("OnDemandThroughput", "WarmThroughput")) {
            if (!request.hasContent(member)) updates.remove(member);
        }
        if (request.has("GlobalSecondaryIndexUpdates") && request.structList("GlobalSecondaryIndexUpdates").isEmpty()) {
            updates.remove("GlobalSecondaryIndexUpdates");
        }
        if (updates.isEmpty()) throw DynamoDbException.validation(NOTHING_TO_UPDATE);
        NotYetSupported.refuse(request, "ReplicaUpdates", "MultiRegionConsistency",
                "GlobalTableWitnessUpdates", "GlobalTableSettingsReplicationMode");
        checkOneKindOfChange(request, updates);
        if (updates.contains("GlobalSecondaryIndexUpdates")) GlobalIndexUpdates.checkRequest(request, updates);
        Struct throughput = request.struct("ProvisionedThroughput");
        if ("PROVISIONED".equals(request.string("BillingMode")) && throughput == null) {
            throw DynamoDbException.invalidParameter("ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
        }
        if (throughput != null) TableSettings.checkThroughputBounds(throughput);

        String name = engine.catalog().require(request.string("TableName"), NotFoundMessage.WITH_TABLE_NAME).name();
        Instant now = engine.config().clock().instant();
        AtomicReference<TableDefinition> before = new AtomicReference<>();
        AtomicReference<GlobalIndexUpdates.Started> started = new AtomicReference<>();
        TableDefinition updated = engine.catalog().update(name, table -> {
            before.set(table);
            TableDefinition.Builder changed = apply(request, table, now).toBuilder();
            if (updates.contains("GlobalSecondaryIndexUpdates")) {
                started.set(GlobalIndexUpdates.apply(request, table, changed, changed.billingMode, now));
            }
            return changed.build();
        });
        if (started.get() != null) {
            started.get().created().forEach(index -> engine.indexBuilds().backfill(name, index));
            started.get().deleted().forEach(index -> engine.indexBuilds().drop(name, index));
        }

        boolean billingSwitched = updated.billingMode() != before.get().billingMode();
        TableDescriptionJson.View view = new TableDescriptionJson.View(
                CHANGES_WHILE_ACTIVE.containsAll(updates) ? "ACTIVE" : "UPDATING", !billingSwitched,
                updates.contains("WarmThroughput") ? "UPDATING" : "ACTIVE", updates.contains("SSESpecification"), true);
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.write(response.json(), asStillUpdating(before.get(), updated, updates),
                engine.catalog(), view);
    }

    /** DynamoDB's "must be the only operation in the request" rules, in the order it checks them. */
    private static void checkOneKindOfChange(Struct request, Set<String> updates) {
        if (updates.size() > 1) {
            mustBeAlone(updates, "SSESpecification", "Server-Side Encryption modification");
            mustBeAlone(updates, "DeletionProtectionEnabled", "DeletionProtection modification");
            mustBeAlone(updates, "TableClass", "TableClass modification");
            if (updates.contains("OnDemandThroughput") && !Set.of("OnDemandThroughput", "BillingMode").containsAll(updates)) {
                throw DynamoDbException.invalidParameter(
                        "OnDemandThroughput can only be combined with BillingMode in an UpdateTable request");
            }
            mustBeAlone(updates, "WarmThroughput", "WarmThroughput");
        }
        if (updates.contains("StreamSpecification")
                && (updates.contains("ProvisionedThroughput") || "PROVISIONED".equals(request.string("BillingMode")))) {
            throw DynamoDbException.invalidParameter("You cannot modify stream status while updating table IOPS");
        }
    }

    private static void mustBeAlone(Set<String> updates, String member, String what) {
        if (updates.contains(member)) {
            throw DynamoDbException.invalidParameter(what + " must be the only operation in the request");
        }
    }

    /** The table's new definition; runs under the catalog lock (see Catalog.update). */
    private TableDefinition apply(Struct request, TableDefinition table, Instant now) {
        Struct throughput = request.struct("ProvisionedThroughput");
        BillingMode mode = request.has("BillingMode") ? BillingMode.valueOf(request.string("BillingMode")) : table.billingMode();
        if (throughput != null && mode == BillingMode.PAY_PER_REQUEST) {
            throw DynamoDbException.invalidParameter(
                    "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
        }
        TableDefinition.Builder changed = table.toBuilder();

        if (mode != table.billingMode()) {
            changed.billingMode = mode;
            if (mode == BillingMode.PAY_PER_REQUEST) {
                changed.lastUpdateToPayPerRequestDateTime = now;
                ProvisionedThroughput p = table.throughput();
                changed.throughput = new ProvisionedThroughput(0, 0, p.lastIncreaseDateTime(), p.lastDecreaseDateTime(),
                        p.numberOfDecreasesToday());
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
        if (sse != null) changed.sse = changedSse(table, sse);

        if (request.has("TableClass")) {
            TableClass tableClass = TableSettings.tableClass(request.string("TableClass"));
            if (tableClass != table.tableClass()) {
                changed.tableClass = tableClass;
                changed.tableClassLastUpdateDateTime = now;
            }
        }
        if (request.has("DeletionProtectionEnabled")) {
            changed.deletionProtectionEnabled = request.bool("DeletionProtectionEnabled");
        }
        if (request.hasContent("OnDemandThroughput")) {
            Struct onDemand = request.struct("OnDemandThroughput");
            if (mode == BillingMode.PROVISIONED) throw TableSettings.onDemandWhenProvisioned(onDemand);
            TableDefinition.OnDemandThroughput merged = TableSettings.onDemandThroughput(onDemand,
                    table.onDemandThroughput() == null ? TableSettings.NO_ON_DEMAND_MAXIMUMS : table.onDemandThroughput(),
                    true);
            TableSettings.checkOnDemandQuota(merged, engine.config().region());
            changed.onDemandThroughput = merged.equals(TableSettings.NO_ON_DEMAND_MAXIMUMS) ? null : merged;
        }
        if (request.hasContent("WarmThroughput")) {
            changed.warmThroughput = TableSettings.warmThroughput(request.struct("WarmThroughput"),
                    table.effectiveWarmThroughput(), NO_WARM_DECREASE, NO_WARM_DECREASE);
        }
        // Warm throughput never falls, not even when the throughput it follows does.
        changed.warmThroughput = table.effectiveWarmThroughput().max(changed.build().effectiveWarmThroughput());
        return changed.build();
    }

    /**
     * The provisioned throughput after a change, with DynamoDB's bookkeeping: dates of the last
     * increase and decrease, and decreases counted per UTC day; after four, one more an hour
     * (LimitExceededException in between).
     */
    private static ProvisionedThroughput changedThroughput(ProvisionedThroughput current, long read, long write,
                                                           Instant now) {
        Instant lastIncrease = current.lastIncreaseDateTime();
        Instant lastDecrease = current.lastDecreaseDateTime();
        int decreasesToday = current.numberOfDecreasesToday();
        if (read > current.readCapacityUnits() || write > current.writeCapacityUnits()) lastIncrease = now;
        if (read < current.readCapacityUnits() || write < current.writeCapacityUnits()) {
            if (lastDecrease == null || !utcDay(lastDecrease).equals(utcDay(now))) decreasesToday = 0;
            if (decreasesToday >= DECREASES_BEFORE_HOURLY_LIMIT) {
                Instant next = lastDecrease.plus(DECREASE_INTERVAL);
                Instant nextDay = utcDay(now).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
                if (next.isAfter(nextDay)) next = nextDay;
                if (now.isBefore(next)) {
                    throw DynamoDbException.limitExceeded("Subscriber limit exceeded: Provisioned throughput decreases "
                            + "are limited within a given UTC day. After the first " + DECREASES_BEFORE_HOURLY_LIMIT
                            + " decreases, each subsequent decrease in the same UTC day can be performed at most once "
                            + "every " + DECREASE_INTERVAL.toSeconds() + " seconds. Number of decreases today: "
                            + decreasesToday + ". Last decrease at " + DECREASE_TIME.format(lastDecrease)
                            + ". Next decrease can be made at " + DECREASE_TIME.format(next));
                }
            }
            decreasesToday++;
            lastDecrease = now;
        }
        return new ProvisionedThroughput(read, write, lastIncrease, lastDecrease, decreasesToday);
    }

    private static LocalDate utcDay(Instant instant) {
        return instant.atZone(ZoneOffset.UTC).toLocalDate();
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

    /** The encryption after a change; re-sending the current encryption is refused. */
    private SseSpecification changedSse(TableDefinition table, Struct sse) {
        SseSpecification next = TableSettings.sse(sse, engine.config());
        if (next == null && table.sse() == null) {
            throw DynamoDbException.invalidParameter("Table is already encrypted by default");
        }
        // Only the key's ARN counts as the same key: an alias or key id of it re-encrypts.
        String keyId = sse.string("KMSMasterKeyId");
        if (table.sse() != null && keyId != null && keyId.equals(table.sse().kmsMasterKeyArn())) {
            throw DynamoDbException.invalidParameter("Table is already encrypted with given KMSMasterKeyId. Use "
                    + "KMSMasterKeyId parameter if you want to change Master Key");
        }
        return next;
    }

    /**
     * The table as DynamoDB's UpdateTable response shows it: changed, but with the provisioned
     * units (when the billing mode stays), table class and warm throughput from before the change,
     * and on-demand maximums that were just removed still shown (as -1).
     */
    private static TableDefinition asStillUpdating(TableDefinition before, TableDefinition after, Set<String> updates) {
        TableDefinition.Builder shown = after.toBuilder();
        if (after.billingMode() == before.billingMode()) {
            ProvisionedThroughput was = before.throughput();
            ProvisionedThroughput is = after.throughput();
            shown.throughput = new ProvisionedThroughput(was.readCapacityUnits(), was.writeCapacityUnits(),
                    is.lastIncreaseDateTime(), is.lastDecreaseDateTime(), was.numberOfDecreasesToday());
        }
        // A global index whose throughput changes shows the old one, UPDATING (docs/dynamodb/indexes.md §3.2).
        List<IndexDefinition> globals = new ArrayList<>();
        for (IndexDefinition index : after.globalIndexes()) {
            IndexDefinition was = before.index(index.name());
            boolean changed = was != null && was.id() == index.id() && !was.throughput().equals(index.throughput());
            globals.add(changed ? was.withStatus(IndexDefinition.IndexStatus.UPDATING, false) : index);
        }
        shown.globalIndexes = globals;
        shown.tableClass = before.tableClass();
        shown.tableClassLastUpdateDateTime = before.tableClassLastUpdateDateTime();
        shown.warmThroughput = before.effectiveWarmThroughput();
        if (updates.contains("OnDemandThroughput") && after.onDemandThroughput() == null) {
            shown.onDemandThroughput = TableSettings.NO_ON_DEMAND_MAXIMUMS;
        }
        return shown.build();
    }
}
