package io.stator.engine.item;

import io.stator.core.error.CancellationReason;
import io.stator.core.error.ConditionalCheckFailedException;
import io.stator.core.error.DynamoDbException;
import io.stator.core.error.TransactionCanceledException;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.item.ItemCodec;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.CapacityUnits;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.index.EmptyIndexKeyException;
import io.stator.engine.item.ItemOperations.CollectionKey;
import io.stator.engine.item.ItemOperations.ItemMutation;
import io.stator.engine.item.ItemOperations.ReadResult;
import io.stator.engine.item.ItemOperations.Staged;
import io.stator.engine.item.ItemOperations.WriteResult;
import io.stator.engine.storage.Keyspace;
import io.stator.engine.storage.Snapshot;
import io.stator.engine.storage.WriteBatch;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.time.Clock;

/**
 * TransactWriteItems and TransactGetItems: serializable, all or nothing.
 *
 * <p>A write transaction first claims all its items ({@link TransactionClaims}): meeting
 * another transaction's claim cancels it with TransactionConflict, and a plain write meeting
 * its claim fails with TransactionConflictException, as DynamoDB's do. It then takes the items'
 * locks in ascending order (no deadlock whatever the order of the request), so that writes
 * already under way finish first; reads every item, checks every condition and computes every
 * new item; and commits them all, with their index entries and counters, in one atomic batch.
 * A read transaction reads all its items from one snapshot, which a write transaction's batch
 * is either wholly in or wholly out of.
 */
public final class Transactions {

    private final ItemOperations items;
    private final TransactionTokens tokens;

    public Transactions(ItemOperations items, Clock clock) {
        this.items = items;
        this.tokens = new TransactionTokens(items.storage, clock);
    }

    /** One action of TransactGetItems. */
    public record GetAction(TableDefinition table, Map<String, AttributeValue> key) {}

    /**
     * A transaction's ClientRequestToken and a digest of its whole request (the same token with
     * another request is refused).
     */
    public record ClientToken(String token, byte[] fingerprint) {}

    /**
     * What a transaction did: per action, the item before and after and the units consumed
     * (transactional rates). A replay of a committed transaction (same ClientRequestToken and
     * request) applies nothing, has no items, and consumes per action the reading of its item
     * as the transaction saw it.
     */
    public record WriteOutcome(List<WriteResult> results, boolean replayed) {}

    /**
     * Applies every action, or none (TransactionCanceledException, one reason per action).
     *
     * @param token null when the request has no ClientRequestToken
     */
    public WriteOutcome write(List<ItemWrite> actions, ClientToken token) {
        if (token == null) return new WriteOutcome(claimAndWrite(actions, null), false);
        boolean committed = false;
        try {
            long[] replayed = tokens.begin(token.token(), token.fingerprint());
            if (replayed != null) return new WriteOutcome(replay(actions, replayed), true);
            List<WriteResult> results = claimAndWrite(actions,
                    (batch, written) -> tokens.record(batch, token.token(), token.fingerprint(), billedSizes(written)));
            committed = true;
            return new WriteOutcome(results, false);
        } finally {
            tokens.finish(token.token(), committed);
        }
    }

    private List<WriteResult> claimAndWrite(List<ItemWrite> actions,
                                            BiConsumer<WriteBatch, List<WriteResult>> beforeCommit) {
        List<byte[]> rowKeys = new ArrayList<>(actions.size());
        for (ItemWrite a : actions) rowKeys.add(a.rowKey());
        Object owner = new Object();
        int conflict = items.claims.claimAll(rowKeys, owner);
        if (conflict >= 0) throw conflictAt(conflict, actions.size());
        try {
            int[] locked = items.locks.lockAll(rowKeys);
            try {
                return writeLocked(actions, beforeCommit);
            } finally {
                items.locks.unlockAll(locked);
            }
        } finally {
            items.claims.release(rowKeys, owner);
        }
    }

    /**
     * With every item claimed and locked, in DynamoDB's order: each action's new item, in
     * request order (the first that cannot be made, say an update of a string by a number,
     * cancels the transaction as a ValidationError, every other action None); then every
     * condition (each one that fails is reported); then the commit.
     */
    private List<WriteResult> writeLocked(List<ItemWrite> actions,
                                          BiConsumer<WriteBatch, List<WriteResult>> beforeCommit) {
        int n = actions.size();
        List<Map<String, AttributeValue>> oldItems = new ArrayList<>(n);
        List<Map<String, AttributeValue>> newItems = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ItemWrite a = actions.get(i);
            Map<String, AttributeValue> old = items.read(a.rowKey());
            oldItems.add(old);
            if (a.isConditionCheck()) {
                newItems.add(old);
                continue;
            }
            try {
                newItems.add(a.mutation().apply(old));
            } catch (EmptyIndexKeyException e) {
                throw e; // the request's error, not the action's (see the class)
            } catch (DynamoDbException e) {
                throw TransactionCanceledException.at(i, n, CancellationReason.of(e));
            }
        }
        CancellationReason[] reasons = new CancellationReason[n];
        boolean cancelled = false;
        for (int i = 0; i < n; i++) {
            ItemWrite a = actions.get(i);
            reasons[i] = CancellationReason.NONE;
            if (a.condition() != null && !ConditionEvaluator.matches(a.condition(), oldItems.get(i))) {
                reasons[i] = CancellationReason.of(
                        new ConditionalCheckFailedException(a.returnOldItemOnFailure() ? oldItems.get(i) : null));
                cancelled = true;
            }
        }
        if (cancelled) throw new TransactionCanceledException(List.of(reasons));

