package io.stator.engine.cluster;


/** Several servers sharing one store ({@link SharedStorage}, on Cassandra). */
public final class SharedCluster implements Deployment {

    /**
     * Every server re-reads the catalog each second ({@link SharedUpkeep}); five seconds leave a
     * write begun with the older definition the time to commit.
     */
    static final long CATALOG_SETTLE_MILLIS = 5_000;

    /**
     * A job's lease: 30 s by default (renewed every 10 s; a dead server's job moves after at most
     * that and half of it), shorter in tests through the system property
     * {@value #JOB_LEASE_PROPERTY}, read when the engine is built.
     */
    static final String JOB_LEASE_PROPERTY = "stator.jobLeaseMillis";

    private final long jobLeaseMillis = Long.getLong(JOB_LEASE_PROPERTY, 30_000);

    private final SharedStorage storage;
    private final SharedObservations observations;
    private SharedUpkeep upkeep;

    SharedCluster(SharedStorage storage) {
        this.storage = storage;
        this.observations = new SharedObservations(storage.store());
    }

    @Override public ObservedElsewhere observedElsewhere() { return observations::others; }

    @Override public boolean writesKeepGlobalIndexes() { return true; }
    @Override public boolean writesPlainly() { return true; }
    @Override public long catalogSettleMillis() { return CATALOG_SETTLE_MILLIS; }
    @Override public boolean catalogChangesElsewhere() { return true; }
    @Override public boolean numbersShardsByHeadRow() { return true; }
    @Override public boolean scansByBackendPosition() { return true; }
    @Override public boolean snapshotsHoldOneMoment() { return false; }
    @Override public boolean keepsCollectionSizesInCollections() { return true; }
    @Override public boolean keepsVectorGraphs() { return false; }
    @Override public long jobLeaseMillis() { return jobLeaseMillis; }

    @Override
    public synchronized void startUpkeep(Upkeep upkeep) {
        if (this.upkeep == null) this.upkeep = SharedUpkeep.start(storage, upkeep, jobLeaseMillis / 2, observations);
    }

    @Override
    public synchronized void close() {
        if (upkeep != null) upkeep.close();
    }
}
