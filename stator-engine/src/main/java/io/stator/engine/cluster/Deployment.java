package io.stator.engine.cluster;

import io.stator.storage.CollectionStore;
import io.stator.storage.Storage;
import java.time.Clock;
import java.util.List;

/**
 * What differs between one server on its own storage (RocksDB) and several servers sharing one
 * store (Cassandra), chosen once, when the engine is built ({@link #of}); the engine's components
 * ask it rather than test the storage.
 *
 * <p>One server orders every write itself: its item locks guard every read-modify-write, its
 * global-index changes wait in its own propagation queue, it numbers stream records from its own
 * sequence, and its catalog in memory is the catalog. Several servers order nothing between them
 * but by the store's compare-and-set ({@link SharedStorage}): a global-index entry commits with
 * its item, a shard's records are numbered from its head row, every server reads the catalog
 * again each second ({@link SharedUpkeep}), so background work that needs every server to follow
 * a catalog change waits {@link #catalogSettleMillis}, and transactions run on compare-and-set
 * ({@link CasTransactions}) rather than under the pipeline's locks alone, and a long job runs on
 * the one server holding its lease ({@link #jobLeaseMillis}). What the shared store does not keep
 * yet (vector graphs) is left off there.
 *
 * <p>No class outside this package tests which deployment it runs in, nor knows
 * {@link SharedStorage} (ArchitectureTest).
 */
public sealed interface Deployment extends AutoCloseable permits SingleServer, SharedCluster {

    /** The deployment the storage is opened for: several servers when it is a shared store. */
    static Deployment of(Storage storage) {
        return storage instanceof SharedStorage shared ? new SharedCluster(shared) : new SingleServer();
    }

    /**
     * The storage contract on a store several servers share, for the server's backend opening.
     *
     * @param clock when an undecided transaction counts as abandoned (the wall clock: it is about
     *              real servers dying)
     * @param onClose what closing the storage closes (the backend's session), or null
     */
    static Storage sharedStorage(CollectionStore store, Clock clock, AutoCloseable onClose) {
        return new SharedStorage(store, clock, onClose);
    }

    /**
     * Whether an item's write commits its global-index entries with it (several servers: only the
     * item's own commit orders its changes from every server), rather than queueing them for the
     * index propagator; an index backfill then copies an entry only if the item is still as read,
     * skips an entry already in place, and removes the stale ones at its end.
     */
    boolean writesKeepGlobalIndexes();

    /**
     * Whether a write that reads nothing before writing (a put or delete without a condition or
     * old values) may be the store's plain write ({@code Storage.commitPlainly}: no read, no
     * compare-and-set) where the table's write isolation allows it (only_rmw_uses_lwt): several
     * servers on Cassandra. One server's storage has no cheaper write, and its pipeline reads
     * the old item for the table's counters: it writes as always.
     */
    boolean writesPlainly();

    /**
     * How long after a catalog change every server has read it and a write begun with the older
     * definition has committed (0 on one server): background work that needs every server's
     * writes to follow the change (an index's backfill, Time to Live's first walk) starts after
     * it. Real time, not the engine's clock: it waits for servers.
     */
    long catalogSettleMillis();

    /**
     * Whether other servers change the catalog: a table this server does not know is read from
     * the store before it is called unknown, and ListTables reads the catalog again first.
     */
    boolean catalogChangesElsewhere();

    /**
     * Whether a stream shard's records are numbered from its head row in the store (several
     * servers cannot see each other's numbers in flight) rather than from this server's sequence.
     */
    boolean numbersShardsByHeadRow();

    /**
     * Whether scan positions are the backend's own (Cassandra's tokens) rather than row keys'
     * hashes, so that a scan resumes just after its start key, whatever the key's hash.
     */
    boolean scansByBackendPosition();

    /**
     * Whether a storage snapshot holds the whole store as of one moment (one server's RocksDB),
     * rather than each row as a walk reaches it (a shared store has no global snapshot): a copy of
     * a table made by a walk is then as of the walk's start, else only as of its end.
     */
    boolean snapshotsHoldOneMoment();

    /**
     * Whether an item collection's size is a row of the collection itself, read, expected unchanged
     * and rewritten by every commit that changes the collection (several servers: a counter's
     * additions are not kept on shared storage, while one compare-and-set of the collection orders
     * its writers from every server, so the size stays exact), rather than a counter each commit
     * adds to (one server, which holds the collection while it reads the size).
     */
    boolean keepsCollectionSizesInCollections();

    /** Whether vector indexes' graphs are kept (in memory, from this server's writes). */
    boolean keepsVectorGraphs();

    /**
     * How long a job's lease lasts ({@code jobs/JobLeases}: one server at a time runs a backup's
     * copy, a restore, an import or an export), or 0 where one server runs every job. Wall-clock
     * time: it is about real servers dying.
     */
    long jobLeaseMillis();

    /**
     * The other servers' published observations (the advisor's, {@link Upkeep#observedHere}), which
     * reports merge with this server's; null on one server, whose reports read its own alone.
     */
    ObservedElsewhere observedElsewhere();

    /** Where the other servers' observations are read. */
    @FunctionalInterface
    interface ObservedElsewhere {
        /** The other servers' rows of a table from {@code fromMinute} on (minutes since the epoch). */
        List<ObservedRow> rows(long tableId, long fromMinute);
    }

    /**
     * One row of a server's observations of a table: a minute (part 0) or a second of it (part 1 +
     * the second of the minute); the figures are the advisor's to read.
     */
    record ObservedRow(long tableId, long minute, int part, byte[] figures) {}

    /** Starts the background upkeep the deployment needs (none on one server). */
    void startUpkeep(Upkeep upkeep);

    /** Stops the upkeep. */
    @Override
    void close();

    /** What the engine does when the deployment's upkeep asks. */
    interface Upkeep {
        /** Reads the catalog again, then what follows it (the streams' catalog, index builds). */
        void rereadCatalog();

        /** Counts a table's items and sizes again; false when the table no longer exists. */
        boolean recount(long tableId);

        /**
         * Submits again the jobs in progress (backups being created, restores): those another
         * server was running run here once its lease expired ({@link #jobLeaseMillis}).
         */
        void resumeJobs();

        /** What this server took from each table and global index since it started (the throughput model's totals). */
        List<Consumption> consumedHere();

        /**
         * Units another server took since the last exchange, drawn from this server's buckets too;
         * false when this server does not know the table (yet: it reads the catalog each second).
         */
        boolean consumedElsewhere(Consumption units);

        /** This server's observations (the advisor's) that changed since the last call, to publish. */
        List<ObservedRow> observedHere();

        /** The minute the engine's clock is in (minutes since the epoch): observations older than the advisor's hour are trimmed. */
        long observedMinute();
    }

    /**
     * What a server took from one table (index id 0) or global index: units read and written,
     * and by partition (its partitions' first hashes, in order, and the units of each). Totals
     * since it started from {@link Upkeep#consumedHere}; units since the last exchange given to
     * {@link Upkeep#consumedElsewhere}.
     */
    record Consumption(long tableId, int indexId, double read, double write, long[] partitionStarts,
                       double[] partitionReads, double[] partitionWrites) {}
}
