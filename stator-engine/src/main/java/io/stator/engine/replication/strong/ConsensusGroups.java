package io.stator.engine.replication.strong;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.retry.RequestTypeDependentRetryPolicy;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.proto.RaftProtos.RaftClientRequestProto.TypeCase;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;

/**
 * MRSC's consensus: one Apache Ratis {@link RaftServer} per process, hosting one Raft group per
 * MRSC table, whose three members are the table's regions (each region's process adds its own
 * membership: {@link #join}). Built on Ratis rather than a protocol of our own: elections, log
 * replication and ReadIndex are Ratis', tested there at scale (Apache Ozone).
 *
 * <p><b>Groups.</b> A table's {@link RaftGroupId} is a name-based UUID of its name, so every region
 * derives the same one without asking. The peer id is the region's name. A witness gets priority
 * 0 and replicas 1: Ratis hands leadership back to a replica as soon as one is caught up, since
 * a witness has no items to evaluate writes against. Groups are added and removed at run time
 * through the server's own admin protocol ({@code groupManagement}, Ratis' groupAdd and
 * groupRemove), and recovered from the storage directory at start, with the {@link GroupRecord}
 * this region keeps of each (its table and members).
 *
 * <p><b>Writes.</b> {@link #propose} sends the command through the group's Ratis client (its
 * blocking API, on the caller's thread: each proposal retried on its own, and no error logged by
 * Ratis for a refusal), which finds the leader and retries there; the leader refuses a conflict
 * ({@link TableStateMachine}) or appends it; it commits on two of three logs. The proposer returns
 * once the command is applied here too, with this store's result ({@link Applier}: identical on
 * every replica, and a witness leading has none), so a write acknowledged in a region is in that
 * region's store. A refusal throws {@link ReplicatedWriteConflictException} at once; no commit by
 * the deadline throws {@link NoQuorumException}. A proposal retried (its leader lost) is not
 * applied twice: Ratis' retry cache answers the retry, on a new leader too, since a new leader
 * serves only once it applied every entry of earlier terms, which fills its cache.
 *
 * <p><b>Reads.</b> {@link #readLinearizable} is Ratis' ReadIndex: this member learns the leader's
 * commit index (the leader confirming it still leads by a heartbeat round), waits until it has
 * applied that far, and then the caller reads its own store. Eventually consistent reads read the
 * store and need nothing here.
 *
 * <p><b>Ratis 3.1.3, and what is set.</b>
 * <ul>
 *   <li>Transport gRPC ({@code ratis-grpc}): Ratis' default and the most used (Ozone, IoTDB),
 *       one port for server, client and admin traffic, over mutual TLS when the settings give a
 *       {@link ConsensusTls} (the server's does: its peers' certificates pinned). Ratis shades its gRPC, Netty and protobuf under
 *       {@code org.apache.ratis.thirdparty} ({@code ratis-thirdparty-misc}), so they never meet
 *       the HTTP server's Netty 4.2. {@code ratis-netty} would be the smaller stack, but is the
 *       less used one.</li>
 *   <li>{@code raft.server.read.option=LINEARIZABLE}: reads through ReadIndex, on any member
 *       (the default, DEFAULT, queries the leader's state machine without confirming it still
 *       leads).</li>
 *   <li>{@code raft.server.rpc.timeout.min/max}: the settings' election timeout (default 1-2 s,
 *       tests use less).</li>
 *   <li>{@code raft.server.log.appender.install.snapshot.enabled=false}: our snapshots hold an
 *       index, not items; installing one would move a member's index without its items.</li>
 *   <li>{@code raft.server.log.appender.retry.policy}: {@value #APPENDER_RETRY}. Ratis' default
 *       waits 5 s between tries once a member was down for half a minute, and stops waiting
 *       after some 80 minutes (trying again without a pause); a region back after any outage
 *       hears from the leader within a second.</li>
 *   <li>{@code raft.server.snapshot.auto.trigger.enabled=true}, every {@value #SNAPSHOT_EVERY}
 *       entries: bounds the replay at restart (the log is purged only up to every member's commit
 *       index, Ratis' default, so a member briefly down still catches up from the log).</li>
 *   <li>The client retries (every {@value #RETRY_SLEEP_MILLIS} ms: a new leader, a peer back)
 *       until the deadline, by Ratis' {@link RequestTypeDependentRetryPolicy}; each attempt waits
 *       half the deadline ({@code raft.client.rpc.request.timeout}), so a proposal fails at the
 *       deadline, or one attempt later at worst (1.5 deadlines: an attempt begun just before it).
 *       {@code raft.server.read.timeout}: the deadline.</li>
 *   <li>Storage under the settings' directory ({@code raft/}, {@code removed-groups/}), never
 *       Ratis' default in /tmp.</li>
 * </ul>
 */
