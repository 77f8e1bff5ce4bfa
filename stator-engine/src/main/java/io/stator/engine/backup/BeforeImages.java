package io.stator.engine.backup;

import io.stator.core.item.ItemCodec;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.lock.ItemLocks;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What lets a backup that a crash cut short be finished, exactly as it was requested: while a
 * backup is CREATING, the first change of each of its table's items stages, in the change's own
 * commit, the item as it was before (its <em>before image</em>). The table as it was when the
 * backup was requested is then, read from any later snapshot, each item's before image where it
 * has one, else the item as it is; so the copy needs no snapshot that a restart would lose, and a
 * restart runs it again from the start (Backups' copy, with {@link #images}).
 *
 * <p>When "requested" is: CreateBackup registers this consumer, waits for the writes in flight
 * (which may have staged without it), then adds the table to the backups being created, and waits
 * again. A batch takes the view it stages with at its first change, so all of a transaction's
 * items have before images or none do: a batch that staged with the older view committed before
 * the backup's moment and is in it whole; one that staged with the newer is out of it whole. The
 * moment lies within the CreateBackup request, which is all DynamoDB promises and more: "the
 * backup is guaranteed to contain all data committed to the table up to 14:24:00, and data
 * committed after 14:26:00 will not be" for a request at 14:25:00 (API reference, CreateBackup).
 *
 * <p>On a cluster (several servers sharing a Cassandra store) every server's writes must keep the
 * images, so every server must learn of the backup: the one that takes the request adds it at
 * once, the others read the backups being created each second (with the catalog,
 * {@code Backups#follow}), and the copy starts only once the deployment's settle time
 * ({@code Deployment#catalogSettleMillis}: every server has read it and a write begun without it
 * has committed) has passed. A write that began before its server knew commits without an image,
 * before the copy starts: in the backup, as any write before the request. So the backup is each
 * item as it was just before its first change by a server that knew, which committed after the
 * request; and a change committed after the settle time (5 s after the request) is never in it:
 * DynamoDB's promise, with its minute on either side. Images are written before the item's commit
 * (a hint: an image whose commit was lost is still the item as it is), and the first image wins
 * (a writer finding one keeps it), as on one server; two servers racing on an item's first change
 * both write the image they read, the item as it was before either change. Causal consistency
 * across items is not promised, as DynamoDB does not ("On-demand backup does not support causal
 * consistency", API reference, CreateBackup).
 *
 * <p>Rows, in the BACKUPS key space ({@link BackupCatalog}):
 * <pre>
 * 'P' + backup id + row key  -> 0 when the item was absent at the request, else 1 + the item (ItemCodec's form)
 * </pre>
 * dropped once the backup is AVAILABLE. Registered with the {@link ChangeLog} only while some
 * backup is being created: with none, writes pay nothing for it.
 */
final class BeforeImages implements ChangeLog.Consumer {

    private static final byte ROW = 'P';

    private final Storage storage;
    private final ChangeLog changeLog;
    private final ItemLocks locks;
    /** The backups being created, by their table's storage id; replaced whole, never changed in place. */
    private volatile Map<Long, List<String>> creating = Map.of();
    /** Each batch's view of {@link #creating}, from its first change to its settling. */
    private final Map<WriteBatch, Map<Long, List<String>>> batchViews = new ConcurrentHashMap<>();
    private boolean registered;

    BeforeImages(Storage storage, ChangeLog changeLog, ItemLocks locks) {
        this.storage = storage;
        this.changeLog = changeLog;
        this.locks = locks;
    }

    /** Staged from here on: registered with the change log (the backup's moment is not set yet). */
    synchronized void prepare() {
        if (!registered) {
            changeLog.register(this);
            registered = true;
        }
    }

    /**
     * Adds the backup to those being created: batches staging from now on keep its before images.
     * After {@link #prepare} and a wait for the writes in flight (or, at a start, before any write).
     */
    synchronized void start(long tableId, String backupId) {
        prepare();
        Map<Long, List<String>> next = new HashMap<>(creating);
        List<String> ids = new ArrayList<>(next.getOrDefault(tableId, List.of()));
        ids.add(backupId);
        next.put(tableId, List.copyOf(ids));
        creating = Map.copyOf(next);
    }

    /** Whether a backup of the table is being created (the table cannot be deleted meanwhile). */
    boolean creating(long tableId) {
        return creating.containsKey(tableId);
    }

    /**
     * The backup is AVAILABLE: no batch keeps its before images any more, and they are dropped.
     */
    void finish(long tableId, String backupId) {
        stopKeeping(tableId, backupId);
        release();
        drop(backupId);
    }

    /** Batches from now on keep no before images for the backup. */
    private synchronized void stopKeeping(long tableId, String backupId) {
        Map<Long, List<String>> next = new HashMap<>(creating);
        List<String> ids = new ArrayList<>(next.getOrDefault(tableId, List.of()));
        ids.remove(backupId);
        if (ids.isEmpty()) next.remove(tableId);
        else next.put(tableId, List.copyOf(ids));
        creating = Map.copyOf(next);
    }

    /**
     * Unregistered when no backup is being created, so that writes build no change records for
     * it; returns once every batch that took an older view has committed.
     */
    void release() {
        synchronized (this) {
            if (registered && creating.isEmpty()) {
                changeLog.unregister(this);
                registered = false;
            }
        }
        locks.awaitWritesInFlight();
        synchronized (this) {
            // Batches that staged before the unregistering were settled without us.
            if (!registered) batchViews.clear();
        }
    }

    /** A table a backup is being made of: its changes keep the items as they were. */
    @Override
    public boolean wants(TableDefinition table) {
        return creating.containsKey(table.id());
    }

    @Override
    public void stage(WriteBatch batch, ChangeRecord change) {
        Map<Long, List<String>> view = batchViews.computeIfAbsent(batch, b -> creating);
        List<String> ids = view.get(change.table().id());
        if (ids == null) return;
        for (String id : ids) {
            byte[] key = key(id, change.rowKey());
            // The item is held: no other write of it stages meanwhile, so the first change's image stays.
            if (storage.get(Keyspaces.BACKUPS, key) != null) continue;
            batch.put(Keyspaces.BACKUPS, key, image(change));
        }
    }

    @Override
    public void settle(WriteBatch batch, boolean committed) {
        batchViews.remove(batch);
    }

    private static byte[] image(ChangeRecord change) {
        if (change.oldItem() == null) return new byte[] {0};
        byte[] item = ItemCodec.encode(change.oldItem());
        byte[] value = new byte[item.length + 1];
        value[0] = 1;
        System.arraycopy(item, 0, value, 1, item.length);
        return value;
    }

    /** Drops one backup's before images. */
    void drop(String backupId) {
        byte[] from = prefix(backupId);
        storage.deleteRange(Keyspaces.BACKUPS, from, upperBound(from));
    }

    /**
     * Whether the backup has before images left (a start drops those of backups no longer
     * CREATING): asked of each backup, since on shared storage one backup's images are several
     * collections, and no range over every backup's reaches them.
     */
    boolean hasImages(String backupId) {
        try (Cursor c = images(null, backupId)) {
            return c.next();
        }
    }

    /**
     * Another server's backup ended (AVAILABLE, or deleted): this server's writes stop keeping its
     * before images; the server that copied it drops them.
     */
    void forget(long tableId, String backupId) {
        synchronized (this) {
            if (!creatingIds().contains(backupId)) return;
            stopKeeping(tableId, backupId);
        }
        release();
    }

    /** The ids of the backups whose before images this server's writes keep. */
    java.util.Set<String> creatingIds() {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (List<String> l : creating.values()) ids.addAll(l);
        return ids;
    }

    /**
     * The backup's before images, read from {@code snapshot}: keys are the items' row keys, values
     * the images as stored ({@link #itemOf} reads them). In key order on one server; on shared
     * storage bucket after bucket (any order serves a copy's second pass).
     */
    Cursor images(Snapshot snapshot, String backupId) {
        byte[] from = prefix(backupId);
        Cursor rows = storage.range(snapshot, Keyspaces.BACKUPS, from, upperBound(from), false);
        return new Cursor() {
            @Override public boolean next() { return rows.next(); }
            @Override public byte[] key() { return rowKeyOf(rows.key()); }
            @Override public byte[] value() { return rows.value(); }
            @Override public void close() { rows.close(); }
        };
    }

    /** The item a before image keeps (its stored form), or null when the item was absent at the request. */
    static byte[] itemOf(byte[] image) {
        return image[0] == 0 ? null : Arrays.copyOfRange(image, 1, image.length);
    }

    private static byte[] rowKeyOf(byte[] imageKey) {
        return Arrays.copyOfRange(imageKey, 1 + BackupCatalog.ID_LENGTH, imageKey.length);
    }

    private static byte[] key(String backupId, byte[] rowKey) {
        byte[] prefix = prefix(backupId);
        byte[] key = Arrays.copyOf(prefix, prefix.length + rowKey.length);
        System.arraycopy(rowKey, 0, key, prefix.length, rowKey.length);
        return key;
    }

    private static byte[] prefix(String backupId) {
        byte[] key = new byte[1 + BackupCatalog.ID_LENGTH];
        key[0] = ROW;
        System.arraycopy(backupId.getBytes(StandardCharsets.US_ASCII), 0, key, 1, BackupCatalog.ID_LENGTH);
        return key;
    }

    private static byte[] upperBound(byte[] prefix) {
        byte[] bound = prefix.clone();
        bound[bound.length - 1]++;
        return bound;
    }
}
