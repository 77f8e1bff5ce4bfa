package io.stator.engine.cluster;

import io.stator.storage.CollectionStore;
import io.stator.storage.Cursor;
import java.util.List;

/** A store that passes every call to another: tests override the calls they interfere with. */
abstract class ForwardingStore implements CollectionStore {
    final CollectionStore store;

    ForwardingStore(CollectionStore store) {
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
    @Override public boolean commit(List<Expected> expected, List<Change> changes) { return store.commit(expected, changes); }
}
