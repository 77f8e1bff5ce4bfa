package io.stator.engine.shared;

import io.stator.storage.CollectionStore;
import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.time.Clock;

/** The storage contract on a {@link CollectionStore} that several servers share (work in progress). */
public final class SharedStorage implements Storage {

    private final CollectionStore store;
    private final AutoCloseable onClose;

    /**
     * @param onClose what closing the storage closes (the backend's session), or null
     */
    public SharedStorage(CollectionStore store, Clock clock, AutoCloseable onClose) {
        this.store = store;
        this.onClose = onClose;
    }

    @Override public byte[] get(Keyspace keyspace, byte[] key) { throw new UnsupportedOperationException(); }
    @Override public byte[] get(Snapshot snapshot, Keyspace keyspace, byte[] key) { throw new UnsupportedOperationException(); }
    @Override public void commit(WriteBatch batch) { throw new UnsupportedOperationException(); }
    @Override public Snapshot snapshot() { throw new UnsupportedOperationException(); }
    @Override public Cursor range(Snapshot snapshot, Keyspace keyspace, byte[] from, byte[] to, boolean reverse) { throw new UnsupportedOperationException(); }
    @Override public void deleteRange(Keyspace keyspace, byte[] from, byte[] to) { throw new UnsupportedOperationException(); }
    @Override public WriteBatch newBatch() { throw new UnsupportedOperationException(); }
    @Override public boolean shared() { return true; }
    @Override public void close() { }
}
