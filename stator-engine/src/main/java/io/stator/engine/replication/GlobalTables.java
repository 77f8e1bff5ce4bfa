package io.stator.engine.replication;

import io.stator.core.error.DynamoDbException;
import io.stator.core.key.KeyLayout;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.jobs.JobLeases;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.lock.ItemLocks;
import io.stator.engine.replication.strong.ConsensusGroups;
import io.stator.engine.replication.strong.ConsensusSettings;
import io.stator.engine.replication.strong.ConsensusTls;
import io.stator.engine.replication.strong.GroupMember;
import io.stator.engine.streams.Streams;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.GlobalTable;
import io.stator.engine.table.GlobalTable.Replica;
import io.stator.engine.table.GlobalTable.ReplicaStatus;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableCodec;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableSettings;
import io.stator.engine.write.WritePipeline;
import io.stator.storage.Cursor;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Global tables, version 2019.11.21, multi-Region eventual consistency (MREC): a table turns
 * global when UpdateTable's ReplicaUpdates creates a replica in another region, and every replica
 * then ships the changes made in its region to every other, where they are applied last writer
 * wins per item.
 *
 * <ul>
 *   <li>The control plane ({@link #updateReplicas}): the request's checks, then the replicas to
 *       create recorded CREATING and those to delete DELETING in the table's {@link GlobalTable};
 *       the {@link Replicator} creates, fills and deletes them in the background, and sends every
 *       change of the members to every member.</li>
 *   <li>The data path: {@link ReplicationLog}, a consumer of the change log, gives each change its
 *       version and keeps this region's changes until every region has them; the replicator ships
 *       them; {@link #receive} applies another region's through the write pipeline, when newer
 *       than the item here ({@link ItemVersions}: versions, and tombstones of deleted items).</li>
 * </ul>
 * Conditions, transactions and strongly consistent reads stay local to a region, as DynamoDB's
 * are in MREC; a transaction's items are shipped one by one.
 */
public final class GlobalTables implements AutoCloseable {

    /**
     * What one ReplicationGroupUpdate of UpdateTable's ReplicaUpdates asks.
     *
     * @param overrides what a Create or an Update sets for that replica alone, or null
     */
    public record ReplicaUpdate(Kind kind, String region, GlobalTable.Overrides overrides) {
        public enum Kind { CREATE, UPDATE, DELETE }

        public ReplicaUpdate(Kind kind, String region) {
            this(kind, region, null);
        }

        /**
         * One ReplicationGroupUpdate as given: its Create's, Update's and Delete's RegionName (null
         * when absent); exactly one, and an Update that changes something (DynamoDB's texts, observed).
         *
         * @param overrides the Create's or Update's settings besides its RegionName, or null without any
         */
        public static ReplicaUpdate of(String create, String update, GlobalTable.Overrides overrides, String delete) {
            boolean updateChanges = overrides != null;
            int given = (create != null ? 1 : 0) + (update != null ? 1 : 0) + (delete != null ? 1 : 0);
            if (given > 1) {
                throw DynamoDbException.validation("Update table operation with more than one type of replica actions "
                        + "not allowed.");
            }
            if (given == 0 || (update != null && !updateChanges)) {
                throw DynamoDbException.validation("There are no actions specified in the Replica Update Action of the "
                        + "request.");
            }
            return create != null ? new ReplicaUpdate(Kind.CREATE, create, overrides)
                    : update != null ? new ReplicaUpdate(Kind.UPDATE, update, overrides)
                    : new ReplicaUpdate(Kind.DELETE, delete);
        }
    }

    /** One GlobalTableWitnessUpdates entry: a witness region to create, or to delete. */
    public record WitnessUpdate(boolean create, String region) {}

    static final String LOCAL_REGION = "Cannot add or delete the local region through ReplicaUpdates. "
            + "Use CreateTable, DeleteTable, or UpdateTable as required.";

    private final Storage storage;
    private final Catalog catalog;
    private final Streams streams;
    private final WritePipeline pipeline;
    private final ChangeLog changeLog;
    private final ItemLocks locks;
    private final Clock clock;
    private final String region;
    private final Consumer<String> dropTable;
    private final ReplicaSettings settings;
    /** Per global table, its shared settings as last sent or taken ({@link ReplicaSettings#aligned}). */
    private final Map<String, String> alignedSettings = new ConcurrentHashMap<>();
    /** Global tables whose shared settings changed here since: their members are sent again. */
    private final Set<String> settingsChanged = ConcurrentHashMap.newKeySet();
    /** Tables being aligned to another region's settings: those changes are not sent back. */
    private final Set<String> aligning = ConcurrentHashMap.newKeySet();
    private final HybridClock hybridClock;
    final ItemVersions versions;
    final ReplicationLog log;
    final ServerLogs serverLogs;
    /** Where several servers share the store: leases (the logs', the control plane's), else null. */
    final JobLeases leases;
    /** How long after a catalog change every server of this region follows it (0 on one server). */
    final long settleMillis;
    final ReplicationLatencies latencies = new ReplicationLatencies();
    private final ReplicatedChanges changesIn;
    final StrongReplication strong;
    private volatile String consensusAddress;
    private volatile ConsensusTls consensusTls;
    private volatile PeerLinks links = PeerLinks.NONE;
    private volatile long tombstoneRetentionMillis = Duration.ofHours(24).toMillis();
    private Replicator replicator;
    private volatile boolean registered;

    /**
     * @param dropTable deletes a table as DeleteTable does (a replica's deletion, asked by another region)
     * @param settings  how this region changes a replica's shared settings to match another region's
     * @param leases    where several servers share the store (one region of several servers), the
     *                  leases by which one of them ships each server's log and one runs the control
     *                  plane; null on one server
     * @param settleMillis how long after a catalog change every server follows it (0 on one server)
     */
    public GlobalTables(Storage storage, Catalog catalog, Streams streams, WritePipeline pipeline, ChangeLog changeLog,
                        ItemLocks locks, Clock clock, String region, Consumer<String> dropTable, ReplicaSettings settings,
                        JobLeases leases, long settleMillis) {
        this.storage = storage;
        this.catalog = catalog;
        this.streams = streams;
        this.pipeline = pipeline;
        this.changeLog = changeLog;
        this.locks = locks;
        this.clock = clock;
        this.region = region;
        this.dropTable = dropTable;
        this.settings = settings;
        this.hybridClock = new HybridClock(clock);
        this.versions = new ItemVersions(storage);
        this.leases = leases;
        this.settleMillis = settleMillis;
        this.log = new ReplicationLog(storage, hybridClock, region, clock, this::wake, leases);
        this.serverLogs = new ServerLogs(log, leases);
        this.changesIn = new ReplicatedChanges(storage, catalog, pipeline, versions, hybridClock, latencies, clock,
                () -> tombstoneRetentionMillis, leases != null);
        this.strong = new StrongReplication(storage, catalog, pipeline, versions, region, clock);
        pipeline.orderCommitsBy(strong);
        for (TableDefinition t : catalog.all()) {
            if (t.globalTable() == null) continue;
            register();
            alignedSettings.put(t.name(), ReplicaSettings.aligned(t));
        }
        catalog.onChange(this::changed);
        catalog.stageWithDeletions(this::deleting);
        departed.putAll(log.departures());
    }

    /**
     * A replica deleted here by DeleteTable (MREC; an MRSC replica cannot be): the other regions
     * are told it left, as DynamoDB's do, by the replicator once the table is gone. Committed with
     * the deletion, so that a region stopped before they heard tells them after its restart.
     */
    private void deleting(WriteBatch batch, TableDefinition t) {
        GlobalTable g = t.globalTable();
        if (g == null || g.consistency() != GlobalTable.Consistency.EVENTUAL || g.replica(region) == null) return;
        TableDefinition.Builder b = t.toBuilder();
        b.globalTable = g.without(region);
        TableDefinition without = b.build();
        log.stageDeparture(batch, without);
        departed.put(t.name(), without);
        wake();
    }

    /**
     * Applies to this region's replica of {@code t} what it sets for itself (ReplicaUpdates'
     * overrides), once it is ACTIVE here; refused now, tried again next round.
     */
    void applyOverrides(TableDefinition t) {
        GlobalTable g = t.globalTable();
        GlobalTable.Replica mine = g == null ? null : g.replica(region);
        if (mine == null || mine.overrides() == null || mine.status() != GlobalTable.ReplicaStatus.ACTIVE) return;
        synchronized (alignment) {
            aligning.add(t.name());
            try {
                ReplicaSettings.override(t, mine.overrides(), settings);
            } catch (RuntimeException refused) {
                // Tried again next round.
            } finally {
                aligning.remove(t.name());
            }
        }
    }

    /** Every other region heard of a departure, or it did not happen: forgotten, durably. */
    void departureHeard(String table, TableDefinition departure) {
        if (departed.remove(table, departure)) log.departureHeard(table);
    }

    /**
     * Per global table, the other region's definition whose shared settings this region's replica
     * is to take, until it has: a step refused now (an index still being built, the table
     * UPDATING) is tried again by the replicator's next round.
     */
    private final Map<String, TableDefinition> unaligned = new ConcurrentHashMap<>();

    /** Aligns each replica still behind another region's shared settings, as far as it can now. */
    void alignPending() {
        synchronized (alignment) {
            alignPendingHeld();
        }
    }

    /** Adopting another region's copy and aligning to it, one at a time: an alignment's changes are never sent back. */
    private final Object alignment = new Object();

    private void alignPendingHeld() {
        for (Map.Entry<String, TableDefinition> e : unaligned.entrySet()) {
            String name = e.getKey();
            TableDefinition local = catalog.find(name);
            if (local == null || local.globalTable() == null) {
                unaligned.remove(name, e.getValue());
                continue;
            }
            if (ReplicaSettings.aligned(local).equals(ReplicaSettings.aligned(e.getValue()))) {
                unaligned.remove(name, e.getValue());
                continue;
            }
            aligning.add(name);
            try {
                ReplicaSettings.align(local, e.getValue(), settings);
            } catch (RuntimeException refused) {
                // Tried again next round.
            } finally {
                aligning.remove(name);
            }
        }
    }

    /** Replicas deleted here, as the other regions are to hear of it, until they have. */
    final Map<String, TableDefinition> departed = new ConcurrentHashMap<>();

    /**
     * Notes a change of a global table's shared settings made here (UpdateTable, UpdateTimeToLive):
     * the replicator then sends the table to every member, which aligns its own.
     */
    private void changed(TableDefinition t) {
        if (t.globalTable() != null) register(); // turned global through another server of this region
        if (t.globalTable() == null || aligning.contains(t.name())) return;
        String now = ReplicaSettings.aligned(t);
        String before = alignedSettings.put(t.name(), now);
        if (before != null && !before.equals(now)) {
            settingsChanged.add(t.name());
            wake();
        }
    }

    /** Global tables whose shared settings changed here: one epoch on each, so that every member gets them. */
    void sendChangedSettings() {
        for (String name : List.copyOf(settingsChanged)) {
            settingsChanged.remove(name);
            changeMembers(name, GlobalTable::bumped);
        }
    }

    /**
     * Connects this region to its peers and starts shipping, creating and deleting replicas.
     *
     * @param tombstoneRetention how long a deleted item's version is kept: no change older than
     *                           that is applied (DynamoDB keeps changes a region could not take for 24 hours)
     */
    public synchronized void connect(PeerLinks peers, Duration tombstoneRetention) {
        connect(peers, tombstoneRetention, null);
    }

    /**
     * As {@link #connect(PeerLinks, Duration)}, with this region's consensus server for tables
     * with multi-Region strong consistency (Apache Ratis; its groups recovered from its directory).
     * Several servers sharing the store: this one hosts the region's member, and the others hand
     * it their MRSC work at {@code endpoint} ({@link RelayedConsensus}).
     *
     * @param consensusAddress the host:port its consensus server listens on (and peers reach it on)
     * @param consensusDirectory where that server keeps its Raft logs
     * @param endpoint where the region's other servers reach this one (its URL)
     */
    public synchronized void connect(PeerLinks peers, Duration tombstoneRetention, String consensusAddress,
                                     java.nio.file.Path consensusDirectory, String endpoint) {
        ConsensusTls tls;
        try {
            tls = ConsensusTls.open(consensusDirectory.resolve("tls"), region);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        connect(peers, tombstoneRetention, ConsensusSettings.of(region, consensusAddress, consensusDirectory).withTls(tls));
        if (severalServers()) RelayedConsensus.register(storage, endpoint);
    }

    private synchronized void connect(PeerLinks peers, Duration tombstoneRetention, ConsensusSettings consensus) {
        this.links = peers;
        this.tombstoneRetentionMillis = tombstoneRetention.toMillis();
        if (consensus != null && strong.hosted() == null) {
            try {
                strong.connect(ConsensusGroups.start(consensus, strong::applier));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            consensusAddress = consensus.address();
            consensusTls = consensus.tls();
        } else if (consensus == null && severalServers() && strong.consensus() == null) {
            strong.connect(new RelayedConsensus(storage, peers));
        }
        if (replicator == null && !peers.regions().isEmpty()) {
            replicator = new Replicator(this, catalog, peers, clock, locks);
            replicator.start();
        }
    }

    String region() { return region; }

    long tombstoneRetentionMillis() { return tombstoneRetentionMillis; }

    /** ReplicationLatency per table and source region, as this region received their changes. */
    public ReplicationLatencies latencies() { return latencies; }

    /** Makes every write stage its version and log row, before a table turns global. Never undone. */
    private void register() {
        if (registered) return; // without the lock: called under the catalog's (changed)
        synchronized (this) {
            if (!registered) {
                changeLog.register(log);
                registered = true;
            }
        }
    }

    /** Whether several servers share this region's store (Cassandra). */
    public boolean severalServers() {
        return leases != null;
    }

    private void wake() {
        Replicator r = replicator;
        if (r != null) r.wake();
    }

    // ---- the control plane ----------------------------------------------------------------------

    /**
     * UpdateTable's ReplicaUpdates: checks them, records the replicas to create (CREATING) and
     * to delete (DELETING), and returns the table as it is now. The work is done in the
     * background; the table is UPDATING until it is.
     *
     * @param consistency MultiRegionConsistency as given, or null
     */
    public TableDefinition updateReplicas(String nameOrArn, List<ReplicaUpdate> updates, String consistency,
                                          List<WitnessUpdate> witnesses, boolean otherChanges) {
        if (otherChanges) {
            throw DynamoDbException.validation("Requests that modify replicas or witnesses must not also modify other fields");
        }
        int createsAndDeletes = 0;
        for (ReplicaUpdate u : updates) {
            if (u.region().equals(region)) throw DynamoDbException.validation(LOCAL_REGION);
            checkRegion(u.region());
            if (u.kind() != ReplicaUpdate.Kind.UPDATE) createsAndDeletes++;
        }
        for (WitnessUpdate w : witnesses) checkRegion(w.region());
        StrongRules.checkRequest(updates, consistency, witnesses);
        boolean strongly = "STRONG".equals(consistency);
        if (strongly && (strong.consensus() == null
                || strong.consensus() instanceof RelayedConsensus relay && !relay.memberRegistered())) {
            throw DynamoDbException.validation("Multi-Region strong consistency needs a consensus server in this region "
                    + "(--consensus-port" + (severalServers() ? " on one of its servers)" : ")"));
        }
        if (createsAndDeletes > 1 && !strongly) {
            throw DynamoDbException.validation("Update table operation with more than one create or delete replica "
                    + "actions not allowed");
        }
        TableDefinition table = catalog.require(nameOrArn, NotFoundMessage.WITH_TABLE_NAME);
        if (table.filling()) {
            throw DynamoDbException.resourceInUse(
                    "Attempt to change a resource which is still in use: Table is being created: " + table.name());
        }
        register();
        streams.register();
        boolean empty = !strongly || empty(table);
        TableDefinition updated = catalog.update(table.name(), t -> {
            GlobalTable g = t.globalTable();
            if (g != null && g.changing()) throw beingUpdated(t.name());
            if (g != null && g.consistency() == GlobalTable.Consistency.STRONG) {
                TableDefinition.Builder b = t.toBuilder();
                b.globalTable = StrongRules.teardown(g, region, updates, consistency, witnesses);
                return b.build();
            }
            if (strongly && g != null) throw DynamoDbException.validation(StrongRules.UNSUPPORTED_COUNT);
            if (strongly) {
                TableDefinition.Builder b = t.toBuilder();
                b.globalTable = StrongRules.created(t, region, updates, witnesses, empty);
                return b.build();
            }
            if (g != null && consistency != null) {
                throw DynamoDbException.validation("MultiRegionConsistency parameter is unsupported on existing global table");
            }
            if (g == null) {
                g = new GlobalTable(GlobalTable.Consistency.EVENTUAL, 0,
                        List.of(new Replica(region, ReplicaStatus.ACTIVE, 0, null, null)), null);
            }
            for (ReplicaUpdate u : updates) {
                Replica r = g.replica(u.region());
                switch (u.kind()) {
                    case CREATE -> {
                        if (r != null) {
                            throw DynamoDbException.validation("Failed to create a the new replica of table with name: '"
                                    + t.name() + "' because one or more replicas already existed as tables.");
                        }
                        ReplicaSettings.checkOverrides(t, u.overrides());
                        g = g.withReplica(new Replica(u.region(), ReplicaStatus.CREATING, 0, null, null, u.overrides()));
                    }
                    case UPDATE, DELETE -> {
                        if (r == null) {
                            throw DynamoDbException.validation("Update global table operation failed because one or "
                                    + "more replicas were not part of the global table. Please retry the request "
                                    + "without these replicas: [" + u.region() + "].");
                        }
                        if (u.kind() == ReplicaUpdate.Kind.UPDATE) {
                            ReplicaSettings.checkOverrides(t, u.overrides());
                            g = g.withReplica(r.overridden(u.overrides()));
                        } else {
                            // One whose creation failed has no table to delete there (that region's
                            // table of the name is someone else's): it is only forgotten.
                            g = r.status() == ReplicaStatus.CREATION_FAILED ? g.without(r.region())
                                    : g.withReplica(r.with(ReplicaStatus.DELETING));
                        }
                    }
                }
            }
            TableDefinition.Builder b = t.toBuilder();
            if (g.replicas().size() <= 1) {
                b.globalTable = null; // its one other replica, never created, forgotten: regional again
                return b.build();
            }
            b.globalTable = g;
            if (t.stream() == null || !t.stream().enabled()) {
                // MREC replicates through the table's stream: DynamoDB enables one, NEW_AND_OLD_IMAGES.
                b.stream = new TableDefinition.StreamSpecification(true, TableDefinition.StreamViewType.NEW_AND_OLD_IMAGES);
                b.latestStreamLabel = TableSettings.streamLabel(clock.instant());
            }
            return b.build();
        });
        streams.tableChanged(updated.name());
        learned(updated, table.globalTable(), updated.globalTable(), region);
        wake();
        return updated;
    }

    /** A region a global table may have a replica or witness in: one of this region's peers. */
    private void checkRegion(String r) {
        if (r.equals(region) || links.regions().contains(r)) return;
        // DynamoDB's text, the regions being this one's peers; a Stator without says how to get some.
        throw DynamoDbException.validation("Region " + r + " is not supported. The latest version of "
                + "global tables are only supported in the following regions: "
                + new java.util.TreeSet<>(links.regions()) + "."
                + (links.regions().isEmpty() ? " This Stator has no peer regions: start it with --replica-peers." : ""));
    }

    private static DynamoDbException beingUpdated(String name) {
        return DynamoDbException.resourceInUse("Attempt to change a resource which is still in use: Table is being updated: "
                + name);
    }

    /**
     * Refuses a change of a global table's stream: MREC replicates through it, so DynamoDB keeps it
     * enabled while the table is global (its texts as AWS-verified tests match them).
     */
    public static void checkStreamChange(TableDefinition table, boolean enabling) {
        if (!table.eventuallyReplicated()) return;
        if (!enabling) {
            throw DynamoDbException.validation("Disabling the stream is not allowed for a table that is a replica "
                    + "of a Global Table: " + table.name());
        }
    }

    /** Whether the table holds no item, read from the store: on shared storage the item counts lag. */
    private boolean empty(TableDefinition table) {
        try (Cursor c = storage.range(null, Keyspaces.ITEMS, KeyLayout.indexPrefix(table.id(), 0),
                KeyLayout.indexUpperBound(table.id(), 0), false)) {
            return !c.next();
        }
    }

    /** Refuses DeleteTable of one replica of a global table with multi-Region strong consistency. */
    public static void checkDeletable(TableDefinition table) {
        StrongRules.checkDeletable(table);
    }

    /** Refuses any other UpdateTable while replicas are being created or deleted. */
    public static void checkNotChanging(TableDefinition table) {
        if (table.globalTable() != null && table.globalTable().changing()) throw beingUpdated(table.name());
    }

    /**
     * A region this one just learned of (or forgot): where its shipping starts. The first active
     * replica fills a new one from a snapshot and starts its own shipping at the snapshot; every
     * other region ships the new one what the filler had not yet acknowledged of its changes, so
     * that each of its changes reaches the new replica either through the snapshot or directly.
     * Several servers: so in every server's log, the filler's cursor there copied before this
     * region acknowledges (a log without it is sent whole, from its start).
     */
    private void learned(TableDefinition table, GlobalTable before, GlobalTable after, String from) {
        Set<String> had = new HashSet<>(before == null ? List.of() : before.regions());
        Set<String> has = new HashSet<>(after == null ? List.of() : after.regions());
        String driver = after == null ? null : driver(after);
        List<Long> logs = severalServers() ? log.registeredLogs() : List.of(log.ownLog());
        for (String r : has) {
            if (had.contains(r) || r.equals(region) || region.equals(driver)) continue;
            for (long l : logs) {
                if (log.cursor(table.id(), r, l) >= 0) continue;
                long start = driver == null ? -1 : log.cursor(table.id(), driver, l);
                long otherwise = severalServers() ? ReplicationLog.start(l) : log.safeHead(table.id());
                log.saveCursor(table.id(), r, l, start >= 0 ? start : otherwise);
            }
        }
        for (String r : had) {
            if (has.contains(r) || r.equals(region)) continue;
            for (long l : logs) log.dropCursor(table.id(), r, l);
        }
    }

    /** The region that creates, fills and deletes replicas: the first active one, in the order they joined. */
    static String driver(GlobalTable g) {
        for (Replica r : g.replicas()) if (r.status() == ReplicaStatus.ACTIVE) return r.region();
        return null;
    }

    // ---- messages from other regions ------------------------------------------------------------

    /** A message another region sent (through the front end's authenticated endpoint); its reply. */
    public byte[] receive(String from, String message, byte[] body) {
        // Handed on by another server of this region to the one it read as hosting the member: a
        // server that does not host it refuses rather than hand it on again (to itself, in a loop).
        if (from.equals(region) && strong.consensus() instanceof RelayedConsensus
                && RegionMessages.forTheMember(message)) {
            throw DynamoDbException.validation(RelayedConsensus.NOT_HOSTED);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(body))) {
            return switch (message) {
                case RegionMessages.CREATE_REPLICA -> {
                    createReplica(TableCodec.decode(body));
                    yield new byte[0];
                }
                case RegionMessages.MEMBERS -> {
                    adopt(from, TableCodec.decode(body));
                    yield new byte[0];
                }
                case RegionMessages.DELETE_REPLICA -> {
                    // Only a replica is dropped: never a regional table of the same name.
                    if (catalog.find(in.readUTF()) instanceof TableDefinition t && t.globalTable() != null
                            && t.globalTable().replica(region) != null) {
                        if (strong.orders(t)) {
                            // An MRSC table's teardown: out of its group, regional, then dropped.
                            strong.leave(t.name());
                            catalog.update(t.name(), d -> {
                                TableDefinition.Builder b = d.toBuilder();
                                b.globalTable = null;
                                return b.build();
                            });
                        }
                        dropTable.accept(t.name());
                    }
                    yield new byte[0];
                }
                case RegionMessages.LEAVE_GROUP -> {
                    strong.leave(in.readUTF());
                    yield new byte[0];
                }
                case RegionMessages.STRONG_PROPOSE, RegionMessages.STRONG_CATCH_UP ->
                        RelayedConsensus.answer(strong.consensus(), message, in);
                case RegionMessages.CONSENSUS_CERTIFICATE -> {
                    if (strong.consensus() instanceof RelayedConsensus relay) yield forward(relay, message, body);
                    ConsensusTls tls = consensusTls;
                    if (tls == null) throw DynamoDbException.validation("This region has no consensus server");
                    yield tls.certificate();
                }
                case RegionMessages.CONSENSUS_ADDRESS -> {
                    if (strong.consensus() instanceof RelayedConsensus relay) yield forward(relay, message, body);
                    String address = consensusAddress;
                    if (address == null) throw DynamoDbException.validation("This region has no consensus server");
                    yield address.getBytes(StandardCharsets.UTF_8);
                }
                case RegionMessages.JOIN_GROUP -> {
                    String name = in.readUTF();
                    int n = in.readInt();
                    List<GroupMember> members = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        String r = in.readUTF();
                        String address = in.readUTF();
                        members.add(in.readBoolean() ? GroupMember.witness(r, address) : GroupMember.replica(r, address));
                    }
                    strong.join(name, members);
                    yield new byte[0];
                }
                case RegionMessages.APPLY -> {
                    String name = in.readUTF();
                    int applied = changesIn.apply(from, name, ReplicatedChange.decodeAll(in));
                    yield ByteBuffer.allocate(4).putInt(applied).array();
                }
                default -> throw DynamoDbException.validation("Unknown replication message: " + message);
            };
        } catch (IOException e) {
            throw DynamoDbException.validation("Malformed replication message " + message + ": " + e.getMessage());
        }
    }

    /** A message for the region's consensus member, handed to the server hosting it; a failure is answered as one. */
    private static byte[] forward(RelayedConsensus relay, String message, byte[] body) {
        try {
            return relay.forward(message, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates this region's replica of a table another region is making global: empty, filled after. */
    private void createReplica(TableDefinition source) {
        TableDefinition existing = catalog.find(source.name());
        if (existing != null) {
            if (existing.globalTable() != null && existing.globalTable().replica(region) != null) return; // sent again
            throw DynamoDbException.resourceInUse("Table already exists: " + source.name());
        }
        register();
        TableDefinition.Builder b = source.toBuilder();
        // This region's own: its ARN, id, TableId and creation time (Catalog.create), its stream,
        // its indexes empty and so ACTIVE, no backups, restore, import, policies or Kinesis
        // destinations of the source.
        b.pointInTimeRecovery = null;
        b.kinesisDestinations = List.of();
        b.importArn = null;
        b.restore = null;
        b.resourcePolicy = null;
        b.contributorInsights = Map.of();
        List<IndexDefinition> indexes = new ArrayList<>();
        for (IndexDefinition i : source.globalIndexes()) indexes.add(i.withStatus(IndexDefinition.IndexStatus.ACTIVE, false));
        b.globalIndexes = indexes;
        if (source.stream() != null && source.stream().enabled()) {
            streams.register();
            b.latestStreamLabel = TableSettings.streamLabel(clock.instant());
        }
        TableDefinition created = catalog.create(b);
        streams.tableChanged(created.name());
        log.startOwnLog();
        long own = log.ownLog();
        for (String r : created.globalTable().regions()) {
            if (!r.equals(region)) log.saveCursor(created.id(), r, own, ReplicationLog.start(own));
        }
    }

    /**
     * Takes another region's newer copy of a global table: its members, and the settings every
     * replica shares, which this region's replica then aligns to.
     */
    private void adopt(String from, TableDefinition source) {
        synchronized (alignment) {
            adoptHeld(from, source);
        }
    }

    private void adoptHeld(String from, TableDefinition source) {
        String name = source.name();
        GlobalTable g = source.globalTable();
        TableDefinition t = catalog.find(name);
        if (t == null || g == null) throw DynamoDbException.resourceNotFound(NotFoundMessage.WITH_TABLE_NAME.text(name));
        GlobalTable mine = t.globalTable();
        // A table of that name here that is not a replica is not one to take over: the region that
        // asked for a replica here gets DynamoDB's refusal when it sends the replica's creation.
        if (mine == null) throw DynamoDbException.resourceInUse("Table already exists: " + name);
        if (g.epoch() <= mine.epoch()) return;
        // Only this region left: the table is regional again, its stream left enabled (as DynamoDB leaves it).
        GlobalTable adopted = g.replica(region) == null || g.replicas().size() <= 1 ? null : g;
        if (adopted != null) register();
        aligning.add(name);
        try {
            TableDefinition updated = catalog.update(name, d -> {
                TableDefinition.Builder b = d.toBuilder();
                b.globalTable = adopted;
                return b.build();
            });
            learned(updated, mine, adopted, from);
            if (adopted != null) {
                alignedSettings.put(name, ReplicaSettings.aligned(source));
                unaligned.put(name, source);
            } else {
                unaligned.remove(name);
            }
        } finally {
            aligning.remove(name);
        }
        alignPendingHeld();
        wake();
    }

    // ---- what the replicator asks ---------------------------------------------------------------

    /** This region's consensus TLS, or null without a consensus server. */
    ConsensusTls consensusTls() {
        return consensusTls;
    }

    /** This region's consensus server's address (host:port), asked of the server hosting it if another. */
    String consensusAddress() throws IOException {
        if (strong.consensus() instanceof RelayedConsensus relay) {
            return new String(relay.forward(RegionMessages.CONSENSUS_ADDRESS, new byte[0]), StandardCharsets.UTF_8);
        }
        if (consensusAddress == null) throw new IOException("no consensus server here");
        return consensusAddress;
    }

    /** The driver's change of its own copy of the members (a replica created or deleted). */
    TableDefinition changeMembers(String name, java.util.function.UnaryOperator<GlobalTable> change) {
        TableDefinition before = catalog.find(name);
        if (before == null || before.globalTable() == null) return before;
        TableDefinition updated = catalog.update(name, t -> {
            TableDefinition.Builder b = t.toBuilder();
            GlobalTable g = change.apply(t.globalTable());
            b.globalTable = g == null || g.replicas().size() <= 1 ? null : g;
            return b.build();
        });
        learned(updated, before.globalTable(), updated.globalTable(), region);
        return updated;
    }

    /** Sets a new replica's cursor where its fill starts: the changes committed from here on. */
    long startShipping(TableDefinition table, String peer) {
        long head = log.safeHead(table.id());
        log.saveCursor(table.id(), peer, log.ownLog(), head);
        return head;
    }

    @Override
    public synchronized void close() {
        if (replicator != null) replicator.close();
        if (strong.consensus() != null) {
            try {
                strong.consensus().close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
