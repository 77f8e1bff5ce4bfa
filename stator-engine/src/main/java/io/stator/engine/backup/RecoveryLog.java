package io.stator.engine.backup;

import io.stator.core.item.ItemCodec;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.CommitLostException;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Point-in-time recovery's history: the RECOVERY key space. For each table with point-in-time
 * recovery, a base copy of its items as they were at one moment, and every change since, keyed
 * by its commit time; the table as it was at time T is the base with every change up to T
 * applied in time order. As the recovery window moves, the changes older than it are folded into
 * the base (applied to it, then dropped), so the history holds the window's changes and the base
 * one copy of the table: disk use is the table's size plus its writes over the window, whatever
 * the number of restores.
 *
 * <p>Rows, every one starting with the table id (so a table's deletion drops them with
 * one range, {@code Catalog}):
 * <pre>
 * table id (8) 'B' + row key                  -> the item (ItemCodec's form): the base
 * table id (8) 'H' + commit ms (8) + row key  -> 1 + the item after the change, or 0 when deleted
 * </pre>
 * A change's row is written by this {@link ChangeLog} consumer in the batch that commits it.
 * Every change of one batch (a transaction's) carries the same time, so a restore has all of a
 * transaction or none of it. Times never go backwards (a clock set back keeps the last time), and
 * two changes of one item in the same millisecond share a key: the later commit (an item's
 * writes are serialized) overwrites the earlier, which is the state a restore must see.
 *
 * <p>On shared storage (several servers) every server's writes stage their history rows, with
 * that server's clock: the servers' clocks are taken to agree (NTP) to far better than the five
 * minutes by which the latest restorable time trails now, so that a change is committed (or its
 * transaction decided) long before a restore can ask for its time. A range of this key space
 * there comes in the store's order, each item's rows in time order but not the items' among
 * themselves (cluster/RecoveryRows): what is read here relies on the former only.
 */
final class RecoveryLog implements ChangeLog.Consumer {

    private static final byte BASE = 'B';
    private static final byte HISTORY = 'H';
    /** Where a base row's key has the item's row key: after the table id and the row's type. */
    private static final int BASE_ROW_KEY_OFFSET = 9;

    private final Storage storage;
    private final Clock clock;
    private final AtomicLong lastTime = new AtomicLong();
    /** Each batch's commit time, from its first change to its settling. */
    private final Map<WriteBatch, Long> batchTimes = new ConcurrentHashMap<>();

    RecoveryLog(Storage storage, Clock clock) {
        this.storage = storage;
        this.clock = clock;
    }

    /** A table with point-in-time recovery: its history is in the order of the item's changes. */
    @Override
    public boolean wants(TableDefinition table) {
        return table.pointInTimeRecovery() != null;
    }

    @Override
    public void stage(WriteBatch batch, ChangeRecord change) {
        TableDefinition table = change.table();
        if (table.pointInTimeRecovery() == null) return;
        long time = batchTimes.computeIfAbsent(batch, b -> lastTime.accumulateAndGet(clock.millis(), Math::max));
        byte[] value;
        if (change.newItem() == null) {
            value = new byte[] {0};
        } else {
            byte[] item = ItemCodec.encode(change.newItem());
            value = new byte[item.length + 1];
            value[0] = 1;
            System.arraycopy(item, 0, value, 1, item.length);
        }
        batch.put(Keyspaces.RECOVERY, historyKey(table.id(), time, change.rowKey()), value);
    }

    @Override
    public void settle(WriteBatch batch, boolean committed) {
        batchTimes.remove(batch);
    }

    // ---- the base ---------------------------------------------------------------------------------

    /** Replaces the table's base with its items as the snapshot has them. Returns how many. */
    long copyBase(long tableId, Snapshot snapshot, java.util.function.BooleanSupplier stopped) {
        storage.deleteRange(Keyspaces.RECOVERY, prefix(tableId, BASE), prefix(tableId, (byte) (BASE + 1)));
        try (Cursor cursor = Batched.tableItems(storage, snapshot, tableId)) {
            return Batched.forEach(storage, cursor, stopped,
                    (batch, rowKey, item) -> batch.put(Keyspaces.RECOVERY, baseKey(tableId, rowKey), item));
        }
    }

    /**
     * Folds the changes made before {@code beforeMillis} into the base, oldest first: each is
     * applied to the base and dropped in one batch, so a restore reading one snapshot sees every
     * change either in the base or in the history. Returns how many were folded.
     *
     * <p>Several servers may fold one table at once (shared storage: every server trims): each
     * change is folded only if it is still in the history (the batch expects it), so a server
     * that meets a change another folded first stops, leaving the rest to the other.
     */
    long fold(long tableId, long beforeMillis) {
        try (Snapshot snapshot = storage.snapshot();
             Cursor cursor = storage.range(snapshot, Keyspaces.RECOVERY, prefix(tableId, HISTORY),
                     historyKey(tableId, beforeMillis, new byte[0]), false)) {
            return Batched.forEach(storage, cursor, () -> false, (batch, key, value) -> {
                byte[] base = baseKey(tableId, rowKeyOf(key));
                byte[] item = change(value);
                batch.expect(Keyspaces.RECOVERY, key, value);
                if (item == null) batch.delete(Keyspaces.RECOVERY, base);
                else batch.put(Keyspaces.RECOVERY, base, item);
                batch.delete(Keyspaces.RECOVERY, key);
            });
        } catch (CommitLostException e) {
            return 0; // another server folds the table's history; it is left to it
        }
    }

    /** Drops the table's base and history (point-in-time recovery disabled). */
    void drop(long tableId) {
        storage.deleteRange(Keyspaces.RECOVERY, ByteBuffer.allocate(8).putLong(tableId).array(),
                ByteBuffer.allocate(8).putLong(tableId + 1).array());
    }

    // ---- reading it back --------------------------------------------------------------------------

    /**
     * Every item of the table as it was at {@code atMillis} (inclusive), in its stored form, read
     * from one snapshot: the last change of each item changed since the base, then the base's
     * items that none changed. Returns how many.
     */
    long itemsAt(Snapshot snapshot, long tableId, long atMillis, PointInTimeRecovery.Sink<byte[]> sink) throws java.io.IOException {
        Map<ByteBuffer, byte[]> changed = new HashMap<>();
        try (Cursor history = history(snapshot, tableId, atMillis)) {
            while (history.next()) changed.put(ByteBuffer.wrap(rowKeyOf(history.key())), change(history.value()));
        }
        long count = 0;
        try (Cursor base = storage.range(snapshot, Keyspaces.RECOVERY, prefix(tableId, BASE),
                prefix(tableId, (byte) (BASE + 1)), false)) {
            while (base.next()) {
                byte[] key = base.key();
                if (changed.containsKey(ByteBuffer.wrap(key, BASE_ROW_KEY_OFFSET, key.length - BASE_ROW_KEY_OFFSET))) continue;
                sink.accept(base.value());
                count++;
            }
        }
        for (byte[] item : changed.values()) {
            if (item == null) continue;
            sink.accept(item);
            count++;
        }
        return count;
    }

    /**
     * One item's change over a period, stored forms: its state right before the period (null
     * when absent), at its end (null when deleted), and when it was last written.
     */
    record Change(byte[] rowKey, byte[] before, byte[] after, long timeMillis) {}

    /**
     * Every item changed from {@code fromMillis} (inclusive) to {@code toMillis} (exclusive), once;
     * an item absent at both ends is left out. Returns how many.
     */
    long changesBetween(Snapshot snapshot, long tableId, long fromMillis, long toMillis, PointInTimeRecovery.Sink<Change> sink)
            throws java.io.IOException {
        Map<ByteBuffer, byte[]> before = new HashMap<>();
        Map<ByteBuffer, byte[]> after = new LinkedHashMap<>();
        Map<ByteBuffer, Long> times = new HashMap<>();
        try (Cursor history = history(snapshot, tableId, toMillis - 1)) {
            while (history.next()) {
                byte[] key = history.key();
                ByteBuffer rowKey = ByteBuffer.wrap(rowKeyOf(key));
                long time = timeOf(key);
                if (time < fromMillis) {
                    before.put(rowKey, change(history.value()));
                } else {
                    after.put(rowKey, change(history.value()));
                    times.put(rowKey, time);
                }
            }
        }
        long count = 0;
        for (Map.Entry<ByteBuffer, byte[]> e : after.entrySet()) {
            byte[] rowKey = e.getKey().array();
            byte[] old = before.containsKey(e.getKey()) ? before.get(e.getKey())
                    : storage.get(snapshot, Keyspaces.RECOVERY, baseKey(tableId, rowKey));
            if (old == null && e.getValue() == null) continue;
            sink.accept(new Change(rowKey, old, e.getValue(), times.get(e.getKey())));
            count++;
        }
        return count;
    }

    /** The changes made up to {@code atMillis} inclusive, oldest first. */
    private Cursor history(Snapshot snapshot, long tableId, long atMillis) {
        return storage.range(snapshot, Keyspaces.RECOVERY, prefix(tableId, HISTORY),
                historyKey(tableId, atMillis + 1, new byte[0]), false);
    }

    /** A history row's key: the item's row key in its table. */
    private static byte[] rowKeyOf(byte[] historyKey) {
        return Arrays.copyOfRange(historyKey, 17, historyKey.length);
    }

    /** A history row's key: when the change was committed (epoch milliseconds). */
    private static long timeOf(byte[] historyKey) {
        return ByteBuffer.wrap(historyKey, 9, 8).getLong();
    }

    /** A history row's item after the change, or null when the change deleted it. */
    private static byte[] change(byte[] value) {
        return value[0] == 0 ? null : Arrays.copyOfRange(value, 1, value.length);
    }

    // ---- keys ---------------------------------------------------------------------------------------

    private static byte[] prefix(long tableId, byte type) {
        return ByteBuffer.allocate(9).putLong(tableId).put(type).array();
    }

    private static byte[] baseKey(long tableId, byte[] rowKey) {
        return ByteBuffer.allocate(9 + rowKey.length).putLong(tableId).put(BASE).put(rowKey).array();
    }

    private static byte[] historyKey(long tableId, long millis, byte[] rowKey) {
        return ByteBuffer.allocate(17 + rowKey.length).putLong(tableId).put(HISTORY).putLong(millis).put(rowKey).array();
    }
}
