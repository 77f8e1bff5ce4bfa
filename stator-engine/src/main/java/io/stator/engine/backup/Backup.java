package io.stator.engine.backup;

import io.stator.engine.table.TableDefinition;
import java.time.Instant;

/**
 * One on-demand backup, as DescribeBackup shows it.
 *
 * @param id              {@code <epoch milliseconds in 14 digits>-<8 hex digits>}, DynamoDB's form (its guide shows 01489602797149-73d8d5bc): the
 *                        last part of the backup's ARN, and its rows' key in the BACKUPS key space
 * @param arn             {@code <table ARN>/backup/<id>}
 * @param sizeBytes       BackupSizeBytes: the items' sizes as DynamoDB measures them; -1 while CREATING
 * @param itemCount       the items copied; -1 while CREATING
 * @param source          the table's definition when the backup was requested (its TableId,
 *                        keys, indexes, throughput, encryption: what a restore takes from it)
 * @param sourceSizeBytes the table's TableSizeBytes when the backup was requested
 * @param sourceItemCount the table's ItemCount when the backup was requested
 */
public record Backup(String id, String arn, String name, Status status, Instant creationDateTime, long sizeBytes,
                     long itemCount, TableDefinition source, String sourceTableArn, long sourceSizeBytes,
                     long sourceItemCount) {

    /** DynamoDB's BackupStatus (DELETED only in DeleteBackup's answer: a deleted backup is gone). */
    public enum Status { CREATING, AVAILABLE, DELETED }

    /**
     * A new id in DynamoDB's form for backups, exports and imports: the time in milliseconds in 14
     * digits, a dash and 8 random hex digits.
     */
    public static String newId(java.time.Instant now) {
        return String.format("%014d-%08x", now.toEpochMilli(),
                java.util.concurrent.ThreadLocalRandom.current().nextInt());
    }

    public Backup withStatus(Status newStatus, long newSizeBytes, long newItemCount) {
        return new Backup(id, arn, name, newStatus, creationDateTime, newSizeBytes, newItemCount, source, sourceTableArn,
                sourceSizeBytes, sourceItemCount);
    }
}
