package io.stator.engine.replication;

import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.changes.ItemVersion;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.TableCodec;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Global tables' consumer of the change log: every change of a replica's item gets its
 * version here, in the change's own batch (a change made here a new one from the region's
 * {@link HybridClock}, a replicated one the version its region gave it), and a change made here
 * is also kept in the REPLICATION_LOG key space, in sequence order per table, until every other
 * region has it. A replicated change is never logged, so never shipped again: every region
 * ships its own changes to every other, and nothing goes round in circles.
 *
 * <p>Rows: {@code [table id][i64 sequence]} a change ({@link ReplicatedChange}); {@code [table
 * id][0xFF x 8][region, UTF-8]} the sequence the region has not yet been sent (its cursor),
 * sorting after the table's changes; {@code [0xFF x 8]['D'][table name, UTF-8]} a replica deleted
 * here by DeleteTable, the table's definition as the other regions are to hear it (without this
 * region), committed with the deletion and kept until each has heard (no table has id -1).
 *
 * <p>A sequence is taken when the change is staged and committed a moment later, so sequences
 * can commit out of order; a reader stops before the lowest sequence still in flight
 * ({@link #safeHead}), and never skips one that would commit after it had moved on.
 */
final class ReplicationLog implements ChangeLog.Consumer {

    private static final byte[] CURSORS = {-1, -1, -1, -1, -1, -1, -1, -1};
    private static final byte DEPARTURE = 'D';

    private final Storage storage;
    private final HybridClock hybridClock;
    private final String region;
    private final Clock clock;
    private final Runnable committed;
    private final Map<Long, AtomicLong> nextSequence = new ConcurrentHashMap<>();
    private final Map<Long, ConcurrentSkipListSet<Long>> inFlight = new ConcurrentHashMap<>();
    private final Map<WriteBatch, List<long[]>> staged = new ConcurrentHashMap<>();

    /** @param committed told after a batch with logged changes commits (the shippers wake) */
    ReplicationLog(Storage storage, HybridClock hybridClock, String region, Clock clock, Runnable committed) {
        this.storage = storage;
        this.hybridClock = hybridClock;
        this.region = region;
        this.clock = clock;
        this.committed = committed;
    }

    Storage storage() { return storage; }

    @Override
    public boolean wants(TableDefinition table) {
        return table.globalTable() != null;
    }

    @Override
    public void stage(WriteBatch batch, ChangeRecord change) {
        TableDefinition table = change.table();
        if (!wants(table)) return;
        long now = clock.millis();
        ItemVersion version = change.version() != null ? change.version() : new ItemVersion(hybridClock.next(), region);
        ItemVersions.stage(batch, change.rowKey(), version, change.newItem() == null, now);
        // A replicated change is never shipped again; a strongly consistent table's are ordered by
        // its consensus group instead.
        if (change.origin() == ChangeRecord.Origin.REPLICATION
                || !table.eventuallyReplicated()) return;
        Map<String, AttributeValue> any = change.newItem() != null ? change.newItem() : change.oldItem();
        ReplicatedChange shipped = new ReplicatedChange(RowKeys.keyOf(table.keySchema(), any), change.newItem(),
                version, now);
        long sequence = take(table.id());
        staged.computeIfAbsent(batch, b -> new ArrayList<>(1)).add(new long[] {table.id(), sequence});
        batch.put(Keyspaces.REPLICATION_LOG, changeKey(table.id(), sequence), shipped.encode());
    }

    @Override
    public void settle(WriteBatch batch) {
        List<long[]> settled = staged.remove(batch);
        if (settled == null) return;
        for (long[] s : settled) inFlight.get(s[0]).remove(s[1]);
        committed.run();
    }

    /**
     * A sequence for a change being staged, in flight at once: taken and marked together, so that
     * {@link #safeHead} never sees a sequence taken and not yet in flight (a reader would move past
     * it before it commits, and the change would never be shipped).
     */
    private synchronized long take(long tableId) {
        long sequence = sequences(tableId).getAndIncrement();
        inFlight.computeIfAbsent(tableId, id -> new ConcurrentSkipListSet<>()).add(sequence);
        return sequence;
    }

    private AtomicLong sequences(long tableId) {
        return nextSequence.computeIfAbsent(tableId, id -> new AtomicLong(lastStored(id) + 1));
    }

    private long lastStored(long tableId) {
        try (Snapshot snapshot = storage.snapshot();
             Cursor c = storage.range(snapshot, Keyspaces.REPLICATION_LOG, changeKey(tableId, 0), cursorPrefix(tableId),
                     true)) {
            return c.next() ? ByteBuffer.wrap(c.key()).getLong(8) : -1;
        }
    }

    /** The sequence below which every change of the table has committed (or was abandoned). */
    synchronized long safeHead(long tableId) {
        long next = sequences(tableId).get();
        ConcurrentSkipListSet<Long> flying = inFlight.get(tableId);
        if (flying == null || flying.isEmpty()) return next;
        Long lowest = flying.ceiling(Long.MIN_VALUE);
        return lowest == null ? next : Math.min(lowest, next);
    }

    /** A logged change and its sequence. */
    record Logged(long sequence, byte[] change) {}

    /** Up to {@code max} changes (and about {@code maxBytes}) from {@code from}, all below the safe head. */
    List<Logged> read(long tableId, long from, int max, long maxBytes) {
        long head = safeHead(tableId);
        List<Logged> out = new ArrayList<>();
        if (from >= head) return out;
        long bytes = 0;
        try (Snapshot snapshot = storage.snapshot();
             Cursor c = storage.range(snapshot, Keyspaces.REPLICATION_LOG, changeKey(tableId, from), changeKey(tableId, head),
                     false)) {
            while (out.size() < max && bytes < maxBytes && c.next()) {
                out.add(new Logged(ByteBuffer.wrap(c.key()).getLong(8), c.value()));
                bytes += c.value().length;
            }
        }
        return out;
    }

    /** The region's cursor: the first sequence it has not been sent; -1 when it has none. */
    long cursor(long tableId, String peer) {
        byte[] row = storage.get(Keyspaces.REPLICATION_LOG, cursorKey(tableId, peer));
        return row == null ? -1 : ByteBuffer.wrap(row).getLong();
    }

    void saveCursor(long tableId, String peer, long sequence) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.put(Keyspaces.REPLICATION_LOG, cursorKey(tableId, peer), ByteBuffer.allocate(8).putLong(sequence).array());
            storage.commit(batch);
        }
    }

    void dropCursor(long tableId, String peer) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.delete(Keyspaces.REPLICATION_LOG, cursorKey(tableId, peer));
            storage.commit(batch);
        }
    }

    /** Drops the changes below {@code sequence}: every region has them. */
    void trim(long tableId, long sequence) {
        if (sequence > 0) storage.deleteRange(Keyspaces.REPLICATION_LOG, changeKey(tableId, 0), changeKey(tableId, sequence));
    }

    // ---- Departures -------------------------------------------------------------------------------------

    /** Stages a replica's departure (DeleteTable here) in the deletion's batch. */
    void stageDeparture(WriteBatch batch, TableDefinition withoutThisRegion) {
        batch.put(Keyspaces.REPLICATION_LOG, departureKey(withoutThisRegion.name()), TableCodec.encode(withoutThisRegion));
    }

    /** The departures not yet heard by every other region, by table name. */
    Map<String, TableDefinition> departures() {
        Map<String, TableDefinition> out = new HashMap<>();
        byte[] from = departureKey("");
        byte[] to = Arrays.copyOf(from, from.length);
        to[to.length - 1]++;
        try (Cursor c = storage.range(null, Keyspaces.REPLICATION_LOG, from, to, false)) {
            while (c.next()) out.put(new String(c.key(), from.length, c.key().length - from.length,
                    StandardCharsets.UTF_8), TableCodec.decode(c.value()));
        }
        return out;
    }

    /** Every other region has heard of the departure (or the table is back): its row goes. */
    void departureHeard(String table) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.delete(Keyspaces.REPLICATION_LOG, departureKey(table));
            storage.commit(batch);
        }
    }

    private static byte[] departureKey(String table) {
        byte[] name = table.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(9 + name.length).put(CURSORS).put(DEPARTURE).put(name).array();
    }

    private static byte[] changeKey(long tableId, long sequence) {
        return ByteBuffer.allocate(16).putLong(tableId).putLong(sequence).array();
    }

    private static byte[] cursorPrefix(long tableId) {
        return ByteBuffer.allocate(16).putLong(tableId).put(CURSORS).array();
    }

    private static byte[] cursorKey(long tableId, String peer) {
        byte[] r = peer.getBytes(StandardCharsets.UTF_8);
        byte[] key = Arrays.copyOf(cursorPrefix(tableId), 16 + r.length);
        System.arraycopy(r, 0, key, 16, r.length);
        return key;
    }
}
