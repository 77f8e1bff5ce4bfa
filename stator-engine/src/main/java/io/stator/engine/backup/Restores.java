package io.stator.engine.backup;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.item.ItemCodec;
import io.stator.engine.item.ItemLimits;
import io.stator.engine.jobs.JobRunner;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableRestores;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.WritePipeline;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import java.time.Clock;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * RestoreTableFromBackup and RestoreTableToPointInTime. A restore creates the new table at once,
 * CREATING with its RestoreSummary in progress (item operations do not find it yet), and writes
 * each item (a backup's, or the source's as it was at the restore time, from
 * {@link PointInTimeRecovery}'s history) into it through the {@link WritePipeline} (index entries,
 * counters and item collections as any write makes them), then makes it ACTIVE; on the backups'
 * lane of the engine's {@link JobRunner}.
 *
 * <p>A restore in progress is recoverable from its table's definition, CREATING, which carries it:
 * after a restart or a storage fault it starts over, its puts being idempotent, so a restored
 * table is ACTIVE only once every item is in.
 */
public final class Restores {

    private static final Logger LOG = Logger.getLogger(Restores.class.getName());
    private final Storage storage;
    private final Catalog catalog;
    private final WritePipeline pipeline;
    private final Clock clock;
    private final Backups backups;
    private final PointInTimeRecovery recovery;
    private final JobRunner.Lane lane;

    public Restores(Storage storage, Catalog catalog, WritePipeline pipeline, Clock clock, Backups backups,
                    PointInTimeRecovery recovery, JobRunner.Lane lane) {
        this.storage = storage;
        this.catalog = catalog;
        this.pipeline = pipeline;
        this.clock = clock;
        this.backups = backups;
        this.recovery = recovery;
        this.lane = lane;
    }

    /**
     * Starts over the restores a stopped server left in progress (where several servers share the
     * store, also each sweep: on the server that takes the restore's lease, once its server died).
     */
    public void resume() {
        for (TableDefinition t : catalog.all()) {
            if (t.restoring()) lane.adopt(job(t.id()), () -> fill(t.id()));
        }
    }

    /** The name of a restore among the jobs (its lease). */
    private static String job(long tableId) {
        return "restore/" + tableId;
    }

    // ---- RestoreTableFromBackup -----------------------------------------------------------------------

    /**
     * RestoreTableFromBackup: creates the target table (CREATING, restore in progress) and fills it
     * in the background. Returns its definition.
     */
    public TableDefinition fromBackup(String backupArn, String targetTableName, TableRestores.Overrides overrides) {
        Backup backup = backups.find(backupArn);
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
        lane.submit(job(tableId), () -> fill(tableId));
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
        TableDefinition known = catalog.findById(tableId);
        // As stored now: another server may have finished it since this one read the catalog.
        TableDefinition table = known == null ? null : catalog.current(known.name());
        if (table == null || table.id() != tableId || !table.restoring()) return;
        LOG.info("restore into table " + table.name() + " runs here (from its start)");
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
        Backup backup = backups.find(table.restore().sourceBackupArn());
        long items = 0;
        try (Snapshot snapshot = storage.snapshot(); Cursor cursor = backups.catalog().items(snapshot, backup.id())) {
            while (cursor.next()) {
                if (lane.closed()) return -1; // the next start starts over
                put(table, cursor.value());
                if (++items % 100_000 == 0) LOG.info("restore into " + table.name() + ": " + items + " items");
            }
        }
        return items;
    }

    private void put(TableDefinition table, byte[] storedItem) {
        pipeline.restore(ItemWrite.put(table, ItemLimits.stored(ItemCodec.decode(storedItem)), null, ReturnValues.NONE,
                false, false));
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
            return recovery.log().itemsAt(snapshot, source.id(), table.restore().restoreDateTime().toEpochMilli(), item -> {
                if (lane.closed()) throw new Stopping(); // the next start starts over
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

    // ---- RestoreTableToPointInTime ------------------------------------------------------------------

    /**
     * RestoreTableToPointInTime: creates the target table (CREATING, restore in progress) and fills
     * it in the background with the source as it was at {@code at} (or the latest restorable time).
     */
    public TableDefinition toPointInTime(String sourceTableArn, String sourceTableName, String targetTableName,
                                                boolean useLatest, Instant at, TableRestores.Overrides overrides) {
        String sourceName = sourceTableName != null ? sourceTableName : sourceTableArn;
        TableDefinition source = sourceName == null ? null : catalog.find(catalog.arns().tableName(sourceName));
        if (source == null || source.filling()) {
            throw new DynamoDbException(ErrorType.SOURCE_TABLE_NOT_FOUND, "Source table not found: " + sourceName);
        }
        String target = catalog.arns().tableName(targetTableName);
        if (catalog.find(target) != null) throw tableAlreadyExists(target);
        PointInTimeRecovery.RecoveryWindow window = recovery.window(source);
        if (window == null) throw PointInTimeRecovery.recoveryUnavailable(source);
        Instant restoreTime = useLatest ? window.latestRestorable() : at;
        if (!window.open() || restoreTime.isBefore(window.earliestRestorable())
                || restoreTime.isAfter(window.latestRestorable()) || !source.pointInTimeRecovery().baseReady()) {
            throw new DynamoDbException(ErrorType.INVALID_RESTORE_TIME, "An invalid restore time was specified. "
                    + "RestoreDateTime must be between EarliestRestorableDateTime and LatestRestorableDateTime.");
        }
        TableDefinition.RestoreSummary summary = new TableDefinition.RestoreSummary(null,
                catalog.arns().tableArn(source.name()), restoreTime, true);
        return startRestore(source, target, overrides, summary);
    }

}