public final class ConsensusGroups implements Consensus {

    static final long SNAPSHOT_EVERY = 10_000;
    static final long RETRY_SLEEP_MILLIS = 50;
    /** The leader's retries of a member it cannot reach: 10 at once, 50 at 100 ms, then every second. */
    static final String APPENDER_RETRY = "1ms,10, 100ms,50, 1s,1000000000";
    private static final int REPLICA_PRIORITY = 1;
    private static final int WITNESS_PRIORITY = 0;

    private final ConsensusSettings settings;
    private final Function<String, Applier> appliers;
    private final RaftProperties properties;
    /** Ratis' parameters: the mutual TLS of {@link ConsensusTls}, or none. */
    private final Parameters parameters;
    private final RaftPeerId self;
    private final Path records;
    private final RaftServer server;
    private final ClientId adminClient = ClientId.randomId();
    private final AtomicLong adminCalls = new AtomicLong();
    private final Map<String, Group> groups = new ConcurrentHashMap<>();

    private record Group(GroupRecord record, RaftGroupId id, GroupMember.Role role, RaftClient client) {}

    private ConsensusGroups(ConsensusSettings settings, Function<String, Applier> appliers) throws IOException {
        this.settings = settings;
        this.appliers = appliers;
        this.properties = properties(settings);
        this.parameters = settings.tls() == null ? new Parameters() : GrpcFactory.newRaftParameters(settings.tls().config());
        this.self = RaftPeerId.valueOf(settings.region());
        this.records = settings.directory().resolve("groups");
        Files.createDirectories(records);
        this.server = RaftServer.newBuilder().setServerId(self).setProperties(properties).setParameters(parameters)
                .setStateMachineRegistry(this::stateMachine).setOption(RaftStorage.StartupOption.RECOVER).build();
    }

    /**
     * Starts this process's consensus server, with the groups it was a member of. {@code appliers}
     * gives each table's {@link Applier} (not asked for a table this region witnesses); recovered
     * groups apply their logs' committed tail from here on, so the item stores must be open.
     */
    public static ConsensusGroups start(ConsensusSettings settings, Function<String, Applier> appliers)
            throws IOException {
        ConsensusGroups consensus = new ConsensusGroups(settings, appliers);
        try {
            consensus.server.start();
            for (RaftGroupId id : consensus.server.getGroupIds()) {
                GroupRecord record = GroupRecord.read(consensus.record(id));
                consensus.recoverMembers(id, record);
                consensus.open(record);
            }
        } catch (IOException | RuntimeException e) {
            consensus.close();
            throw e;
        }
        return consensus;
    }

