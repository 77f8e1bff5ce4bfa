package io.stator.engine.cluster;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.Engine;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.storage.LockingCollectionStore;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write on shared storage starts over after each commit it loses to another server, 100 times
 * at most (WritePipeline.MAX_ATTEMPTS), then answers InternalServerError, which clients retry.
 * A store that loses the next n item commits plays the other servers.
 */
class LostCommitsTest {

    @Test
    void aWriteThatLosesNinetyNineCommitsLandsOnTheHundredthAndOneThatLosesAHundredIsRefused(@TempDir Path dir) {
        try (RocksStorage rocks = RocksStorage.open(dir, Keyspaces.ALL)) {
            LosingStore store = new LosingStore(new LockingCollectionStore(rocks, Keyspaces.ITEMS), LosingStore::itemRow);
            try (Engine engine = new Engine(new SharedStorage(store, Clock.systemUTC(), null),
                    TestEngine.config(Clock.systemUTC()), new CapacityMeter())) {
                TableDefinition table = TestEngine.createTable(engine, "t", false, null, null);

                store.toLose.set(99);
                engine.items().write(ItemWrite.put(table, item("pk", "a"), null, ReturnValues.NONE, false, false));
                assertEquals(item("pk", "a"), engine.items().get(table, item("pk", "a"), true, null).item());
                assertEquals(0, store.toLose.get());

                store.toLose.set(100);
                DynamoDbException refused = assertThrows(DynamoDbException.class, () -> engine.items().write(
                        ItemWrite.put(table, item("pk", "b"), null, ReturnValues.NONE, false, false)));
                assertEquals(ErrorType.INTERNAL_SERVER_ERROR, refused.type());
                assertNull(engine.items().get(table, item("pk", "b"), true, null).item(), "nothing written");
            }
        }
    }
}
