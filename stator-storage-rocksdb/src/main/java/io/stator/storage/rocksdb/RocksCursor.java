package io.stator.storage.rocksdb;

import static io.stator.storage.rocksdb.StorageException.failure;

import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;

import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * A {@link Cursor} over a range of a {@link RocksStorage}: a RocksDB iterator with its read
 * options and the bounds those point at, all freed together.
 *
 * <p>When the store swaps in its database reopened read-write ({@link #rebind}), the cursor gets
 * a new iterator there, on a snapshot of its own (the new database holds the same data, and an
 * iterator reads the state it was made in), at the row it was on.
 */
final class RocksCursor extends Tracked implements Cursor {
    private final CallGate gate;
    private final Keyspace keyspace;
    private RocksIterator iterator;
    /** The database and snapshot the cursor pinned when it moved to a reopened database; else null. */
    private RocksDB pinnedIn;
    private org.rocksdb.Snapshot pinned;
    private final ReadOptions options;
    private final Slice lower;
    private final Slice upper;
    private final byte[] from;
    private final byte[] to;
    private final boolean reverse;
    private boolean started;
    private boolean valid;
    /** Why the cursor lost its row when it moved to a reopened database; else null. */
    private RocksDBException lostPlace;

    RocksCursor(CallGate gate, Keyspace keyspace, RocksIterator iterator, ReadOptions options, Slice lower,
                Slice upper, byte[] from, byte[] to, boolean reverse) {
        this.gate = gate;
        this.keyspace = keyspace;
        this.iterator = iterator;
        this.options = options;
        this.lower = lower;
        this.upper = upper;
        this.from = from;
        this.to = to;
        this.reverse = reverse;
    }

    @Override
    public boolean next() {
        gate.enter();
        try {
            if (closed.get()) {
                throw new IllegalStateException("cursor is closed");
            }
            if (!started) {
                started = true;
                if (reverse) {
                    // With iterate_upper_bound set, seekForPrev(to) lands on the last key < to.
                    if (to != null) {
                        iterator.seekForPrev(to);
                    } else {
                        iterator.seekToLast();
                    }
                } else if (from != null) {
                    iterator.seek(from);
                } else {
                    iterator.seekToFirst();
                }
            } else if (valid) {
                if (reverse) {
                    iterator.prev();
                } else {
                    iterator.next();
                }
            } else {
                if (lostPlace != null) {
                    throw lostPlace;
                }
                return false;
            }
            valid = iterator.isValid();
            if (!valid) {
                iterator.status(); // invalid because exhausted, or because of an error?
            }
            return valid;
        } catch (RocksDBException e) {
            valid = false;
            throw failure("iteration", e);
        } finally {
            gate.exit();
        }
    }

    @Override
    public byte[] key() {
        gate.enter();
        try {
            checkPositioned();
            return iterator.key(); // a new array on every call
        } finally {
            gate.exit();
        }
    }

    @Override
    public byte[] value() {
        gate.enter();
        try {
            checkPositioned();
            return iterator.value(); // a new array on every call
        } finally {
            gate.exit();
        }
    }

    private void checkPositioned() {
        if (closed.get()) {
            throw new IllegalStateException("cursor is closed");
        }
        if (!valid) {
            throw new IllegalStateException("cursor is not on a row: call next() and check it returned true");
        }
    }

    @Override
    void rebind(OpenDatabase database) {
        byte[] at = started && valid ? iterator.key() : null;
        iterator.close();
        unpin();
        pinnedIn = database.db();
        pinned = pinnedIn.getSnapshot();
        options.setSnapshot(pinned);
        iterator = pinnedIn.newIterator(database.handle(keyspace), options);
        if (at != null) {
            if (reverse) {
                iterator.seekForPrev(at);
            } else {
                iterator.seek(at);
            }
            valid = iterator.isValid();
            if (!valid) {
                try {
                    iterator.status();
                } catch (RocksDBException e) {
                    lostPlace = e; // for the next call to report: the move cannot fail its caller
                }
            }
        }
    }

    private void unpin() {
        if (pinned != null) {
            pinnedIn.releaseSnapshot(pinned);
            pinned = null;
        }
    }

    @Override
    void free() {
        iterator.close();
        unpin();
        options.close();
        if (lower != null) {
            lower.close();
        }
        if (upper != null) {
            upper.close();
        }
    }

    @Override
    public void close() {
        gate.release(this);
    }
}
