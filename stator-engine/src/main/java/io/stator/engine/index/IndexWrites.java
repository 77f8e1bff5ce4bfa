package io.stator.engine.index;

import io.stator.core.item.ItemCodec;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import io.stator.engine.table.TableCounters;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

/**
 * Moves one item's entry in a global index, with exact counters. Propagation and backfill can
 * reach an entry in either order (a change may remove an entry the backfill has not written yet,
 * or rewrite one it already has), so the counters are moved by what the index holds, read
 * before each change, not by what the change expected it to hold.
 */
final class IndexWrites {

    /** Marks a key deleted earlier in the same batch. */
    private static final byte[] DELETED = new byte[0];

    private IndexWrites() {}

    /**
     * Replaces the entry at {@code oldKey} (if any) by {@code newValue} at {@code newKey} (if
     * any). {@code written} holds what this batch has already changed, as the store does not
     * show it yet.
     */
    static void apply(Storage storage, WriteBatch batch, Map<ByteBuffer, byte[]> written, long tableId, int indexId,
                      byte[] oldKey, byte[] newKey, byte[] newValue, long newSize) {
        long items = 0;
        long bytes = 0;
        boolean sameKey = oldKey != null && newKey != null && Arrays.equals(oldKey, newKey);
        if (oldKey != null && !sameKey) {
            byte[] existing = current(storage, written, oldKey);
            if (existing != null) {
                batch.delete(Keyspaces.ITEMS, oldKey);
                written.put(ByteBuffer.wrap(oldKey), DELETED);
                items--;
                bytes -= sizeOf(existing);
            }
        }
        if (newKey != null) {
            byte[] existing = current(storage, written, newKey);
            if (existing == null) items++;
            else bytes -= sizeOf(existing);
            batch.put(Keyspaces.ITEMS, newKey, newValue);
            written.put(ByteBuffer.wrap(newKey), newValue);
            bytes += newSize;
        }
        TableCounters.recordIndex(batch, tableId, indexId, items, bytes);
    }

    private static byte[] current(Storage storage, Map<ByteBuffer, byte[]> written, byte[] key) {
        byte[] inBatch = written.get(ByteBuffer.wrap(key));
        if (inBatch != null) return inBatch == DELETED ? null : inBatch;
        return storage.get(Keyspaces.ITEMS, key);
    }

    private static long sizeOf(byte[] storedEntry) {
        return ItemCodec.measure(storedEntry, null).itemSize();
    }
}
