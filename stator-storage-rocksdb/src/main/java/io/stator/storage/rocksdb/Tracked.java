package io.stator.storage.rocksdb;

import java.util.concurrent.atomic.AtomicBoolean;

/** A native resource handed to a caller, freed once by its owner or by {@link RocksStorage#close}. */
abstract class Tracked {
    final AtomicBoolean closed = new AtomicBoolean();

    /** Frees the native objects; called at most once, never while a call uses them. */
    abstract void free();

    /**
     * Moves to {@code database}, which holds the same data as the one this was made on (the
     * store reopened read-write, see {@link ReadOnlyStart}); called while no call uses it.
     */
    abstract void rebind(OpenDatabase database);

    final boolean freeOnce() {
        if (closed.compareAndSet(false, true)) {
            free();
            return true;
        }
        return false;
    }
}
