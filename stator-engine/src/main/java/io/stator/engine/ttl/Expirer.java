package io.stator.engine.ttl;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.expression.Condition;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.item.StoredItem;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.index.PropagationDelay;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.lock.ItemLocks;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TimeToLiveDescription;
import io.stator.engine.table.TimeToLiveDescription.TimeToLiveStatus;
import io.stator.engine.write.ConditionalCheckFailedException;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.WritePipeline;
import io.stator.storage.Cursor;
import io.stator.storage.Storage;
import io.stator.storage.StorageFaultException;
import io.stator.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Time to Live's background work, on one thread: it brings a table's Time to Live from ENABLING
 * to ENABLED and from DISABLING to DISABLED, and deletes the items that have expired.
 *
 * <p><b>Enabling.</b> From the moment a table is ENABLING, every write of its items keeps its
 * row in the {@link ExpiryIndex}. The expirer makes sure the index is registered, waits for the
 * writes holding an item (they may have read the table before it was ENABLING), then walks the
 * table's items as they are now and writes each one's row; the table is then ENABLED (an empty
 * table at once). A write after the walk passed its item moves the row itself. Rows need no
 * lock: a row the walk writes from a value that a write has just changed is a stale hint (see
 * {@link ExpiryIndex}), never a lost expiry. On shared storage the walk first waits until every
 * server knows the table is ENABLING (the other servers' writes are not in this one's locks),
 * and every server's expirer deletes what is due: the second deletion of an item fails its
 * condition and changes nothing.
 *
 * <p><b>Disabling.</b> DISABLING waits for the writes in flight, drops the table's rows in one
 * range delete, and becomes DISABLED; from then on no item of the table is deleted.
 *
 * <p><b>Deleting.</b> Each round reads, per expiring table, the rows due before now (at most
 * {@link #BATCH} of them) and deletes each item through the {@link WritePipeline} as DeleteItem
 * would, under the condition that its TTL attribute still holds the row's value, without
 * consuming capacity, with a change record that says Time to Live made it. The write pipeline
 * moves the item's row out of the index in the same batch. An item updated meanwhile fails the
 * condition and is kept (its new value has its own row); a row that led nowhere is dropped. A
 * value more than five years in the past by the time it is due is not deleted either.
 *
 * <p><b>Pace.</b> It works as long as rows are due, round after round, taking one item lock at a
 * time as any write does, so foreground requests never wait for more than one of its writes;
 * otherwise it sleeps until the next row is due, at most {@link #IDLE_MILLIS} (the clock may be
 * moved by a test). A storage fault (a full disk) pauses it until writes resume. Everything it
 * has not finished is in the catalog and the index, so a restart (or a kill -9) resumes where it
 * was.
 */
public final class Expirer implements AutoCloseable {

    static final int BATCH = 512;
    static final long IDLE_MILLIS = 1_000;
    private static final long MIN_WAIT_MILLIS = 10;
    private static final long FAULT_RETRY_MILLIS = 1_000;
    private static final int BACKFILL_BATCH = 1_024;

    private final Storage storage;
    private final Deployment deployment;
    private final Catalog catalog;
    private final ItemLocks locks;
    private final WritePipeline pipeline;
    private final Clock clock;
    private final ExpiryIndex index;
    private final Object signal = new Object();
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean pending;
    /** Rounds begun and ended, counted from 1 (tests wait for a round to pass). */
    private volatile long roundsBegun;
    private volatile long roundsEnded;

    public Expirer(Storage storage, Deployment deployment, Catalog catalog, ChangeLog changeLog, ItemLocks locks, WritePipeline pipeline,
                   Clock clock, PropagationDelay delay) {
        this.storage = storage;
        this.deployment = deployment;
        this.catalog = catalog;
        this.locks = locks;
        this.pipeline = pipeline;
        this.clock = clock;
        this.index = new ExpiryIndex(changeLog, clock, delay);
        // Writes of tables already expiring keep the index from the first request on.
        if (anyExpiring()) index.register();
        this.thread = new Thread(this::run, "stator-ttl-expirer");
        thread.setDaemon(true);
        pending = true;
        thread.start();
    }

    /** Tells the expirer that a table's Time to Live changed. */
    public void wake() {
        pending = true;
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    private void run() {
        while (!closed) {
            try {
                long round = ++roundsBegun;
                long waitMillis = round();
                roundsEnded = round;
                synchronized (signal) {
                    if (closed) return;
                    if (!pending && waitMillis > 0) signal.wait(waitMillis);
                }
            } catch (InterruptedException e) {
                return;
            } catch (StorageFaultException e) {
                // The storage has logged the fault; the catalog and the index keep the work.
                if (!pause(FAULT_RETRY_MILLIS)) return;
            } catch (RuntimeException e) {
                if (closed) return;
                System.err.println("stator: Time to Live's expirer failed, will retry: " + e);
                if (!pause(100)) return;
            }
        }
    }

    /** One round of work; returns how long to wait before the next (0: at once). */
    private long round() {
        pending = false;
        // On shared storage another server may have enabled a table's Time to Live (and even
        // finished its walk) since this one last looked: its writes keep the index from now on.
        if (anyExpiring()) index.register();
        long deferred = Long.MAX_VALUE;
        for (TableDefinition table : catalog.all()) {
            if (closed) return 0;
            TimeToLiveDescription ttl = table.timeToLive();
            if (ttl == null) continue;
            if (ttl.status() == TimeToLiveStatus.ENABLING) {
                long wait = untilEveryServerSees(table);
                if (wait > 0) deferred = Math.min(deferred, wait);
                else backfill(table, ttl);
            }
            if (ttl.status() == TimeToLiveStatus.DISABLING) drop(table, ttl);
        }
        long now = clock.millis();
        long nextDue = Long.MAX_VALUE;
        boolean more = false;
        for (TableDefinition table : catalog.all()) {
            if (closed) return 0;
            if (table.timeToLive() == null || !table.timeToLive().expiring()) continue;
            Round r = expireDue(table.id(), now);
            more |= r.more();
            nextDue = Math.min(nextDue, r.nextDue());
        }
        if (more) return 0;
        nextDue = Math.min(nextDue, deferred == Long.MAX_VALUE ? Long.MAX_VALUE : now + deferred);
        // A row due exactly now is deleted once now has passed it: not before the next
        // millisecond, and on a stopped (test) clock not before it moves, so no spinning.
        return nextDue == Long.MAX_VALUE ? IDLE_MILLIS : Math.max(MIN_WAIT_MILLIS, Math.min(IDLE_MILLIS, nextDue - now));
    }

    private boolean anyExpiring() {
        for (TableDefinition t : catalog.all()) {
            if (t.timeToLive() != null && t.timeToLive().expiring()) return true;
        }
        return false;
    }

    // ---- enabling and disabling ---------------------------------------------------------------

    /**
     * On shared storage, how long the walk of an ENABLING table must still wait (0: none): the
     * index is kept by the writes of servers that know the table is ENABLING, and every server
     * re-reads the catalog each second (cluster/SharedUpkeep), so the walk starts once a write
     * begun before that has had time to commit, {@link Deployment#catalogSettleMillis} after this
     * server first saw the table ENABLING. Real time, not the engine's clock: it waits for servers.
     */
    private long untilEveryServerSees(TableDefinition table) {
        long settle = deployment.catalogSettleMillis();
        if (settle == 0) return 0;
        long firstSeen = enablingSince.computeIfAbsent(table.id(), id -> System.nanoTime());
        long waited = (System.nanoTime() - firstSeen) / 1_000_000;
        if (waited < settle) return settle - waited;
        enablingSince.remove(table.id());
        return 0;
    }

    /** When this server first saw each table ENABLING (shared storage only). */
    private final Map<Long, Long> enablingSince = new HashMap<>();

    /** Writes the row of every item of an ENABLING table, then makes it ENABLED. */
    private void backfill(TableDefinition table, TimeToLiveDescription ttl) {
        index.register();
        locks.awaitWritesInFlight();
        long now = clock.millis();
        byte[] from = KeyLayout.indexPrefix(table.id(), KeyLayout.BASE_TABLE_INDEX_ID);
        byte[] to = KeyLayout.indexUpperBound(table.id(), KeyLayout.BASE_TABLE_INDEX_ID);
        try (Cursor items = storage.range(null, Keyspaces.ITEMS, from, to, false)) {
            boolean more = true;
            while (more) {
                try (WriteBatch batch = storage.newBatch()) {
                    int read = 0;
                    while (read < BACKFILL_BATCH && (more = items.next())) {
                        read++;
                        ExpiryIndex.Row row = index.rowOf(table.id(), ttl.attributeName(), items.key(),
                                new StoredItem(items.value()), now);
                        if (row != null) batch.put(Keyspaces.EXPIRIES, row.key(), row.value());
                    }
                    if (batch.size() > 0) storage.commit(batch);
                }
                if (closed || !unchanged(table, ttl)) return; // the next start, or the next change, takes over
            }
        }
        settle(table, ttl, TimeToLiveStatus.ENABLED);
    }

    /** Drops the rows of a DISABLING table, then makes it DISABLED. */
    private void drop(TableDefinition table, TimeToLiveDescription ttl) {
        // Writes that read the table while it was still ENABLED may be about to stage rows.
        locks.awaitWritesInFlight();
        storage.deleteRange(Keyspaces.EXPIRIES, ExpiryIndex.tableStart(table.id()),
                ExpiryIndex.tableStart(table.id() + 1));
        settle(table, ttl, TimeToLiveStatus.DISABLED);
        if (!anyExpiring()) index.unregister(); // an ENABLING table registers it again before its walk
    }

    /** Whether the table (the same one, by id) still has the Time to Live the work began with. */
    private boolean unchanged(TableDefinition table, TimeToLiveDescription ttl) {
        TableDefinition now = catalog.findById(table.id());
        return now != null && ttl.equals(now.timeToLive());
    }

    private void settle(TableDefinition table, TimeToLiveDescription ttl, TimeToLiveStatus status) {
        catalog.updateIfPresent(table.name(), current -> {
            if (current.id() != table.id() || !ttl.equals(current.timeToLive())) return current;
            TableDefinition.Builder b = current.toBuilder();
            b.timeToLive = ttl.withStatus(status);
            return b.build();
        });
    }

    // ---- deleting -------------------------------------------------------------------------------

    /** What one table's round found: whether more rows are due, and when the next one is. */
    private record Round(boolean more, long nextDue) {}

    private Round expireDue(long tableId, long now) {
        List<byte[][]> rows = new ArrayList<>();
        try (Cursor c = storage.range(null, Keyspaces.EXPIRIES, ExpiryIndex.tableStart(tableId),
                ExpiryIndex.dueFrom(tableId, now), false)) {
            while (rows.size() < BATCH && c.next()) rows.add(new byte[][] {c.key(), c.value()});
        }
        int done = 0;
        try (WriteBatch dropped = storage.newBatch()) {
            for (byte[][] row : rows) {
                if (closed) break;
                TableDefinition table = catalog.findById(tableId);
                if (table == null || table.timeToLive() == null || !table.timeToLive().expiring()) break;
                Outcome outcome = expire(table, row[0], row[1], now);
                if (outcome == Outcome.RETRY) continue;
                done++;
                if (outcome == Outcome.DROP_ROW) dropped.delete(Keyspaces.EXPIRIES, row[0]);
            }
            if (dropped.size() > 0) storage.commit(dropped);
        }
        if (rows.size() == BATCH && done > 0) return new Round(true, now);
        try (Cursor c = storage.range(null, Keyspaces.EXPIRIES, ExpiryIndex.dueFrom(tableId, now),
                ExpiryIndex.tableStart(tableId + 1), false)) {
            return new Round(false, c.next() ? ExpiryIndex.dueOf(c.key()) : Long.MAX_VALUE);
        }
    }

    /** What became of one due row. */
    private enum Outcome {
        /** The item was deleted: the pipeline took its row out in the same batch. */
        DELETED,
        /** The row led to nothing to delete (the item changed, or is gone): drop it. */
        DROP_ROW,
        /** A transaction holds the item: try again next round. */
        RETRY
    }

    private Outcome expire(TableDefinition table, byte[] key, byte[] value, long now) {
        DynamoNumber expiry;
        try {
            expiry = DynamoNumber.parse(new String(value, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return Outcome.DROP_ROW; // not a row this version wrote
        }
        // More than five years in the past by now: DynamoDB never deletes it.
        if (ExpiryIndex.expiryMillis(expiry, now) == ExpiryIndex.NEVER) return Outcome.DROP_ROW;
        String attribute = table.timeToLive().attributeName();
        Condition stillExpired = new Condition.Comparison(Condition.Comparator.EQ,
                new Operand.PathOperand(Path.of(attribute)), new Operand.Constant(new AttributeValue.N(expiry)));
        try {
            pipeline.expire(new ItemWrite(table, ExpiryIndex.rowKeyOf(key), stillExpired, old -> null, false,
                    ReturnValues.NONE, List.of()));
            return Outcome.DELETED;
        } catch (ConditionalCheckFailedException e) {
            return Outcome.DROP_ROW;
        } catch (DynamoDbException e) {
            if (e.type() == ErrorType.TRANSACTION_CONFLICT) return Outcome.RETRY;
            throw e;
        }
    }

    // ---- lifecycle ------------------------------------------------------------------------------

    /**
     * Waits until a whole round has run after this call (tests that moved the clock; a round does
     * at most {@link #BATCH} deletions per table). False if none did within the timeout.
     */
    public boolean awaitRound(long timeoutMillis) throws InterruptedException {
        long target = roundsBegun + 1;
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        wake();
        while (roundsEnded < target) {
            if (System.nanoTime() > deadline || closed) return false;
            Thread.sleep(2);
        }
        return true;
    }

    /** Waits {@code millis} unless woken or closed; false once closed. */
    private boolean pause(long millis) {
        synchronized (signal) {
            if (closed) return false;
            try {
                signal.wait(millis);
            } catch (InterruptedException e) {
                return false;
            }
        }
        return !closed;
    }

    @Override
    public void close() {
        closed = true;
        synchronized (signal) {
            signal.notifyAll();
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
