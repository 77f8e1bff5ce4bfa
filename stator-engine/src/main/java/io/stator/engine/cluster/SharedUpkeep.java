package io.stator.engine.cluster;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * What each server sharing its storage does in the background: it reads the catalog again every
 * second (other servers' CreateTable, UpdateTable and DeleteTable reach it within a second; a
 * table it has never seen is read at once, see {@code Catalog#find}), then what follows it (the
 * streams' catalog, {@code Streams#refreshShared}), and finishes the
 * transactions that a server left undecided or half applied ({@link
 * CasTransactions#recover}), so that intents on items nobody reads are
 * settled too; every half a job's lease it submits again the jobs in progress
 * ({@code Deployment.Upkeep#resumeJobs}), so that a dead server's job moves to a live one once its
 * lease expired. On a thread of its own, it counts again the tables written since it last did
 * ({@code TableCounters#recount}): about ten seconds after a write, and
 * no table more often than its last count took times ten, so that counting takes at most a
 * tenth of that thread's time. DynamoDB refreshes ItemCount and the sizes about every six hours.
 * On a third thread, every {@value SharedCapacity#EXCHANGE_EVERY_MILLIS} ms, it exchanges with the
 * other servers what each took of every table's throughput ({@link SharedCapacity}). On a fourth,
 * every {@value SharedObservations#PUBLISH_EVERY_MILLIS} ms, it publishes what the advisor observed
 * here since it last did ({@link SharedObservations}), and every minute trims the rows past the
 * advisor's hour.
 */
final class SharedUpkeep implements AutoCloseable {

    private static final Logger LOG = System.getLogger(SharedUpkeep.class.getName());
    static final long CATALOG_EVERY_MILLIS = 1_000;
    static final long RECOVERY_EVERY_MILLIS = 5_000;

    static final long RECOUNT_AFTER_NANOS = 10_000_000_000L;

    private final Thread thread;
    private final Thread counting;
    private final Thread exchanging;
    private final Thread observing;
    private final SharedCapacity capacity;
    private volatile boolean closed;

    private final long jobsEveryMillis;

    private SharedUpkeep(SharedStorage storage, Deployment.Upkeep engine, long jobsEveryMillis,
                         SharedObservations observations) {
        this.jobsEveryMillis = jobsEveryMillis;
        this.thread = Thread.ofPlatform().daemon().name("stator-shared-upkeep")
                .unstarted(() -> run(storage, engine));
        this.counting = Thread.ofPlatform().daemon().name("stator-shared-counts")
                .unstarted(() -> count(storage, engine));
        this.capacity = new SharedCapacity(storage.store(), engine);
        this.exchanging = Thread.ofPlatform().daemon().name("stator-shared-capacity").unstarted(this::exchange);
        this.observing = Thread.ofPlatform().daemon().name("stator-shared-observations")
                .unstarted(() -> observe(engine, observations));
    }

    /** The advisor's observations out, on a thread of their own: a large publish delays nothing else. */
    private void observe(Deployment.Upkeep engine, SharedObservations observations) {
        long nextTrim = System.currentTimeMillis();
        while (!closed) {
            try {
                Thread.sleep(SharedObservations.PUBLISH_EVERY_MILLIS);
                observations.publish(engine.observedHere());
                if (System.currentTimeMillis() >= nextTrim) {
                    observations.trim(engine.observedMinute());
                    nextTrim = System.currentTimeMillis() + SharedObservations.TRIM_EVERY_MILLIS;
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!closed) LOG.log(Level.WARNING, "publishing the advisor's observations failed; retrying: " + e);
            }
        }
    }

    /**
     * The throughput exchange ({@link SharedCapacity}), on a thread of its own so that a slow
     * catalog read or recovery does not stretch its period (the cluster's tolerance). Its first
     * heartbeat is published before the server serves, so that others count all it takes.
     */
    private void exchange() {
        while (!closed) {
            try {
                Thread.sleep(SharedCapacity.EXCHANGE_EVERY_MILLIS);
                capacity.exchange();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!closed) LOG.log(Level.WARNING, "exchanging throughput with the other servers failed; retrying: " + e);
            }
        }
    }

    /** @param engine what the engine does to read the catalog again and to count a table */
    static SharedUpkeep start(SharedStorage storage, Deployment.Upkeep engine, long jobsEveryMillis,
                              SharedObservations observations) {
        SharedUpkeep upkeep = new SharedUpkeep(storage, engine, jobsEveryMillis, observations);
        try {
            upkeep.capacity.publish();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "publishing throughput to the other servers failed; retrying: " + e);
        }
        upkeep.thread.start();
        upkeep.counting.start();
        upkeep.exchanging.start();
        upkeep.observing.start();
        return upkeep;
    }

    private void count(SharedStorage storage, Deployment.Upkeep engine) {
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
                    long start = System.nanoTime();
                    if (engine.recount(id)) { // a failure leaves it due: tried again
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

    private void run(SharedStorage storage, Deployment.Upkeep engine) {
        long nextRecovery = System.currentTimeMillis() + RECOVERY_EVERY_MILLIS;
        long nextJobs = System.currentTimeMillis() + jobsEveryMillis;
        while (!closed) {
            try {
                Thread.sleep(CATALOG_EVERY_MILLIS);
                engine.rereadCatalog();
                if (System.currentTimeMillis() >= nextRecovery) {
                    storage.transactions().recover();
                    nextRecovery = System.currentTimeMillis() + RECOVERY_EVERY_MILLIS;
                }
                if (System.currentTimeMillis() >= nextJobs) {
                    engine.resumeJobs();
                    nextJobs = System.currentTimeMillis() + jobsEveryMillis;
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
        exchanging.interrupt();
        observing.interrupt();
        try {
            thread.join(5_000);
            counting.join(5_000);
            exchanging.join(5_000);
            observing.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            capacity.withdraw();
        } catch (RuntimeException e) {
            // The others delete the rows once the heartbeat has stopped.
        }
    }
}
