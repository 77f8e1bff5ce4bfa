package io.stator.engine.replication;

import io.stator.core.item.ItemCodec;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ItemVersion;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.lock.ItemLocks;
import io.stator.engine.replication.strong.ConsensusTls;
import io.stator.engine.replication.strong.GroupMember;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.GlobalTable;
import io.stator.engine.table.GlobalTable.Replica;
import io.stator.engine.table.GlobalTable.ReplicaStatus;
import io.stator.engine.table.TableCodec;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The background work of global tables in one region: a shipper per peer region, sending it the
 * changes this region logged ({@link ReplicationLog}) from the peer's cursor, in batches, moving
 * the cursor only once the peer has applied them (so a crash or an unreachable peer loses
 * nothing: a batch is sent again, and applying it twice changes nothing); and one thread that
 * sends each member the table's latest {@link GlobalTable}, and, in the region that drives the
 * table's changes (its first active replica), creates and fills new replicas and deletes
 * removed ones, and collects tombstones past their retention.
 *
 * <p>Where several servers share the region's store, each runs a replicator: each ships the logs
 * it holds ({@link ServerLogs}), and the one holding the control plane's lease runs the control
 * plane (the others only take their part of what other regions sent them: settings to align).
 */
final class Replicator implements AutoCloseable {

    /** Changes per message, and about the bytes: well under the endpoint's body limit. */
    private static final int BATCH_CHANGES = 500;
    private static final long BATCH_BYTES = 1 << 20;
    private static final long IDLE_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 2_000;
    private static final long TRIM_EVERY_MILLIS = 1_000;
    private static final long COLLECT_EVERY_MILLIS = 5_000;

    private final GlobalTables tables;
    private final Catalog catalog;
    private final PeerLinks links;
    private final Clock clock;
    private final ItemLocks locks;
    private final String region;
    private final Storage storage;
    private final List<Thread> threads = new ArrayList<>();
    private final Object signal = new Object();
    private final Map<String, Long> ackedEpochs = new ConcurrentHashMap<>();
    private final Map<String, Long> lastTrim = new ConcurrentHashMap<>();
    /** Replicas this server saw CREATING, and since when: several servers fill one once every server knows of it. */
    private final Map<String, Long> creatingSince = new ConcurrentHashMap<>();
    private long controlHeldAt;
    private boolean controlHeld;
    private volatile boolean closed;
    private long lastCollection;

    Replicator(GlobalTables tables, Catalog catalog, PeerLinks links, Clock clock, ItemLocks locks) {
        this.tables = tables;
        this.catalog = catalog;
        this.links = links;
        this.clock = clock;
        this.locks = locks;
        this.region = tables.region();
        this.storage = tables.log.storage();
    }

    void start() {
        for (String peer : links.regions()) threads.add(Thread.ofPlatform().daemon().name("replication-to-" + peer)
                .start(() -> ship(peer)));
        threads.add(Thread.ofPlatform().daemon().name("global-tables").start(this::control));
    }

