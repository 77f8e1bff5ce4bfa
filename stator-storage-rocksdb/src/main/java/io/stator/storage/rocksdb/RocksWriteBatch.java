package io.stator.storage.rocksdb;

import static io.stator.storage.rocksdb.StorageException.failure;

import io.stator.storage.Counters;
import io.stator.storage.Keyspace;
import io.stator.storage.WriteBatch;

import java.util.Objects;

import org.rocksdb.RocksDBException;

/**
 * A {@link WriteBatch} of a {@link RocksStorage}: a plain native buffer, independent of the
 * database, so the store does not track it; one that is never closed leaks its buffer (close
 * them, as the SPI says).
 */
final class RocksWriteBatch implements WriteBatch {
    /** The gate of the store that made it, which also tells which store that is. */
    final CallGate gate;
    /** The store, whose column family handles change when it reopens (read inside the gate). */
    private final RocksStorage store;
    final org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch();
    int size;
    boolean closed;

    RocksWriteBatch(CallGate gate, RocksStorage store) {
        this.gate = gate;
        this.store = store;
    }

    @Override
    public void put(Keyspace keyspace, byte[] key, byte[] value) {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        checkOpen();
        gate.enter(); // the batch reads the column family handle, which close() frees
        try {
            batch.put(store.handle(keyspace), key, value);
            size++;
        } catch (RocksDBException e) {
            throw failure("batch put", e);
        } finally {
            gate.exit();
        }
    }

    @Override
    public void delete(Keyspace keyspace, byte[] key) {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(key, "key");
        checkOpen();
        gate.enter();
        try {
            batch.delete(store.handle(keyspace), key);
            size++;
        } catch (RocksDBException e) {
            throw failure("batch delete", e);
        } finally {
            gate.exit();
        }
    }

    /** Unchecked: one server uses RocksDB, and the engine's item locks hold what it expects. */
    @Override
    public void expect(Keyspace keyspace, byte[] key, byte[] value) { }

    @Override
    public void addToCounter(Keyspace keyspace, byte[] key, long delta) {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(key, "key");
        checkOpen();
        gate.enter();
        try {
            batch.merge(store.handle(keyspace), key, Counters.encode(delta));
            size++;
        } catch (RocksDBException e) {
            throw failure("batch counter add", e);
        } finally {
            gate.exit();
        }
    }

    @Override
    public int size() {
        return size;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("batch is closed");
        }
    }

    @Override
    public void close() {
        closed = true;
        batch.close(); // idempotent
    }
}
