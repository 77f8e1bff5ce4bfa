package io.stator.engine.cluster;

import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.CollectionStore;
import io.stator.storage.LockingCollectionStore;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Two engines sharing RocksDB through the collection-store contract (fast; the same suite runs on Cassandra). */
class RocksSharedEngineTest extends SharedEngineContract {

    @TempDir
    Path directory;
    private RocksStorage rocks;

    @Override
    protected CollectionStore openStore() {
        rocks = RocksStorage.open(directory, Keyspaces.ALL);
        return new LockingCollectionStore(rocks, Keyspaces.ITEMS);
    }

    @Override
    protected void closeStore() {
        rocks.close();
    }
}
