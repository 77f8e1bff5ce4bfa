package io.stator.engine.index;

import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.Cursor;
import io.stator.storage.Storage;
import io.stator.storage.StorageFaultException;
import io.stator.storage.WriteBatch;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Brings global secondary indexes up to date, asynchronously, as DynamoDB does.
 *
 * <p>Why a durable queue: a write that changes a global index's entry does not touch the index.
 * It puts a change record in the INDEX_QUEUE key space, in the same atomic batch as the item,
 * and this propagator applies queued changes in the background: nothing acknowledged can be lost
 * between the item and its index, whatever crashes when, and after a restart the queue simply
 * drains. Records are keyed by a sequence number drawn under the item's lock, so one item's
 * changes apply in the order they were made; changes of different items commute (their entries
 * have different keys). Each round applies a run of records and deletes them in one batch.
 *
 * <p>Delay: each record becomes due {@link PropagationDelay} after it was written; the queue is
 * applied in order, so a record never overtakes an earlier one.
 *
 * <p>Record layout (value; the key is the 8-byte big-endian sequence number):
 * {@code [table id 8][index id 4][due, epoch ms 8][old key: len 4 (-1 absent), bytes][old size 8]
 * [new key: len 4 (-1 absent), bytes][new value: len 4, bytes][new size 8]}.
 */
public final class IndexPropagator implements AutoCloseable {

    private static final int BATCH_RECORDS = 512;

    /** How long to wait before trying again while the storage cannot write. */
    static final long FAULT_RETRY_MILLIS = 1_000;

    private final Storage storage;
    private final Catalog catalog;
    /**
     * Held while a run of records is applied, and by a backfill while it copies one entry: both
     * read what the index holds, then write with counters moved by it, so they must not
     * interleave on one entry (each would count a new entry once: ItemCount one too many).
     */
    private final ReentrantLock applying = new ReentrantLock();
    private final Clock clock;
    private final PropagationDelay delay;
    private final AtomicLong sequence;
    private final Object signal = new Object();
    /** Notified after each run of records is applied (writers waiting on {@link PropagationDelay#SYNCHRONOUS}). */
    private final Object drained = new Object();
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean pending;

    private final VectorGraphs graphs;

    public IndexPropagator(Storage storage, Catalog catalog, Clock clock, PropagationDelay delay, VectorGraphs graphs) {
        this.storage = storage;
        this.graphs = graphs;
        this.catalog = catalog;
        this.clock = clock;
        this.delay = delay;
        this.sequence = new AtomicLong(lastSequence() + 1);
        this.thread = new Thread(this::run, "stator-index-propagator");
        thread.setDaemon(true);
        pending = true; // drain whatever a previous run left queued
        thread.start();
    }

    private long lastSequence() {
        try (Cursor c = storage.range(null, Keyspaces.INDEX_QUEUE, null, null, true)) {
            return c.next() ? ByteBuffer.wrap(c.key()).getLong() : 0;
        }
    }

    /**
     * Adds to the batch the change of one item's entry in a global index. Call with the item's
     * lock held, and call {@link #committed} with the last of these numbers once the batch is
     * committed.
     *
     * @return the change's number in the queue
     */
    public long enqueue(WriteBatch batch, long tableId, int indexId, IndexEntry before, IndexEntry after) {
        int size = 8 + 4 + 8 + 4 + (before == null ? 0 : before.key().length) + 8
                + 4 + (after == null ? 0 : after.key().length) + 4 + (after == null ? 0 : after.value().length) + 8;
        ByteBuffer record = ByteBuffer.allocate(size);
        record.putLong(tableId).putInt(indexId).putLong(clock.millis() + delay.nextMillis());
        putBytes(record, before == null ? null : before.key());
        record.putLong(before == null ? 0 : before.size());
        putBytes(record, after == null ? null : after.key());
        putBytes(record, after == null ? null : after.value());
        record.putLong(after == null ? 0 : after.size());
        long number = sequence.getAndIncrement();
        batch.put(Keyspaces.INDEX_QUEUE, key(number), record.array());
        return number;
    }

    /**
     * Tells the propagator that a batch's records were committed, the last of them numbered
     * {@code last}; when propagation is {@link PropagationDelay#SYNCHRONOUS}, returns once they
     * are applied (or after {@link #SYNCHRONOUS_WAIT_MILLIS}, when the storage cannot write: the
     * change is committed, and its index catches up as it would otherwise).
     */
    public void committed(long last) {
        wake();
        if (delay.synchronous()) awaitApplied(last);
    }

    static final long SYNCHRONOUS_WAIT_MILLIS = 10_000;

