package io.stator.engine.backup;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.item.ItemCodec;
import io.stator.core.key.KeyLayout;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableRestores;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.WritePipeline;
import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.StorageFaultException;
import io.stator.storage.WriteBatch;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * On-demand backups: CreateBackup, DescribeBackup, ListBackups, DeleteBackup and
 * RestoreTableFromBackup. A backup is a copy of its table's items from one storage snapshot taken
 * when it is requested, so it is consistent as of the request while writes go on; the copy runs
 * in the background (CREATING, then AVAILABLE). A restore creates the new table at once, CREATING
 * with its RestoreSummary in progress (item operations do not find it yet), and writes each of
 * the backup's items into it through the {@link WritePipeline} (index entries, counters and item
 * collections as any write makes them), then makes it ACTIVE.
 *
 * <p>After a restart: a backup still CREATING had its snapshot with the process, so it is deleted
 * (never shown AVAILABLE half-copied); a restore still in progress starts over (its puts are
 * idempotent), so a restored table is ACTIVE only once every item is in.
 */
public final class Backups implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Backups.class.getName());
    /** Items per commit while copying a table into a backup. */
    private static final int COPY_BATCH = 512;

    private final Storage storage;
    private final Catalog catalog;
    private final WritePipeline pipeline;
    private final Clock clock;
    private final BackupCatalog backups;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "stator-backups");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;

    public Backups(Storage storage, Catalog catalog, WritePipeline pipeline, Clock clock) {
        this.storage = storage;
        this.catalog = catalog;
        this.pipeline = pipeline;
        this.clock = clock;
        this.backups = new BackupCatalog(storage);
    }

    /** Finishes what a stopped server left: drops half-copied backups, restarts restores. */
    public void resume() {
        if (storage.shared()) return;
        for (Backup b : backups.all()) {
            if (b.status() == Backup.Status.CREATING) {
                LOG.warning("backup " + b.arn() + " was being created when the server stopped; deleted");
                backups.drop(b.id());
            }
        }
        for (TableDefinition t : catalog.all()) {
            if (t.restoring()) {
                LOG.info("restore of table " + t.name() + " was in progress when the server stopped; starting over");
                submit(() -> fill(t.id()));
            }
        }
    }

    // ---- CreateBackup -----------------------------------------------------------------------------

    /** CreateBackup: a backup of the table as it is now, CREATING until its copy is done. */
    public Backup create(String tableNameOrArn, String backupName) {
        refuseShared();
        TableDefinition table = catalog.find(catalog.arns().tableName(tableNameOrArn));
        if (table == null || table.restoring()) {
            throw new DynamoDbException(ErrorType.TABLE_NOT_FOUND, "Table not found: " + tableNameOrArn);
        }
        Instant now = clock.instant();
        String id = String.format("%014d-%08x", now.toEpochMilli(), ThreadLocalRandom.current().nextInt());
        String tableArn = catalog.arns().tableArn(table.name());
        Backup backup = new Backup(id, tableArn + "/backup/" + id, backupName, Backup.Status.CREATING, now, -1, -1,
                table, tableArn, catalog.counters().sizeBytes(table.id()), catalog.counters().itemCount(table.id()));
        Snapshot snapshot = storage.snapshot();
        try {
            backups.save(backup);
            submit(() -> copy(backup, snapshot));
        } catch (RuntimeException e) {
            snapshot.close();
            throw e;
        }
        LOG.info("backup " + backup.arn() + " of table " + table.name() + " requested");
        return backup;
    }

    /** Copies the table's items as the snapshot has them into the backup, then makes it AVAILABLE. */
    private void copy(Backup backup, Snapshot snapshot) {
        long items = 0;
        long bytes = 0;
        long tableId = backup.source().id();
        String sortKey = backup.source().keySchema().sortKey();
        try (snapshot;
             Cursor cursor = storage.range(snapshot, Keyspace.ITEMS,
                     KeyLayout.indexPrefix(tableId, KeyLayout.BASE_TABLE_INDEX_ID),
                     KeyLayout.indexUpperBound(tableId, KeyLayout.BASE_TABLE_INDEX_ID), false)) {
            boolean more = true;
            while (more) {
                if (closed) return; // the next start deletes the half-copied backup
                try (WriteBatch batch = storage.newBatch()) {
                    int n = 0;
                    while (n < COPY_BATCH && (more = cursor.next())) {
                        byte[] item = cursor.value();
                        BackupCatalog.stageItem(batch, backup.id(), cursor.key(), item);
                        bytes += ItemCodec.measure(item, sortKey).itemSize();
                        items++;
                        n++;
                    }
                    if (n > 0) storage.commit(batch);
                }
            }
        }
        if (backups.find(backup.id()) == null) return;
        backups.save(backup.withStatus(Backup.Status.AVAILABLE, bytes, items));
        LOG.info("backup " + backup.arn() + " AVAILABLE: " + items + " items, " + bytes + " bytes");
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
        TableDefinition.Builder draft = TableRestores.definition(backup.source(), target, overrides, summary,
                catalog.arns(), clock);
        TableDefinition created;
        try {
            created = catalog.create(draft);
        } catch (DynamoDbException e) {
            if (e.type() == ErrorType.RESOURCE_IN_USE) throw tableAlreadyExists(target); // created meanwhile
            throw e;
        }
        LOG.info("restore of backup " + backupArn + " into table " + target + " started");
        long tableId = created.id();
        submit(() -> fill(tableId));
        return created;
    }

    private static DynamoDbException tableAlreadyExists(String name) {
        return new DynamoDbException(ErrorType.TABLE_ALREADY_EXISTS, "Table already exists: " + name);
    }

    /** Writes the backup's items into the restored table, then ends its restore. */
    private void fill(long tableId) {
        TableDefinition table = catalog.findById(tableId);
        if (table == null || !table.restoring()) return;
        Backup backup = require(table.restore().sourceBackupArn());
        long items = 0;
        try (Snapshot snapshot = storage.snapshot(); Cursor cursor = backups.items(snapshot, backup.id())) {
            while (cursor.next()) {
                if (closed) return; // the next start starts over
                pipeline.restore(ItemWrite.put(table, ItemCodec.decode(cursor.value()), null, ReturnValues.NONE,
                        false, false));
                if (++items % 100_000 == 0) LOG.info("restore into " + table.name() + ": " + items + " items");
            }
        }
        catalog.update(table.name(), t -> {
            if (t.id() != tableId || !t.restoring()) return t;
            TableDefinition.Builder done = t.toBuilder();
            done.restore = new TableDefinition.RestoreSummary(t.restore().sourceBackupArn(),
                    t.restore().sourceTableArn(), t.restore().restoreDateTime(), false);
            return done.build();
        });
        LOG.info("restore into " + table.name() + " done: " + items + " items; ACTIVE");
    }

    // ---- the background worker ----------------------------------------------------------------------

    /**
     * Runs a copy or a restore on the worker. A storage fault (a full disk) ends the task, logged:
     * a copy stays CREATING and a restore in progress until the next start deletes the one and
     * starts the other over.
     */
    private void submit(Runnable task) {
        try {
            worker.execute(() -> {
                try {
                    task.run();
                } catch (StorageFaultException e) {
                    LOG.warning("backup or restore stopped by a storage fault: " + e.getMessage());
                } catch (RuntimeException e) {
                    LOG.severe("backup or restore failed: " + e);
                }
            });
        } catch (RejectedExecutionException e) {
            // Closed meanwhile: the next start resumes or deletes it.
        }
    }

    /**
     * Shared storage (Cassandra) does not keep the BACKUPS key space yet: refused there, before
     * anything is written, rather than accepted and lost.
     */
    private void refuseShared() {
        if (storage.shared()) {
            throw DynamoDbException.validation(
                    "Backups are not supported by this server's storage (shared storage, such as Cassandra) yet");
        }
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
