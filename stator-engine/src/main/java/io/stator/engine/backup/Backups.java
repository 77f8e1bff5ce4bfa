package io.stator.engine.backup;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.item.ItemCodec;
import io.stator.core.key.DecodedKey;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.lock.ItemLocks;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableRestores;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.WritePipeline;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.StorageFaultException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * On-demand backups (CreateBackup, DescribeBackup, ListBackups, DeleteBackup,
 * RestoreTableFromBackup) and point-in-time recovery (UpdateContinuousBackups,
 * DescribeContinuousBackups, RestoreTableToPointInTime, on the {@link RecoveryLog}). A backup is a
 * copy of its table's items as they were when it was requested, while writes go on: read from a
 * snapshot taken when the copy runs, each item changed since the request replaced by its before
 * image ({@link BeforeImages}); the copy runs in the background (CREATING, then AVAILABLE). A
 * restore creates the new table at once, CREATING
 * with its RestoreSummary in progress (item operations do not find it yet), and writes each of
 * the backup's items into it through the {@link WritePipeline} (index entries, counters and item
 * collections as any write makes them), then makes it ACTIVE.
 *
 * <p>Every long job here is recoverable from the one record its request committed, whatever is
 * killed when: a backup CREATING is copied again from the start, as it was requested (its
 * {@link BeforeImages} keep the items changed since), and ends AVAILABLE, never deleted once
 * acknowledged (DynamoDB's BackupStatus has no FAILED); a restore in progress (its table's
 * definition, CREATING, carries it) starts over, its puts being idempotent, so a restored table is
 * ACTIVE only once every item is in; an import's table and its record are committed together
 * ({@link TableImports}). While a backup of a table is being created the table cannot be deleted,
 * as on DynamoDB ("While a backup is in progress, you can't ... delete the source table of the
 * backup", developer guide, "Backing up and restoring DynamoDB tables: how it works").
 *
 * <p>A storage fault (a full disk, or a server started on one) stops the work in hand, which
 * starts over once the storage takes writes again, tried every few seconds: a copy (from the
 * start, as after a restart), a restore, a base copy, a deletion. Nothing at start writes before
 * the worker does, so an engine opens on a storage that refuses writes.
 */
public final class Backups implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Backups.class.getName());
    private final Storage storage;
    private final Catalog catalog;
    private final WritePipeline pipeline;
    private final Clock clock;
    private final BackupCatalog backups;
    private final ChangeLog changeLog;
    private final ItemLocks locks;
    private final RecoveryLog recovery;
    private final BeforeImages beforeImages;
    private final TableImports imports;
    private boolean recoveryRegistered;
    /** The one thread of the background work: copies, restores, base copies, and the trims every few seconds. */
    private final ScheduledExecutorService worker = worker();
    private volatile boolean closed;

    /** How long work a storage fault stopped waits before it starts over. */
    private static final long FAULT_RETRY_SECONDS = 5;

    private static ScheduledExecutorService worker() {
        ScheduledThreadPoolExecutor worker = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "stator-backups");
            t.setDaemon(true);
            return t;
        });
        // Work waiting out a storage fault is dropped at close: the next start resumes it.
        worker.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        return worker;
    }

    public Backups(Storage storage, Catalog catalog, WritePipeline pipeline, ChangeLog changeLog, ItemLocks locks,
                   Clock clock) {
        this.storage = storage;
        this.catalog = catalog;
        this.pipeline = pipeline;
        this.changeLog = changeLog;
        this.locks = locks;
        this.clock = clock;
        this.backups = new BackupCatalog(storage);
        this.recovery = new RecoveryLog(storage, clock);
        this.beforeImages = new BeforeImages(storage, changeLog, locks);
        this.imports = new TableImports(storage, catalog, pipeline, backups, clock);
        catalog.checkDeletions(table -> {
            if (beforeImages.creating(table.id())) {
                // DynamoDB's text is not recorded; its error for a table in use is this one.
                throw DynamoDbException.resourceInUse("Attempt to change a resource which is still in use: "
                        + "Table is being backed up: " + table.name());
            }
        });
        if (!catalog.deployment().keepsBackups()) return;
        // Before any write (the engine starts its writers after): the backups a stopped server
        // was creating keep their before images from the first write on.
        for (Backup b : backups.all()) {
            if (b.status() != Backup.Status.CREATING) continue;
            if (catalog.findById(b.source().id()) == null) {
                // Only a server older than before images let a table be deleted mid-backup.
                LOG.warning("backup " + b.arn() + " was being created of a table deleted since; it cannot be "
                        + "finished and is deleted");
                submit(() -> backups.drop(b.id())); // on the worker: a start writes nothing itself
                continue;
            }
            beforeImages.start(b.source().id(), b.id());
        }
    }

    /** ImportTable's engine side: its table, its items, its end, each committed with its record. */
    public TableImports imports() {
        return imports;
    }

    /**
     * Finishes what a stopped server left (copies backups being created again, restarts restores
     * and base copies), and starts trimming recovery histories to their windows.
     */
    public void resume() {
        if (!catalog.deployment().keepsBackups()) return;
        worker.scheduleWithFixedDelay(guarded(this::trimAll), TRIM_PERIOD_SECONDS, TRIM_PERIOD_SECONDS,
                TimeUnit.SECONDS);
        java.util.Set<String> creating = new java.util.HashSet<>();
        for (Backup b : backups.all()) {
            if (b.status() != Backup.Status.CREATING) continue;
            creating.add(b.id());
            LOG.info("backup " + b.arn() + " was being created when the server stopped; copying it again");
            submit(() -> copy(b));
        }
        for (String id : beforeImages.backupsWithImages()) {
            // Left by a stop right after AVAILABLE; on the worker, as every write at start.
            if (!creating.contains(id)) submit(() -> beforeImages.drop(id));
        }
        for (TableDefinition t : catalog.all()) {
            if (t.pointInTimeRecovery() != null) {
                registerRecovery();
                if (!t.pointInTimeRecovery().baseReady()) {
                    LOG.info("point-in-time recovery's base copy of table " + t.name() + " was in progress when the "
                            + "server stopped; starting over");
                    submit(() -> copyBase(t.id()));
                }
            }
            if (t.restoring()) {
                LOG.info("restore of table " + t.name() + " was in progress when the server stopped; starting over");
                submit(() -> fill(t.id()));
            }
        }
    }

    // ---- CreateBackup -----------------------------------------------------------------------------

    /**
     * CreateBackup: a backup of the table as it is now, CREATING until its copy is done. Once this
     * returns the backup is owed: a restart copies it again ({@link BeforeImages}).
     */
    public Backup create(String tableNameOrArn, String backupName) {
        refuseShared();
        String name = catalog.arns().tableName(tableNameOrArn);
        beforeImages.prepare();
        Backup backup;
        try {
            locks.awaitWritesInFlight(); // writes that staged without before images commit first
            backup = catalog.holding(name, table -> {
                if (table == null || table.filling()) {
                    throw new DynamoDbException(ErrorType.TABLE_NOT_FOUND, "Table not found: " + tableNameOrArn);
                }
                Instant now = clock.instant();
                String id = Backup.newId(now);
                String tableArn = catalog.arns().tableArn(table.name());
                beforeImages.start(table.id(), id); // under the catalog's lock: no deletion slips between
                return new Backup(id, tableArn + "/backup/" + id, backupName, Backup.Status.CREATING, now, -1, -1,
                        table, tableArn, catalog.counters().sizeBytes(table.id()),
                        catalog.counters().itemCount(table.id()));
            });
        } catch (RuntimeException e) {
            beforeImages.release();
            throw e;
        }
        try {
            locks.awaitWritesInFlight(); // the backup's moment: every batch from here keeps before images
            backups.save(backup);
        } catch (RuntimeException e) {
            beforeImages.finish(backup.source().id(), backup.id());
            throw e;
        }
        submit(() -> copy(backup));
        LOG.info("backup " + backup.arn() + " of table " + backup.source().name() + " requested");
        return backup;
    }

    /**
     * Copies the table's items as they were requested into the backup, then makes it AVAILABLE.
     * Run again from the start after a restart or a storage fault: each item's copy is overwritten
     * with the same.
     */
    private void copy(Backup backup) {
        long[] bytes = {0};
        long items;
        String sortKey = backup.source().keySchema().sortKey();
        try (Snapshot snapshot = storage.snapshot();
             Cursor cursor = beforeImages.asRequested(snapshot, backup.id(), backup.source().id())) {
            items = Batched.forEach(storage, cursor, () -> closed, (batch, rowKey, item) -> {
                BackupCatalog.stageItem(batch, backup.id(), rowKey, item);
                bytes[0] += ItemCodec.measure(item, sortKey).itemSize();
            });
        }
        if (closed) return; // the next start copies it again
        backups.save(backup.withStatus(Backup.Status.AVAILABLE, bytes[0], items));
        LOG.info("backup " + backup.arn() + " AVAILABLE: " + items + " items, " + bytes[0] + " bytes");
        beforeImages.finish(backup.source().id(), backup.id());
    }

    // ---- DescribeBackup, ListBackups, DeleteBackup --------------------------------------------------

    /** DescribeBackup: the backup of that ARN, or BackupNotFoundException. */
    public Backup describe(String backupArn) {
        refuseShared();
        return require(backupArn);
    }

    private Backup require(String backupArn) {
        int at = backupArn.lastIndexOf("/backup/");
        Backup backup = at < 0 ? null : backups.find(backupArn.substring(at + "/backup/".length()));
        if (backup == null || !backup.arn().equals(backupArn)) {
            throw new DynamoDbException(ErrorType.BACKUP_NOT_FOUND, "Backup not found: " + backupArn);
        }
        return backup;
    }

    /** One page of ListBackups, and the last backup's ARN when more follow. */
    public record BackupPage(List<Backup> backups, String lastEvaluatedBackupArn) {}

    /**
     * ListBackups, oldest first: a table's (by name or ARN; null for every table's), created at or
     * after {@code from} and before {@code to} (either null for no bound), after
     * {@code exclusiveStartArn}, at most {@code limit}. Every backup here is USER's: SYSTEM and
     * AWS_BACKUP list none.
     */
    public BackupPage list(String tableNameOrArn, Instant from, Instant to, String exclusiveStartArn, int limit,
                           String backupType) {
        refuseShared();
        String table = tableNameOrArn == null ? null : catalog.arns().tableName(tableNameOrArn);
        List<Backup> page = new ArrayList<>();
        if (backupType != null && !backupType.equals("USER") && !backupType.equals("ALL")) {
            return new BackupPage(page, null);
        }
        boolean started = exclusiveStartArn == null;
        boolean more = false;
        for (Backup b : backups.all()) {
            if (!started) {
                started = b.arn().equals(exclusiveStartArn);
                continue;
            }
            if (table != null && !b.source().name().equals(table)) continue;
            if (from != null && b.creationDateTime().isBefore(from)) continue;
            if (to != null && !b.creationDateTime().isBefore(to)) continue;
            if (page.size() == limit) {
                more = true;
                break;
            }
            page.add(b);
        }
        return new BackupPage(page, more ? page.get(page.size() - 1).arn() : null);
    }

    /** DeleteBackup: deletes it; refused while it is being created or a table is restored from it. */
    public Backup delete(String backupArn) {
        refuseShared();
        Backup backup = require(backupArn);
        if (backup.status() == Backup.Status.CREATING) {
            throw new DynamoDbException(ErrorType.BACKUP_IN_USE, "Backup is being created: " + backupArn);
        }
        for (TableDefinition t : catalog.all()) {
            if (t.restoring() && backupArn.equals(t.restore().sourceBackupArn())) {
                throw new DynamoDbException(ErrorType.BACKUP_IN_USE,
                        "Backup is being restored to table " + t.name() + ": " + backupArn);
            }
        }
        backups.drop(backup.id());
        LOG.info("backup " + backupArn + " deleted");
        return backup.withStatus(Backup.Status.DELETED, backup.sizeBytes(), backup.itemCount());
    }

    // ---- RestoreTableFromBackup -----------------------------------------------------------------------

    /**
     * RestoreTableFromBackup: creates the target table (CREATING, restore in progress) and fills it
     * in the background. Returns its definition.
     */
    public TableDefinition restore(String backupArn, String targetTableName, TableRestores.Overrides overrides) {
        refuseShared();
        Backup backup = require(backupArn);
        if (backup.status() != Backup.Status.AVAILABLE) {
            throw new DynamoDbException(ErrorType.BACKUP_IN_USE, "Backup is being created: " + backupArn);
        }
        String target = catalog.arns().tableName(targetTableName);
        if (catalog.find(target) != null) throw tableAlreadyExists(target);
        TableDefinition.RestoreSummary summary = new TableDefinition.RestoreSummary(backupArn, backup.sourceTableArn(),
                clock.instant(), true);
        return startRestore(backup.source(), target, overrides, summary);
    }

    /** Creates the restored table, CREATING with its restore in progress, and has it filled. */
    private TableDefinition startRestore(TableDefinition source, String target, TableRestores.Overrides overrides,
                                         TableDefinition.RestoreSummary summary) {
        TableDefinition.Builder draft = TableRestores.definition(source, target, overrides, summary, catalog.arns(),
                clock);
        TableDefinition created;
        try {
            created = catalog.create(draft);
        } catch (DynamoDbException e) {
            if (e.type() == ErrorType.RESOURCE_IN_USE) throw tableAlreadyExists(target); // created meanwhile
            throw e;
        }
        LOG.info("restore into table " + target + " started: " + summary);
        long tableId = created.id();
        submit(() -> fill(tableId));
        return created;
    }

    private static DynamoDbException tableAlreadyExists(String name) {
        return new DynamoDbException(ErrorType.TABLE_ALREADY_EXISTS, "Table already exists: " + name);
    }

    /**
     * Writes the restored table's items (a backup's, or a table's as it was at a point in time),
     * then ends its restore. Run again from the start after a restart: every write is a put or a
     * delete of a whole item, so the end state is the same.
     */
    private void fill(long tableId) {
        TableDefinition table = catalog.findById(tableId);
        if (table == null || !table.restoring()) return;
        long items = table.restore().sourceBackupArn() != null ? fillFromBackup(table) : fillFromHistory(table);
        if (items < 0) return; // closing, or failed and dropped
        catalog.update(table.name(), t -> {
            if (t.id() != tableId || !t.restoring()) return t;
            TableDefinition.Builder done = t.toBuilder();
            done.restore = new TableDefinition.RestoreSummary(t.restore().sourceBackupArn(),
                    t.restore().sourceTableArn(), t.restore().restoreDateTime(), false);
            return done.build();
        });
        LOG.info("restore into " + table.name() + " done: " + items + " items; ACTIVE");
    }

    private long fillFromBackup(TableDefinition table) {
        Backup backup = require(table.restore().sourceBackupArn());
        long items = 0;
        try (Snapshot snapshot = storage.snapshot(); Cursor cursor = backups.items(snapshot, backup.id())) {
            while (cursor.next()) {
                if (closed) return -1; // the next start starts over
                put(table, cursor.value());
                if (++items % 100_000 == 0) LOG.info("restore into " + table.name() + ": " + items + " items");
            }
        }
        return items;
    }

    private void put(TableDefinition table, byte[] storedItem) {
        pipeline.restore(ItemWrite.put(table, ItemCodec.decode(storedItem), null, ReturnValues.NONE, false, false));
    }

    /**
     * A point-in-time restore: each item of the source as it was at the restore time, read from
     * one snapshot, put once. Returns how many, or -1.
     */
    private long fillFromHistory(TableDefinition table) {
        TableDefinition source = catalog.find(catalog.arns().tableName(table.restore().sourceTableArn()));
        if (source == null || source.pointInTimeRecovery() == null) {
            // Deleted, or its recovery disabled, before a restart could start the restore over.
            LOG.severe("restore into " + table.name() + " failed: the source table or its point-in-time recovery is"
                    + " gone; the table is deleted");
            catalog.delete(table.name());
            return -1;
        }
        try (Snapshot snapshot = storage.snapshot()) {
            return recovery.itemsAt(snapshot, source.id(), table.restore().restoreDateTime().toEpochMilli(), item -> {
                if (closed) throw new Stopping(); // the next start starts over
                put(table, item);
            });
        } catch (Stopping | java.io.IOException e) {
            return -1;
        }
    }

    /** The server stops: a restore in progress ends where it is, to start over at the next start. */
    private static final class Stopping extends RuntimeException {
        Stopping() {
            super(null, null, false, false);
        }
    }

    // ---- UpdateContinuousBackups, DescribeContinuousBackups --------------------------------------

    /** How far behind now the latest restorable time is: "typically 5 minutes" (API reference). */
    static final Duration LATEST_RESTORABLE_LAG = Duration.ofMinutes(5);
    /** Changes are folded into the base a minute after they leave the window, so no restore in it misses one. */
    private static final long FOLD_MARGIN_MILLIS = 60_000;
    private static final long TRIM_PERIOD_SECONDS = 5;

    /**
     * DescribeContinuousBackups' PointInTimeRecoveryDescription: null while point-in-time recovery
     * is disabled.
     */
    public record RecoveryWindow(int recoveryPeriodInDays, Instant earliestRestorable, Instant latestRestorable) {}

    /** DescribeContinuousBackups: the table's recovery window, or null when disabled. */
    public RecoveryWindow describeContinuousBackups(String tableNameOrArn) {
        return window(requireTable(tableNameOrArn));
    }

    private RecoveryWindow window(TableDefinition table) {
        TableDefinition.PointInTimeRecovery pitr = table.pointInTimeRecovery();
        if (pitr == null) return null;
        Instant now = clock.instant();
        Instant earliest = pitr.baseDateTime();
        Instant windowStart = now.minus(Duration.ofDays(pitr.recoveryPeriodInDays()));
        if (windowStart.isAfter(earliest)) earliest = windowStart;
        return new RecoveryWindow(pitr.recoveryPeriodInDays(), earliest, now.minus(LATEST_RESTORABLE_LAG));
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
        if (enabled) catalog.deployment().refusePointInTimeRecoveryUnlessKept();
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
            submit(() -> copyBase(tableId));
        } else if (!enabled && table.pointInTimeRecovery() != null) {
            LOG.info("point-in-time recovery of table " + updated.name() + " disabled; its history is dropped");
            submit(() -> {
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
     */
    private void copyBase(long tableId) {
        locks.awaitWritesInFlight();
        Instant baseTime = clock.instant();
        long items;
        try (Snapshot snapshot = storage.snapshot()) {
            TableDefinition table = catalog.findById(tableId);
            if (table == null || table.pointInTimeRecovery() == null) return;
            items = recovery.copyBase(tableId, snapshot, () -> closed);
        }
        if (closed) return; // the next start copies it again
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

    /** Folds every table's changes older than its window into its base. */
    private void trimAll() {
        long now = clock.millis();
        for (TableDefinition t : catalog.all()) {
            TableDefinition.PointInTimeRecovery pitr = t.pointInTimeRecovery();
            if (pitr == null || !pitr.baseReady() || closed) continue;
            long before = now - Duration.ofDays(pitr.recoveryPeriodInDays()).toMillis() - FOLD_MARGIN_MILLIS;
            long folded = recovery.fold(t.id(), before);
            if (folded > 0) LOG.info("point-in-time recovery of table " + t.name() + ": " + folded
                    + " changes older than the window folded into the base");
        }
    }

    // ---- RestoreTableToPointInTime ------------------------------------------------------------------

    /**
     * RestoreTableToPointInTime: creates the target table (CREATING, restore in progress) and fills
     * it in the background with the source as it was at {@code at} (or the latest restorable time).
     */
    public TableDefinition restoreToPointInTime(String sourceTableArn, String sourceTableName, String targetTableName,
                                                boolean useLatest, Instant at, TableRestores.Overrides overrides) {
        refuseShared();
        String sourceName = sourceTableName != null ? sourceTableName : sourceTableArn;
        TableDefinition source = sourceName == null ? null : catalog.find(catalog.arns().tableName(sourceName));
        if (source == null || source.filling()) {
            throw new DynamoDbException(ErrorType.SOURCE_TABLE_NOT_FOUND, "Source table not found: " + sourceName);
        }
        String target = catalog.arns().tableName(targetTableName);
        if (catalog.find(target) != null) throw tableAlreadyExists(target);
        RecoveryWindow window = window(source);
        if (window == null) throw recoveryUnavailable(source);
        Instant restoreTime = useLatest ? window.latestRestorable() : at;
        if (restoreTime.isBefore(window.earliestRestorable()) || restoreTime.isAfter(window.latestRestorable())
                || !source.pointInTimeRecovery().baseReady()) {
            throw new DynamoDbException(ErrorType.INVALID_RESTORE_TIME, "An invalid restore time was specified. "
                    + "RestoreDateTime must be between EarliestRestorableDateTime and LatestRestorableDateTime.");
        }
        TableDefinition.RestoreSummary summary = new TableDefinition.RestoreSummary(null,
                catalog.arns().tableArn(source.name()), restoreTime, true);
        return startRestore(source, target, overrides, summary);
    }

    // ---- exports: the table at a point in time, and its changes between two ---------------------------

    /** Takes one item (or change) of an export. */
    @FunctionalInterface
    public interface Sink<T> {
        void accept(T value) throws java.io.IOException;
    }

    /** DynamoDB's answer when a table has no point-in-time recovery (moto's tests, verified against AWS). */
    private static DynamoDbException recoveryUnavailable(TableDefinition table) {
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

    // ---- long work's descriptions ------------------------------------------------------------------

    /**
     * Keeps a front end's description of an export or an import (kind "export" or "import"), so
     * that its progress and outcome outlive a restart.
     */
    public void saveJob(String kind, String id, byte[] description) {
        backups.saveJob(kind, id, description);
    }

    /** Every saved description of that kind, by id. */
    public java.util.SortedMap<String, byte[]> jobs(String kind) {
        return backups.jobs(kind);
    }

    // ---- the background worker ----------------------------------------------------------------------

    /**
     * Runs a task on the worker that can start over from its beginning (a copy, a restore, a base
     * copy, a deletion). A storage fault (a full disk) stops it; it starts over every few seconds
     * until the storage takes writes again, reported once.
     */
    private void submit(Runnable task) {
        schedule(task, 0, false);
    }

    private void schedule(Runnable task, long delaySeconds, boolean faultReported) {
        try {
            worker.schedule(() -> {
                if (closed) return; // the next start resumes it
                try {
                    task.run();
                } catch (StorageFaultException e) {
                    if (!faultReported) {
                        LOG.warning("backup work stopped by a storage fault, starting over every " + FAULT_RETRY_SECONDS
                                + " s until the storage takes writes again: " + e.getMessage());
                    }
                    schedule(task, FAULT_RETRY_SECONDS, true);
                } catch (RuntimeException e) {
                    LOG.severe("backup or restore failed: " + e);
                }
            }, delaySeconds, TimeUnit.SECONDS);
        } catch (RejectedExecutionException e) {
            // Closed meanwhile: the next start resumes or deletes it.
        }
    }

    /** The task, its failures logged rather than thrown into the worker (a periodic one would stop). */
    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (StorageFaultException e) {
                // The next period tries again.
            } catch (RuntimeException e) {
                LOG.severe("backup or restore failed: " + e);
            }
        };
    }

    /**
     * Shared storage (Cassandra) does not keep the BACKUPS key space yet: refused there, before
     * anything is written, rather than accepted and lost.
     */
    private void refuseShared() {
        catalog.deployment().refuseBackupsUnlessKept();
    }

    /**
     * Waits until the background work queued so far (copies, restores, base copies, trims) is
     * done: for tests and for the command line, which must not stop a server mid-copy.
     */
    public void awaitIdle() throws InterruptedException {
        try {
            worker.submit(() -> { }).get();
        } catch (java.util.concurrent.ExecutionException | RejectedExecutionException e) {
            // Nothing to wait for: the no-op cannot fail, and a closed worker runs nothing.
        }
    }

    /** Folds every table's changes older than its window into its base now (tests; otherwise every few seconds). */
    public void trimNow() throws InterruptedException {
        submit(this::trimAll);
        awaitIdle();
    }

    @Override
    public void close() {
        closed = true;
        worker.shutdown();
        try {
            worker.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