    /** The group id every region derives from the table's name. */
    public static RaftGroupId groupId(String table) {
        return RaftGroupId.valueOf(UUID.nameUUIDFromBytes(("stator:mrsc:" + table).getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Makes this region a member of the table's group: three members, this region among them, at
     * most one witness. The group has a leader once two members joined. Joining again with the
     * same members does nothing (a restarted process recovered its groups).
     */
    @Override
    public void join(String table, List<GroupMember> members) throws IOException {
        checkTopology(members);
        GroupRecord record = new GroupRecord(table, members);
        Group existing = groups.get(table);
        if (existing != null) {
            if (!Set.copyOf(existing.record().members()).equals(Set.copyOf(members))) {
                throw new IllegalStateException("table " + table + " is already in a group with other members");
            }
            return;
        }
        RaftGroupId id = groupId(table);
        record.write(record(id));
        try {
            add(record, true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(record(id));
            throw e;
        }
        open(record);
    }

    /** Leaves the table's group and deletes this member's log of it. */
    @Override
    public void leave(String table) throws IOException {
        Group group = groups.remove(table);
        if (group == null) return;
        group.client().close();
        remove(group.id(), true);
        Files.deleteIfExists(record(group.id()));
    }

    /**
     * Ratis recovers a group from its directory by id, its members from the configuration entries
     * in its log: a member stopped before the first one reached it comes back with none, and
     * refuses every vote ("not in the conf"), so two regions could never elect a leader. Such a
     * group is added again with its recorded members, on the same log.
     */
    private void recoverMembers(RaftGroupId id, GroupRecord record) throws IOException {
        if (!server.getDivision(id).getRaftConf().getAllPeers().isEmpty()) return;
        remove(id, false);
        add(record, false);
    }

    /** Ratis' groupAdd on this server: a new log ({@code format}), or the one in its directory. */
    private void add(GroupRecord record, boolean format) throws IOException {
        RaftClientReply reply = server.groupManagement(GroupManagementRequest.newAdd(adminClient, self,
                adminCalls.incrementAndGet(), raftGroup(record), format));
        if (!reply.isSuccess()) throw new IOException("adding the group of " + record.table() + " failed", reply.getException());
    }

    /** Ratis' groupRemove on this server, its log deleted or kept. */
    private void remove(RaftGroupId id, boolean deleteLog) throws IOException {
        RaftClientReply reply = server.groupManagement(GroupManagementRequest.newRemove(adminClient, self,
                adminCalls.incrementAndGet(), id, deleteLog, false));
        if (!reply.isSuccess()) throw new IOException("removing the group " + id + " failed", reply.getException());
    }

    /**
     * Orders the command in the table's group and returns once it is committed and applied here,
     * with this store's result.
     *
     * @throws ReplicatedWriteConflictException an item is in flight from another region
     * @throws NoQuorumException not committed within the deadline (it may still commit later), or
     *     committed but not applied here an election timeout later
     * @throws IllegalStateException this member's store failed ({@link Applier}), or this region
     *     witnesses the table
     */
    @Override
    public byte[] propose(String table, StrongCommand command) {
        Group group = replica(table, "writes");
        TableStateMachine machine = machine(group);
        machine.checkStore();
        UUID proposal = UUID.randomUUID();
        long start = System.nanoTime();
        CompletableFuture<byte[]> applied = machine.awaitApplied(proposal);
        try {
            group.client().io().send(Message.valueOf(ByteString.copyFrom(StrongCommandCodec.encode(proposal, command))));
        } catch (StateMachineException e) {
            Optional<ReplicatedWriteConflictException> conflict = conflictIn(e);
            if (conflict.isPresent()) {
                machine.forget(proposal);
                throw conflict.get();
            }
            // Else the leader's store failed applying it: committed all the same, so it is applied here.
        } catch (IOException e) {
            machine.forget(proposal);
            throw new NoQuorumException("MRSC table " + table + ": the write was not committed within "
                    + settings.deadline().toMillis() + " ms of " + settings.region() + " (" + e + ")");
        }
        // Committed, and applied by the leader: this member learns of the commit at the next
        // append or heartbeat, well within an election timeout.
        long wait = Math.max(settings.deadline().toNanos() - (System.nanoTime() - start),
                settings.electionTimeoutMax().toNanos());
        try {
            return applied.get(wait, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new NoQuorumException("MRSC table " + table + ": the write was committed but not yet applied in "
                    + settings.region());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NoQuorumException("MRSC table " + table + ": interrupted while waiting for the write");
        } finally {
            machine.forget(proposal);
        }
    }

    /**
     * Runs {@code localRead} on this region's store once it holds every write committed before
     * this call (Ratis' ReadIndex through the leader).
     *
     * @throws NoQuorumException no leader confirmed the read index within the deadline
     * @throws IllegalStateException this member's store failed ({@link Applier})
     */
    public <T> T readLinearizable(String table, Supplier<T> localRead) {
        Group group = replica(table, "reads");
        machine(group).checkStore();
        long end = System.nanoTime() + settings.deadline().toNanos();
        while (true) {
            try {
                group.client().async().sendReadOnlyUnordered(Message.EMPTY, self)
                        .get(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                return localRead.get();
            } catch (ExecutionException e) {
                // A leader changing (or not yet serving reads) refuses the read index: ask again
                // while the deadline allows, as a proposal is retried.
                if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_SLEEP_MILLIS) >= end) {
                    throw new NoQuorumException("MRSC table " + table + ": no linearizable read in " + settings.region()
                            + " within " + settings.deadline().toMillis() + " ms (" + e.getCause() + ")");
                }
                sleepQuietly(RETRY_SLEEP_MILLIS);
            } catch (TimeoutException e) {
                throw new NoQuorumException("MRSC table " + table + ": no linearizable read in " + settings.region()
                        + " within " + settings.deadline().toMillis() + " ms");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new NoQuorumException("MRSC table " + table + ": interrupted while waiting for a read");
            }
        }
    }

    @Override
    public void catchUp(String table) {
        readLinearizable(table, () -> null);
    }

    /**
     * The index of the last log entry applied here; -1 before any. Ratis' own entries
     * (configurations, commit metadata) take indexes too, so commands' indexes have gaps: a stream
     * record's sequence number comes from its command's index (the Applier's), not from this.
     */
    public long appliedIndex(String table) {
        return machine(group(table)).appliedIndex();
    }

    /** The region this member believes leads the table's group, if it knows one. */
    public Optional<String> leader(String table) {
        try {
            return Optional.ofNullable(server.getDivision(group(table).id()).getInfo().getLeaderId())
                    .map(RaftPeerId::toString);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tables whose groups this region is a member of. */
    public List<String> tables() {
        return new ArrayList<>(groups.keySet());
    }

    int keysInFlight(String table) {
        return machine(group(table)).keysInFlight();
    }

    @Override
    public void close() throws IOException {
        for (Group group : groups.values()) group.client().close();
        groups.clear();
        server.close();
    }

    private static RaftProperties properties(ConsensusSettings settings) {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setHost(p, settings.host());
        GrpcConfigKeys.Server.setPort(p, settings.port());
        RaftServerConfigKeys.setStorageDir(p, List.of(settings.directory().resolve("raft").toFile()));
        RaftServerConfigKeys.setRemovedGroupsDir(p, settings.directory().resolve("removed-groups").toFile());
        RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        RaftServerConfigKeys.Read.setTimeout(p, millis(settings.deadline().toMillis()));
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, millis(settings.electionTimeoutMin().toMillis()));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, millis(settings.electionTimeoutMax().toMillis()));
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, false);
        RaftServerConfigKeys.Log.Appender.setRetryPolicy(p, APPENDER_RETRY);
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, SNAPSHOT_EVERY);
        // Half the deadline per attempt: a proposal sent to a leader that cannot commit is given up
        // by the deadline, or by one attempt more at worst (1.5 deadlines).
        RaftClientConfigKeys.Rpc.setRequestTimeout(p, millis(settings.deadline().toMillis() / 2));
        return p;
    }

    private static TimeDuration millis(long millis) {
        return TimeDuration.valueOf(millis, TimeUnit.MILLISECONDS);
    }

    private static RaftPeer peer(GroupMember member) {
        return RaftPeer.newBuilder().setId(member.region()).setAddress(member.address())
                .setPriority(member.role() == GroupMember.Role.WITNESS ? WITNESS_PRIORITY : REPLICA_PRIORITY).build();
    }

    private static RaftGroup raftGroup(GroupRecord record) {
        return RaftGroup.valueOf(groupId(record.table()), record.members().stream().map(ConsensusGroups::peer).toList());
    }

    private void checkTopology(List<GroupMember> members) {
        if (members.size() != 3) throw new IllegalArgumentException("an MRSC group has three members, not " + members.size());
        if (members.stream().map(GroupMember::region).distinct().count() != 3) {
            throw new IllegalArgumentException("an MRSC group's members are three different regions");
        }
        if (members.stream().filter(m -> m.role() == GroupMember.Role.WITNESS).count() > 1) {
            throw new IllegalArgumentException("an MRSC group has at most one witness");
        }
        if (members.stream().noneMatch(m -> m.region().equals(settings.region()))) {
            throw new IllegalArgumentException("this region, " + settings.region() + ", is not among the group's members");
        }
    }

    private void open(GroupRecord record) {
        // Asked first, this server always knows the group and names its leader if it has one; a
        // member not yet joined would end the proposal (GroupMismatchException is not retried).
        RaftClient client = RaftClient.newBuilder().setProperties(properties).setParameters(parameters)
                .setRaftGroup(raftGroup(record))
                .setLeaderId(self)
                .setRetryPolicy(RequestTypeDependentRetryPolicy.newBuilder()
                        .setRetryPolicy(TypeCase.WRITE, RetryPolicies.retryForeverWithSleep(millis(RETRY_SLEEP_MILLIS)))
                        .setRetryPolicy(TypeCase.READ, RetryPolicies.retryForeverWithSleep(millis(RETRY_SLEEP_MILLIS)))
                        .setTimeout(TypeCase.WRITE, millis(settings.deadline().toMillis()))
                        .setTimeout(TypeCase.READ, millis(settings.deadline().toMillis()))
                        .build())
                .build();
        groups.put(record.table(), new Group(record, groupId(record.table()), record.roleOf(settings.region()), client));
    }

    private Group group(String table) {
        Group group = groups.get(table);
        if (group == null) throw new IllegalArgumentException("this region is in no MRSC group of table " + table);
        return group;
    }

    private Group replica(String table, String what) {
        Group group = group(table);
        if (group.role() == GroupMember.Role.WITNESS) {
            throw new IllegalStateException("this region witnesses table " + table + " and serves no " + what);
        }
        return group;
    }

    private TableStateMachine machine(Group group) {
        try {
            return (TableStateMachine) server.getDivision(group.id()).getStateMachine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Ratis' factory of state machines: a new group's or a recovered one's, by its record. */
    private TableStateMachine stateMachine(RaftGroupId id) {
        GroupRecord record;
        try {
            record = GroupRecord.read(record(id));
        } catch (IOException e) {
            throw new UncheckedIOException("no record of the MRSC group " + id, e);
        }
        GroupMember.Role role = record.roleOf(settings.region());
        return new TableStateMachine(record.table(), role,
                role == GroupMember.Role.WITNESS ? Applier.NOTHING : appliers.apply(record.table()));
    }

    private Path record(RaftGroupId id) {
        return records.resolve(id.getUuid() + ".properties");
    }

    /** The leader's refusal, as Ratis hands it to the proposer (inside a StateMachineException). */
    private static Optional<ReplicatedWriteConflictException> conflictIn(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ReplicatedWriteConflictException conflict) return Optional.of(conflict);
        }
        return Optional.empty();
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NoQuorumException("interrupted while waiting for a read");
        }
    }
}
