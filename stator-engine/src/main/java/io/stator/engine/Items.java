package io.stator.engine;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.expression.Condition;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.advisor.Observations;
import io.stator.engine.advisor.Operation;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.lock.ItemLocks;
import io.stator.engine.read.Page;
import io.stator.engine.read.QuerySpec;
import io.stator.engine.read.ReadPlan;
import io.stator.engine.read.KeyConditions.KeyCondition;
import io.stator.engine.read.Reads;
import io.stator.engine.read.ScanSpec;
import io.stator.engine.read.VectorSearch;
import io.stator.storage.RowHeldException;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.StorageFaultException;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.CancellationReason;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.TransactionCanceledException;
import io.stator.engine.write.TransactionItems;
import io.stator.engine.write.OrderedCommits;
import io.stator.engine.write.Transactions;
import io.stator.engine.write.WritePipeline;
import io.stator.engine.write.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The item operations. Writes are {@link ItemWrite}s run by the {@link WritePipeline}, alone
 * (PutItem, UpdateItem, DeleteItem), each on its own (BatchWriteItem) or all together
 * (TransactWriteItems); reads are {@link ReadPlan}s run by {@link Reads}, alone (GetItem, a Query
 * or Scan page), each on its own (BatchGetItem) or from one snapshot (TransactGetItems).
 *
 * <p>A front end looks the table up (through {@link Tables#require}) where DynamoDB does in its
 * order of checks, and hands over specs whose expressions are already parsed and resolved.
 */
public final class Items {

    /**
     * DynamoDB returns at most 16 MB of items from one BatchGetItem. In decimal megabytes: the
     * API reference's example (a hundred 300 KB items, 52 returned) rules out 16 MiB.
     */
    public static final long MAX_BATCH_GET_BYTES = 16_000_000;

    private final Storage storage;
    private final WritePipeline pipeline;
    private final Transactions transactions;
    private final Reads reads;
    private final ItemLocks locks;
    private final CapacityMeter meter;
    private final Observations observations;
    private final VectorSearch vectorSearch;

    Items(Storage storage, WritePipeline pipeline, Transactions transactions, Reads reads, ItemLocks locks,
          CapacityMeter meter, Observations observations, io.stator.engine.index.VectorGraphs graphs) {
        this.storage = storage;
        this.pipeline = pipeline;
        this.transactions = transactions;
        this.reads = reads;
        this.locks = locks;
        this.meter = meter;
        this.observations = observations;
        this.vectorSearch = new VectorSearch(storage, graphs);
    }

    // ---- writes -----------------------------------------------------------------------------

    /** PutItem, UpdateItem, DeleteItem: one item's write, if its condition holds. */
    public WriteResult write(ItemWrite write) {
        return pipeline.write(write);
    }

    /** One item's write of {@code operation} (a PartiQL statement's). */
    public WriteResult write(Operation operation, ItemWrite write) {
        return pipeline.write(write, operation);
    }

    /**
     * BatchWriteItem: each write applied on its own, atomic by itself but not with the others,
     * as DynamoDB's are. A write that meets a transaction on its item is left for the client to
     * retry (null in its place), as writes DynamoDB could not do now are.
     *
     * <p>So are the writes a storage fault stops (a full disk): DynamoDB returns the writes "an
     * internal processing failure" stopped in UnprocessedItems (API reference, BatchWriteItem).
     * The fault stops every write after it too, so they are not tried. When it stopped them all,
     * the request fails with it, as a single write would: nothing was done, and the client's SDK
     * retries the whole request by itself (it does not retry UnprocessedItems).
     */
    public List<WriteResult> batchWrite(List<ItemWrite> writes) {
        List<WriteResult> results = new ArrayList<>(writes.size());
        boolean anyWritten = false;
        ThroughputExceededException throttled = null;
        for (ItemWrite w : writes) {
            try {
                results.add(pipeline.write(w, Operation.BATCH_WRITE_ITEM));
                anyWritten = true;
            } catch (ThroughputExceededException e) {
                // Throttled writes come back in UnprocessedItems; the call fails only if none
                // could be processed (API reference, BatchWriteItem).
                if (throttled == null) throttled = e;
                results.add(null);
            } catch (DynamoDbException e) {
                if (e.type() != ErrorType.TRANSACTION_CONFLICT) throw e;
                results.add(null);
            } catch (StorageFaultException e) {
                if (!anyWritten) throw e;
                while (results.size() < writes.size()) results.add(null);
                break;
            }
        }
        if (!anyWritten && throttled != null) throw throttled;
        return results;
    }

    /**
     * TransactWriteItems: every write, or none (TransactionCanceledException).
     *
     * @param token null when the request has no ClientRequestToken
     */
    public Transactions.WriteOutcome transactWrite(List<ItemWrite> writes, Transactions.ClientToken token) {
        return transactions.write(writes, token);
    }

    /** A transaction of {@code operation} (ExecuteTransaction's). */
    public Transactions.WriteOutcome transactWrite(Operation operation, List<ItemWrite> writes,
                                                   Transactions.ClientToken token) {
        return transactions.write(writes, token, operation);
    }

    // ---- reads ------------------------------------------------------------------------------

    /**
     * GetItem: the item (an absent item still consumes the minimum read), projected. Checks, in
     * DynamoDB's order: the projection reaches inside no key attribute, the key fits the schema.
     */
    public Page get(TableDefinition table, Map<String, AttributeValue> key, boolean consistentRead,
                    List<Path> projection) {
        return get(Operation.GET_ITEM, table, key, consistentRead, projection);
    }

    /** A single item's read of {@code operation} (a PartiQL SELECT's). */
    public Page get(Operation operation, TableDefinition table, Map<String, AttributeValue> key, boolean consistentRead,
                    List<Path> projection) {
        ReadPlan.checkProjection(table, projection);
        return read(operation, ReadPlan.item(table, key, consistentRead, projection, false), null, 0);
    }

    public Page query(TableDefinition table, QuerySpec spec) {
        return query(Operation.QUERY, table, spec);
    }

    /** A Query page of {@code operation} (a PartiQL SELECT's). */
    public Page query(Operation operation, TableDefinition table, QuerySpec spec) {
        return query(operation, table, spec, null);
    }

    /** A PartiQL SELECT's Query page, its WHERE's terms on key attributes beyond the key condition applied with the filter. */
    public Page query(Operation operation, TableDefinition table, QuerySpec spec, Condition keyFilter) {
        return read(operation, ReadPlan.query(table, spec).filteringKeys(keyFilter), spec.keyConditions(), 0);
    }

    public Page scan(TableDefinition table, ScanSpec spec) {
        return scan(Operation.SCAN, table, spec);
    }

    /** A Scan page of {@code operation} (a PartiQL SELECT's). */
    public Page scan(Operation operation, TableDefinition table, ScanSpec spec) {
        return read(operation, ReadPlan.scan(table, spec, storage::scanPosition), null, spec.totalSegments());
    }

    /**
     * A Scan page for an operator's view of the table (the console's page of items): neither
     * admitted, charged nor observed, so that looking changes none of the physics it shows.
     */
    public Page browse(TableDefinition table, ScanSpec spec) {
        return reads.read(ReadPlan.scan(table, spec, storage::scanPosition));
    }

    /** One read, admitted before and charged after, and observed at both. */
    private Page read(Operation operation, ReadPlan plan, Map<String, KeyCondition> keyConditions, int segments) {
        admit(operation, plan, keyConditions, segments);
        catchUp(plan);
        Page page = charged(plan, reads.read(plan));
        observations.read(operation, plan, keyConditions, segments, page);
        return page;
    }

    /**
     * A strongly consistent read of a table whose writes a consensus group orders (multi-Region
     * strong consistency) first waits until this region holds every write committed before it.
     */
    private void catchUp(ReadPlan plan) {
        if (!plan.consistentRead()) return;
        OrderedCommits ordered = pipeline.orderedCommits();
        if (ordered.orders(plan.target().table())) ordered.catchUp(plan.target().table());
    }

    private void admit(Operation operation, ReadPlan plan, Map<String, KeyCondition> keyConditions, int segments) {
        boolean onePartition = !plan.scan();
        try {
            meter.admitRead(plan.target().table(), plan.target().index(), onePartition,
                    onePartition ? plan.partitionHash() : 0);
        } catch (ThroughputExceededException e) {
            observations.readThrottled(operation, plan, keyConditions, segments, e);
            throw e;
        }
    }

    private Page charged(ReadPlan plan, Page page) {
        boolean onePartition = !plan.scan();
        return page.charged(meter.chargeRead(plan.target().table(), plan.target().index(), onePartition,
                onePartition ? plan.partitionHash() : 0, page.usage()));
    }

    /**
     * SearchVectors' checks of the index, TopK and the search vector, which DynamoDB makes before
     * it reads the condition.
     */
    public VectorSearch.Target vectorTarget(TableDefinition table, String indexName, int topK,
                                            List<AttributeValue> searchVector) {
        return VectorSearch.target(table, indexName, topK, searchVector);
    }

    /**
     * SearchVectors: a vector index's nearest entries. Metered in bytes, not in read units, and on
     * demand only: nothing is admitted.
     */
    public VectorSearch.Result searchVectors(VectorSearch.Target target, io.stator.core.expression.Condition condition,
                                             List<Path> projection) {
        VectorSearch.Result result = vectorSearch.search(target, condition, projection);
        meter.vectorBytes().searched(target.table().name(), target.index().name(), result.requestBytes());
        return result;
    }

    /** One table's keys of a BatchGetItem, and how to read them. */
    public record TableKeys(TableDefinition table, List<Map<String, AttributeValue>> keys, boolean consistentRead,
                            List<Path> projection) {}

    /**
     * One table's part of a BatchGetItem's answer: the items found (in no particular order, as
     * DynamoDB's), the keys not read, and what was consumed (null when nothing was read).
     */
    public record TableItems(List<Map<String, AttributeValue>> items, List<Map<String, AttributeValue>> unprocessedKeys,
                             ConsumedCapacity consumed) {}

    /**
     * BatchGetItem: every key read on its own (a batch is not a snapshot), at most 16 MB of items
     * in all; the keys past it come back unprocessed, for the client to ask again. Checks first,
     * per table, every key against the key schema, then the projection.
     */
    public List<TableItems> batchGet(List<TableKeys> tables) {
        for (TableKeys t : tables) {
            for (Map<String, AttributeValue> key : t.keys()) PrimaryKeys.checkKey(t.table().keySchema(), key);
            ReadPlan.checkProjection(t.table(), t.projection());
        }
        List<TableItems> results = new ArrayList<>(tables.size());
        boolean cut = false;
        boolean anyRead = false;
        ThroughputExceededException throttled = null;
        long bytes = 0;
        for (TableKeys t : tables) {
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            List<Map<String, AttributeValue>> unprocessed = new ArrayList<>();
            ConsumedCapacity.Builder consumed = null;
            for (Map<String, AttributeValue> key : t.keys()) {
                if (cut) {
                    unprocessed.add(key);
                    continue;
                }
                ReadPlan plan = ReadPlan.item(t.table(), key, t.consistentRead(), t.projection(), false);
                try {
                    admit(Operation.BATCH_GET_ITEM, plan, null, 0);
                } catch (ThroughputExceededException e) {
                    // Throttled keys come back unprocessed; the call fails only if none was read
                    // (API reference, BatchGetItem).
                    if (throttled == null) throttled = e;
                    unprocessed.add(key);
                    continue;
                }
                catchUp(plan);
                Page read = reads.read(plan);
                if (bytes + read.bytesRead() > MAX_BATCH_GET_BYTES) {
                    cut = true;
                    unprocessed.add(key);
                    continue;
                }
                anyRead = true;
                bytes += read.bytesRead();
                if (consumed == null) consumed = new ConsumedCapacity.Builder();
                Page charged = charged(plan, read);
                observations.read(Operation.BATCH_GET_ITEM, plan, null, 0, charged);
                consumed.add(charged.consumed());
                if (read.item() != null) items.add(read.item());
            }
            results.add(new TableItems(items, unprocessed, consumed == null ? null : consumed.build()));
        }
        if (!anyRead && throttled != null) throw throttled;
        return results;
    }

    /** One get of a TransactGetItems. */
    public record Get(TableDefinition table, Map<String, AttributeValue> key, List<Path> projection) {}

    /**
     * TransactGetItems: every item read from one snapshot, which a write transaction's commit is
     * either wholly in or wholly out of; cancelled (TransactionConflict) when a write transaction
     * is committing one of them. Reads are strongly consistent and billed twice.
     *
     * @return per get, its item (or none) and the units it consumed
     */
    public List<Page> transactGet(List<Get> gets) {
        return transactGet(Operation.TRANSACT_GET_ITEMS, gets);
    }

    /** TransactGetItems of {@code operation} (ExecuteTransaction's SELECTs). */
    public List<Page> transactGet(Operation operation, List<Get> gets) {
        List<ReadPlan> plans = new ArrayList<>(gets.size());
        List<byte[]> rowKeys = new ArrayList<>(gets.size());
        for (Get g : gets) {
            TransactionItems.checkNotStronglyReplicated(g.table());
            ReadPlan plan = ReadPlan.item(g.table(), g.key(), true, g.projection(), true);
            plans.add(plan);
            rowKeys.add(plan.range().from());
        }
        TransactionItems.checkDistinct(rowKeys);
        for (int i = 0; i < plans.size(); i++) {
            try {
                admit(operation, plans.get(i), null, 0);
            } catch (ThroughputExceededException e) {
                throw TransactionCanceledException.at(i, gets.size(), CancellationReason.of(e));
            }
        }
        int conflict = locks.firstClaimed(rowKeys);
        if (conflict >= 0) {
            throw TransactionCanceledException.conflictAt(conflict, gets.size());
        }
        List<Page> results = new ArrayList<>(gets.size());
        long bytes = 0;
        try (Snapshot snapshot = snapshotOf(rowKeys)) {
            for (ReadPlan plan : plans) {
                Page read = reads.read(plan, snapshot);
                bytes += read.bytesRead();
                results.add(read);
            }
        }
        TransactionItems.checkPayload(bytes);
        for (int i = 0; i < results.size(); i++) {
            Page charged = charged(plans.get(i), results.get(i));
            observations.read(operation, plans.get(i), null, 0, charged);
            results.set(i, charged);
        }
        return results;
    }

    /**
     * The transaction's items as of one moment; on shared storage a row that another server's
     * transaction holds cancels the read (TransactionConflict), as a claimed item does here.
     */
    private Snapshot snapshotOf(List<byte[]> rowKeys) {
        try {
            return storage.snapshotOf(Keyspaces.ITEMS, rowKeys);
        } catch (RowHeldException e) {
            throw TransactionCanceledException.conflictAt(rowKeys, e.key());
        }
    }
}
