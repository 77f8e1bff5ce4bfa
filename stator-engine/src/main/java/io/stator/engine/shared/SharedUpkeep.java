package io.stator.engine.shared;

import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * What each server sharing its storage does in the background: it reads the catalog again every
 * second (other servers' CreateTable, UpdateTable and DeleteTable reach it within a second; a
 * table it has never seen is read at once, see {@link Catalog#find}), then what follows it (the
 * streams' catalog, {@link io.stator.engine.streams.Streams#refreshShared}), and finishes the
 * transactions that a server left undecided or half applied ({@link
 * io.stator.engine.write.CasTransactions#recover}), so that intents on items nobody reads are
 * settled too. On a thread of its own, it counts again the tables written since it last did
 * ({@link io.stator.engine.table.TableCounters#recount}): about ten seconds after a write, and
 * no table more often than its last count took times ten, so that counting takes at most a
 * tenth of that thread's time. DynamoDB refreshes ItemCount and the sizes about every six hours.
 */
public final class SharedUpkeep implements AutoCloseable {

    private static final Logger LOG = System.getLogger(SharedUpkeep.class.getName());
    static final long CATALOG_EVERY_MILLIS = 1_000;
    static final long RECOVERY_EVERY_MILLIS = 5_000;

    static final long RECOUNT_AFTER_NANOS = 10_000_000_000L;

    private final Thread thread;
    private final Thread counting;
    private volatile boolean closed;

    private SharedUpkeep(SharedStorage storage, Catalog catalog, Runnable catalogRead) {
        this.thread = Thread.ofPlatform().daemon().name("stator-shared-upkeep")
                .unstarted(() -> run(storage, catalog, catalogRead));
        this.counting = Thread.ofPlatform().daemon().name("stator-shared-counts")
                .unstarted(() -> count(storage, catalog));
    }

    /** @param catalogRead run after each re-read of the catalog (the streams follow it) */
    public static SharedUpkeep start(SharedStorage storage, Catalog catalog, Runnable catalogRead) {
        SharedUpkeep upkeep = new SharedUpkeep(storage, catalog, catalogRead);
        upkeep.thread.start();
        upkeep.counting.start();
        return upkeep;
    }

    private void count(SharedStorage storage, Catalog catalog) {
        Map<Long, Long> due = new HashMap<>(); // table id -> when to count it (nanoTime)
        Map<Long, Long> earliest = new HashMap<>(); // table id -> not before (after a long count)
        while (!closed) {
            try {
                Thread.sleep(CATALOG_EVERY_MILLIS);
                long now = System.nanoTime();
                for (long id : storage.takeWrittenTables()) due.putIfAbsent(id, now + RECOUNT_AFTER_NANOS);
                for (Iterator<Map.Entry<Long, Long>> it = due.entrySet().iterator(); it.hasNext() && !closed; ) {
                    Map.Entry<Long, Long> d = it.next();
                    long id = d.getKey();
                    if (now < Math.max(d.getValue(), earliest.getOrDefault(id, now))) continue;
                    TableDefinition table = catalog.findById(id);
                    if (table != null) {
                        long start = System.nanoTime();
                        catalog.counters().recount(table); // a failure leaves it due: tried again
                        earliest.put(id, System.nanoTime() + 10 * (System.nanoTime() - start));
                    } else {
                        earliest.remove(id);
                    }
                    it.remove();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The backend may be unreachable for a while, or the table dropped meanwhile.
                if (!closed) LOG.log(Level.WARNING, "counting a table's items failed; retrying: " + e);
            }
        }
    }

    private void run(SharedStorage storage, Catalog catalog, Runnable catalogRead) {
        long nextRecovery = System.currentTimeMillis() + RECOVERY_EVERY_MILLIS;
        while (!closed) {
            try {
                Thread.sleep(CATALOG_EVERY_MILLIS);
                catalog.refresh();
                catalogRead.run();
                if (System.currentTimeMillis() >= nextRecovery) {
                    storage.transactions().recover();
                    nextRecovery = System.currentTimeMillis() + RECOVERY_EVERY_MILLIS;
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The backend may be unreachable for a while (a node restarting): try again later.
                if (!closed) LOG.log(Level.WARNING, "shared storage upkeep failed; retrying: " + e);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        counting.interrupt();
        try {
            thread.join(5_000);
            counting.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
