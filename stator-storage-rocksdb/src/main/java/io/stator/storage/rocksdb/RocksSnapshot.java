package io.stator.storage.rocksdb;

import io.stator.storage.Snapshot;

import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;

/**
 * A {@link Snapshot} of a {@link RocksStorage}: a RocksDB snapshot and the options to read it.
 *
 * <p>Its database and RocksDB snapshot change only when the store swaps in its database
 * reopened read-write ({@link #rebind}), while its gate is paused: every read of them is inside
 * the gate, whose atomic state orders them after that change.
 */
final class RocksSnapshot extends Tracked implements Snapshot {
    /** The gate of the store that took it, which also tells which store that is. */
    final CallGate gate;
    private RocksDB db;
    org.rocksdb.Snapshot snapshot;
    /** Shared by every get on this snapshot, from any thread. */
    final ReadOptions readOptions;

    RocksSnapshot(CallGate gate, RocksDB db, org.rocksdb.Snapshot snapshot) {
        this.gate = gate;
        this.db = db;
        this.snapshot = snapshot;
        this.readOptions = new ReadOptions().setSnapshot(snapshot);
    }

    @Override
    void free() {
        // Cursors opened on this snapshot stay valid: a RocksDB iterator pins the data it reads.
        readOptions.close();
        db.releaseSnapshot(snapshot);
    }

    /** The same state, on the new database: nothing was written since this was taken. */
    @Override
    void rebind(OpenDatabase database) {
        db.releaseSnapshot(snapshot);
        db = database.db();
        snapshot = db.getSnapshot();
        readOptions.setSnapshot(snapshot);
    }

    @Override
    public void close() {
        gate.release(this);
    }
}
