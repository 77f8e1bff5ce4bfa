package io.stator.storage.rocksdb;

import io.stator.storage.CollectionStore;
import io.stator.storage.CollectionStoreContract;
import io.stator.storage.LockingCollectionStore;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The collection-store contract on RocksDB (LockingCollectionStore over a real RocksStorage on disk). */
class RocksCollectionStoreTest extends CollectionStoreContract {

    @TempDir
    static Path tmp;

    private static RocksStorage storage;
    private static CollectionStore store;

    @BeforeAll
    static void open() {
        storage = RocksStorage.open(tmp.resolve("data"), TestKeyspaces.ALL);
        store = new LockingCollectionStore(storage, TestKeyspaces.ITEMS);
    }

    @AfterAll
    static void close() {
        storage.close();
    }

    @Override
    protected CollectionStore store() {
        return store;
    }
}