        List<WriteResult> results = new ArrayList<>(n);
        boolean queued = false;
        List<TableDefinition> tables = new ArrayList<>(n);
        List<byte[]> collections = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            TableDefinition table = items.current(actions.get(i).table());
            tables.add(table);
            Map<String, AttributeValue> any = oldItems.get(i) != null ? oldItems.get(i) : newItems.get(i);
            if (!table.localIndexes().isEmpty() && any != null) collections.add(ItemOperations.partitionKey(table, any));
        }
        int[] collectionsLocked = items.collectionLocks.lockAll(collections);
        try (WriteBatch batch = items.storage.newBatch()) {
            Map<CollectionKey, Long> collectionSizes = new HashMap<>();
            for (int i = 0; i < n; i++) {
                ItemWrite a = actions.get(i);
                Map<String, AttributeValue> old = oldItems.get(i);
                Map<String, AttributeValue> updated = newItems.get(i);
                if (a.isConditionCheck() || (old == null && updated == null)) {
                    // A ConditionCheck is billed as a write of the item it checks (measured on DynamoDB).
                    double units = CapacityUnits.write(old == null ? 0 : ItemSize.of(old), 0);
                    results.add(new WriteResult(old, updated, ConsumedCapacity.ofTable(units).transactional(), -1));
                    continue;
                }
                try {
                    Staged staged = items.stage(batch, collectionSizes, tables.get(i), a.rowKey(), old, updated);
                    queued |= staged.queuedIndexChanges();
                    WriteResult r = staged.result();
                    results.add(new WriteResult(r.oldItem(), r.newItem(), r.consumed().transactional(),
                            r.itemCollectionSize()));
                } catch (DynamoDbException e) {
                    reasons[i] = CancellationReason.of(e);
                    cancelled = true;
                    results.add(null);
                }
            }
            if (cancelled) throw new TransactionCanceledException(List.of(reasons));
            if (beforeCommit != null) beforeCommit.accept(batch, results);
            items.storage.commit(batch);
        } finally {
            items.collectionLocks.unlockAll(collectionsLocked);
        }
        if (queued) items.propagator.wake();
        return results;
    }

    /** Per action, the larger of its item before and after the transaction: what a replay is billed on. */
    private static long[] billedSizes(List<WriteResult> results) {
        long[] sizes = new long[results.size()];
        for (int i = 0; i < sizes.length; i++) {
            WriteResult r = results.get(i);
            sizes[i] = Math.max(r.oldItem() == null ? 0 : ItemSize.of(r.oldItem()),
                    r.newItem() == null ? 0 : ItemSize.of(r.newItem()));
        }
        return sizes;
    }

    /**
     * A committed transaction retried: nothing is applied; each action is billed as a
     * transactional read of its item as the transaction saw it ({@code billedSizes}).
     */
    private List<WriteResult> replay(List<ItemWrite> actions, long[] billedSizes) {
        List<WriteResult> results = new ArrayList<>(actions.size());
        for (int i = 0; i < actions.size(); i++) {
            double units = CapacityUnits.read(billedSizes[i], true);
            results.add(new WriteResult(null, null, ConsumedCapacity.ofTable(units).transactional(), -1));
        }
        return results;
    }

    /**
     * Reads every item from one snapshot; cancelled (TransactionConflict) when a write
     * transaction is committing one of them.
     *
     * @return per action, the item (null when absent) and the read units (transactional rate)
     */
    public List<ReadResult> get(List<GetAction> actions) {
        List<byte[]> rowKeys = new ArrayList<>(actions.size());
        for (GetAction a : actions) {
            PrimaryKeys.checkKey(a.table().keySchema(), a.key());
            rowKeys.add(ItemOperations.rowKey(a.table(), a.key()));
        }
        int conflict = items.claims.firstClaimed(rowKeys);
        if (conflict >= 0) throw conflictAt(conflict, actions.size());
        List<ReadResult> results = new ArrayList<>(actions.size());
        try (Snapshot snapshot = items.storage.snapshot()) {
            for (byte[] rowKey : rowKeys) {
                byte[] stored = items.storage.get(snapshot, Keyspace.ITEMS, rowKey);
                Map<String, AttributeValue> item = stored == null ? null : ItemCodec.decode(stored);
                double units = CapacityUnits.read(item == null ? 0 : ItemSize.of(item), true);
                results.add(new ReadResult(item, ConsumedCapacity.ofTable(units).transactional()));
            }
        }
        return results;
    }

    private static TransactionCanceledException conflictAt(int position, int actions) {
        return TransactionCanceledException.at(position, actions, new CancellationReason(
                CancellationReason.TRANSACTION_CONFLICT, "Transaction is ongoing for the item", null));
    }
}
