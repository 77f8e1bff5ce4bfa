package io.stator.engine.replication;

import io.stator.core.key.KeyLayout;
import io.stator.engine.changes.ItemVersion;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.lock.ItemLocks;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.ByteBuffer;

/**
 * Each item's version in a global table (the ITEM_VERSIONS key space, by the item's row key),
 * written in the batch that writes the item. A deleted item keeps its version as a tombstone, so
 * that a change older than the delete arriving late from another region is refused rather than
 * bringing the item back; tombstones are collected once older than the retention, and a change
 * older than the retention is refused whatever is stored, since its tombstone may be gone.
 *
 * <p>Row: u8 flags (1: deleted); i64 when this region wrote the row (its clock, what a tombstone
 * is collected by); the version ({@link ItemVersion#encode}).
 */
final class ItemVersions {

    private static final int DELETED = 1;
    private static final int HEADER = 9;

    private final Storage storage;

    ItemVersions(Storage storage) {
        this.storage = storage;
    }

    /** An item's stored version: deleted when it is a tombstone. */
    record Stored(ItemVersion version, boolean deleted, long writtenAtMillis) {}

    /** The item's version, or null when it has none (never written since its table turned global). */
    Stored read(byte[] rowKey) {
        return decode(storage.get(Keyspaces.ITEM_VERSIONS, rowKey));
    }

    Stored read(Snapshot snapshot, byte[] rowKey) {
        return decode(storage.get(snapshot, Keyspaces.ITEM_VERSIONS, rowKey));
    }

    static Stored decode(byte[] row) {
        if (row == null) return null;
        ByteBuffer b = ByteBuffer.wrap(row);
        boolean deleted = (b.get() & DELETED) != 0;
        long writtenAt = b.getLong();
        return new Stored(ItemVersion.decode(row, HEADER, row.length - HEADER), deleted, writtenAt);
    }

    static void stage(WriteBatch batch, byte[] rowKey, ItemVersion version, boolean deleted, long nowMillis) {
        byte[] v = version.encode();
        batch.put(Keyspaces.ITEM_VERSIONS, rowKey,
                ByteBuffer.allocate(HEADER + v.length).put((byte) (deleted ? DELETED : 0)).putLong(nowMillis).put(v).array());
    }

    /** Removes the table's tombstones written before {@code beforeMillis}; returns how many. */
    @SuppressWarnings("try") // the hold is held, not used
    int collectTombstones(long tableId, long beforeMillis, ItemLocks locks) {
        int collected = 0;
        try (Snapshot snapshot = storage.snapshot();
             Cursor c = storage.range(snapshot, Keyspaces.ITEM_VERSIONS, KeyLayout.indexPrefix(tableId, 0),
                     KeyLayout.indexUpperBound(tableId, 0), false)) {
            while (c.next()) {
                Stored s = decode(c.value());
                if (!s.deleted() || s.writtenAtMillis() >= beforeMillis) continue;
                // Held and read again: a write of the item since keeps its row.
                try (ItemLocks.Held held = locks.lock(c.key()); WriteBatch batch = storage.newBatch()) {
                    byte[] now = storage.get(Keyspaces.ITEM_VERSIONS, c.key());
                    if (!java.util.Arrays.equals(now, c.value())) continue;
                    batch.expect(Keyspaces.ITEM_VERSIONS, c.key(), now);
                    batch.delete(Keyspaces.ITEM_VERSIONS, c.key());
                    storage.commit(batch);
                    collected++;
                }
            }
        }
        return collected;
    }
}
