package io.stator.engine.replication.strong;

import java.io.File;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.MD5FileUtil;

/**
 * One member's state machine of one MRSC table's Raft group.
 *
 * <p>Applying: committed commands go to the {@link Applier} in log order, on Ratis' one apply
 * thread, with their log index; the last applied index is this member's progress (identical on
 * every member for a given command). A witness applies nothing ({@link Applier#NOTHING}) and keeps
 * the index alone. If the Applier throws, the store failed: nothing later is applied (a gap would
 * diverge from the other members), and the index stops before the failed command, so a restart
 * applies it again.
 *
 * <p>Conflicts: as leader, {@link #startTransaction} admits a proposal's keys into {@link
 * InFlightKeys} or refuses it with {@link ReplicatedWriteConflictException} before it enters the
 * log; applying (or Ratis cancelling the append) releases them, and a change of leader clears
 * them ({@link InFlightKeys#clear}).
 *
 * <p>Stream sequence numbers: each command's stream record is numbered here, the same on every
 * member: the command's proposal time (in the shape of the engine's numbers, milliseconds times a
 * million) or, should that not be past the previous command's number (another region's clock
 * behind, several in one millisecond), the previous number plus one. Strictly increasing in the
 * log's order, so a stream reader never finds a record behind one it read; a function of the log
 * alone, so the number survives restarts through the snapshot.
 *
 * <p>Snapshots: the items live in the engine's storage, durable as applied (the Applier's
 * contract), so a snapshot is only the applied term and index and the last stream number, in a
 * file named by them ({@link SimpleStateMachineStorage}), 25 bytes: u8 format 2, i64 term, i64
 * index, i64 stream number (format 1: 17 bytes, without the number, read as 0). A restarted member resumes from it and replays its log after it;
 * the Applier skips what its store already holds. Ratis' own install of a leader's snapshot is
 * off ({@link ConsensusGroups}): it would move the index without the items. A member that falls
 * behind the leader's purged log is told so here, loudly, and stays behind; purging waits for
 * every member's commit index, so only a member gone for long gets there.
 *
 * <p>Proposers wait here for their own proposal to be applied ({@link #awaitApplied}), so that a
 * write acknowledged in a region is in that region's store, and the result is this store's.
 */
final class TableStateMachine extends BaseStateMachine {

    private static final Logger LOG = System.getLogger(TableStateMachine.class.getName());
    private static final byte SNAPSHOT_FORMAT = 2;

    private final String table;
    private final Applier applier;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final InFlightKeys inFlight = new InFlightKeys();
    private final Map<UUID, CompletableFuture<byte[]>> waiting = new ConcurrentHashMap<>();
    private volatile RuntimeException storeFailure;
    /** The last applied command's stream number, moved with the applied index (under this lock). */
    private long lastSequence;
    private final Object progress = new Object();

    TableStateMachine(String table, GroupMember.Role role, Applier applier) {
        this.table = table;
        this.applier = role == GroupMember.Role.WITNESS ? Applier.NOTHING : applier;
    }

    /** The index of the last log entry applied here; -1 before any. */
    long appliedIndex() {
        TermIndex last = getLastAppliedTermIndex();
        return last == null ? RaftLog.INVALID_LOG_INDEX : last.getIndex();
    }

    int keysInFlight() { return inFlight.size(); }

    /** Refuses to serve once the store failed: this member applies nothing until it restarts. */
    void checkStore() {
        RuntimeException failure = storeFailure;
        if (failure != null) {
            throw new IllegalStateException("MRSC table " + table + ": this member's store failed after index "
                    + appliedIndex() + " and applies nothing until it restarts", failure);
        }
    }

    /** Completes with this store's result once the proposal is applied here. */
    CompletableFuture<byte[]> awaitApplied(UUID proposal) {
        CompletableFuture<byte[]> applied = new CompletableFuture<>();
        waiting.put(proposal, applied);
        return applied;
    }

    void forget(UUID proposal) {
        waiting.remove(proposal);
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        restore();
    }

    @Override
    public void reinitialize() throws IOException {
        restore();
    }

