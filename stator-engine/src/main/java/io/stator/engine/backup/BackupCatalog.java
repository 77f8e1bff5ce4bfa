package io.stator.engine.backup;

import io.stator.engine.table.TableCodec;
import io.stator.storage.Cursor;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The BACKUPS key space: every backup's description and its copy of the table's items.
 *
 * <p>Rows, each backup's id being 23 ASCII bytes ({@link Backup#id}), so that its rows sort by
 * creation time:
 * <pre>
 * 'B' + id               -> the description (below)
 * 'I' + id + row key     -> an item as the table stored it (ItemCodec's form), under its row key
 *                           in the table (KeyLayout): a backup's items in the table's own order
 * 'J' + kind + 0 + id    -> an export's or an import's description: engine/jobs/JobStore's rows
 * 'L' + job name         -> the job's lease where several servers share the store (engine/jobs/JobLeases)
 * 'P' + id + row key     -> a backup being created: an item as it was at the request ({@link BeforeImages})
 * </pre>
 * Description, format version 1 ({@link DataOutputStream}): u8 version; utf name; utf status;
 * i64 creationDateTime (epoch ms); i64 sizeBytes; i64 itemCount; utf sourceTableArn;
 * i64 sourceSizeBytes; i64 sourceItemCount; i32 n; n bytes: the source table's definition
 * ({@link TableCodec}).
 *
 * <p>A copy in the store itself rather than a RocksDB checkpoint: it is taken through the storage
 * contract from one snapshot (writes go on meanwhile), it holds only its own table's items (a
 * checkpoint would keep every table's files alive as compaction replaces them), its size is the
 * table's (what DynamoDB shows as BackupSizeBytes), it outlives its table (a table's deletion
 * drops the table's rows, not the backup's), and a restore reads it with an ordinary cursor.
 */
final class BackupCatalog {

    private static final byte DESCRIPTION_ROW = 'B';
    private static final byte ITEM_ROW = 'I';
    private static final int VERSION = 1;
    static final int ID_LENGTH = 23;

    private final Storage storage;

    BackupCatalog(Storage storage) {
        this.storage = storage;
    }

    /** The backup of that id, or null. */
    Backup find(String id) {
        if (id.length() != ID_LENGTH) return null;
        byte[] stored = storage.get(Keyspaces.BACKUPS, row(DESCRIPTION_ROW, id));
        return stored == null ? null : decode(id, stored);
    }

    /** Every backup, oldest first. */
    List<Backup> all() {
        List<Backup> all = new ArrayList<>();
        try (Cursor c = storage.range(null, Keyspaces.BACKUPS, new byte[] {DESCRIPTION_ROW},
                new byte[] {DESCRIPTION_ROW + 1}, false)) {
            while (c.next()) {
                all.add(decode(new String(c.key(), 1, ID_LENGTH, StandardCharsets.US_ASCII), c.value()));
            }
        }
        return all;
    }

    void save(Backup backup) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.put(Keyspaces.BACKUPS, row(DESCRIPTION_ROW, backup.id()), encode(backup));
            storage.commit(batch);
        }
    }

    /** Stages one item of the backup's copy. */
    static void stageItem(WriteBatch batch, String id, byte[] rowKey, byte[] item) {
        batch.put(Keyspaces.BACKUPS, itemKey(id, rowKey), item);
    }

    private static byte[] itemKey(String id, byte[] rowKey) {
        byte[] prefix = row(ITEM_ROW, id);
        byte[] key = new byte[prefix.length + rowKey.length];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        System.arraycopy(rowKey, 0, key, prefix.length, rowKey.length);
        return key;
    }

    /** Stages the removal of one item from the backup's copy. */
    static void stageDelete(WriteBatch batch, String id, byte[] rowKey) {
        batch.delete(Keyspaces.BACKUPS, itemKey(id, rowKey));
    }

    /** One item of the backup's copy (as stored), or null. */
    byte[] item(String id, byte[] rowKey) {
        return storage.get(Keyspaces.BACKUPS, itemKey(id, rowKey));
    }

    /** Drops the backup's copied items (a copy starting over). */
    void dropItems(String id) {
        byte[] from = row(ITEM_ROW, id);
        storage.deleteRange(Keyspaces.BACKUPS, from, upperBound(from));
    }

    /**
     * The backup's items; values are the items as stored. In the table's order on one server; on
     * shared storage collection after collection (a restore takes them in any order).
     */
    Cursor items(Snapshot snapshot, String id) {
        byte[] from = row(ITEM_ROW, id);
        return storage.range(snapshot, Keyspaces.BACKUPS, from, upperBound(from), false);
    }

    /** Deletes the backup: its items first, then its description. */
    void drop(String id) {
        dropItems(id);
        try (WriteBatch batch = storage.newBatch()) {
            batch.delete(Keyspaces.BACKUPS, row(DESCRIPTION_ROW, id));
            storage.commit(batch);
        }
    }

    /** Bounds the rows under one backup's prefix: ids are fixed-length ASCII, so the last byte's successor does. */
    private static byte[] upperBound(byte[] prefix) {
        byte[] bound = prefix.clone();
        bound[bound.length - 1]++;
        return bound;
    }

    private static byte[] row(byte type, String id) {
        byte[] key = new byte[1 + ID_LENGTH];
        key[0] = type;
        System.arraycopy(id.getBytes(StandardCharsets.US_ASCII), 0, key, 1, ID_LENGTH);
        return key;
    }

    private static byte[] encode(Backup b) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(b.name());
            out.writeUTF(b.status().name());
            out.writeLong(b.creationDateTime().toEpochMilli());
            out.writeLong(b.sizeBytes());
            out.writeLong(b.itemCount());
            out.writeUTF(b.sourceTableArn());
            out.writeLong(b.sourceSizeBytes());
            out.writeLong(b.sourceItemCount());
            byte[] source = TableCodec.encode(b.source());
            out.writeInt(source.length);
            out.write(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static Backup decode(String id, byte[] stored) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(stored))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) throw new IOException("unknown backup format " + version);
            String name = in.readUTF();
            Backup.Status status = Backup.Status.valueOf(in.readUTF());
            Instant created = Instant.ofEpochMilli(in.readLong());
            long size = in.readLong();
            long count = in.readLong();
            String sourceArn = in.readUTF();
            long sourceSize = in.readLong();
            long sourceCount = in.readLong();
            byte[] source = new byte[in.readInt()];
            in.readFully(source);
            return new Backup(id, sourceArn + "/backup/" + id, name, status, created, size, count,
                    TableCodec.decode(source), sourceArn, sourceSize, sourceCount);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt backup description " + id, e);
        }
    }
}
