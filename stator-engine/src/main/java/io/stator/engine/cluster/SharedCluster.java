package io.stator.engine.cluster;

import io.stator.core.error.DynamoDbException;

/** Several servers sharing one store ({@link SharedStorage}, on Cassandra). */
public final class SharedCluster implements Deployment {

    /**
     * Every server re-reads the catalog each second ({@link SharedUpkeep}); five seconds leave a
     * write begun with the older definition the time to commit.
     */
    static final long CATALOG_SETTLE_MILLIS = 5_000;

    private final SharedStorage storage;
    private SharedUpkeep upkeep;

    SharedCluster(SharedStorage storage) {
        this.storage = storage;
    }

    @Override public boolean writesKeepGlobalIndexes() { return true; }
    @Override public long catalogSettleMillis() { return CATALOG_SETTLE_MILLIS; }
    @Override public boolean catalogChangesElsewhere() { return true; }
    @Override public boolean numbersShardsByHeadRow() { return true; }
    @Override public boolean scansByBackendPosition() { return true; }
    @Override public boolean keepsCollectionSizesInCollections() { return true; }
    @Override public boolean keepsVectorGraphs() { return false; }
    @Override public boolean keepsBackups() { return false; }

    /**
     * The shared store does not keep the BACKUPS key space yet: refused, before anything is
     * written, rather than accepted and lost.
     */
    @Override
    public void refuseBackupsUnlessKept() {
        throw DynamoDbException.validation(
                "Backups are not supported by this server's storage (shared storage, such as Cassandra) yet");
    }

    @Override
    public void refusePointInTimeRecoveryUnlessKept() {
        throw DynamoDbException.validation("Point-in-time recovery is not supported by this server's storage"
                + " (shared storage, such as Cassandra) yet");
    }

    @Override
    public synchronized void startUpkeep(Upkeep upkeep) {
        if (this.upkeep == null) this.upkeep = SharedUpkeep.start(storage, upkeep);
    }

    @Override
    public synchronized void close() {
        if (upkeep != null) upkeep.close();
    }
}