    private void restore() throws IOException {
        SingleFileSnapshotInfo snapshot = storage.loadLatestSnapshot();
        if (snapshot == null) return;
        ByteBuffer content = ByteBuffer.wrap(Files.readAllBytes(snapshot.getFile().getPath()));
        int format = content.remaining() == 17 ? 1 : SNAPSHOT_FORMAT;
        if (content.remaining() != (format == 1 ? 17 : 25) || content.get() != format
                || content.getLong() != snapshot.getTerm() || content.getLong() != snapshot.getIndex()) {
            throw new IOException("corrupt MRSC snapshot " + snapshot.getFile().getPath());
        }
        synchronized (progress) {
            lastSequence = format == 1 ? 0 : content.getLong();
            setLastAppliedTermIndex(snapshot.getTermIndex());
        }
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public SingleFileSnapshotInfo getLatestSnapshot() {
        return storage.getLatestSnapshot();
    }

    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last;
        long sequence;
        synchronized (progress) {
            last = getLastAppliedTermIndex();
            sequence = lastSequence;
        }
        if (last == null || last.getIndex() < 0) return RaftLog.INVALID_LOG_INDEX;
        File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
        if (!file.exists()) {
            File written = new File(file.getPath() + ".tmp");
            Files.write(written.toPath(), ByteBuffer.allocate(25).put(SNAPSHOT_FORMAT).putLong(last.getTerm())
                    .putLong(last.getIndex()).putLong(sequence).array());
            Files.move(written.toPath(), file.toPath(), StandardCopyOption.ATOMIC_MOVE);
        }
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(
                new FileInfo(file.toPath(), MD5FileUtil.computeAndSaveMd5ForFile(file)), last));
        return last.getIndex();
    }

    @Override
    public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
        ByteString data = request.getMessage().getContent();
        TransactionContext.Builder context = TransactionContext.newBuilder().setStateMachine(this)
                .setClientRequest(request).setLogData(data);
        StrongCommandCodec.Entry entry;
        try {
            entry = StrongCommandCodec.decode(data.asReadOnlyByteBuffer());
        } catch (IllegalArgumentException e) {
            TransactionContext refused = context.build();
            refused.setException(e);
            return refused;
        }
        TransactionContext admitted = context.setStateMachineContext(entry).build();
        Optional<String> holder = inFlight.admit(entry.proposal(), entry.command());
        holder.ifPresent(region -> admitted.setException(new ReplicatedWriteConflictException(
                "One or more items in the request are being modified by a request in another Region ("
                        + region + ") on table " + table)));
        return admitted;
    }

    @Override
    public TransactionContext cancelTransaction(TransactionContext trx) throws IOException {
        if (trx.getStateMachineContext() instanceof StrongCommandCodec.Entry entry && trx.getException() == null) {
            inFlight.release(entry.proposal(), entry.command().keys());
        }
        return trx;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto log = trx.getLogEntry();
        StrongCommandCodec.Entry entry =
                StrongCommandCodec.decode(log.getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer());
        if (storeFailure != null) return CompletableFuture.failedFuture(storeFailure);
        byte[] result;
        long sequence = Math.max(lastSequence + 1, entry.command().proposedMillis() * 1_000_000L);
        try {
            result = applier.apply(log.getIndex(), sequence, entry.command());
        } catch (RuntimeException e) {
            storeFailure = e;
            LOG.log(Level.ERROR, "MRSC table " + table + ": applying index " + log.getIndex()
                    + " failed; this member applies nothing more of it until it restarts", e);
            Optional.ofNullable(waiting.remove(entry.proposal())).ifPresent(w -> w.completeExceptionally(e));
            return CompletableFuture.failedFuture(e);
        }
        synchronized (progress) {
            lastSequence = sequence;
            updateLastAppliedTermIndex(log.getTerm(), log.getIndex());
        }
        inFlight.release(entry.proposal(), entry.command().keys());
        Optional.ofNullable(waiting.remove(entry.proposal())).ifPresent(w -> w.complete(result));
        return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(result)));
    }

    /** Ratis' own entries (configurations, metadata) move the index too, but never past a failure. */
    @Override
    public void notifyTermIndexUpdated(long term, long index) {
        if (storeFailure != null) return;
        synchronized (progress) {
            super.notifyTermIndexUpdated(term, index);
        }
    }

    /** A linearizable read's barrier: Ratis calls it once this member applied the read index. */
    @Override
    public CompletableFuture<Message> query(Message request) {
        if (storeFailure != null) return CompletableFuture.failedFuture(storeFailure);
        return CompletableFuture.completedFuture(
                Message.valueOf(ByteString.copyFrom(ByteBuffer.allocate(8).putLong(appliedIndex()).array())));
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId newLeader) {
        if (!member.getPeerId().equals(newLeader)) inFlight.clear();
    }

    @Override
    public void notifyNotLeader(Collection<TransactionContext> pendingEntries) {
        inFlight.clear();
    }

    @Override
    public CompletableFuture<TermIndex> notifyInstallSnapshotFromLeader(RoleInfoProto role, TermIndex firstInLog) {
        IllegalStateException behind = new IllegalStateException("MRSC table " + table + ": the leader's log starts at "
                + firstInLog + ", past this member's applied index " + appliedIndex()
                + "; its items cannot be copied from a Raft snapshot, so this member stays behind");
        LOG.log(Level.ERROR, behind.getMessage());
        return CompletableFuture.failedFuture(behind);
    }
}
