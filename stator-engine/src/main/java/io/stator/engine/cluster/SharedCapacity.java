package io.stator.engine.cluster;

import io.stator.engine.cluster.Deployment.Consumption;
import io.stator.storage.CollectionStore;
import io.stator.storage.CollectionStore.Change;
import io.stator.storage.CollectionStore.Consistency;
import io.stator.storage.Cursor;
import io.stator.storage.RowKeyFraming;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A table's throughput shared by every server on the store: each server keeps its own buckets
 * (the request path is unchanged: no store round trip per request) and, every
 * {@value #EXCHANGE_EVERY_MILLIS} ms, publishes what it has taken from each table, global index
 * and partition since it started, then draws from its own buckets what every other server took
 * since the last exchange. Every server's buckets thus drain at the cluster's total rate, and the
 * cluster admits what one table admits, give or take what the others took in one exchange's lag
 * (docs/dynamodb/throughput.md, "Several servers", states the tolerance and why this mechanism
 * rather than a lease of capacity per server or a bucket in the store taken by compare-and-set).
 *
 * <p>Each server's figures are one item collection of a reserved table, keyed by an id it draws
 * at start: one row per table or index it took units from ({@code [table id 8][index id 4]}: its
 * read and write totals and, by partition, its partitions' first hashes and units), and a
 * heartbeat row (empty clustering) that counts its exchanges (those that wrote). Totals, not increments: a lost or
 * repeated exchange loses nothing and counts nothing twice; a reader takes the difference from
 * what it saw last. A server that dies stops changing its rows, so its units stop counting; once
 * its heartbeat has not moved for {@value #GONE_AFTER_MILLIS} ms, whoever notices deletes its rows.
 * A server first seen is taken whole (all it took since it started is new to the reader), except
 * at the reader's own first reading, which is where it starts counting from.
 *
 * <p>Partitions: each row carries its server's partitions; the reader makes the splits it lacks
 * (partitions only split, so the union refines both), so every server's partition model is the
 * same within an exchange, and the one in storage follows (Partitions' change callback saves it).
 */
final class SharedCapacity {

    /** The reserved table of the servers' figures (below the key spaces' reserved tables). */
    static final long TABLE = CasTransactions.RECORDS - 1_000;
    static final long EXCHANGE_EVERY_MILLIS = 250;
    static final long GONE_AFTER_MILLIS = 30_000;
    /** How often an idle server still shows it is alive (well within {@link #GONE_AFTER_MILLIS}). */
    static final long IDLE_HEARTBEAT_MILLIS = 5_000;

    private static final byte[] HEARTBEAT = new byte[0];

    private final CollectionStore store;
    private final Deployment.Upkeep engine;
    private final byte[] server;
    private final long goneAfterNanos;
    private long exchanges;
    private long heartbeatNanos;
    /** What this server published last, by row (its clustering bytes). */
    private final Map<Key, Consumption> published = new HashMap<>();
    /** The other servers, by id, as last read. */
    private final Map<Key, Peer> peers = new HashMap<>();
    /** Servers deleted as gone: should one come back (a long pause), it is counted from then on. */
    private final Set<Key> gone = new HashSet<>();
    private boolean readOnce;

    /** Another server as last read: its heartbeat, when that last moved, its rows' totals. */
    private static final class Peer {
        long heartbeat = -1;
        long movedNanos = System.nanoTime();
        final Map<Key, Consumption> seen = new HashMap<>();
    }

    private record Key(byte[] bytes) {
        @Override public boolean equals(Object o) { return o instanceof Key k && Arrays.equals(bytes, k.bytes); }
        @Override public int hashCode() { return Arrays.hashCode(bytes); }
    }

    SharedCapacity(CollectionStore store, Deployment.Upkeep engine) {
        this(store, engine, GONE_AFTER_MILLIS);
    }

    /** @param goneAfterMillis how long a server's heartbeat may stand still before it counts as gone */
    SharedCapacity(CollectionStore store, Deployment.Upkeep engine, long goneAfterMillis) {
        this.store = store;
        this.engine = engine;
        this.goneAfterNanos = goneAfterMillis * 1_000_000L;
        UUID id = UUID.randomUUID();
        this.server = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()).array();
        store.createTable(TABLE);
    }

    /** One exchange: this server's totals out, the others' units since the last one in. */
    void exchange() {
        publish();
        readOthers();
    }

    private byte[] row(byte[] serverId, byte[] clustering) {
        return RowKeyFraming.rowKey(TABLE, 0, ByteBuffer.wrap(serverId).getLong(), serverId, clustering);
    }

    /**
     * Publishes every row that changed since the last exchange and the heartbeat, in one commit;
     * nothing when nothing changed, but the heartbeat every {@value #IDLE_HEARTBEAT_MILLIS} ms (an
     * idle server costs the store a write every few seconds, not four a second).
     */
    void publish() {
        List<Change> changes = new ArrayList<>();
        List<Consumption> now = engine.consumedHere();
        for (Consumption c : now) {
            Key k = new Key(clustering(c));
            if (same(c, published.get(k))) continue;
            changes.add(new Change(row(server, k.bytes()), encode(c)));
        }
        // The rows of tables deleted since (this server no longer counts them) are deleted too.
        Set<Key> current = new HashSet<>();
        for (Consumption c : now) current.add(new Key(clustering(c)));
        for (Key k : published.keySet()) if (!current.contains(k)) changes.add(new Change(row(server, k.bytes()), null));
        long nowNanos = System.nanoTime();
        if (changes.isEmpty() && exchanges > 0 && nowNanos - heartbeatNanos < IDLE_HEARTBEAT_MILLIS * 1_000_000L) return;
        changes.add(new Change(row(server, HEARTBEAT), ByteBuffer.allocate(8).putLong(++exchanges).array()));
        heartbeatNanos = nowNanos;
        store.commit(List.of(), changes);
        published.keySet().retainAll(current);
        for (Consumption c : now) published.put(new Key(clustering(c)), c);
    }

    private void readOthers() {
        Map<Key, Map<Key, byte[]>> rows = new HashMap<>();
        try (Cursor c = store.scan(TABLE, 0, 0, 0, null, Consistency.EVENTUAL)) {
            while (c.next()) {
                Key owner = new Key(RowKeyFraming.partitionKey(c.key()));
                if (Arrays.equals(owner.bytes(), server)) continue;
                rows.computeIfAbsent(owner, o -> new HashMap<>()).put(new Key(RowKeyFraming.clustering(c.key())), c.value());
            }
        }
        long nowNanos = System.nanoTime();
        for (Map.Entry<Key, Map<Key, byte[]>> e : rows.entrySet()) {
            Key id = e.getKey();
            Peer peer = peers.get(id);
            // Counted from this reading on (its totals so far are not new to this server): every
            // server at this server's first reading, and one that came back after it was deleted
            // as gone. Any other server first seen started after the last reading: all it took is new.
            boolean fromNow = !readOnce || (peer == null && gone.contains(id));
            if (peer == null) peers.put(id, peer = new Peer());
            for (Map.Entry<Key, byte[]> r : e.getValue().entrySet()) {
                if (r.getKey().bytes().length == 0) {
                    long beat = ByteBuffer.wrap(r.getValue()).getLong();
                    if (beat != peer.heartbeat) {
                        peer.heartbeat = beat;
                        peer.movedNanos = nowNanos;
                    }
                    continue;
                }
                Consumption total = decode(r.getKey().bytes(), r.getValue());
                Consumption before = peer.seen.get(r.getKey());
                if (before == null && fromNow) { // counted from now on: none of its units, only its partitions
                    engine.consumedElsewhere(partitionsOnly(total));
                    peer.seen.put(r.getKey(), total);
                    continue;
                }
                Consumption units = difference(total, before);
                // A table this server does not know yet: its units wait for the next exchange.
                if (units != null && !engine.consumedElsewhere(units)) continue;
                peer.seen.put(r.getKey(), max(total, before));
            }
        }
        for (Map.Entry<Key, Peer> e : new ArrayList<>(peers.entrySet())) {
            if (nowNanos - e.getValue().movedNanos <= goneAfterNanos) continue;
            forget(e.getKey(), rows.get(e.getKey()));
        }
        readOnce = true;
    }

    /** A server whose heartbeat stopped: its rows deleted (by whoever notices; deleting twice is harmless). */
    private void forget(Key id, Map<Key, byte[]> itsRows) {
        peers.remove(id);
        gone.add(id);
        if (itsRows == null || itsRows.isEmpty()) return;
        List<Change> deletes = new ArrayList<>();
        for (Key k : itsRows.keySet()) deletes.add(new Change(row(id.bytes(), k.bytes()), null));
        store.commit(List.of(), deletes);
    }

    /** Deletes this server's rows (a server closed cleanly stops counting at once). */
    void withdraw() {
        List<Change> deletes = new ArrayList<>();
        deletes.add(new Change(row(server, HEARTBEAT), null));
        for (Key k : published.keySet()) deletes.add(new Change(row(server, k.bytes()), null));
        store.commit(List.of(), deletes);
    }

    // ---- totals and differences ------------------------------------------------------------------

    /**
     * What {@code total} adds to {@code before} (null: no units and the same partitions), by
     * partition of {@code total}; {@code before} null: all of it.
     */
    static Consumption difference(Consumption total, Consumption before) {
        double read = total.read() - (before == null ? 0 : before.read());
        double write = total.write() - (before == null ? 0 : before.write());
        Map<Long, double[]> was = before == null ? Map.of() : byStart(before);
        int n = total.partitionStarts().length;
        double[] reads = new double[n];
        double[] writes = new double[n];
        boolean any = read > 0 || write > 0;
        for (int i = 0; i < n; i++) {
            double[] w = was.get(total.partitionStarts()[i]);
            reads[i] = Math.max(0, total.partitionReads()[i] - (w == null ? 0 : w[0]));
            writes[i] = Math.max(0, total.partitionWrites()[i] - (w == null ? 0 : w[1]));
            any |= reads[i] > 0 || writes[i] > 0;
        }
        // A server seen for the first time, or one that split: its partitions are made here too.
        boolean split = before == null || n != before.partitionStarts().length;
        if (!any && !split) return null;
        return new Consumption(total.tableId(), total.indexId(), Math.max(0, read), Math.max(0, write),
                total.partitionStarts(), reads, writes);
    }

    /** No units, only the partitions. */
    private static Consumption partitionsOnly(Consumption total) {
        int n = total.partitionStarts().length;
        return new Consumption(total.tableId(), total.indexId(), 0, 0, total.partitionStarts(), new double[n], new double[n]);
    }

    /** The later of two readings (an eventually consistent read may return an older one). */
    private static Consumption max(Consumption total, Consumption before) {
        if (before == null || total.read() + total.write() >= before.read() + before.write()) return total;
        return before;
    }

    private static Map<Long, double[]> byStart(Consumption c) {
        Map<Long, double[]> m = new HashMap<>();
        for (int i = 0; i < c.partitionStarts().length; i++) {
            m.put(c.partitionStarts()[i], new double[] {c.partitionReads()[i], c.partitionWrites()[i]});
        }
        return m;
    }

    private static boolean same(Consumption a, Consumption b) {
        return b != null && a.read() == b.read() && a.write() == b.write()
                && Arrays.equals(a.partitionStarts(), b.partitionStarts())
                && Arrays.equals(a.partitionReads(), b.partitionReads())
                && Arrays.equals(a.partitionWrites(), b.partitionWrites());
    }

    // ---- rows ------------------------------------------------------------------------------------

    private static byte[] clustering(Consumption c) {
        return ByteBuffer.allocate(12).putLong(c.tableId()).putInt(c.indexId()).array();
    }

    /** {@code [read 8][write 8][partitions 4]} then each partition's {@code [first hash 8][read 8][write 8]}. */
    static byte[] encode(Consumption c) {
        int n = c.partitionStarts().length;
        ByteBuffer b = ByteBuffer.allocate(20 + 24 * n).putDouble(c.read()).putDouble(c.write()).putInt(n);
        for (int i = 0; i < n; i++) {
            b.putLong(c.partitionStarts()[i]).putDouble(c.partitionReads()[i]).putDouble(c.partitionWrites()[i]);
        }
        return b.array();
    }

    static Consumption decode(byte[] clustering, byte[] value) {
        ByteBuffer k = ByteBuffer.wrap(clustering);
        ByteBuffer b = ByteBuffer.wrap(value);
        double read = b.getDouble();
        double write = b.getDouble();
        int n = b.getInt();
        long[] starts = new long[n];
        double[] reads = new double[n];
        double[] writes = new double[n];
        for (int i = 0; i < n; i++) {
            starts[i] = b.getLong();
            reads[i] = b.getDouble();
            writes[i] = b.getDouble();
        }
        return new Consumption(k.getLong(), k.getInt(), read, write, starts, reads, writes);
    }
}
