package io.stator.engine.index;

import io.stator.core.item.ItemCodec;
import io.stator.core.key.KeyLayout;
import io.stator.engine.lock.ItemLocks;
import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;
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
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Building and dropping global secondary indexes in the background, as UpdateTable does in
 * DynamoDB: an index created on a table with items is CREATING, with Backfilling, while the
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
 */
public final class IndexBuilds implements AutoCloseable {

    private final Storage storage;
    private final Catalog catalog;
    private final ItemLocks locks;
    private final CapacityMeter meter;
    private final IndexPropagator propagator;
    private volatile boolean closed;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "stator-index-builds");
        t.setDaemon(true);
        return t;
    });

    public IndexBuilds(Storage storage, Catalog catalog, ItemLocks locks, CapacityMeter meter,
                       IndexPropagator propagator) {
        this.storage = storage;
        this.catalog = catalog;
        this.locks = locks;
        this.meter = meter;
        this.propagator = propagator;
    }

    /** Picks up builds and drops that a previous run left unfinished. */
    public void resume() {
        for (TableDefinition table : catalog.all()) {
            for (IndexDefinition index : table.globalIndexes()) {
                if (index.status() == IndexStatus.CREATING) backfill(table.name(), index.name());
                if (index.status() == IndexStatus.DELETING) drop(table.name(), index.name());
            }
        }
    }

    /** Copies the table's items into the (CREATING) index, then makes it ACTIVE. */
    public void backfill(String tableName, String indexName) {
        submit(() -> runBackfill(tableName, indexName),
                e -> System.err.println("stator: building index " + indexName + " of " + tableName + " failed: " + e));
    }

    /**
     * Runs a backfill or a drop on the builds' thread. A storage fault (a full disk) does not
     * end it: the storage has logged the fault, and the task runs again from its start a moment
     * later, until the fault is over. Both are safe to run again: a restart resumes them so.
     */
    private void submit(Runnable task, Consumer<RuntimeException> failed) {
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } catch (StorageFaultException e) {
                    if (closed) return;
                    try {
                        Thread.sleep(IndexPropagator.FAULT_RETRY_MILLIS);
                    } catch (InterruptedException interrupted) {
                        return; // closing: the next start resumes the task
                    }
                    submit(task, failed);
                } catch (RuntimeException e) {
                    failed.accept(e);
                }
            });
        } catch (RejectedExecutionException e) {
            // Closed meanwhile: the next start resumes the task.
        }
    }

    private void runBackfill(String tableName, String indexName) {
        TableDefinition table = catalog.find(tableName);
        if (table == null || table.index(indexName) == null) return;
        IndexDefinition index = table.index(indexName);
        locks.awaitWritesInFlight();
        byte[] from = KeyLayout.indexPrefix(table.id(), KeyLayout.BASE_TABLE_INDEX_ID);
        byte[] to = KeyLayout.indexUpperBound(table.id(), KeyLayout.BASE_TABLE_INDEX_ID);
        List<byte[]> keys = new ArrayList<>(1024);
        try (Snapshot snapshot = storage.snapshot();
             Cursor cursor = storage.range(snapshot, Keyspace.ITEMS, from, to, false)) {
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
        // Only a CREATING index becomes ACTIVE: one deleted during its backfill stays DELETING
        // (its drop is queued behind this task, and a restart must still find it DELETING).
        catalog.updateIndexIfPresent(tableName, indexName,
                i -> i.id() == index.id() && i.status() == IndexStatus.CREATING ? i.withStatus(IndexStatus.ACTIVE, false) : i);
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
                byte[] stored = storage.get(Keyspace.ITEMS, rowKey);
                if (stored == null) return true; // deleted since the walk began: its change is queued
                IndexEntry entry = IndexEntries.entry(table, index, ItemCodec.decode(stored));
                if (entry == null) return true;
                if (meter.backfill(table, index, entry.size())) {
                    // Not while the propagator applies queued changes: both read the entry before
                    // writing it with counters (IndexWrites).
                    return propagator.exclusively(() -> {
                        try (WriteBatch batch = storage.newBatch()) {
                            IndexWrites.apply(storage, batch, new HashMap<ByteBuffer, byte[]>(), table.id(), index.id(),
                                    null, entry.key(), entry.value(), entry.size());
                            storage.commit(batch);
                        }
                        return true;
                    });
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
        submit(() -> {
            TableDefinition table = catalog.find(tableName);
            IndexDefinition index = table == null ? null : table.index(indexName);
            if (index == null) return;
            storage.deleteRange(Keyspace.ITEMS, KeyLayout.indexPrefix(table.id(), index.id()),
                    KeyLayout.indexUpperBound(table.id(), index.id()));
            catalog.counters().dropIndex(table.id(), index.id());
            catalog.removeIndex(tableName, indexName);
        }, e -> System.err.println("stator: dropping index " + indexName + " of " + tableName + " failed: " + e));
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
