package io.stator.storage.rocksdb;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * The gate of one {@link RocksStorage}: counts the calls in flight, so that {@link #shut} can
 * refuse new calls and wait for running ones before the native memory they use is freed, and
 * keeps the snapshots and cursors handed out, to free those their owners forgot. A late call gets
 * a {@link StorageException}, never a JVM crash.
 *
 * <p>One gate per store, made by it: so a snapshot, cursor or batch that holds this gate also
 * tells which store made it.
 */
final class CallGate {

    /** Sign bit of {@link #state}: set once {@link #shut} has begun. */
    private static final long CLOSED = Long.MIN_VALUE;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(CallGate.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Names the store in the message of a call refused after close. */
    private final Path directory;
    /**
     * Calls in flight (low bits) and the closed flag (sign bit). One atomic add on entry and one
     * on exit: far cheaper than the native call it guards, and it lets {@link #shut} wait for
     * running calls instead of freeing memory under them. A field of the gate itself (not an
     * {@code AtomicLong} it points to), so a call reaches it in as few loads as when the gate was
     * an {@code AtomicLong} field of {@link RocksStorage}.
     */
    private volatile long state;
    /** Snapshots and cursors not yet closed, freed by {@link #shut} if their owners forgot. */
    private final Set<Tracked> open = ConcurrentHashMap.newKeySet();

    CallGate(Path directory) {
        this.directory = directory;
    }

    /** Lets a call in, or throws if the store is closed; every call let in must {@link #exit}. */
    void enter() {
        if (!tryEnter()) {
            throw closedException();
        }
    }

    StorageException closedException() {
        return new StorageException("storage " + directory + " is closed");
    }

    boolean tryEnter() {
        if (getAndAdd(1L) < 0) {
            getAndAdd(-1L);
            return false;
        }
        return true;
    }

    void exit() {
        getAndAdd(-1L);
    }

    /** As {@code AtomicLong.getAndAdd}; cast to long so the call matches the VarHandle exactly. */
    private long getAndAdd(long delta) {
        return (long) STATE.getAndAdd(this, delta);
    }

    /** Whether {@link #shut} has begun. */
    boolean isClosed() {
        return state < 0;
    }

    /** Keeps a snapshot or cursor just handed out, to be freed by {@link #shut} if not before. */
    void track(Tracked resource) {
        open.add(resource);
    }

    /** Closes a snapshot or cursor for its owner; after {@link #shut} began, shut frees it. */
    void release(Tracked resource) {
        if (!tryEnter()) {
            return;
        }
        try {
            if (resource.freeOnce()) {
                open.remove(resource);
            }
        } finally {
            exit();
        }
    }

    /**
     * Refuses new calls, waits for those in flight and frees the snapshots and cursors left open.
     *
     * @return false if the gate was already shut, or is being shut by another thread
     */
    boolean shut() {
        long current;
        do {
            current = state;
            if (current < 0) {
                return false; // closed, or being closed by another thread
            }
        } while (!STATE.compareAndSet(this, current, current | CLOSED));
        // Calls in flight are single native calls (a get, a write, one iterator step): short.
        for (int spins = 0; state != CLOSED; spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }

        for (Tracked resource : open) {
            resource.freeOnce();
        }
        open.clear();
        return true;
    }
}
