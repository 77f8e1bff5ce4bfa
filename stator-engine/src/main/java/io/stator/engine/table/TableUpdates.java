package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.ProvisionedThroughput;
import io.stator.engine.table.TableDefinition.SseSpecification;
import io.stator.engine.table.TableDefinition.StreamSpecification;
import io.stator.engine.table.TableDefinition.TableClass;
import io.stator.engine.table.TableSpecs.Sse;
import io.stator.engine.table.TableSpecs.Stream;
import io.stator.engine.table.TableSpecs.Throughput;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * UpdateTable's rules: billing mode, provisioned throughput, streams, encryption, table class,
 * deletion protection, on-demand and warm throughput, and (through {@link GlobalIndexUpdates})
 * the global indexes' lifecycle.
 *
 * <p>DynamoDB takes one kind of change per request (deletion protection, encryption, table class,
 * on-demand and warm throughput each alone; a billing switch may bring throughput or a stream
 * change), refuses no-op throughput changes and more than four throughput decreases a UTC day
 * but one an hour after them, and never lowers a table's warm throughput.
 *
 * <p>Stator applies a change at once: DescribeTable shows it from the next call. The response,
 * though, is DynamoDB's, which is written while its change is still under way ({@link Result}).
 */
public final class TableUpdates {

    private static final String NOTHING_TO_UPDATE = "At least one of ProvisionedThroughput, BillingMode, "
            + "UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, "
            + "MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, "
            + "OnDemandThroughput, WarmThroughput or TableClass is required";

    /** Changes after which DynamoDB's response still says ACTIVE. */
    private static final Set<TableChange> CHANGES_WHILE_ACTIVE = EnumSet.of(TableChange.DELETION_PROTECTION_ENABLED,
            TableChange.ON_DEMAND_THROUGHPUT, TableChange.WARM_THROUGHPUT, TableChange.SSE_SPECIFICATION);

    private static final int DECREASES_BEFORE_HOURLY_LIMIT = 4;
    private static final Duration DECREASE_INTERVAL = Duration.ofHours(1);
    private static final DateTimeFormatter DECREASE_TIME = DateTimeFormatter.ofPattern(
            "EEEE, MMMM d, yyyy 'at' h:mm:ss a 'Coordinated Universal Time'", Locale.US).withZone(ZoneOffset.UTC);
    private static final String NO_WARM_DECREASE = "current WarmThroughput, decreasing WarmThroughput is not supported";

    private TableUpdates() {}

    /**
     * What an UpdateTable did, and how DynamoDB's response shows it: TableStatus UPDATING (ACTIVE
     * for the changes DynamoDB makes without it), and {@link #shown} the table with the
     * provisioned units, table class and warm throughput from before the change.
     *
     * @param shown the table as the response describes it
     */
    public record Result(TableDefinition before, TableDefinition after, TableDefinition shown,
                         Set<TableChange> changes) {

        public String tableStatus() {
            return updating(changes) ? "UPDATING" : "ACTIVE";
        }

        public boolean billingModeSwitched() {
            return after.billingMode() != before.billingMode();
        }

        /** WarmThroughput's Status in the response. */
        public String warmThroughputStatus() {
            return changes.contains(TableChange.WARM_THROUGHPUT) ? "UPDATING" : "ACTIVE";
        }

        /** The response's SSEDescription says only {"Status": "UPDATING"}. */
        public boolean encryptionUpdating() {
            return changes.contains(TableChange.SSE_SPECIFICATION);
        }
    }

    /** The kinds of change the request asks for. */
    public static Set<TableChange> changes(UpdateTableSpec request) {
        Set<TableChange> changes = EnumSet.noneOf(TableChange.class);
        if (request.throughput() != null) changes.add(TableChange.PROVISIONED_THROUGHPUT);
        if (request.billingMode() != null) changes.add(TableChange.BILLING_MODE);
        if (request.stream() != null) changes.add(TableChange.STREAM_SPECIFICATION);
        if (request.globalIndexUpdates() != null) changes.add(TableChange.GLOBAL_SECONDARY_INDEX_UPDATES);
        if (request.sse() != null) changes.add(TableChange.SSE_SPECIFICATION);
        if (request.deletionProtectionEnabled() != null) changes.add(TableChange.DELETION_PROTECTION_ENABLED);
        if (request.onDemand() != null) changes.add(TableChange.ON_DEMAND_THROUGHPUT);
        if (request.warm() != null) changes.add(TableChange.WARM_THROUGHPUT);
        if (request.tableClass() != null) changes.add(TableChange.TABLE_CLASS);
        if (request.vectorIndexUpdates() != null && !request.vectorIndexUpdates().isEmpty()) {
            changes.add(TableChange.VECTOR_INDEX_UPDATES);
        }
        return changes;
    }

