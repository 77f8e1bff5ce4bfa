package io.stator.engine.cluster;

/** One server on storage of its own (RocksDB): it orders every write itself. */
public final class SingleServer implements Deployment {

    SingleServer() {}

    @Override public boolean writesKeepGlobalIndexes() { return false; }
    @Override public boolean writesPlainly() { return false; }
    @Override public long catalogSettleMillis() { return 0; }
    @Override public boolean catalogChangesElsewhere() { return false; }
    @Override public boolean numbersShardsByHeadRow() { return false; }
    @Override public boolean scansByBackendPosition() { return false; }
    @Override public boolean snapshotsHoldOneMoment() { return true; }
    @Override public boolean keepsCollectionSizesInCollections() { return false; }
    @Override public boolean keepsVectorGraphs() { return true; }
    @Override public long jobLeaseMillis() { return 0; }
    @Override public ObservedElsewhere observedElsewhere() { return null; }
    @Override public void startUpkeep(Upkeep upkeep) { }
    @Override public void close() { }
}
