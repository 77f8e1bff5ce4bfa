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
 * <p>On a cluster of servers sharing a Cassandra store there is no global snapshot: the copy is
 * the same walk (in token order), each item changed since the request replaced by its before
 * image, which every server's writes keep once they read the backup CREATING ({@link #follow},
 * each second); the copy starts after the deployment's settle time, when every server knows and
 * a write begun before has committed. A write committed before the request is thus in the
 * backup, one committed after the settle time (5 s) is not: DynamoDB's promise, "guaranteed to
 * contain all data committed to the table up to" a minute before the request, and none committed
 * a minute after (API reference, CreateBackup); the reasoning is in {@link BeforeImages} and
 * docs/cassandra.md. One server at a time runs a copy, the holder of its lease
 * ({@code jobs/JobLeases}); when it dies, another takes the lease once it expired and copies the
 * backup again from its record.
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
    /** When this server stored the backups it was asked for (nanoTime), for their copies' settle time. */
    private final java.util.Map<String, Long> requested = new java.util.concurrent.ConcurrentHashMap<>();
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
     * Finishes what a stopped server left: copies the backups being created again (where several
     * servers share the store, on the one that takes the copy's lease), and drops the before
     * images a stop right after AVAILABLE left.
     */
    public void resume() {
        for (Backup b : backups.all()) {
            if (b.status() == Backup.Status.CREATING) {
                LOG.info("backup " + b.arn() + " was being created when the server stopped; copying it again");
                lane.adopt(job(b.id()), () -> copy(b.id()));
            } else if (beforeImages.hasImages(b.id())) {
                lane.submit(() -> beforeImages.drop(b.id())); // on the lane, as every write at start
            }
        }
    }

    /**
     * Submits again the copies of the backups being created (the sweep of a server sharing the
     * store): a copy whose server died runs here once its lease expired.
     */
    public void resumeCopies() {
        for (Backup b : backups.all()) {
            if (b.status() == Backup.Status.CREATING) lane.adopt(job(b.id()), () -> copy(b.id()));
        }
    }

    /**
     * Follows the backups other servers create (each second, with the catalog, where several
     * servers share the store): this server's writes keep the before images of every backup being
     * created, and stop once it is AVAILABLE ({@link BeforeImages}).
     */
    public void follow() {
        java.util.Set<String> known = beforeImages.creatingIds();
        java.util.Map<String, Backup> stored = new java.util.HashMap<>();
        for (Backup b : backups.all()) {
            stored.put(b.id(), b);
            if (b.status() == Backup.Status.CREATING && !known.contains(b.id())) {
                beforeImages.start(b.source().id(), b.id());
            }
        }
        for (String id : known) {
            Backup b = stored.get(id);
            if (b != null && b.status() != Backup.Status.CREATING) beforeImages.forget(b.source().id(), id);
        }
    }

    /** The name of a backup's copy among the jobs (its lease). */
    private static String job(String backupId) {
        return "backup/" + backupId;
    }

    // ---- CreateBackup -----------------------------------------------------------------------------

    /**
     * CreateBackup: a backup of the table as it is now, CREATING until its copy is done. Once this
     * returns the backup is owed: a restart copies it again ({@link BeforeImages}).
     */
    public Backup create(String tableNameOrArn, String backupName) {
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
        requested.put(backup.id(), System.nanoTime());
        lane.submit(job(backup.id()), () -> copy(backup.id()));
        LOG.info("backup " + backup.arn() + " of table " + backup.source().name() + " requested");
        return backup;
    }

    /**
     * Copies the table's items as they were requested into the backup, then makes it AVAILABLE.
     * Run again from the start after a restart, a storage fault or on another server: an earlier
     * attempt's copy is dropped first.
     *
     * <p>Two passes, read from one snapshot taken after the request settled: the table's items as
     * they are, then each before image over its item's copy (or in place of it: an item created
     * since the request has none). A scan on shared storage gives the items in the backend's
     * order, not the images' key order, so they are not merged in one walk; the second pass is as
     * long as the changes since the request.
     */
    private void copy(String backupId) {
        Backup backup = backups.find(backupId); // as stored now: another server may have finished it
        if (backup == null || backup.status() != Backup.Status.CREATING) return;
        Long requestedAt = requested.remove(backupId);
        if (!settled(requestedAt != null ? requestedAt : System.nanoTime())) return; // the next start copies it again
        backups.dropItems(backupId);
        String sortKey = backup.source().keySchema().sortKey();
        long[] bytes = {0};
        long[] items = {0};
        try (Snapshot snapshot = storage.snapshot()) {
            try (Cursor cursor = Batched.tableItems(storage, snapshot, backup.source().id())) {
                items[0] = Batched.forEach(storage, cursor, lane::closed, (batch, rowKey, item) -> {
                    BackupCatalog.stageItem(batch, backupId, rowKey, item);
                    bytes[0] += ItemCodec.measure(item, sortKey).itemSize();
                });
            }
            if (lane.closed()) return;
            try (Cursor images = beforeImages.images(snapshot, backupId)) {
                Batched.forEach(storage, images, lane::closed, (batch, rowKey, image) -> {
                    byte[] copied = backups.item(backupId, rowKey);
                    if (copied != null) {
                        items[0]--;
                        bytes[0] -= ItemCodec.measure(copied, sortKey).itemSize();
                    }
                    byte[] was = BeforeImages.itemOf(image);
                    if (was == null) {
                        if (copied != null) BackupCatalog.stageDelete(batch, backupId, rowKey);
                        return;
                    }
                    BackupCatalog.stageItem(batch, backupId, rowKey, was);
                    items[0]++;
                    bytes[0] += ItemCodec.measure(was, sortKey).itemSize();
                });
            }
        }
        if (lane.closed()) return; // the next start copies it again
        backups.save(backup.withStatus(Backup.Status.AVAILABLE, bytes[0], items[0]));
        LOG.info("backup " + backup.arn() + " AVAILABLE: " + items[0] + " items, " + bytes[0] + " bytes");
        // Images another server writes before it reads AVAILABLE (within a second) are dropped by
        // a later start's resume, as those a stop left.
        beforeImages.finish(backup.source().id(), backupId);
    }

    /**
     * Waits until the deployment's settle time (0 on one server) has passed since {@code since}
     * (nanoTime): every server has read the backup and a write begun before has committed. False
     * if the job must stop meanwhile.
     */
    private boolean settled(long since) {
        long until = since + catalog.deployment().catalogSettleMillis() * 1_000_000;
        while (System.nanoTime() < until) {
            if (lane.closed()) return false;
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return !lane.closed();
    }

    // ---- DescribeBackup, ListBackups, DeleteBackup --------------------------------------------------

    /** DescribeBackup: the backup of that ARN, or BackupNotFoundException. */
    public Backup describe(String backupArn) {
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
     * Waits until the background work queued so far on the backups' lane (copies, restores, base
     * copies, trims) is done: for tests and for the command line, which must not stop a server
     * mid-copy.
     */
    public void awaitIdle() throws InterruptedException {
        lane.awaitIdle();
    }
}
