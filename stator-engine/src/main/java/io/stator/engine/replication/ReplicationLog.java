package io.stator.engine.replication;

import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.changes.ItemVersion;
import io.stator.engine.item.RowKeys;
import io.stator.engine.jobs.JobLeases;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.TableCodec;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.CommitLostException;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Global tables' consumer of the change log: every change of a replica's item gets its
 * version here, in the change's own batch (a change made here a new one from the region's
 * {@link HybridClock}, a replicated one the version its region gave it), and a change made here
 * is also kept in the REPLICATION_LOG key space, in sequence order per table, until every other
 * region has it. A replicated change is never logged, so never shipped again: every region
 * ships its own changes to every other, and nothing goes round in circles.
 *
 * <p><b>Logs.</b> A sequence's top three bytes name the log it is of, the rest count that log's
 * changes. One server has one log, 0. Several servers sharing the store (Cassandra) cannot see
 * each other's sequences in flight, so each numbers its changes in a log of its own, a random id
 * registered at its start; the one that ships a log is the server holding its lease (its own
 * server, or once that one is gone, whichever adopted it: {@link ServerLogs}). There, too, the
 * item's stored version is read and expected unchanged by the change's commit: a change made
 * here takes a version above it (two servers never give one item the same version, nor a later
 * write an older one), and a replicated one older than it is refused
 * ({@link CommitLostException}: the write starts over and finds it is not to be applied).
 *
 * <p>Rows: {@code [table id][i64 sequence]} a change ({@link ReplicatedChange}); {@code [table
 * id][0xFF x 8][region, UTF-8]} the sequence the region has not yet been sent from log 0 (its
 * cursor), {@code ... ['#'][log id, 3 bytes]} from another log, sorting after the table's changes;
 * {@code [0xFF x 8]['D'][table name, UTF-8]} a replica deleted here by DeleteTable, the table's
 * definition as the other regions are to hear it (without this region), committed with the
 * deletion and kept until each has heard (no table has id -1); {@code [0xFF x 8]['S'][log id, 3
 * bytes]} a server's log, while it may hold changes; {@code [0xFF x 8]['M']} the server hosting
 * the region's consensus member ({@link RelayedConsensus}).
 *
 * <p>A sequence is taken when the change is staged and committed a moment later, so sequences
 * can commit out of order; a reader of this server's log stops before the lowest sequence still in
 * flight ({@link #safeHead}), and never skips one that would commit after it had moved on. A
 * change whose commit threw is {@linkplain #doubtful doubtful} (on shared storage its row was
 * written before the commit, and the commit's outcome may be unknown here): it is shipped only if
 * its item still holds its version, as is every change of a log adopted from a server gone.
 */
final class ReplicationLog implements ChangeLog.Consumer {

    private static final byte[] CURSORS = {-1, -1, -1, -1, -1, -1, -1, -1};
    private static final byte DEPARTURE = 'D';
    private static final byte SERVER_LOG = 'S';
    private static final byte OTHER_LOG = '#';
    /** Bits below a sequence's log id. */
    private static final int LOG_SHIFT = 40;
    private static final int MAX_LOG = 0xFFFFFE; // 0xFFFFFF would start the cursors' rows

    private final Storage storage;
    private final HybridClock hybridClock;
    private final String region;
    private final Clock clock;
    private final Runnable committed;
    private final boolean severalServers;
    private final JobLeases leases;
    private final Map<Long, AtomicLong> nextSequence = new ConcurrentHashMap<>();
    private final Map<Long, ConcurrentSkipListSet<Long>> inFlight = new ConcurrentHashMap<>();
    private final Map<Long, ConcurrentSkipListSet<Long>> doubtful = new ConcurrentHashMap<>();
    private final Map<WriteBatch, List<long[]>> staged = new ConcurrentHashMap<>();
    /** This server's log (0 on one server). */
    private volatile long ownLog;

    /**
     * @param committed      told after a batch with logged changes commits (the shippers wake)
     * @param leases         where several servers share the store, their logs' leases (each then logs in
     *                       a log of its own); null on one server
     */
    ReplicationLog(Storage storage, HybridClock hybridClock, String region, Clock clock, Runnable committed,
                   JobLeases leases) {
        this.storage = storage;
        this.hybridClock = hybridClock;
        this.region = region;
        this.clock = clock;
        this.committed = committed;
        this.leases = leases;
        this.severalServers = leases != null;
    }

    /** This server's log. */
    long ownLog() { return ownLog; }

    /** The lease of a server's log: held by the server that ships it. */
    static String lease(long log) {
        return "replication-log-" + log;
    }

    /**
     * Several servers: gives this server a log of its own, before its first change is logged (at
     * its first change of a global table, or when it learns of one): a random id no log
     * registered has, its lease taken, then registered.
     */
    void startOwnLog() {
        if (leases != null && ownLog == 0) newOwnLog(0);
    }

    /**
     * Renews this server's lease on its log; if another server took it (this one stopped
     * answering for a whole lease, and was taken for gone), this server starts a new log: the old
     * one, changes staged in it meanwhile included, is the adopter's to ship.
     */
    void renewOwnLog() {
        long log = ownLog;
        if (leases != null && log != 0 && !leases.hold(lease(log))) newOwnLog(log);
    }

    /** A new log for this server, unless it moved from {@code replaced} meanwhile. */
    private synchronized void newOwnLog(long replaced) {
        if (ownLog != replaced) return;
        Set<Long> taken = new HashSet<>(registeredLogs());
        long id;
        do {
            id = 1 + ThreadLocalRandom.current().nextInt(MAX_LOG);
        } while (taken.contains(id));
        leases.hold(lease(id));
        try (WriteBatch batch = storage.newBatch()) {
            batch.put(Keyspaces.REPLICATION_LOG, registryKey(id), ByteBuffer.allocate(8).putLong(clock.millis()).array());
            storage.commit(batch);
        }
        nextSequence.clear();
        inFlight.clear();
        ownLog = id;
    }

    /** The logs servers registered (several servers). */
    List<Long> registeredLogs() {
        List<Long> out = new ArrayList<>();
        byte[] from = registryKey(0);
        byte[] to = registryKey(MAX_LOG + 1);
        try (Cursor c = storage.range(null, Keyspaces.REPLICATION_LOG, from, to, false)) {
            while (c.next()) out.add(logIdOf(c.key(), 9));
        }
        return out;
    }

    /** Whether a log has no change of any of these tables left (every peer had them, and they were trimmed). */
    boolean drained(long log, List<TableDefinition> tables) {
        for (TableDefinition t : tables) {
            try (Snapshot snapshot = storage.snapshot();
                 Cursor c = storage.range(snapshot, Keyspaces.REPLICATION_LOG, changeKey(t.id(), start(log)),
                         changeKey(t.id(), start(log + 1)), false)) {
                if (c.next()) return false;
            }
        }
        return true;
    }

    /** Forgets a drained log: its cursors in these tables and its registration. */
    void dropLog(long log, List<TableDefinition> tables, List<String> peers) {
        try (WriteBatch batch = storage.newBatch()) {
            for (TableDefinition t : tables) for (String p : peers) batch.delete(Keyspaces.REPLICATION_LOG, cursorKey(t.id(), p, log));
            batch.delete(Keyspaces.REPLICATION_LOG, registryKey(log));
            storage.commit(batch);
        }
    }

    /** A log's first sequence. */
    static long start(long log) {
        return log << LOG_SHIFT;
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
        if (severalServers) {
            startOwnLog();
            checkStoredVersion(batch, change);
        }
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

    /**
     * Several servers: reads the item's stored version and expects it unchanged at the commit; a
     * change made here then takes a version above it, and a replicated change not newer than it
     * is refused.
     */
    private void checkStoredVersion(WriteBatch batch, ChangeRecord change) {
        byte[] row = storage.getCommitted(Keyspaces.ITEM_VERSIONS, change.rowKey());
        batch.expect(Keyspaces.ITEM_VERSIONS, change.rowKey(), row);
        ItemVersions.Stored stored = ItemVersions.decode(row);
        if (stored == null) return;
        if (change.version() == null) hybridClock.observe(stored.version().clock());
        else if (!change.version().newerThan(stored.version())) throw new CommitLostException();
    }

    @Override
    public void settle(WriteBatch batch, boolean committed) {
        List<long[]> settled = staged.remove(batch);
        if (settled == null) return;
        for (long[] s : settled) {
            if (!committed) doubtful.computeIfAbsent(s[0], id -> new ConcurrentSkipListSet<>()).add(s[1]);
            ConcurrentSkipListSet<Long> flying = inFlight.get(s[0]);
            if (flying != null) flying.remove(s[1]); // null: this server moved to a new log meanwhile
        }
        if (committed) this.committed.run();
    }

    /** Whether a change of this server's log is to be shipped only if its item still holds its version. */
    boolean doubtful(long tableId, long sequence) {
        ConcurrentSkipListSet<Long> d = doubtful.get(tableId);
        return d != null && d.contains(sequence);
    }

    /**
     * A sequence for a change being staged, in flight at once: taken and marked together, so that
     * {@link #safeHead} never sees a sequence taken and not yet in flight (a reader would move past
     * it before it commits, and the change would never be shipped).
     */
    private synchronized long take(long tableId) {
        long sequence = sequences(tableId).getAndIncrement();
        if (sequence >= start(ownLog + 1)) throw new IllegalStateException("replication log " + ownLog + " is full");
        inFlight.computeIfAbsent(tableId, id -> new ConcurrentSkipListSet<>()).add(sequence);
        return sequence;
    }

    private AtomicLong sequences(long tableId) {
        return nextSequence.computeIfAbsent(tableId, id -> new AtomicLong(lastStored(id) + 1));
    }

    /** The last sequence of this server's log stored, or one below the log's start. */
    private long lastStored(long tableId) {
        long log = ownLog;
        try (Snapshot snapshot = storage.snapshot();
             Cursor c = storage.range(snapshot, Keyspaces.REPLICATION_LOG, changeKey(tableId, start(log)),
                     changeKey(tableId, start(log + 1)), true)) {
            return c.next() ? ByteBuffer.wrap(c.key()).getLong(8) : start(log) - 1;
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

    /**
     * Up to {@code max} changes (and about {@code maxBytes}) of a log from {@code from}: in this
     * server's log, all below the safe head; in another's (a server gone), to its end.
     */
    List<Logged> read(long tableId, long log, long from, int max, long maxBytes) {
        long head = log == ownLog ? safeHead(tableId) : start(log + 1);
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

    /** The region's cursor in a log: the first sequence it has not been sent; -1 when it has none. */
    long cursor(long tableId, String peer, long log) {
        byte[] row = storage.get(Keyspaces.REPLICATION_LOG, cursorKey(tableId, peer, log));
        return row == null ? -1 : ByteBuffer.wrap(row).getLong();
    }

    void saveCursor(long tableId, String peer, long log, long sequence) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.put(Keyspaces.REPLICATION_LOG, cursorKey(tableId, peer, log), ByteBuffer.allocate(8).putLong(sequence).array());
            storage.commit(batch);
        }
    }

    void dropCursor(long tableId, String peer, long log) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.delete(Keyspaces.REPLICATION_LOG, cursorKey(tableId, peer, log));
            storage.commit(batch);
        }
    }

    /** Where each log's trim reached (this server's trims), so that the next reads no deleted row again. */
    private final Map<String, Long> trimmed = new ConcurrentHashMap<>();

    /** Drops a log's changes below {@code sequence}: every region has them. */
    void trim(long tableId, long log, long sequence) {
        String key = tableId + "/" + log;
        long from = Math.max(start(log), trimmed.getOrDefault(key, start(log)));
        if (sequence <= from) return;
        storage.deleteRange(Keyspaces.REPLICATION_LOG, changeKey(tableId, from), changeKey(tableId, sequence));
        trimmed.put(key, sequence);
        ConcurrentSkipListSet<Long> d = doubtful.get(tableId);
        if (d != null) d.headSet(sequence).clear();
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

    private static byte[] cursorKey(long tableId, String peer, long log) {
        byte[] r = peer.getBytes(StandardCharsets.UTF_8);
        ByteBuffer key = ByteBuffer.allocate(16 + r.length + (log == 0 ? 0 : 4)).put(cursorPrefix(tableId)).put(r);
        if (log != 0) key.put(OTHER_LOG).put((byte) (log >>> 16)).put((byte) (log >>> 8)).put((byte) log);
        return key.array();
    }

    private static byte[] registryKey(long log) {
        return ByteBuffer.allocate(12).put(CURSORS).put(SERVER_LOG).put((byte) (log >>> 16)).put((byte) (log >>> 8))
                .put((byte) log).array();
    }

    private static long logIdOf(byte[] key, int at) {
        return ((key[at] & 0xFFL) << 16) | ((key[at + 1] & 0xFFL) << 8) | (key[at + 2] & 0xFFL);
    }
}
