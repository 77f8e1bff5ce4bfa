package io.stator.engine.jobs;

import io.stator.storage.StorageFaultException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * The engine's one runner of long jobs: backups' copies, restores, point-in-time recovery's base
 * copies and trims, imports and exports.
 *
 * <p>Lanes: each kind of job runs on a lane of its own, one thread, in order of submission, so
 * that a long import never holds up a backup or an export (as a separate thread per kind did
 * before there was one runner). What the lanes share is what makes a job a job here:
 * <ul>
 *   <li>Restartable: every job is written to start over from its beginning, after a restart as
 *       after a storage fault. A storage fault (a full disk) stops the job in hand; it starts
 *       over every few seconds until the storage takes writes again, reported once.</li>
 *   <li>Stopping: once the engine closes, {@link #closed()} is true; a job checks it between
 *       items and returns where it is, to be resumed by the next start from its stored record.
 *       Work queued or waiting out a fault is dropped: the next start resumes it.</li>
 *   <li>{@link #awaitIdle()}: waits for everything queued so far on every lane (tests, the
 *       command line, which must not stop a server mid-copy).</li>
 *   <li>One server at a time: where several servers share the store, a job submitted by its name
 *       ({@link Lane#submit(String, Runnable)}) runs only on the server holding its lease
 *       ({@link JobLeases}), renewed from the job's checks of {@link Lane#closed()}; a lease lost
 *       reads as closed, and the job stops where it is. On one server there are no leases.</li>
 * </ul>
 */
public final class JobRunner implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(JobRunner.class.getName());

    /** How long work a storage fault stopped waits before it starts over. */
    private static final long FAULT_RETRY_SECONDS = 5;

    private final List<Lane> lanes = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    /** The jobs' leases where several servers share the store; null on one server. */
    private final JobLeases leases;

    /** A runner on one server: every job runs here. */
    public JobRunner() {
        this(null);
    }

    /** @param leases the jobs' leases where several servers share the store, or null */
    public JobRunner(JobLeases leases) {
        this.leases = leases;
    }

    /**
     * A new lane, its thread named {@code stator-<name>}; {@code interruptOnClose} for jobs that
     * may block on a remote store (S3), so that a stop does not wait on it.
     */
    public Lane lane(String name, boolean interruptOnClose) {
        Lane lane = new Lane(name, interruptOnClose);
        lanes.add(lane);
        return lane;
    }

    /** True once the engine is stopping: a job stops at its next item, to be resumed at the next start. */
    public boolean closed() {
        return closed;
    }

    /** Waits until the jobs queued so far, on every lane, are done. */
    public void awaitIdle() throws InterruptedException {
        for (Lane lane : lanes) lane.awaitIdle();
    }

    @Override
    public void close() {
        closed = true;
        for (Lane lane : lanes) lane.shutdown();
        for (Lane lane : lanes) lane.awaitTermination();
    }

    /** One kind's jobs, one at a time in submission order. */
    public final class Lane {

        private final String name;
        private final boolean interruptOnClose;
        private final ScheduledThreadPoolExecutor worker;
        private volatile boolean stopped;
        /** The named jobs queued or running here (a sweep does not queue one twice). */
        private final java.util.Set<String> named = java.util.concurrent.ConcurrentHashMap.newKeySet();
        /** The named jobs this server started: its own, though this server's sweep queued one first. */
        private final java.util.Set<String> started = java.util.concurrent.ConcurrentHashMap.newKeySet();
        /** The named job running, and when its lease was last renewed (nanoTime); on the lane's thread. */
        private volatile String running;
        private long renewedAt;
        private volatile Thread runner;
        private volatile boolean leaseLost;

        private Lane(String name, boolean interruptOnClose) {
            this.name = name;
            this.interruptOnClose = interruptOnClose;
            this.worker = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "stator-" + name);
                t.setDaemon(true);
                runner = t;
                return t;
            });
            // Work waiting out a storage fault is dropped at close: the next start resumes it.
            worker.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        }

        /**
         * True once the engine, or this lane's owner, is stopping, or the job in hand lost its
         * lease: a job stops at its next item. Renews the lease of a named job every third of it.
         */
        public boolean closed() {
            if (closed || stopped || leaseLost) return true;
            String job = running;
            if (job == null || Thread.currentThread() != runner) return false;
            long now = System.nanoTime();
            if (now - renewedAt < leases.leaseMillis() * 1_000_000 / 3) return false;
            try {
                leaseLost = !leases.hold(job);
            } catch (RuntimeException e) {
                // The store unreachable: the lease may expire meanwhile; kept while it lasts.
                leaseLost = now - renewedAt >= leases.leaseMillis() * 1_000_000 / 2;
                if (leaseLost) LOG.warning(name + " job " + job + " stops: its lease could not be renewed: " + e);
                return leaseLost;
            }
            if (leaseLost) LOG.warning(name + " job " + job + " stops: another server took its lease");
            else renewedAt = now;
            return leaseLost;
        }

        /**
         * Runs the named job, on this server only if it holds the job's lease where several
         * servers share the store (else another runs it: when that one dies, a sweep submits the
         * job again and a server takes the lease once it expired). Not queued twice here.
         */
        public void submit(String job, Runnable work) {
            submit(job, work, false);
        }

        /**
         * Runs a named job a sweep or a start found in the store, which another server may have
         * just started: here only once its lease expired, or was never taken for a whole lease
         * ({@link JobLeases#adopt}). On one server, as {@link #submit(String, Runnable)}.
         */
        public void adopt(String job, Runnable work) {
            submit(job, work, true);
        }

        private void submit(String job, Runnable work, boolean adopting) {
            if (leases == null) {
                submit(work);
                return;
            }
            if (!adopting) started.add(job);
            if (!named.add(job)) return;
            schedule(() -> {
                try {
                    if (!(started.contains(job) ? leases.hold(job) : leases.adopt(job))) return;
                    renewedAt = System.nanoTime();
                    leaseLost = false;
                    running = job;
                    try {
                        work.run();
                    } finally {
                        running = null;
                        boolean lost = leaseLost;
                        leaseLost = false;
                        if (!lost) leases.release(job);
                    }
                } finally {
                    started.remove(job);
                    named.remove(job);
                }
            }, 0, false);
        }

        /**
         * Stops this lane before the engine stops (its owner's resources, an S3 client, are about
         * to close): the job in hand stops at its next item, to be resumed at the next start.
         */
        public void close() {
            stopped = true;
            shutdown();
            awaitTermination();
        }

        /**
         * Runs a job that can start over from its beginning; a storage fault stops it and it starts
         * over every few seconds until the storage takes writes again.
         */
        public void submit(Runnable job) {
            schedule(job, 0, false);
        }

        private void schedule(Runnable job, long delaySeconds, boolean faultReported) {
            try {
                worker.schedule(() -> {
                    if (closed()) return; // the next start resumes it
                    try {
                        job.run();
                    } catch (StorageFaultException e) {
                        if (!faultReported) {
                            LOG.warning(name + " work stopped by a storage fault, starting over every "
                                    + FAULT_RETRY_SECONDS + " s until the storage takes writes again: " + e.getMessage());
                        }
                        schedule(job, FAULT_RETRY_SECONDS, true);
                    } catch (RuntimeException e) {
                        LOG.severe(name + " work failed: " + e);
                    }
                }, delaySeconds, TimeUnit.SECONDS);
            } catch (RejectedExecutionException e) {
                // Closed meanwhile: the next start resumes it.
            }
        }

        /** Runs a task every {@code periodSeconds}; a failure is logged and the next period tries again. */
        public void every(long periodSeconds, Runnable task) {
            worker.scheduleWithFixedDelay(() -> {
                try {
                    task.run();
                } catch (StorageFaultException e) {
                    // The next period tries again.
                } catch (RuntimeException e) {
                    LOG.severe(name + " work failed: " + e);
                }
            }, periodSeconds, periodSeconds, TimeUnit.SECONDS);
        }

        /** Waits until the jobs queued so far on this lane are done. */
        public void awaitIdle() throws InterruptedException {
            try {
                worker.submit(() -> { }).get();
            } catch (ExecutionException | RejectedExecutionException e) {
                // Nothing to wait for: the no-op cannot fail, and a closed lane runs nothing.
            }
        }

        private void shutdown() {
            if (interruptOnClose) worker.shutdownNow();
            else worker.shutdown();
        }

        private void awaitTermination() {
            try {
                worker.awaitTermination(interruptOnClose ? 30 : 10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
