package io.stator.engine.backup;

import io.stator.core.item.ItemCodec;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.lock.ItemLocks;
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
 * restart runs it again from the start ({@link #asRequested}).
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
        synchronized (this) {
            Map<Long, List<String>> next = new HashMap<>(creating);
            List<String> ids = new ArrayList<>(next.getOrDefault(tableId, List.of()));
            ids.remove(backupId);
            if (ids.isEmpty()) next.remove(tableId);
            else next.put(tableId, List.copyOf(ids));
            creating = Map.copyOf(next);
        }
        release();
        drop(backupId);
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
    public void settle(WriteBatch batch) {
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

    /** The ids of the backups that have before images (a start drops those of backups no longer CREATING). */
    List<String> backupsWithImages() {
        List<String> ids = new ArrayList<>();
        byte[] from = {ROW};
        byte[] to = {ROW + 1};
        while (true) {
            try (Cursor c = storage.range(null, Keyspaces.BACKUPS, from, to, false)) {
                if (!c.next()) return ids;
                String id = new String(c.key(), 1, BackupCatalog.ID_LENGTH, StandardCharsets.US_ASCII);
                ids.add(id);
                from = upperBound(prefix(id));
            }
        }
    }

    /**
     * The backup's table as it was requested, read from {@code snapshot} (taken at any time
     * since): the table's items merged, in row-key order, with the backup's before images; an
     * item absent at the request is left out. Keys are the items' row keys, values their stored form.
     */
    Cursor asRequested(Snapshot snapshot, String backupId, long tableId) {
        byte[] from = prefix(backupId);
        return new Merged(Batched.tableItems(storage, snapshot, tableId),
                storage.range(snapshot, Keyspaces.BACKUPS, from, upperBound(from), false));
    }

    /** The table's rows, each replaced by its before image where it has one. */
    private static final class Merged implements Cursor {
        private final Cursor items;
        private final Cursor images;
        private boolean itemsLeft;
        private boolean imagesLeft;
        private byte[] key;
        private byte[] value;

        Merged(Cursor items, Cursor images) {
            this.items = items;
            this.images = images;
            try {
                itemsLeft = items.next();
                imagesLeft = images.next();
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        @Override
        public boolean next() {
            while (itemsLeft || imagesLeft) {
                byte[] imageKey = imagesLeft ? rowKeyOf(images.key()) : null;
                int order = !imagesLeft ? -1 : !itemsLeft ? 1 : Arrays.compareUnsigned(items.key(), imageKey);
                if (order < 0) {
                    key = items.key();
                    value = items.value();
                    itemsLeft = items.next();
                    return true;
                }
                byte[] image = images.value();
                if (order == 0) itemsLeft = items.next();
                imagesLeft = images.next();
                if (image[0] == 0) continue; // created since the request
                key = imageKey;
                value = Arrays.copyOfRange(image, 1, image.length);
                return true;
            }
            return false;
        }

        @Override
        public byte[] key() {
            return key;
        }

        @Override
        public byte[] value() {
            return value;
        }

        @Override
        public void close() {
            try {
                items.close();
            } finally {
                images.close();
            }
        }
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