    void wake() {
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    private void idle(long millis) {
        synchronized (signal) {
            try {
                if (!closed) signal.wait(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closed = true;
            }
        }
    }

    // ---- shipping ------------------------------------------------------------------------------

    private void ship(String peer) {
        long backoff = 0;
        while (!closed) {
            boolean sent = false;
            try {
                for (TableDefinition t : catalog.all()) {
                    for (long log : tables.serverLogs.shipped()) {
                        if (closed) return;
                        if (shipOne(t, peer, log)) sent = true;
                    }
                }
                backoff = 0;
            } catch (IOException e) {
                // The peer is away or refused: keep everything, try again later (its cursor has not moved).
                backoff = Math.min(MAX_BACKOFF_MILLIS, Math.max(50, backoff * 2));
                idle(backoff);
                continue;
            } catch (RuntimeException e) {
                backoff = Math.min(MAX_BACKOFF_MILLIS, Math.max(50, backoff * 2));
                idle(backoff);
                continue;
            }
            if (!sent) idle(IDLE_MILLIS);
        }
    }

    /** Sends the peer one batch of the table's changes in a log; false when it has nothing to send. */
    private boolean shipOne(TableDefinition table, String peer, long log) throws IOException {
        GlobalTable g = table.globalTable();
        if (g == null || g.consistency() != GlobalTable.Consistency.EVENTUAL) return false;
        Replica r = g.replica(peer);
        if (r == null || r.status() == ReplicaStatus.DELETING) return false;
        long cursor = tables.log.cursor(table.id(), peer, log);
        if (cursor < 0) {
            // Several servers: a log without the peer's cursor ships to it from its start once the
            // replica is filled (one server: its cursor is set where the fill starts, create()).
            if (!tables.severalServers() || r.status() != ReplicaStatus.ACTIVE) return false;
            cursor = ReplicationLog.start(log);
        }
        List<ReplicationLog.Logged> batch = tables.log.read(table.id(), log, cursor, BATCH_CHANGES, BATCH_BYTES);
        if (batch.isEmpty()) {
            trim(table, g, log);
            return false;
        }
        List<byte[]> changes = new ArrayList<>(batch.size());
        for (ReplicationLog.Logged l : batch) if (committed(table, log, l)) changes.add(l.change());
        if (!changes.isEmpty()) links.send(peer, RegionMessages.APPLY, RegionMessages.apply(table.name(), changes));
        tables.log.saveCursor(table.id(), peer, log, batch.get(batch.size() - 1).sequence() + 1);
        trim(table, g, log);
        return true;
    }

    /**
     * Whether a logged change committed: yes, unless its commit threw or its log is a server's
     * gone (on shared storage its row was written before the commit), when it is shipped only if
     * its item still holds its version (if not, a later change holds it, which ships itself).
     */
    private boolean committed(TableDefinition table, long log, ReplicationLog.Logged l) {
        if (!tables.serverLogs.adopted(log) && !tables.log.doubtful(table.id(), l.sequence())) return true;
        ReplicatedChange c = ReplicatedChange.decode(l.change());
        ItemVersions.Stored stored = tables.versions.read(RowKeys.of(table, c.key()));
        return stored != null && stored.version().equals(c.version()) && stored.deleted() == (c.newImage() == null);
    }

    /** Drops a log's changes every peer has, at most once a second per table and log. */
    private void trim(TableDefinition table, GlobalTable g, long log) {
        long now = clock.millis();
        String key = table.id() + "/" + log;
        Long last = lastTrim.get(key);
        if (last != null && now - last < TRIM_EVERY_MILLIS) return;
        lastTrim.put(key, now);
        long lowest = Long.MAX_VALUE;
        // Several servers: every peer's cursor counts, of a replica this server has not heard of yet
        // too; and a replica without a cursor in this log is sent it whole once filled.
        java.util.Collection<String> peers = tables.severalServers() ? links.regions() : g.regions();
        for (String p : peers) {
            if (p.equals(region)) continue;
            long c = tables.log.cursor(table.id(), p, log);
            Replica r = g.replica(p);
            if (c >= 0) lowest = Math.min(lowest, c);
            else if (tables.severalServers() && r != null && r.status() != ReplicaStatus.CREATION_FAILED) {
                lowest = ReplicationLog.start(log);
            }
        }
        if (lowest != Long.MAX_VALUE) tables.log.trim(table.id(), log, lowest);
    }

    // ---- members, creation, deletion ---------------------------------------------------------

    private void control() {
        while (!closed) {
            try {
                pinConsensusCertificates();
                tables.sendChangedSettings();
                tables.alignPending();
                List<TableDefinition> global = new ArrayList<>();
                for (TableDefinition t : catalog.all()) if (t.globalTable() != null) global.add(t);
                tables.serverLogs.tend(global, List.copyOf(links.regions()));
                if (!controlling()) {
                    idle(IDLE_MILLIS * 2);
                    continue;
                }
                // Several servers: a replica deleted through another server left its departure in the store.
                if (tables.severalServers()) tables.departed.putAll(tables.log.departures());
                sendDepartures();
                for (TableDefinition t : catalog.all()) {
                    if (closed) return;
                    if (t.globalTable() != null) controlOne(t);
                }
                collectTombstones();
            } catch (RuntimeException e) {
                // Tried again next round: every step is safe to repeat.
            }
            idle(IDLE_MILLIS * 2);
        }
    }

    /**
     * Whether this server runs the region's control plane: always on one server; where several
     * share the store, the one holding its lease (renewed every third of a lease).
     */
    private boolean controlling() {
        if (tables.leases == null) return true;
        long now = System.currentTimeMillis();
        if (now - controlHeldAt >= tables.leases.leaseMillis() / 3) {
            controlHeld = tables.leases.hold(CONTROL_LEASE);
            controlHeldAt = now;
        }
        return controlHeld;
    }

    private static final String CONTROL_LEASE = "replication-control";

    /**
     * Pins each peer region's consensus certificate ({@link ConsensusTls}), asked of the peer over
     * this channel, which the replication secret authenticates: once, and again for every peer
     * after a certificate not pinned was refused (a peer with a new key).
     */
    private void pinConsensusCertificates() {
        ConsensusTls tls = tables.consensusTls();
        if (tls == null) return;
        boolean again = tls.stale();
        for (String peer : links.regions()) {
            if (closed) return;
            if (tls.pinned(peer) && !again) continue;
            try {
                tls.pin(peer, links.send(peer, RegionMessages.CONSENSUS_CERTIFICATE, new byte[0]));
            } catch (IOException e) {
                // Away, or without a consensus server: asked again next round.
            }
        }
    }

    /** Tells the other regions of replicas deleted here by DeleteTable, once gone (kept until each has heard). */
    private void sendDepartures() {
        for (Map.Entry<String, TableDefinition> d : tables.departed.entrySet()) {
            TableDefinition now = catalog.find(d.getKey());
            if (now != null) {
                // Being deleted (told before its deletion commits), or the deletion did not happen.
                if (now.id() != d.getValue().id()) tables.departureHeard(d.getKey(), d.getValue());
                continue;
            }
            boolean all = true;
            for (Replica r : d.getValue().globalTable().replicas()) {
                try {
                    links.send(r.region(), RegionMessages.MEMBERS, RegionMessages.members(d.getValue()));
                } catch (PeerLinks.Refused e) {
                    // That region has no such replica (any more): nothing to tell it.
                } catch (IOException e) {
                    all = false;
                }
            }
            if (all) tables.departureHeard(d.getKey(), d.getValue());
        }
    }

    private void controlOne(TableDefinition table) {
        tables.applyOverrides(table);
        GlobalTable g = table.globalTable();
        for (Replica r : g.replicas()) {
            if (!r.region().equals(region) && r.status() != ReplicaStatus.CREATION_FAILED) sendMembers(table, g, r.region());
        }
        if (!region.equals(GlobalTables.driver(g))) return;
        if (g.consistency() == GlobalTable.Consistency.STRONG) {
            boolean deleting = g.witness() != null && g.witness().status() == GlobalTable.WitnessStatus.DELETING;
            for (Replica r : g.replicas()) deleting |= r.status() == ReplicaStatus.DELETING;
            if (deleting) tearDownStrong(table);
            else if (g.changing()) createStrong(table);
            return;
        }
        for (Replica r : g.replicas()) {
            if (r.status() == ReplicaStatus.CREATING) create(table, r.region());
            else if (r.status() == ReplicaStatus.DELETING) delete(table, r.region());
        }
    }

    private boolean sendMembers(TableDefinition table, GlobalTable g, String peer) {
        String key = table.id() + "/" + peer;
        Long acked = ackedEpochs.get(key);
        if (acked != null && acked >= g.epoch()) return true;
        try {
            links.send(peer, RegionMessages.MEMBERS, RegionMessages.members(table));
            ackedEpochs.put(key, g.epoch());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private boolean acked(TableDefinition table, String peer, long epoch) {
        Long acked = ackedEpochs.get(table.id() + "/" + peer);
        return acked != null && acked >= epoch;
    }

    /**
     * Creates the peer's replica and fills it: once every other active member knows of it (they
     * then ship it what this region had not acknowledged of theirs), this region's shipping to it
     * starts at the log's safe head, the items are copied from a snapshot taken after that, and the
     * replica turns ACTIVE. Repeated whole after a crash: the copy is applied last writer wins.
     */
    private void create(TableDefinition table, String peer) {
        GlobalTable g = table.globalTable();
        for (Replica m : g.replicas()) {
            if (m.region().equals(region) || m.region().equals(peer) || m.status() != ReplicaStatus.ACTIVE) continue;
            if (!acked(table, m.region(), g.epoch())) return; // next round
        }
        try {
            links.send(peer, RegionMessages.CREATE_REPLICA, TableCodec.encode(table));
        } catch (PeerLinks.Refused e) {
            // The region has a table of that name that is not a replica: DynamoDB fails the replica's creation.
            if (!e.getMessage().startsWith("ResourceInUseException")) return;
            tables.changeMembers(table.name(), current -> {
                Replica r = current.replica(peer);
                return r == null ? current : current.withReplica(r.failed(e.getMessage()));
            });
            return;
        } catch (IOException e) {
            return; // unreachable: next round
        }
        if (tables.severalServers()) {
            // Filled once every server of this region knows of the replica, so logs its changes:
            // what they wrote before is in the walk's copy, what after in their logs.
            long now = System.currentTimeMillis();
            long since = creatingSince.computeIfAbsent(table.id() + "/" + peer, k -> now);
            if (now - since < tables.settleMillis) return;
        } else if (tables.log.cursor(table.id(), peer, tables.log.ownLog()) < 0) {
            tables.startShipping(table, peer);
        }
        if (!fill(table, peer)) return;
        creatingSince.remove(table.id() + "/" + peer);
        tables.changeMembers(table.name(), current -> {
            Replica r = current.replica(peer);
            return r == null || r.status() != ReplicaStatus.CREATING ? current : current.withReplica(r.with(ReplicaStatus.ACTIVE));
        });
        wake();
    }

    /**
     * Makes an MRSC table's three regions one Raft group: the replicas' tables created (empty,
     * as the table must be), then every member, the witness included, joins the group with the
     * members' consensus addresses; then the replicas and the witness are ACTIVE. Each step is
     * safe to repeat, so a failure is tried again next round.
     */
    private void createStrong(TableDefinition table) {
        GlobalTable g = table.globalTable();
        List<GroupMember> members = new ArrayList<>();
        try {
            for (Replica r : g.replicas()) members.add(GroupMember.replica(r.region(), addressOf(r.region())));
            if (g.witness() != null) members.add(GroupMember.witness(g.witness().region(), addressOf(g.witness().region())));
            for (Replica r : g.replicas()) {
                if (!r.region().equals(region)) links.send(r.region(), RegionMessages.CREATE_REPLICA, TableCodec.encode(table));
            }
            byte[] join = RegionMessages.join(table.name(), members);
            for (GroupMember m : members) {
                if (!m.region().equals(region)) links.send(m.region(), RegionMessages.JOIN_GROUP, join);
            }
        } catch (IOException e) {
            return; // next round
        }
        tables.strong.join(table.name(), members);
        tables.changeMembers(table.name(), current -> {
            GlobalTable done = current;
            for (Replica r : current.replicas()) {
                if (r.status() == ReplicaStatus.CREATING) done = done.withReplica(r.with(ReplicaStatus.ACTIVE));
            }
            if (current.witness() != null) {
                done = new GlobalTable(done.consistency(), done.epoch() + 1, done.replicas(),
                        new GlobalTable.Witness(current.witness().region(), GlobalTable.WitnessStatus.ACTIVE));
            }
            return done;
        });
        wake();
    }

    /**
     * An MRSC table's teardown: the other replicas' tables deleted, the witness out of the group,
     * this region out of it too; the table is then regional here.
     */
    private void tearDownStrong(TableDefinition table) {
        GlobalTable g = table.globalTable();
        byte[] name = RegionMessages.name(table.name());
        try {
            for (Replica r : g.replicas()) {
                if (r.status() == ReplicaStatus.DELETING) links.send(r.region(), RegionMessages.DELETE_REPLICA, name);
            }
            if (g.witness() != null) links.send(g.witness().region(), RegionMessages.LEAVE_GROUP, name);
        } catch (IOException e) {
            return; // next round
        }
        tables.strong.leave(table.name());
        tables.changeMembers(table.name(), current -> new GlobalTable(current.consistency(), current.epoch() + 1,
                List.of(current.replica(region)), null));
        wake();
    }

    private String addressOf(String member) throws IOException {
        if (member.equals(region)) return tables.consensusAddress();
        return new String(links.send(member, RegionMessages.CONSENSUS_ADDRESS, new byte[0]),
                java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Copies the table's items to the peer from one snapshot, with their versions; false if interrupted. */
    private boolean fill(TableDefinition table, String peer) {
        long total = Math.max(1, catalog.counters().itemCount(table.id()));
        long sent = 0;
        int shownPercent = 0;
        try (Snapshot snapshot = storage.snapshot();
             Cursor c = storage.range(snapshot, Keyspaces.ITEMS, KeyLayout.indexPrefix(table.id(), 0),
                     KeyLayout.indexUpperBound(table.id(), 0), false)) {
            List<byte[]> batch = new ArrayList<>();
            long bytes = 0;
            long now = clock.millis();
            while (c.next()) {
                if (closed) return false;
                ItemVersions.Stored stored;
                byte[] value = c.value();
                if (tables.severalServers()) {
                    // No snapshot of the store: the version read first, the item then (one round
                    // trip each), so the image sent is as new as its version or newer, and the
                    // change that made it newer, logged with a later version, is applied after it.
                    stored = ItemVersions.decode(storage.getCommitted(Keyspaces.ITEM_VERSIONS, c.key()));
                    value = storage.getCommitted(Keyspaces.ITEMS, c.key());
                    if (value == null) continue; // deleted since: its tombstone is in a log
                } else {
                    stored = tables.versions.read(snapshot, c.key());
                }
                Map<String, AttributeValue> item = ItemCodec.decode(value);
                ItemVersion version = stored != null ? stored.version() : ItemVersion.initial(region);
                byte[] change = new ReplicatedChange(RowKeys.keyOf(table.keySchema(), item), item, version, now).encode();
                batch.add(change);
                bytes += change.length;
                if (batch.size() >= BATCH_CHANGES || bytes >= BATCH_BYTES) {
                    links.send(peer, RegionMessages.APPLY, RegionMessages.apply(table.name(), batch));
                    sent += batch.size();
                    batch = new ArrayList<>();
                    bytes = 0;
                    int percent = (int) Math.min(99, sent * 100 / total);
                    if (percent >= shownPercent + 10) {
                        shownPercent = percent;
                        showProgress(table, peer, percent);
                    }
                }
            }
            if (!batch.isEmpty()) links.send(peer, RegionMessages.APPLY, RegionMessages.apply(table.name(), batch));
            return true;
        } catch (IOException e) {
            return false; // started over next round
        }
    }

    private void showProgress(TableDefinition table, String peer, int percent) {
        tables.changeMembers(table.name(), current -> {
            Replica r = current.replica(peer);
            if (r == null || r.status() != ReplicaStatus.CREATING) return current;
            return current.withReplica(r.creating(percent));
        });
    }

    /** Deletes the peer's replica (its table and items), then drops it from the members. */
    private void delete(TableDefinition table, String peer) {
        try {
            links.send(peer, RegionMessages.DELETE_REPLICA, RegionMessages.name(table.name()));
        } catch (IOException e) {
            return; // next round
        }
        tables.changeMembers(table.name(), current -> current.without(peer));
        wake();
    }

    private void collectTombstones() {
        long now = clock.millis();
        if (now - lastCollection < COLLECT_EVERY_MILLIS) return;
        lastCollection = now;
        for (TableDefinition t : catalog.all()) {
            // A strongly consistent table's versions are its log's indexes, compared alike in every
            // region: never collected, or regions would judge a write differently.
            if (!t.eventuallyReplicated()) continue;
            tables.versions.collectTombstones(t.id(), now - tables.tombstoneRetentionMillis(), locks);
        }
    }

    @Override
    public void close() {
        closed = true;
        wake();
        for (Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