    /** The request's own rules, checked before the table is looked up. */
    public static void checkRequest(UpdateTableSpec request, Set<TableChange> changes) {
        if (changes.isEmpty()) throw DynamoDbException.validation(NOTHING_TO_UPDATE);
        checkOneKindOfChange(request, changes);
        if (changes.contains(TableChange.GLOBAL_SECONDARY_INDEX_UPDATES)) {
            GlobalIndexUpdates.checkRequest(request.globalIndexUpdates(), changes);
        }
        if (changes.contains(TableChange.VECTOR_INDEX_UPDATES)) {
            int globalCreatesAndDeletes = 0;
            if (request.globalIndexUpdates() != null) {
                for (TableSpecs.GlobalIndexUpdate g : request.globalIndexUpdates()) {
                    if (g.update() == null) globalCreatesAndDeletes++;
                }
            }
            VectorIndexSpecs.checkRequest(request.vectorIndexUpdates(), globalCreatesAndDeletes);
        }
        Throughput throughput = request.throughput();
        if ("PROVISIONED".equals(request.billingMode()) && throughput == null) {
            throw DynamoDbException.invalidParameter("ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
        }
        if (throughput != null) TableSettings.checkThroughputBounds(throughput);
    }

    /** DynamoDB's "must be the only operation in the request" rules, in the order it checks them. */
    private static void checkOneKindOfChange(UpdateTableSpec request, Set<TableChange> changes) {
        if (changes.size() > 1) {
            mustBeAlone(changes, TableChange.SSE_SPECIFICATION, "Server-Side Encryption modification");
            mustBeAlone(changes, TableChange.DELETION_PROTECTION_ENABLED, "DeletionProtection modification");
            mustBeAlone(changes, TableChange.TABLE_CLASS, "TableClass modification");
            if (changes.contains(TableChange.ON_DEMAND_THROUGHPUT)
                    && !EnumSet.of(TableChange.ON_DEMAND_THROUGHPUT, TableChange.BILLING_MODE).containsAll(changes)) {
                throw DynamoDbException.invalidParameter(
                        "OnDemandThroughput can only be combined with BillingMode in an UpdateTable request");
            }
            mustBeAlone(changes, TableChange.WARM_THROUGHPUT, "WarmThroughput");
        }
        if (changes.contains(TableChange.STREAM_SPECIFICATION)
                && (changes.contains(TableChange.PROVISIONED_THROUGHPUT) || "PROVISIONED".equals(request.billingMode()))) {
            throw DynamoDbException.invalidParameter("You cannot modify stream status while updating table IOPS");
        }
    }

    private static void mustBeAlone(Set<TableChange> changes, TableChange change, String what) {
        if (changes.contains(change)) {
            throw DynamoDbException.invalidParameter(what + " must be the only operation in the request");
        }
    }

    /**
     * What applying a request did: the table before and after, and the global indexes to build
     * and to drop once the new definition is stored.
     */
    public record Applied(TableDefinition before, TableDefinition after, List<String> createdIndexes,
                          List<String> deletedIndexes) {}

    /** Whether DynamoDB shows the table UPDATING while it applies these changes (the others it makes ACTIVE). */
    public static boolean updating(Set<TableChange> changes) {
        return !CHANGES_WHILE_ACTIVE.containsAll(changes);
    }

    /** Applies the request to the table; runs under the catalog lock (see {@link Catalog#update}). */
    public static Applied apply(UpdateTableSpec request, Set<TableChange> changes, TableDefinition table, Instant now,
                                TableArns arns) {
        TableDefinition.Builder changed = applySettings(request, table, now, arns).toBuilder();
        List<String> created = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        if (changes.contains(TableChange.GLOBAL_SECONDARY_INDEX_UPDATES)) {
            GlobalIndexUpdates.Started started = GlobalIndexUpdates.apply(request, table, changed, changed.billingMode, now);
            created.addAll(started.created());
            deleted.addAll(started.deleted());
        }
        VectorIndexSpecs.apply(request, table, changed, now, created, deleted);
        return new Applied(table, changed.build(), created, deleted);
    }

    /** The table's new settings, indexes aside. */
    private static TableDefinition applySettings(UpdateTableSpec request, TableDefinition table, Instant now,
                                                 TableArns arns) {
        Throughput throughput = request.throughput();
        BillingMode mode = request.billingMode() != null ? BillingMode.valueOf(request.billingMode()) : table.billingMode();
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
            long read = throughput.readCapacityUnits();
            long write = throughput.writeCapacityUnits();
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
            TableSettings.checkThroughputQuota(throughput, arns.region());
            changed.throughput = changedThroughput(current, read, write, now);
        }

        if (request.stream() != null) changeStream(table, changed, request.stream(), now);

        if (request.sse() != null) changed.sse = changedSse(table, request.sse(), arns);

        if (request.tableClass() != null) {
            TableClass tableClass = TableSettings.tableClass(request.tableClass());
            if (tableClass != table.tableClass()) {
                changed.tableClass = tableClass;
                changed.tableClassLastUpdateDateTime = now;
            }
        }
        if (request.deletionProtectionEnabled() != null) {
            changed.deletionProtectionEnabled = request.deletionProtectionEnabled();
        }
        if (request.onDemand() != null) {
            if (mode == BillingMode.PROVISIONED) throw TableSettings.onDemandWhenProvisioned(request.onDemand());
            TableDefinition.OnDemandThroughput merged = TableSettings.onDemandThroughput(request.onDemand(),
                    table.onDemandThroughput() == null ? TableSettings.NO_ON_DEMAND_MAXIMUMS : table.onDemandThroughput(),
                    true);
            TableSettings.checkOnDemandQuota(merged, arns.region());
            changed.onDemandThroughput = merged.equals(TableSettings.NO_ON_DEMAND_MAXIMUMS) ? null : merged;
        }
        if (request.warm() != null) {
            changed.warmThroughput = TableSettings.warmThroughput(request.warm(), table.effectiveWarmThroughput(),
                    NO_WARM_DECREASE, NO_WARM_DECREASE);
        }
        // Warm throughput never falls, not even when the throughput it follows does.
        changed.warmThroughput = table.effectiveWarmThroughput().max(changed.build().effectiveWarmThroughput());
        return changed.build();
    }

