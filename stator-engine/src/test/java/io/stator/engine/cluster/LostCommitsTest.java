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
import io.stator.storage.CollectionStore;
import io.stator.storage.Cursor;
import io.stator.storage.LockingCollectionStore;
import io.stator.storage.RowKeyFraming;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
            LosingStore store = new LosingStore(new LockingCollectionStore(rocks, Keyspaces.ITEMS));
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

    /** Loses the next {@code toLose} commits of item rows (tables the catalog made), as if another server won. */
    private static final class LosingStore implements CollectionStore {
        final CollectionStore store;
        final AtomicInteger toLose = new AtomicInteger();

        LosingStore(CollectionStore store) {
            this.store = store;
        }

        @Override public void createTable(long tableId) { store.createTable(tableId); }
        @Override public void dropTable(long tableId) { store.dropTable(tableId); }
        @Override public byte[] get(byte[] rowKey, Consistency c) { return store.get(rowKey, c); }
        @Override public Cursor range(byte[] within, byte[] from, byte[] to, boolean reverse, Consistency c) {
            return store.range(within, from, to, reverse, c);
        }
        @Override public Cursor scan(long tableId, int kind, long fromHash, long toHash, byte[] startAfter, Consistency c) {
            return store.scan(tableId, kind, fromHash, toHash, startAfter, c);
        }

        @Override
        public boolean commit(List<Expected> expected, List<Change> changes) {
            byte[] any = !changes.isEmpty() ? changes.get(0).rowKey() : expected.get(0).rowKey();
            boolean itemRow = RowKeyFraming.tableId(any) < 1_000;
            if (itemRow && toLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) return false;
            return store.commit(expected, changes);
        }
    }
}
