package io.stator.engine.backup;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.item.ItemCodec;
import io.stator.core.key.DecodedKey;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.jobs.JobRunner;
import io.stator.engine.lock.ItemLocks;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Point-in-time recovery: UpdateContinuousBackups, DescribeContinuousBackups, the recovery window,
 * and the table as it was at a time or its changes between two (what restores and exports read),
 * on the {@link RecoveryLog}. Enabling it copies the table as its history's base in the
 * background, on the backups' lane of the engine's {@link JobRunner}; the window opens at that
 * copy. The history is trimmed to the window every few seconds. A base copy in progress when the
 * server stops (its table's definition says so) starts over at the next start, as after a storage
 * fault.
 */
public final class PointInTimeRecovery {

    private static final Logger LOG = Logger.getLogger(PointInTimeRecovery.class.getName());
    private final Storage storage;
    private final Catalog catalog;
    private final Clock clock;
    private final ChangeLog changeLog;
    private final ItemLocks locks;
    private final RecoveryLog recovery;
    private final JobRunner.Lane lane;
    private boolean recoveryRegistered;
    private final Duration restorableLag;

    /**
     * @param restorableLag how far behind now the latest restorable time is (--pitr-restorable-lag;
     *                      DynamoDB's five minutes by default)
     */
    public PointInTimeRecovery(Storage storage, Catalog catalog, ChangeLog changeLog, ItemLocks locks, Clock clock,
                               JobRunner.Lane lane, Duration restorableLag) {
        this.restorableLag = restorableLag;
        this.storage = storage;
        this.catalog = catalog;
        this.changeLog = changeLog;
        this.locks = locks;
        this.clock = clock;
        this.lane = lane;
        this.recovery = new RecoveryLog(storage, clock);
    }

    /**
     * Starts trimming recovery histories to their windows, and starts over the base copies a
     * stopped server left in progress.
     */
    public void resume() {
        lane.every(TRIM_PERIOD_SECONDS, this::trimAll);
        for (TableDefinition t : catalog.all()) {
            if (t.pointInTimeRecovery() != null) {
                registerRecovery();
                if (!t.pointInTimeRecovery().baseReady()) {
                    LOG.info("point-in-time recovery's base copy of table " + t.name() + " was in progress when the "
                            + "server stopped; starting over");
                    submitBaseCopy(t.id(), true);
                }
            }
        }
    }

    /**
     * Where several servers share the store, submits again the base copies in progress: the one
     * holding a copy's lease runs it, another once that one died and its lease expired.
     */
    public void resumeBaseCopies() {
        for (TableDefinition t : catalog.all()) {
            if (t.pointInTimeRecovery() != null && !t.pointInTimeRecovery().baseReady()) submitBaseCopy(t.id(), true);
        }
    }

    /**
     * Copies the base where this server holds the copy's lease, unless it is ready meanwhile;
     * {@code found} by a start or a sweep rather than enabled here ({@link JobRunner.Lane#adopt}).
     */
    private void submitBaseCopy(long tableId, boolean found) {
        Runnable copy = () -> {
            TableDefinition known = catalog.findById(tableId);
            TableDefinition now = known == null ? null : catalog.current(known.name());
            if (now != null && now.id() == tableId && now.pointInTimeRecovery() != null
                    && !now.pointInTimeRecovery().baseReady()) {
                copyBase(tableId);
            }
        };
        if (found) lane.adopt("pitr-base/" + tableId, copy);
        else lane.submit("pitr-base/" + tableId, copy);
    }

    /**
     * After the catalog is read again (shared storage): another server may have enabled point-in-time
     * recovery of a table; this server's writes keep its history from now on.
     */
    public void follow() {
        for (TableDefinition t : catalog.all()) {
            if (t.pointInTimeRecovery() != null) {
                registerRecovery();
                return;
            }
        }
    }

    /** The history itself, for {@link Restores}. */
    RecoveryLog log() {
        return recovery;
    }

    // ---- UpdateContinuousBackups, DescribeContinuousBackups --------------------------------------

    /** Changes are folded into the base a minute after they leave the window, so no restore in it misses one. */
    private static final long FOLD_MARGIN_MILLIS = 60_000;
    private static final long TRIM_PERIOD_SECONDS = 5;

    /**
     * DescribeContinuousBackups' PointInTimeRecoveryDescription: null while point-in-time recovery
     * is disabled.
     *
     * @param open false until the restorable lag has passed since the earliest restorable time: no
     *             restore yet (DynamoDB's), the latest restorable time shown as the earliest rather
     *             than before it
     */
    public record RecoveryWindow(int recoveryPeriodInDays, Instant earliestRestorable, Instant latestRestorable,
                                 boolean open) {}

    /** DescribeContinuousBackups: the table's recovery window, or null when disabled. */
    public RecoveryWindow describeContinuousBackups(String tableNameOrArn) {
        return window(requireTable(tableNameOrArn));
    }

    RecoveryWindow window(TableDefinition table) {
        TableDefinition.PointInTimeRecovery pitr = table.pointInTimeRecovery();
        if (pitr == null) return null;
        Instant now = clock.instant();
        Instant earliest = pitr.baseDateTime();
        Instant windowStart = now.minus(Duration.ofDays(pitr.recoveryPeriodInDays()));
        if (windowStart.isAfter(earliest)) earliest = windowStart;
        Instant latest = now.minus(restorableLag);
        boolean open = !latest.isBefore(earliest);
        return new RecoveryWindow(pitr.recoveryPeriodInDays(), earliest, open ? latest : earliest, open);
    }

    private TableDefinition requireTable(String tableNameOrArn) {
        TableDefinition table = catalog.find(catalog.arns().tableName(tableNameOrArn));
        if (table == null || table.filling()) {
            throw new DynamoDbException(ErrorType.TABLE_NOT_FOUND, "Table not found: " + tableNameOrArn);
        }
        return table;
    }

    /**
     * UpdateContinuousBackups: enables point-in-time recovery (its base copied in the background;
     * the window opens at that copy), changes its recovery period, or disables it (its history is
     * dropped). Returns the window after the change, or null when disabled.
     *
     * @param recoveryPeriodInDays null for the default, 35
     */
    public RecoveryWindow updateContinuousBackups(String tableNameOrArn, boolean enabled, Integer recoveryPeriodInDays) {
        TableDefinition table = requireTable(tableNameOrArn);
        int days = recoveryPeriodInDays == null ? 35 : recoveryPeriodInDays;
        if (enabled) registerRecovery();
        boolean[] started = new boolean[1];
        TableDefinition updated = catalog.update(table.name(), t -> {
            TableDefinition.Builder b = t.toBuilder();
            TableDefinition.PointInTimeRecovery current = t.pointInTimeRecovery();
            started[0] = enabled && current == null;
            if (!enabled) {
                b.pointInTimeRecovery = null;
            } else if (current == null) {
                b.pointInTimeRecovery = new TableDefinition.PointInTimeRecovery(days, clock.instant(), false);
            } else {
                b.pointInTimeRecovery = new TableDefinition.PointInTimeRecovery(days, current.baseDateTime(),
                        current.baseReady());
            }
            return b.build();
        });
        long tableId = updated.id();
        if (started[0]) {
            LOG.info("point-in-time recovery of table " + updated.name() + " enabled (" + days + " days)");
            submitBaseCopy(tableId, false);
        } else if (!enabled && table.pointInTimeRecovery() != null) {
            LOG.info("point-in-time recovery of table " + updated.name() + " disabled; its history is dropped");
            lane.submit(() -> {
                TableDefinition now = catalog.findById(tableId);
                if (now == null || now.pointInTimeRecovery() == null) recovery.drop(tableId);
            });
        }
        return window(updated);
    }

    private synchronized void registerRecovery() {
        if (!recoveryRegistered) {
            changeLog.register(recovery);
            recoveryRegistered = true;
        }
    }

    /**
     * Copies the table's items as the base of its history: after every write in flight (which
     * may have read the definition from before recovery was enabled, so staged no change) has
     * committed, from one snapshot; the window opens then.
     *
     * <p>On shared storage there is no snapshot of the whole table, and other servers write too.
     * The walk starts once every server has read the catalog again and keeps the history in its
     * writes (the deployment's settle time), and the window opens at its end: each item's base
     * is then its state at some moment of the walk, and every change of the item after that
     * moment, or committed after it but staged before, is in the history, whose last change up to
     * a time after the walk gives the item at that time; an item with none in the history was
     * unchanged since the walk read it.
     */
    private void copyBase(long tableId) {
        locks.awaitWritesInFlight();
        if (!untilEveryServerKeepsHistory()) return;
        Instant walkStart = clock.instant();
        long items;
        try (Snapshot snapshot = storage.snapshot()) {
            TableDefinition table = catalog.findById(tableId);
            if (table == null || table.pointInTimeRecovery() == null) return;
            items = recovery.copyBase(tableId, snapshot, lane::closed);
        }
        if (lane.closed()) return; // the next start copies it again
        Instant baseTime = catalog.deployment().snapshotsHoldOneMoment() ? walkStart : clock.instant();
        TableDefinition table = catalog.findById(tableId);
        if (table == null) return;
        catalog.update(table.name(), t -> {
            if (t.id() != tableId || t.pointInTimeRecovery() == null) return t;
            TableDefinition.Builder b = t.toBuilder();
            b.pointInTimeRecovery = new TableDefinition.PointInTimeRecovery(t.pointInTimeRecovery().recoveryPeriodInDays(),
                    baseTime, true);
            return b.build();
        });
        LOG.info("point-in-time recovery of table " + table.name() + ": base of " + items + " items copied; "
                + "restorable from " + baseTime);
    }

    /**
     * On shared storage, waits until every server has read the catalog that enabled recovery (see
     * {@link #copyBase}). Real time, not the engine's clock: it waits for servers. False when closing
     * or when the copy's lease went to another server. Asks {@link JobRunner.Lane#closed} every half
     * second, which renews the lease: one sleep of the whole settle time let a lease shorter than it
     * expire, and the servers took the copy from each other round after round, never copying it.
     */
    private boolean untilEveryServerKeepsHistory() {
        long settle = catalog.deployment().catalogSettleMillis();
        if (settle == 0) return true;
        long until = System.nanoTime() + settle * 1_000_000;
        try {
            for (long left; (left = until - System.nanoTime()) > 0; ) {
                if (lane.closed()) return false;
                Thread.sleep(Math.min(500, Math.max(1, left / 1_000_000)));
            }
            return !lane.closed();
        } catch (InterruptedException e) {
            return false; // closing: the next start copies it again
        }
    }

    /** Folds every table's changes older than its window into its base. */
    private void trimAll() {
        long now = clock.millis();
        for (TableDefinition t : catalog.all()) {
            TableDefinition.PointInTimeRecovery pitr = t.pointInTimeRecovery();
            if (pitr == null || !pitr.baseReady() || lane.closed()) continue;
            long before = now - Duration.ofDays(pitr.recoveryPeriodInDays()).toMillis() - FOLD_MARGIN_MILLIS;
            long folded = recovery.fold(t.id(), before);
            if (folded > 0) LOG.info("point-in-time recovery of table " + t.name() + ": " + folded
                    + " changes older than the window folded into the base");
        }
    }

    // ---- exports: the table at a point in time, and its changes between two ---------------------------

    /** Takes one item (or change) of an export. */
    @FunctionalInterface
    public interface Sink<T> {
        void accept(T value) throws java.io.IOException;
    }

    /** DynamoDB's answer when a table has no point-in-time recovery (moto's tests, verified against AWS). */
    static DynamoDbException recoveryUnavailable(TableDefinition table) {
        return new DynamoDbException(ErrorType.POINT_IN_TIME_RECOVERY_UNAVAILABLE,
                "Point in time recovery is not enabled for table '" + table.name() + "'");
    }

    /**
     * ExportTableToPointInTime's window check: the table's recovery window (point-in-time recovery
     * must be enabled, PointInTimeRecoveryUnavailableException otherwise).
     */
    public RecoveryWindow requireWindow(TableDefinition table) {
        RecoveryWindow window = window(table);
        if (window == null || !table.pointInTimeRecovery().baseReady()) throw recoveryUnavailable(table);
        return window;
    }

    /**
     * Every item of the table as it was at {@code at} (as it is now, from one snapshot, when null),
     * in no particular order. Returns how many.
     */
    public long itemsAt(TableDefinition table, Instant at, Sink<Map<String, AttributeValue>> sink)
            throws java.io.IOException {
        try (Snapshot snapshot = storage.snapshot()) {
            if (at != null) return recovery.itemsAt(snapshot, table.id(), at.toEpochMilli(), i -> sink.accept(ItemCodec.decode(i)));
            long count = 0;
            try (Cursor cursor = Batched.tableItems(storage, snapshot, table.id())) {
                while (cursor.next()) {
                    sink.accept(ItemCodec.decode(cursor.value()));
                    count++;
                }
            }
            return count;
        }
    }

    /**
     * One item's change over an incremental export's period: its key, its state at the period's
     * end (null when deleted) and at its start (null when absent), and when it was last written.
     */
    public record ItemChange(Map<String, AttributeValue> keys, Map<String, AttributeValue> newImage,
                             Map<String, AttributeValue> oldImage, long writeTimeMillis) {}

    /**
     * Every item changed from {@code from} (inclusive) to {@code to} (exclusive: the developer
     * guide, "Requesting a table export"), once, with its state at the end and right before the
     * start; an item absent at both is left out. Returns how many.
     */
    public long changesBetween(TableDefinition table, Instant from, Instant to, Sink<ItemChange> sink)
            throws java.io.IOException {
        try (Snapshot snapshot = storage.snapshot()) {
            return recovery.changesBetween(snapshot, table.id(), from.toEpochMilli(), to.toEpochMilli(),
                    c -> sink.accept(new ItemChange(keyOf(table, c.rowKey()), decode(c.after()), decode(c.before()),
                            c.timeMillis())));
        }
    }

    private static Map<String, AttributeValue> decode(byte[] stored) {
        return stored == null ? null : ItemCodec.decode(stored);
    }

    private static Map<String, AttributeValue> keyOf(TableDefinition table, byte[] rowKey) {
        DecodedKey decoded = KeyLayout.decodeItemKey(rowKey, table.keySchema().partitionKeyType(),
                table.keySchema().sortKeyType());
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        key.put(table.keySchema().partitionKey(), decoded.partitionKey());
        if (decoded.sortKey() != null) key.put(table.keySchema().sortKey(), decoded.sortKey());
        return key;
    }

    /** Folds every table's changes older than its window into its base now (tests; otherwise every few seconds). */
    public void trimNow() throws InterruptedException {
        lane.submit(this::trimAll);
        lane.awaitIdle();
    }
}