    private void awaitApplied(long number) {
        byte[] key = key(number);
        long deadline = System.nanoTime() + SYNCHRONOUS_WAIT_MILLIS * 1_000_000;
        synchronized (drained) {
            // Applied records are deleted, in order: once this one is gone, so are the batch's others.
            while (!closed && storage.get(Keyspaces.INDEX_QUEUE, key) != null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return;
                try {
                    drained.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static byte[] key(long number) {
        return ByteBuffer.allocate(8).putLong(number).array();
    }

    /** Tells the propagator that records were committed. */
    public void wake() {
        pending = true;
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    private void run() {
        while (!closed) {
            try {
                long nextDue = propagateDue();
                synchronized (signal) {
                    if (closed) return;
                    if (!pending) {
                        long wait = nextDue < 0 ? 1000 : Math.max(1, nextDue - clock.millis());
                        signal.wait(Math.min(wait, 1000));
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (StorageFaultException e) {
                // The storage cannot write (a full disk): it has logged the fault, and writes
                // resume by themselves once it is over. The queue keeps every change meanwhile;
                // try again in a while, or as soon as a write commits (the fault is over).
                synchronized (signal) {
                    if (closed) return;
                    try {
                        signal.wait(FAULT_RETRY_MILLIS);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            } catch (RuntimeException e) {
                if (closed) return;
                System.err.println("stator: index propagation failed, will retry: " + e);
                sleepQuietly(100);
            }
        }
    }

    /**
     * Applies the due records at the head of the queue. Returns when the head is not yet due
     * (its due time) or the queue is empty (-1).
     */
    private long propagateDue() {
        while (!closed) {
            pending = false;
            List<byte[][]> records = new ArrayList<>();
            try (Cursor c = storage.range(null, Keyspaces.INDEX_QUEUE, null, null, false)) {
                while (records.size() < BATCH_RECORDS && c.next()) records.add(new byte[][] {c.key(), c.value()});
            }
            if (records.isEmpty()) return -1;
            long now = clock.millis();
            int applied = 0;
            long nextDue = -1;
            applying.lock();
            List<Runnable> vectorChanges = new ArrayList<>();
            try (WriteBatch batch = storage.newBatch()) {
                Map<ByteBuffer, byte[]> written = new HashMap<>();
                for (byte[][] r : records) {
                    ByteBuffer record = ByteBuffer.wrap(r[1]);
                    long tableId = record.getLong();
                    int indexId = record.getInt();
                    long due = record.getLong();
                    if (due > now) {
                        nextDue = due;
                        break;
                    }
                    apply(batch, written, tableId, indexId, record, vectorChanges);
                    batch.delete(Keyspaces.INDEX_QUEUE, r[0]);
                    applied++;
                }
                if (applied > 0) storage.commit(batch);
                vectorChanges.forEach(Runnable::run); // committed: the graphs may show them
            } finally {
                applying.unlock();
            }
            if (applied > 0) {
                synchronized (drained) {
                    drained.notifyAll();
                }
            }
            if (nextDue >= 0) return nextDue;
            if (applied < BATCH_RECORDS && !pending) return -1;
        }
        return -1;
    }

    private void apply(WriteBatch batch, Map<ByteBuffer, byte[]> written, long tableId, int indexId,
                       ByteBuffer record, List<Runnable> vectorChanges) {
        byte[] oldKey = getBytes(record);
        record.getLong(); // the old entry's size: the counters use what the index actually holds
        byte[] newKey = getBytes(record);
        byte[] newValue = getBytes(record);
        long newSize = record.getLong();
        TableDefinition table = catalog.findById(tableId);
        IndexDefinition index = table == null ? null : table.indexById(indexId);
        // The table or index was deleted since, or is being: nothing to maintain.
        if (index == null || index.status() == IndexDefinition.IndexStatus.DELETING) return;
        IndexWrites.apply(storage, batch, written, tableId, indexId, oldKey, newKey, newValue, newSize);
        if (index.isVector()) vectorChanges.add(() -> graphs.committed(tableId, indexId, oldKey, newKey, newValue));
    }

    /**
     * Runs a backfill's copy of one entry with no run of records being applied meanwhile (see
     * {@link #applying}).
     */
    <T> T exclusively(java.util.function.Supplier<T> copy) {
        applying.lock();
        try {
            return copy.get();
        } finally {
            applying.unlock();
        }
    }

    /**
     * Waits until every record queued before this call has been applied (tests, shutdown).
     *
     * @return false when some still were after {@code timeoutMillis}
     */
    public boolean awaitIdle(long timeoutMillis) throws InterruptedException {
        long target = sequence.get();
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            try (Cursor c = storage.range(null, Keyspaces.INDEX_QUEUE, null, null, false)) {
                if (!c.next() || ByteBuffer.wrap(c.key()).getLong() >= target) return true;
            }
            if (System.currentTimeMillis() >= deadline) return false;
            wake();
            Thread.sleep(5);
        }
    }

    private static void putBytes(ByteBuffer b, byte[] bytes) {
        if (bytes == null) {
            b.putInt(-1);
        } else {
            b.putInt(bytes.length).put(bytes);
        }
    }

    private static byte[] getBytes(ByteBuffer b) {
        int len = b.getInt();
        if (len < 0) return null;
        byte[] bytes = new byte[len];
        b.get(bytes);
        return bytes;
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (signal) {
            signal.notifyAll();
        }
        synchronized (drained) {
            drained.notifyAll();
        }
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
