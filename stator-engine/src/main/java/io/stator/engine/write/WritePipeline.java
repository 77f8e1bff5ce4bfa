package io.stator.engine.write;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.item.ItemCodec;
import io.stator.core.item.ItemSize;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.engine.advisor.ObservedWrite;
import io.stator.engine.advisor.Observations;
import io.stator.engine.advisor.Operation;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.capacity.Usage;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.changes.ItemVersion;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.index.EmptyIndexKeyException;
import io.stator.engine.index.IndexEntries;
import io.stator.engine.index.IndexEntry;
import io.stator.engine.index.IndexPropagator;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.lock.ItemClaimedException;
import io.stator.engine.lock.ItemLocks;
import io.stator.storage.CommitLostException;
import io.stator.storage.RowHeldException;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableCounters;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.WriteIsolation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Every item write goes through here: PutItem, UpdateItem, DeleteItem, each write of
 * BatchWriteItem, each action of TransactWriteItems, Time to Live's deletions (and, as they come,
 * PartiQL, restores and global tables' replicated writes). One write is a transaction of one item without claims; both
 * pass the same stages, in this order:
 * <ol>
 *   <li><b>hold</b> the items ({@link ItemLocks}): a single write locks its item (failing at
 *       once if a committing transaction claimed it); a transaction claims all its items, then
 *       locks them in canonical order;</li>
 *   <li><b>read</b> the old items, as stored, and the table's definition as it is now (an index
 *       created since the request looked the table up must get the write);</li>
 *   <li><b>check</b> the conditions, and <b>compute</b> the new items with each write's pure
 *       function of its old item. A single write checks its condition first; a transaction
 *       computes every new item first (the first that cannot be made cancels it), then checks
 *       every condition and reports each one that fails (DynamoDB's orders);</li>
 *   <li><b>derive</b> the index changes: each index's entry before and after;</li>
 *   <li><b>admit</b> the write: the {@link CapacityMeter} prices it (DynamoDB bills a write by
 *       the larger of the item before and after it, which is why the old item is always read,
 *       and each index by its change) and admits it against the throughput of its table, its
 *       global indexes and their partitions, or refuses it (throttled) before anything is staged;
 *       a write whose condition failed is debited all the same, as DynamoDB bills it;</li>
 *   <li><b>stage</b> everything in one batch: the item row, local index entries, global index
 *       changes for the {@link IndexPropagator} (on shared storage, the global entries
 *       themselves), the table's counters, the item collection's
 *       size (refused past its limit), and one {@link ChangeRecord} for the {@link ChangeLog};</li>
 *   <li><b>commit</b> the batch once: all of it or none of it, whatever crashes when. The batch
 *       expects each item as it was read: on storage that several servers share, a commit that
 *       another server's write overtook applies nothing, and the write starts over from the
 *       read (on RocksDB the item locks already exclude that).</li>
 * </ol>
 * Alternator's {@code rmw_operation} is the model: the new item is a pure function of the old
 * one, so nothing but the commit has an effect, and a write whose condition fails or whose
 * update is invalid leaves no trace.
 */
public final class WritePipeline {

    private final Storage storage;
    private final Deployment deployment;
    private final Catalog catalog;
    private final TableCounters counters;
    private final ItemLocks locks;
    private final IndexPropagator propagator;
    private final CapacityMeter meter;
    private final ChangeLog changeLog;
    private final long itemCollectionLimitBytes;
    private final Observations observations;
    private final WriteIsolation defaultIsolation;
    private volatile OrderedCommits ordered = OrderedCommits.NONE;

    /**
     * @param observations     where each metered write is recorded where the meter admits and
     *                         charges it (the advisor's observations), or null to record nothing
     * @param defaultIsolation the write isolation of tables without the tag (--write-isolation)
     */
    public WritePipeline(Storage storage, Deployment deployment, Catalog catalog, ItemLocks locks, IndexPropagator propagator,
                         CapacityMeter meter, ChangeLog changeLog, long itemCollectionLimitBytes,
                         Observations observations, WriteIsolation defaultIsolation) {
        this.storage = storage;
        this.deployment = deployment;
        this.catalog = catalog;
        this.counters = catalog.counters();
        this.locks = locks;
        this.propagator = propagator;
        this.meter = meter;
        this.changeLog = changeLog;
        this.itemCollectionLimitBytes = itemCollectionLimitBytes;
        this.observations = observations;
        this.defaultIsolation = defaultIsolation;
    }

    /** Has the writes of some tables ordered by consensus (global tables with strong consistency). */
    public void orderCommitsBy(OrderedCommits orderedCommits) {
        this.ordered = orderedCommits;
    }

    /** Which tables' writes a consensus group orders. */
    public OrderedCommits orderedCommits() {
        return ordered;
    }

    /** Runs with a transaction's batch before it commits: the transaction's ClientRequestToken's record. */
    @FunctionalInterface
    public interface BeforeCommit {
        /**
         * @param largerItemSizes per write, the larger of its item's sizes before and after (0
         *                        when absent both times): what a replay of the transaction is
         *                        billed on
         */
        void stage(WriteBatch batch, long[] largerItemSizes);
    }

    // ---- one item ---------------------------------------------------------------------------

    /**
     * A single-item write, if its condition holds (ConditionalCheckFailedException otherwise,
     * carrying the old item when the write asked for it).
     */
    public WriteResult write(ItemWrite write) {
        return write(write, operationOf(write));
    }

    /** A single-item write of {@code operation} (BatchWriteItem's, PartiQL's), as {@link #write(ItemWrite)}. */
    public WriteResult write(ItemWrite write, Operation operation) {
        Pending p = writeOne(write, ChangeRecord.Origin.REQUEST, operation);
        return p.result(p.consumed);
    }

    /** The operation a write is when it is a request of its own: PutItem, UpdateItem or DeleteItem. */
    private static Operation operationOf(ItemWrite write) {
        return switch (write.action()) {
            case ItemWrite.UPDATE -> Operation.UPDATE_ITEM;
            case ItemWrite.DELETE -> Operation.DELETE_ITEM;
            default -> Operation.PUT_ITEM;
        };
    }

    /**
     * Time to Live's deletion of an expired item: a single write like DeleteItem's (its
     * condition that the item still has the expired value makes it a no-op, by
     * ConditionalCheckFailedException, for an item updated meanwhile), that is neither admitted
     * nor charged: DynamoDB deletes expired items "without consuming write throughput"
     * (developer guide, "Time to Live (TTL)", TTL.html). Its change record says who made it.
     */
    public void expire(ItemWrite write) {
        writeOne(write, ChangeRecord.Origin.TIME_TO_LIVE, null);
    }

    /**
     * A restore's write of one of its backup's items into the new table, through the same steps as
     * a PutItem (index entries, counters, item collections), neither admitted nor charged: a
     * restore consumes no capacity of the table it fills.
     */
    public void restore(ItemWrite write) {
        writeOne(write, ChangeRecord.Origin.RESTORE, null);
    }

    /**
     * A global table's change made in another region (MREC), applied only if {@code newer}, asked
     * with the item held, says it is newer than the item here (last writer wins, per item): a put
     * of its whole image or a delete, through the same steps as a PutItem (index entries,
     * counters, this region's stream), its change record carrying its version. Neither admitted
     * nor refused: it is billed as replicated write units, which DynamoDB charges in every
     * replica's region. Returns whether it was applied.
     */
    public boolean replicate(ItemWrite write, ItemVersion version, BooleanSupplier newer) {
        Pending p = writeOne(write, ChangeRecord.Origin.REPLICATION, null, version, newer);
        if (p == null) return false;
        meter.chargeReplicated(p.table, p.usage(false));
        return true;
    }

    private Pending writeOne(ItemWrite write, ChangeRecord.Origin origin, Operation operation) {
        return writeOne(write, origin, operation, null, null);
    }

    /**
     * A write the table's consensus group committed (multi-Region strong consistency), applied in
     * the group's log order by its one apply thread, which alone commits that table's items (its
     * requests propose, {@link OrderedCommits}): so without the item's hold, which the proposer
     * may be holding while it waits for this. Through the same steps as a PutItem or DeleteItem,
     * its change record carrying its version.
     *
     * @param streamSequence its stream record's number, from the group's log (the same in every region)
     * @param charged whether it is billed here as replicated write units (a write proposed in
     *                another region); the proposer's region admitted and billed it already
     */
    public void applyCommitted(ItemWrite write, ItemVersion version, long streamSequence, boolean charged) {
        for (int attempt = 1; ; attempt++) {
            try {
                Pending p = writeHeld(write, ChangeRecord.Origin.REPLICATION, null, version, streamSequence);
                if (!charged) return;
                meter.chargeReplicated(p.table, p.usage(false));
                return;
            } catch (CommitLostException | RowHeldException e) {
                if (attempt == MAX_ATTEMPTS) throw tooMuchContention();
                pause(Math.min(attempt, 10));
            }
        }
    }

    /** @param applies null, or asked with the item held whether to write it at all (null returned when not) */
    @SuppressWarnings("try") // the holds are held, not used
    private Pending writeOne(ItemWrite write, ChangeRecord.Origin origin, Operation operation, ItemVersion version,
                             BooleanSupplier applies) {
        try (ItemLocks.Held item = lockForWrite(write.rowKey())) {
            for (int attempt = 1; ; attempt++) {
                try {
                    // Asked again after a lost commit: another server may have changed the item.
                    if (applies != null && !applies.getAsBoolean()) return null;
                    return writeHeld(write, origin, operation, version, 0);
                } catch (CommitLostException e) {
                    // Another server changed the item since it was read (shared storage only):
                    // read it again and start over, as its own writer would have. The lost
                    // attempt was admitted and stays debited from the buckets: a server that
                    // loses races throttles a little early, never late.
                    if (attempt == MAX_ATTEMPTS) throw tooMuchContention();
                } catch (RowHeldException e) {
                    // Shared storage: another server's write holds a row this one changes (its
                    // item, an index entry or a stream shard's head written with it). DynamoDB
                    // answers TransactionConflict only for an item in a transaction, and a plain
                    // write holds its rows for a few round trips: wait for it a while, then answer it.
                    if (attempt >= HELD_ATTEMPTS) throw transactionConflict();
                    pause(attempt);
                }
            }
        }
    }

    /**
     * How many times a write meets a held row before it answers TransactionConflict: about four
     * seconds of pauses, several transactions' round trips on a busy cluster.
     */
    private static final int HELD_ATTEMPTS = 50;

    private static void pause(int attempt) {
        try {
            Thread.sleep(Math.min(100, 5L * attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw transactionConflict();
        }
    }

    /**
     * How many times a write starts over after losing its commit to another server before it
     * gives up with a retryable error.
     */
    private static final int MAX_ATTEMPTS = 100;

    private static DynamoDbException tooMuchContention() {
        return DynamoDbException.internal("Internal server error");
    }

    private Pending writeHeld(ItemWrite write, ChangeRecord.Origin origin, Operation operation, ItemVersion version,
                              long streamSequence) {
        // Time to Live's deletions and restores are neither admitted nor charged.
        boolean metered = origin == ChangeRecord.Origin.REQUEST;
        TableDefinition table = current(write.table());
        if (metered && ordered.orders(table)) return writeOrdered(write, table, operation);
        if (metered && writesPlainly(write, table)) return writePlainly(write, table, operation);
        Pending p = new Pending(write, table, read(write.rowKey()));
        p.origin = origin;
        p.version = version;
        p.streamSequence = streamSequence;
        try {
            check(p);
        } catch (ConditionalCheckFailedException e) {
            // A write whose condition fails consumes capacity all the same (developer guide,
            // read-write-operations), billed on the item as it is.
            if (metered) {
                Usage.Write usage = p.usage(false);
                meter.chargeUncommitted(p.table, usage);
                observeCharged(operation, p, meter.charge(usage), true);
            }
            throw e;
        }
        compute(p);
        if (p.changesNothing()) {
            if (metered) admit(p, operation);
            return p;
        }
        deriveIndexChanges(p);
        // Admitted once priced (the item before and after, its index changes), before
        // anything is staged: a throttled write changes nothing.
        if (metered) admit(p, operation);
        try (ItemLocks.Held collection = lockCollectionOf(p);
             WriteBatch batch = storage.newBatch()) {
            boolean committed = false;
            try {
                stage(batch, p, null);
                storage.commit(batch);
                committed = true;
            } finally {
                if (changeLog.wanted()) changeLog.settle(batch, committed);
            }
        }
        if (p.queuedIndexChanges) propagator.committed(p.lastIndexChange);
        return p;
    }

    /**
     * A request's write to a table whose writes its consensus group orders: checked and computed
     * against this region's store caught up with the group, admitted, then proposed with the
     * version it was read at ({@link OrderedCommits}); committed here, as in every region, when the
     * group applies it.
     */
    private Pending writeOrdered(ItemWrite write, TableDefinition table, Operation operation) {
        long expected = ordered.versionBeforeRead(table, write.rowKey());
        Pending p = new Pending(write, table, read(write.rowKey()));
        try {
            check(p);
        } catch (ConditionalCheckFailedException e) {
            Usage.Write usage = p.usage(false);
            meter.chargeUncommitted(p.table, usage);
            observeCharged(operation, p, meter.charge(usage), true);
            throw e;
        }
        compute(p);
        if (!p.changesNothing()) deriveIndexChanges(p);
        admit(p, operation);
        if (p.changesNothing()) return p;
        ordered.propose(table, write.rowKey(), io.stator.engine.item.RowKeys.keyOf(table.keySchema(),
                p.newItem != null ? p.newItem : p.oldItem), p.newItem, expected);
        return p;
    }

    // ---- the write isolation ------------------------------------------------------------------

    /**
     * Whether a request's write reads the item before writing it (Alternator's read-modify-write):
     * a condition, an update (an item is stored whole, so every update reads it), a check, or the
     * old item returned.
     */
    private static boolean readsBeforeWriting(ItemWrite write) {
        return write.condition() != null || write.isConditionCheck() || ItemWrite.UPDATE.equals(write.action())
                || (write.returnValues() != null && write.returnValues() != ReturnValues.NONE);
    }

    /** Refuses a write that reads before writing on a table whose isolation is forbid_rmw. */
    private void checkAllowed(ItemWrite write, TableDefinition table) {
        if (readsBeforeWriting(write) && WriteIsolation.of(table, defaultIsolation) == WriteIsolation.FORBID_RMW) {
            throw DynamoDbException.validation(WriteIsolation.FORBIDDEN);
        }
    }

    /**
     * Whether a request's write is the store's plain write: it reads nothing before writing, its
     * table's isolation allows it, the deployment has one (several servers on Cassandra), and
     * nothing needs the old item or the write's place among the item's changes: no secondary
     * index (the old entry, an item collection's size), no stream, point-in-time recovery,
     * backup being made or Time to Live ({@link ChangeLog#wants}). Those tables write by
     * compare-and-set whatever the setting. Refuses a read-modify-write under forbid_rmw.
     */
    private boolean writesPlainly(ItemWrite write, TableDefinition table) {
        checkAllowed(write, table);
        return !readsBeforeWriting(write) && deployment.writesPlainly()
                && WriteIsolation.of(table, defaultIsolation).writesPlainly()
                && table.indexes().isEmpty() && !changeLog.wants(table);
    }

    /**
     * A put or delete as the store's plain write: no read of the old item, admitted and charged on
     * the new item alone (DynamoDB charges the larger of the old and the new: the old one is not
     * read here), the table's counts left to the walk that recounts written tables.
     */
    private Pending writePlainly(ItemWrite write, TableDefinition table, Operation operation) {
        Pending p = new Pending(write, table, null);
        compute(p);
        admit(p, operation);
        try (WriteBatch batch = storage.newBatch()) {
            if (p.newItem == null) {
                batch.delete(Keyspaces.ITEMS, write.rowKey());
            } else {
                batch.put(Keyspaces.ITEMS, write.rowKey(), ItemCodec.encode(p.newItem));
            }
            storage.commitPlainly(batch);
        }
        return p;
    }

    /** The meter's admission of a single write, and the advisor's record of it, admitted or refused. */
    private void admit(Pending p, Operation operation) {
        try {
            p.consumed = meter.admitWrite(p.table, p.usage(false));
        } catch (ThroughputExceededException e) {
            if (observations != null && operation != null) observations.writeThrottled(operation, p.observed(), e);
            throw e;
        }
        observeCharged(operation, p, p.consumed, false);
    }

    private void observeCharged(Operation operation, Pending p, ConsumedCapacity consumed, boolean conditionFailed) {
        if (observations != null && operation != null) observations.write(operation, p.observed(), consumed, conditionFailed);
    }

    private ItemLocks.Held lockForWrite(byte[] rowKey) {
        try {
            return locks.lockForWrite(rowKey);
        } catch (ItemClaimedException e) {
            throw transactionConflict();
        }
    }

    /**
     * DynamoDB's answer to a write on an item that a transaction is committing (the message
     * recorded from DynamoDB in docs/dynamodb/batches-transactions.md).
     */
    static DynamoDbException transactionConflict() {
        return new DynamoDbException(ErrorType.TRANSACTION_CONFLICT, TRANSACTION_ONGOING);
    }

    public static final String TRANSACTION_ONGOING = "Transaction is ongoing for the item";

    // ---- a transaction ----------------------------------------------------------------------

    /**
     * Applies every write, or none (TransactionCanceledException, one reason per write). The
     * writes name distinct items.
     *
     * @param beforeCommit null for none
     */
    public List<WriteResult> writeTransaction(List<ItemWrite> writes, BeforeCommit beforeCommit) {
        return writeTransaction(writes, beforeCommit, Operation.TRANSACT_WRITE_ITEMS);
    }

    /** As {@link #writeTransaction(List, BeforeCommit)}, of {@code operation} (ExecuteTransaction's). */
    @SuppressWarnings("try") // the holds are held, not used
    public List<WriteResult> writeTransaction(List<ItemWrite> writes, BeforeCommit beforeCommit, Operation operation) {
        int n = writes.size();
        List<byte[]> rowKeys = new ArrayList<>(n);
        for (ItemWrite w : writes) {
            checkAllowed(w, w.table());
            rowKeys.add(w.rowKey());
        }
        ItemLocks.Held items;
        try {
            items = locks.claimAndLock(rowKeys);
        } catch (ItemClaimedException e) {
            throw TransactionCanceledException.conflictAt(e.position(), n);
        }
        try (items) {
            for (int attempt = 1; ; attempt++) {
                try {
                    return writeClaimed(writes, beforeCommit, operation);
                } catch (CommitLostException e) {
                    if (attempt == MAX_ATTEMPTS) throw tooMuchContention();
                } catch (RowHeldException e) {
                    // One of its items: another transaction has it, as DynamoDB says. Another row
                    // (an index entry, a stream shard's head): a plain write's, soon released.
                    if (isOneOf(rowKeys, e.key()) || attempt >= HELD_ATTEMPTS) {
                        throw TransactionCanceledException.conflictAt(rowKeys, e.key());
                    }
                    pause(attempt);
                }
            }
        }
    }

    private static boolean isOneOf(List<byte[]> rowKeys, byte[] key) {
        for (byte[] k : rowKeys) if (Arrays.equals(k, key)) return true;
        return false;
    }

    /** A transaction's stages once its items are held (again after a lost commit). */
    @SuppressWarnings("try") // the holds are held, not used
    private List<WriteResult> writeClaimed(List<ItemWrite> writes, BeforeCommit beforeCommit, Operation operation) {
        int n = writes.size();
        List<Pending> pending = new ArrayList<>(n);
        for (ItemWrite w : writes) pending.add(new Pending(w, w.table(), read(w.rowKey())));
        // DynamoDB's order: each new item in request order (the first that cannot be made,
        // say an update of a string by a number, cancels the transaction as a
        // ValidationError, every other action None); then every condition, each failure
        // reported.
        for (int i = 0; i < n; i++) {
            try {
                compute(pending.get(i));
            } catch (EmptyIndexKeyException e) {
                throw e; // the request's error, not the action's (see EmptyIndexKeyException)
            } catch (DynamoDbException e) {
                throw TransactionCanceledException.at(i, n, CancellationReason.of(e));
            }
        }
        CancellationReason[] reasons = new CancellationReason[n];
        Arrays.fill(reasons, CancellationReason.NONE);
        boolean cancelled = false;
        for (int i = 0; i < n; i++) {
            try {
                check(pending.get(i));
            } catch (ConditionalCheckFailedException e) {
                reasons[i] = CancellationReason.of(e);
                cancelled = true;
            }
        }
        if (cancelled) {
            // Capacity "is consumed even when a transaction is canceled" (developer guide,
            // transaction-apis).
            List<TableDefinition> tables = new ArrayList<>(n);
            List<Usage.Write> usages = new ArrayList<>(n);
            for (Pending p : pending) {
                tables.add(p.write.table());
                usages.add(p.usage(true));
            }
            meter.chargeUncommitted(tables, usages);
            for (int i = 0; i < n; i++) {
                observeCharged(operation, pending.get(i), meter.charge(usages.get(i)),
                        reasons[i] != CancellationReason.NONE);
            }
            throw new TransactionCanceledException(List.of(reasons));
        }

        for (Pending p : pending) p.table = current(p.write.table());
        long lastIndexChange = -1;
        try (ItemLocks.Held collections = lockCollectionsOf(pending);
             WriteBatch batch = storage.newBatch()) {
            boolean committed = false;
            try {
                Map<CollectionKey, Long> collectionSizes = new HashMap<>();
                for (int i = 0; i < n; i++) {
                    Pending p = pending.get(i);
                    if (p.write.isConditionCheck() || p.changesNothing()) {
                        // Its condition held on the item as read: so must the item at commit.
                        batch.expect(Keyspaces.ITEMS, p.write.rowKey(), p.oldStored);
                        continue;
                    }
                    try {
                        deriveIndexChanges(p);
                        stage(batch, p, collectionSizes);
                        if (p.queuedIndexChanges) lastIndexChange = Math.max(lastIndexChange, p.lastIndexChange);
                    } catch (DynamoDbException e) {
                        reasons[i] = CancellationReason.of(e);
                        cancelled = true;
                    }
                }
                if (cancelled) throw new TransactionCanceledException(List.of(reasons));
                // The actions admitted together once priced; a throttled one cancels the
                // transaction with its code (ProvisionedThroughputExceeded or ThrottlingError).
                List<TableDefinition> tables = new ArrayList<>(n);
                List<Usage.Write> usages = new ArrayList<>(n);
                for (Pending p : pending) {
                    tables.add(p.table);
                    usages.add(p.usage(true));
                }
                CapacityMeter.TransactionAdmission admission = meter.admitWrites(tables, usages);
                if (admission.refusals() != null) {
                    for (int i = 0; i < n; i++) {
                        ThroughputExceededException refused = admission.refusals()[i];
                        if (refused == null) continue;
                        reasons[i] = CancellationReason.of(refused);
                        if (observations != null) observations.writeThrottled(operation, pending.get(i).observed(), refused);
                    }
                    throw new TransactionCanceledException(List.of(reasons));
                }
                for (int i = 0; i < n; i++) {
                    Pending p = pending.get(i);
                    p.consumed = admission.consumed()[i];
                    observeCharged(operation, p, p.consumed, false);
                }
                if (beforeCommit != null) beforeCommit.stage(batch, largerItemSizes(pending));
                storage.commit(batch);
                committed = true;
            } finally {
                if (changeLog.wanted()) changeLog.settle(batch, committed);
            }
        }
        if (lastIndexChange >= 0) propagator.committed(lastIndexChange);
        // A ConditionCheck is billed as a write of the item it checks (measured on DynamoDB).
        List<WriteResult> results = new ArrayList<>(n);
        for (Pending p : pending) results.add(p.result(p.consumed));
        return results;
    }

    // ---- the stages -------------------------------------------------------------------------


    /**
     * The table's definition as it is now, not as the request found it: an index created in
     * between must get the write's change (IndexBuilds relies on it). Called with the item held.
     */
    private TableDefinition current(TableDefinition requested) {
        TableDefinition current = catalog.findById(requested.id());
        return current != null ? current : requested;
    }

    /**
     * The item stored under the row key, as stored, or null. Called with the item held. A
     * committed read is enough: the commit expects the item as read ({@link WriteBatch#expect}),
     * so on shared storage a stale read only loses the commit, and the write starts over.
     */
    private byte[] read(byte[] rowKey) {
        return storage.getCommitted(Keyspaces.ITEMS, rowKey);
    }

    /** The write's condition on the item as stored; a null condition always holds. */
    private static void check(Pending p) {
        if (p.write.condition() != null && !ConditionEvaluator.matches(p.write.condition(), p.oldItem)) {
            throw new ConditionalCheckFailedException(p.write.returnOldItemOnFailure() ? p.oldItem : null);
        }
    }

    /** The new item, from the old one (a ConditionCheck changes nothing). */
    private static void compute(Pending p) {
        if (p.write.isConditionCheck()) return;
        p.newItem = p.write.mutation().apply(p.oldItem);
        p.newSize = p.newItem == null ? 0 : ItemSize.of(p.newItem);
    }


    /** What the write changes in the table's secondary indexes (those not being deleted). */
    private static void deriveIndexChanges(Pending p) {
        List<IndexDefinition> indexes = p.table.indexes();
        if (indexes.isEmpty()) return;
        List<IndexChange> changes = new ArrayList<>(indexes.size());
        for (IndexDefinition index : indexes) {
            if (index.status() == IndexDefinition.IndexStatus.DELETING) continue;
            IndexEntry before = IndexEntries.entry(p.table, index, p.oldItem);
            IndexEntry after = IndexEntries.entry(p.table, index, p.newItem);
            if (!IndexEntry.same(before, after)) changes.add(new IndexChange(index, before, after));
        }
        p.indexChanges = changes;
    }

    /**
     * Adds one item's write to the batch: the item, the table's counters, its index entries
     * (local ones directly, as DynamoDB writes them with the item; global ones as records for
     * the propagator, as DynamoDB's arrive later), its item collection's size and its change
     * record. Throws when the write would pass the item-collection limit (the batch must then
     * not be committed).
     *
     * @param pendingCollections the collection-size changes already in the batch (a
     *                           transaction's earlier items), or null for a single write
     */
    private void stage(WriteBatch batch, Pending p, Map<CollectionKey, Long> pendingCollections) {
        TableDefinition table = p.table;
        batch.expect(Keyspaces.ITEMS, p.write.rowKey(), p.oldStored);
        if (p.newItem == null) {
            batch.delete(Keyspaces.ITEMS, p.write.rowKey());
        } else {
            batch.put(Keyspaces.ITEMS, p.write.rowKey(), ItemCodec.encode(p.newItem));
        }
        TableCounters.record(batch, table.id(), (p.newItem == null ? 0 : 1) - (p.oldItem == null ? 0 : 1),
                p.newSize - p.oldSize);
        long localBytes = 0;
        for (IndexChange c : p.indexChanges) {
            if (c.index().global() && !deployment.writesKeepGlobalIndexes()) {
                p.lastIndexChange = propagator.enqueue(batch, table.id(), c.index().id(), c.before(), c.after());
                p.queuedIndexChanges = true;
            } else {
                // On shared storage a global entry is written with its item, in one transaction
                // on compare-and-set: the propagator's queue is one server's, while one item's
                // changes come from every server and only the item's own commit orders them.
                // Its readers see it at once, which eventual consistency allows.
                if (c.moved()) batch.delete(Keyspaces.ITEMS, c.before().key());
                if (c.after() != null) batch.put(Keyspaces.ITEMS, c.after().key(), c.after().value());
                long bytes = (c.after() == null ? 0 : c.after().size()) - (c.before() == null ? 0 : c.before().size());
                TableCounters.recordIndex(batch, table.id(), c.index().id(),
                        (c.after() == null ? 0 : 1) - (c.before() == null ? 0 : 1), bytes);
                if (!c.index().global()) localBytes += bytes; // an item collection holds local entries only
            }
        }
        if (!table.localIndexes().isEmpty()) {
            p.collectionSize = recordCollection(batch, pendingCollections, table,
                    p.oldItem != null ? p.oldItem : p.newItem, p.newSize - p.oldSize + localBytes);
        }
        if (changeLog.wanted()) changeLog.stage(batch, new ChangeRecord(table, p.write.rowKey(), p.oldItem, p.newItem,
                p.origin, p.version, p.streamSequence));
    }

    /** Per write, the larger of its item's sizes before and after (see {@link BeforeCommit}). */
    private static long[] largerItemSizes(List<Pending> pending) {
        long[] sizes = new long[pending.size()];
        for (int i = 0; i < sizes.length; i++) {
            Pending p = pending.get(i);
            sizes[i] = Math.max(p.oldSize, p.write.isConditionCheck() ? p.oldSize : p.newSize);
        }
        return sizes;
    }

    /** Holds a single write's item collection (on a table with a local index), after its item. */
    private ItemLocks.Held lockCollectionOf(Pending p) {
        if (p.table.localIndexes().isEmpty()) return NOTHING_HELD;
        return locks.lockCollections(List.of(RowKeys.partitionKey(p.table, p.oldItem != null ? p.oldItem : p.newItem)));
    }

    /** Holds the item collections the writes change (tables with a local index only), after their items. */
    private ItemLocks.Held lockCollectionsOf(List<Pending> pending) {
        List<byte[]> collections = null;
        for (Pending p : pending) {
            Map<String, AttributeValue> any = p.oldItem != null ? p.oldItem : p.newItem;
            if (p.table.localIndexes().isEmpty() || any == null) continue;
            if (collections == null) collections = new ArrayList<>(pending.size());
            collections.add(RowKeys.partitionKey(p.table, any));
        }
        return collections == null ? NOTHING_HELD : locks.lockCollections(collections);
    }

    private static final ItemLocks.Held NOTHING_HELD = () -> { };

    /**
     * Adds a write's change to its item collection's size, refusing it when the collection would
     * pass the limit (ItemCollectionSizeLimitExceededException; DynamoDB's limit is 10 GB, and
     * configurable here so that tests can reach it). Returns the collection's new size. Called
     * with the collection held.
     */
    private long recordCollection(WriteBatch batch, Map<CollectionKey, Long> pending, TableDefinition table,
                                  Map<String, AttributeValue> item, long delta) {
        byte[] partitionKey = RowKeys.partitionKey(table, item);
        CollectionKey key = pending == null ? null : new CollectionKey(table.id(), partitionKey);
        long stored = counters.collectionSize(table.id(), partitionKey);
        long before = stored + (key == null ? 0 : pending.getOrDefault(key, 0L));
        long size = before + delta;
        if (delta > 0 && size > itemCollectionLimitBytes) {
            // DynamoDB's own message is unknown; this is the reason text its API reference gives
            // for the same refusal in TransactWriteItems (docs/dynamodb/indexes.md §6).
            throw new DynamoDbException(ErrorType.ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED, "Collection size exceeded.");
        }
        counters.recordCollection(batch, table.id(), partitionKey, stored, before, delta);
        if (key != null) pending.merge(key, delta, Long::sum);
        return size;
    }

    /** One item collection: a table and a partition key value (encoded). */
    private record CollectionKey(long tableId, byte[] partitionKey) {
        @Override
        public boolean equals(Object o) {
            return o instanceof CollectionKey k && k.tableId == tableId && Arrays.equals(k.partitionKey, partitionKey);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(tableId) * 31 + Arrays.hashCode(partitionKey);
        }
    }
}
