package io.stator.engine.index;

import io.stator.core.item.ItemCodec;
import io.stator.core.key.KeyLayout;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.lock.ItemLocks;
import io.stator.storage.CommitLostException;
import io.stator.storage.Cursor;
import io.stator.storage.RowHeldException;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.StorageFaultException;
import io.stator.storage.WriteBatch;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.IndexDefinition.IndexStatus;
import io.stator.engine.table.TableDefinition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Building and dropping global secondary indexes (and vector indexes, built the same way) in the
 * background, as UpdateTable does in DynamoDB: an index created on a table with items is CREATING, with Backfilling, while the
 * existing items are copied in, then ACTIVE; a deleted index is DELETING while its entries go.
 *
 * <p>Backfill and live writes: from the moment the index exists, every write queues its changes
 * for it (see {@link IndexPropagator}). Writes read the table's definition under their item's
 * lock, and the backfill first waits for the writes holding a lock (they may have read it before
 * the index existed), so each write is either queued or in the backfill's snapshot. The backfill
 * walks the table's keys and, for each item, takes the item's lock, reads the item as it is now
 * and writes its entry; a write that comes after that queues its own change, which the
 * propagator applies after the backfill's entry.
 * Changes queued before the backfill reached an item may apply before or after its entry; they
 * end with the item's current entry either way, and {@link IndexWrites} keeps the counters
 * exact whatever the order. Work left unfinished by a crash or a shutdown resumes at the next
 * start.
 *
 * <p>On storage that several servers share, each server's writes keep the index once it has
 * read the catalog again (every second, cluster/SharedUpkeep), so the
 * walk starts {@link Deployment#catalogSettleMillis} after the index appeared, when a write begun
 * with the older definition has committed; every server that sees a CREATING or DELETING index
 * runs its build or drop ({@link #follow}), so one that dies mid-way leaves it to the others. A
 * copy commits only if the item is still as read ({@link WriteBatch#expect}), and skips an
 * entry already in place (another server's copy or a write's), so the walks of two servers end
 * with the same entries as one.
 */
public final class IndexBuilds implements AutoCloseable {

    private final Storage storage;
    private final Deployment deployment;
    private final Catalog catalog;
    private final ItemLocks locks;
    private final CapacityMeter meter;
    private final IndexPropagator propagator;
    private final VectorGraphs graphs;
    private volatile boolean closed;
    /** The builds and drops queued or running here, so that one seen again is not run twice at once. */
    private final Set<String> scheduled = ConcurrentHashMap.newKeySet();
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "stator-index-builds");
        t.setDaemon(true);
        return t;
    });

    public IndexBuilds(Storage storage, Deployment deployment, Catalog catalog, ItemLocks locks, CapacityMeter meter,
                       IndexPropagator propagator, VectorGraphs graphs) {
        this.storage = storage;
        this.deployment = deployment;
        this.graphs = graphs;
        this.catalog = catalog;
        this.locks = locks;
        this.meter = meter;
        this.propagator = propagator;
    }

    /**
     * Picks up the builds and drops the catalog shows and this server does not run yet: at the
     * start, those a previous run left unfinished; on shared storage, after each re-read of the
     * catalog, those another server started too.
     */
    public void follow() {
        for (TableDefinition table : catalog.all()) {
            for (IndexDefinition index : table.indexes()) {
                if (index.status() == IndexStatus.CREATING) backfill(table.name(), index.name());
                if (index.status() == IndexStatus.DELETING) drop(table.name(), index.name());
            }
        }
    }

    /** Copies the table's items into the (CREATING) index, then makes it ACTIVE. */
    public void backfill(String tableName, String indexName) {
        submit("backfill " + taskKey(tableName, indexName), () -> runBackfill(tableName, indexName),
                e -> System.err.println("stator: building index " + indexName + " of " + tableName + " failed: " + e));
    }

    /** Names a task by the table's and index's ids: a name may be taken again by a new table or index. */
    private String taskKey(String tableName, String indexName) {
        TableDefinition table = catalog.find(tableName);
        IndexDefinition index = table == null ? null : table.index(indexName);
        return table == null || index == null ? tableName + "." + indexName : table.id() + "." + index.id();
    }

    /**
     * Runs a backfill or a drop on the builds' thread. A storage fault (a full disk) does not
     * end it: the storage has logged the fault, and the task runs again from its start a moment
     * later, until the fault is over. Both are safe to run again: a restart resumes them so.
     */
    private void submit(String name, Runnable task, Consumer<RuntimeException> failed) {
        if (!scheduled.add(name)) return;
        try {
            executor.execute(() -> {
                boolean again = false;
                try {
                    task.run();
                } catch (StorageFaultException e) {
                    if (closed) return;
                    try {
                        Thread.sleep(IndexPropagator.FAULT_RETRY_MILLIS);
                    } catch (InterruptedException interrupted) {
                        return; // closing: the next start resumes the task
                    }
                    again = true;
                } catch (RuntimeException e) {
                    failed.accept(e);
                } finally {
                    scheduled.remove(name);
                }
                if (again) submit(name, task, failed);
            });
        } catch (RejectedExecutionException e) {
            // Closed meanwhile: the next start resumes the task.
            scheduled.remove(name);
        }
    }

    /**
     * On shared storage, waits until every server has seen the catalog's change (see the class
     * comment). Real time, not the engine's clock: it waits for servers. False when closing.
     */
    private boolean untilEveryServerSees() {
        long settle = deployment.catalogSettleMillis();
        if (settle == 0) return true;
        try {
            Thread.sleep(settle);
            return !closed;
        } catch (InterruptedException e) {
            return false; // closing: the next start resumes the task
        }
    }

    private void runBackfill(String tableName, String indexName) {
        TableDefinition table = catalog.find(tableName);
        if (table == null || table.index(indexName) == null) return;
        IndexDefinition index = table.index(indexName);
        locks.awaitWritesInFlight();
        if (!untilEveryServerSees() || !stillCreating(table.id(), index.id())) return;
        byte[] from = KeyLayout.indexPrefix(table.id(), KeyLayout.BASE_TABLE_INDEX_ID);
        byte[] to = KeyLayout.indexUpperBound(table.id(), KeyLayout.BASE_TABLE_INDEX_ID);
        List<byte[]> keys = new ArrayList<>(1024);
        try (Snapshot snapshot = storage.snapshot();
             Cursor cursor = storage.range(snapshot, Keyspaces.ITEMS, from, to, false)) {
            boolean more = true;
            while (more) {
                keys.clear();
                while (keys.size() < 1024 && (more = cursor.next())) keys.add(cursor.key());
                for (byte[] rowKey : keys) {
                    if (!copy(table, index, rowKey)) return; // shutting down while throttled
                }
                if (closed || !stillCreating(table.id(), index.id())) return; // shutting down, or deleted meanwhile
            }
        }
        if (deployment.writesKeepGlobalIndexes() && !removeStale(table, index)) return;
        // Only a CREATING index becomes ACTIVE: one deleted during its backfill stays DELETING
        // (its drop is queued behind this task, and a restart must still find it DELETING).
        catalog.updateIndexIfPresent(tableName, indexName,
                i -> i.id() == index.id() && i.status() == IndexStatus.CREATING ? i.withStatus(IndexStatus.ACTIVE, false) : i);
    }

    /**
     * On shared storage, removes the entries no item holds any more (and rewrites one whose
     * projection is behind its item's). Until every server knew the
     * index, a write on one that did not could replace an item whose entry a write on one that
     * did had put, leaving that entry behind; every write since keeps the entries exact, so one
     * walk of the index after the copies, once every server knows it, finds each such entry. An
     * entry goes only if its item, read again, still does not hold it. False when closing or
     * when the index is no longer CREATING.
     */
    @SuppressWarnings("try") // the item is held, not used
    private boolean removeStale(TableDefinition table, IndexDefinition index) {
        try (Snapshot snapshot = storage.snapshot();
             Cursor cursor = storage.range(snapshot, Keyspaces.ITEMS, KeyLayout.indexPrefix(table.id(), index.id()),
                     KeyLayout.indexUpperBound(table.id(), index.id()), false)) {
            for (int seen = 1; cursor.next(); seen++) {
                byte[] entryKey = cursor.key();
                byte[] rowKey = RowKeys.of(table, ItemCodec.decode(cursor.value()));
                while (true) {
                    try (ItemLocks.Held item = locks.lock(rowKey)) {
                        byte[] stored = storage.get(Keyspaces.ITEMS, rowKey);
                        IndexEntry held = stored == null ? null : IndexEntries.entry(table, index, ItemCodec.decode(stored));
                        boolean itsKey = held != null && Arrays.equals(held.key(), entryKey);
                        if (itsKey && Arrays.equals(held.value(), cursor.value())) break;
                        try (WriteBatch batch = storage.newBatch()) {
                            batch.expect(Keyspaces.ITEMS, rowKey, stored);
                            if (itsKey) batch.put(Keyspaces.ITEMS, entryKey, held.value()); // its projection, as it is now
                            else batch.delete(Keyspaces.ITEMS, entryKey);
                            storage.commit(batch);
                            break;
                        } catch (CommitLostException e) {
                            continue;
                        } catch (RowHeldException e) {
                            // Another server's transaction holds the item or the entry: after it.
                        }
                    }
                    if (closed) return false;
                    sleepQuietly(BACKFILL_THROTTLE_PAUSE_MILLIS);
                }
                if (seen % 1024 == 0 && (closed || !stillCreating(table.id(), index.id()))) return false;
            }
        }
        return !closed;
    }

    /** Whether the table and this index (by id: a new index may have taken its name) exist, the index still CREATING. */
    private boolean stillCreating(long tableId, int indexId) {
        TableDefinition table = catalog.findById(tableId);
        IndexDefinition index = table == null ? null : table.indexById(indexId);
        return index != null && index.status() == IndexStatus.CREATING;
    }

    /**
     * Writes one item's entry as the item is now, under the item's lock, once the index has write
     * capacity for it (a backfill consumes the index's capacity, as on DynamoDB); while it has
     * none, the lock is let go and the copy waits. False when the builds close meanwhile.
     */
    @SuppressWarnings("try") // the item is held, not used
    private boolean copy(TableDefinition table, IndexDefinition index, byte[] rowKey) {
        while (true) {
            try (ItemLocks.Held item = locks.lock(rowKey)) {
                byte[] stored = storage.get(Keyspaces.ITEMS, rowKey);
                if (stored == null) return true; // deleted since the walk began: its change is queued
                IndexEntry entry = IndexEntries.entry(table, index, ItemCodec.decode(stored));
                if (entry == null) return true;
                if (deployment.writesKeepGlobalIndexes() && Arrays.equals(storage.get(Keyspaces.ITEMS, entry.key()), entry.value())) {
                    return true; // already in place: another server's copy, or a write's
                }
                if (meter.backfill(table, index, entry.size())) {
                    if (!deployment.writesKeepGlobalIndexes()) {
                        // Not while the propagator applies queued changes: both read the entry
                        // before writing it with counters (IndexWrites).
                        return propagator.exclusively(() -> {
                            try (WriteBatch batch = storage.newBatch()) {
                                IndexWrites.apply(storage, batch, new HashMap<ByteBuffer, byte[]>(), table.id(), index.id(),
                                        null, entry.key(), entry.value(), entry.size());
                                storage.commit(batch);
                            }
                            if (index.isVector()) graphs.committed(table.id(), index.id(), null, entry.key(), entry.value());
                            return true;
                        });
                    }
                    // The item's writes commit its entries with it, from every server: the copy
                    // commits only if the item is still as read, else it reads it again.
                    try (WriteBatch batch = storage.newBatch()) {
                        batch.expect(Keyspaces.ITEMS, rowKey, stored);
                        batch.put(Keyspaces.ITEMS, entry.key(), entry.value());
                        storage.commit(batch);
                        return true;
                    } catch (CommitLostException e) {
                        continue;
                    } catch (RowHeldException e) {
                        // Another server's transaction holds the item or the entry: after it.
                    }
                }
            }
            if (closed) return false;
            sleepQuietly(BACKFILL_THROTTLE_PAUSE_MILLIS);
        }
    }

    private static final long BACKFILL_THROTTLE_PAUSE_MILLIS = 50;

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Deletes the (DELETING) index's entries and counters, then the index itself. */
    public void drop(String tableName, String indexName) {
        submit("drop " + taskKey(tableName, indexName), () -> {
            TableDefinition table = catalog.find(tableName);
            IndexDefinition index = table == null ? null : table.index(indexName);
            if (index == null || !untilEveryServerSees()) return;
            storage.deleteRange(Keyspaces.ITEMS, KeyLayout.indexPrefix(table.id(), index.id()),
                    KeyLayout.indexUpperBound(table.id(), index.id()));
            catalog.counters().dropIndex(table.id(), index.id());
            graphs.dropped(table.id(), index.id());
            catalog.removeIndex(tableName, indexName);
        }, e -> System.err.println("stator: dropping index " + indexName + " of " + tableName + " failed: " + e));
    }

    /** A deleted table's vector indexes lose their graphs (its rows go with the table). */
    public void tableDeleted(TableDefinition table) {
        for (IndexDefinition index : table.vectorIndexes()) graphs.dropped(table.id(), index.id());
    }

    @Override
    public void close() {
        // The storage closes next: let the running step finish rather than cut it off.
        closed = true;
        executor.shutdownNow();
        try {
            executor.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
