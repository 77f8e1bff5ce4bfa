package io.stator.engine.backup;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.item.ItemCodec;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.jobs.JobRunner;
import io.stator.engine.lock.ItemLocks;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * On-demand backups: CreateBackup, DescribeBackup, ListBackups, DeleteBackup (their restores are
 * {@link Restores}'). A backup is a copy of its table's items as they were when it was requested,
 * while writes go on: read from a snapshot taken when the copy runs, each item changed since the
 * request replaced by its before image ({@link BeforeImages}); the copy runs in the background, on
 * the engine's {@link JobRunner} (CREATING, then AVAILABLE).
 *
 * <p>A backup is recoverable from the one record its request committed, whatever is killed when:
 * a backup CREATING is copied again from the start, as it was requested (its {@link BeforeImages}
 * keep the items changed since), and ends AVAILABLE, never deleted once acknowledged (DynamoDB's
 * BackupStatus has no FAILED). While a backup of a table is being created the table cannot be
 * deleted, as on DynamoDB ("While a backup is in progress, you can't ... delete the source table
 * of the backup", developer guide, "Backing up and restoring DynamoDB tables: how it works").
 *
 * <p>A storage fault (a full disk, or a server started on one) stops a copy, which starts over
 * once the storage takes writes again (the runner's lane). Nothing at start writes before the
 * lane does, so an engine opens on a storage that refuses writes.
 */
public final class Backups {

    private static final Logger LOG = Logger.getLogger(Backups.class.getName());
    private final Storage storage;
    private final Catalog catalog;
    private final Clock clock;
    private final BackupCatalog backups;
    private final ItemLocks locks;
    private final BeforeImages beforeImages;
    /** The backups' lane (shared with restores and point-in-time recovery): copies, deletions at start. */
    private final JobRunner.Lane lane;

    public Backups(Storage storage, Catalog catalog, ChangeLog changeLog, ItemLocks locks, Clock clock,
                   JobRunner.Lane lane) {
        this.storage = storage;
        this.catalog = catalog;
        this.locks = locks;
        this.clock = clock;
        this.lane = lane;
        this.backups = new BackupCatalog(storage);
        this.beforeImages = new BeforeImages(storage, changeLog, locks);
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
                lane.submit(() -> backups.drop(b.id())); // on the lane: a start writes nothing itself
                continue;
            }
            beforeImages.start(b.source().id(), b.id());
        }
    }

    /**
     * Finishes what a stopped server left: copies the backups being created again. (On shared
     * storage nothing is resumed: backups, restores and point-in-time recovery are refused there,
     * so {@link Restores} and {@link PointInTimeRecovery} find nothing to resume either.)
     */
    public void resume() {
        if (!catalog.deployment().keepsBackups()) return;
        java.util.Set<String> creating = new java.util.HashSet<>();
        for (Backup b : backups.all()) {
            if (b.status() != Backup.Status.CREATING) continue;
            creating.add(b.id());
            LOG.info("backup " + b.arn() + " was being created when the server stopped; copying it again");
            lane.submit(() -> copy(b));
        }
        for (String id : beforeImages.backupsWithImages()) {
            // Left by a stop right after AVAILABLE; on the lane, as every write at start.
            if (!creating.contains(id)) lane.submit(() -> beforeImages.drop(id));
        }
    }

    // ---- CreateBackup -----------------------------------------------------------------------------

    /**
     * CreateBackup: a backup of the table as it is now, CREATING until its copy is done. Once this
     * returns the backup is owed: a restart copies it again ({@link BeforeImages}).
     */
    public Backup create(String tableNameOrArn, String backupName) {
        refuseUnlessKept();
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
        lane.submit(() -> copy(backup));
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
            items = Batched.forEach(storage, cursor, lane::closed, (batch, rowKey, item) -> {
                BackupCatalog.stageItem(batch, backup.id(), rowKey, item);
                bytes[0] += ItemCodec.measure(item, sortKey).itemSize();
            });
        }
        if (lane.closed()) return; // the next start copies it again
        backups.save(backup.withStatus(Backup.Status.AVAILABLE, bytes[0], items));
        LOG.info("backup " + backup.arn() + " AVAILABLE: " + items + " items, " + bytes[0] + " bytes");
        beforeImages.finish(backup.source().id(), backup.id());
    }

    // ---- DescribeBackup, ListBackups, DeleteBackup --------------------------------------------------

    /** DescribeBackup: the backup of that ARN, or BackupNotFoundException. */
    public Backup describe(String backupArn) {
        refuseUnlessKept();
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
        refuseUnlessKept();
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
        refuseUnlessKept();
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

    /** The backups' copies, for {@link Restores} (it restores from them). */
    BackupCatalog catalog() {
        return backups;
    }

    /** The backup of that ARN, or BackupNotFoundException. */
    Backup find(String backupArn) {
        return require(backupArn);
    }

    /**
     * Shared storage (Cassandra) does not keep the BACKUPS key space yet: refused there, before
     * anything is written, rather than accepted and lost.
     */
    void refuseUnlessKept() {
        catalog.deployment().refuseBackupsUnlessKept();
    }


    /**
     * Waits until the background work queued so far on the backups' lane (copies, restores, base
     * copies, trims) is done: for tests and for the command line, which must not stop a server
     * mid-copy.
     */
    public void awaitIdle() throws InterruptedException {
        lane.awaitIdle();
    }
}