    /**
     * The provisioned throughput after a change, with DynamoDB's bookkeeping: dates of the last
     * increase and decrease, and decreases counted per UTC day; after four, one more an hour
     * (LimitExceededException in between). A table and each of its global indexes count their own
     * (developer guide, ServiceQuotas).
     */
    static ProvisionedThroughput changedThroughput(ProvisionedThroughput current, long read, long write,
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

    private static void changeStream(TableDefinition table, TableDefinition.Builder changed, Stream stream, Instant now) {
        boolean enable = stream.enabled();
        String viewType = stream.viewType();
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
    private static SseSpecification changedSse(TableDefinition table, Sse sse, TableArns arns) {
        SseSpecification next = TableSettings.sse(sse, arns);
        if (next == null && table.sse() == null) {
            throw DynamoDbException.invalidParameter("Table is already encrypted by default");
        }
        // Only the key's ARN counts as the same key: an alias or key id of it re-encrypts.
        String keyId = sse.kmsMasterKeyId();
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
    public static TableDefinition asStillUpdating(TableDefinition before, TableDefinition after, Set<TableChange> changes) {
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
        if (changes.contains(TableChange.ON_DEMAND_THROUGHPUT) && after.onDemandThroughput() == null) {
            shown.onDemandThroughput = TableSettings.NO_ON_DEMAND_MAXIMUMS;
        }
        return shown.build();
    }
}
