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
 *
 * <p>The gate can also be paused, while a store opened read-only on a full disk swaps in its
 * database reopened read-write ({@link ReadOnlyStart}): new calls wait, running ones finish, and
 * the snapshots and cursors handed out are moved to the new database ({@link #rebind}).
 */
final class CallGate {

    /** Sign bit of {@link #state}: set once {@link #shut} has begun. */
    private static final long CLOSED = Long.MIN_VALUE;

    /** Bit 62 of {@link #state}: set while {@link #pause}d; calls wait for {@link #resume}. */
    private static final long PAUSED = 1L << 62;

    private static final long FLAGS = CLOSED | PAUSED;

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
    /** What calls that find the gate paused wait on. */
    private final Object resumed = new Object();

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
        long before;
        while (((before = getAndAdd(1L)) & FLAGS) != 0) {
            getAndAdd(-1L);
            if (before < 0) {
                return false;
            }
            awaitResume();
        }
        return true;
    }

    /** Waits while the gate is paused (and not closed), uninterruptibly: the pause is short. */
    private void awaitResume() {
        boolean interrupted = false;
        synchronized (resumed) {
            while ((state & FLAGS) == PAUSED) {
                try {
                    resumed.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Makes new calls wait and waits for the running ones to finish. The caller is no call in
     * flight, makes no call until it {@link #resume}s, and pauses and shuts the gate under one
     * lock, so that neither overlaps the other.
     */
    void pause() {
        long before = (long) STATE.getAndBitwiseOr(this, PAUSED);
        assert (before & FLAGS) == 0 : "paused while paused or closed";
        awaitNoCalls(PAUSED);
    }

    /** Lets the calls waiting since {@link #pause} in. */
    void resume() {
        long before = (long) STATE.getAndBitwiseAnd(this, ~PAUSED);
        assert (before & PAUSED) != 0 : "resumed without a pause";
        synchronized (resumed) {
            resumed.notifyAll();
        }
    }

    /**
     * Moves every snapshot and cursor handed out to {@code database}, which holds the same data as
     * the one they were made on. Only while {@link #pause}d.
     */
    void rebind(OpenDatabase database) {
        for (Tracked resource : open) {
            if (!resource.closed.get()) {
                resource.rebind(database);
            }
        }
    }

    /** Waits until no call is in flight: the state is only {@code flags}. */
    private void awaitNoCalls(long flags) {
        // Calls in flight are single native calls (a get, a write, one iterator step): short.
        for (int spins = 0; state != flags; spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }
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
        awaitNoCalls(CLOSED);

        for (Tracked resource : open) {
            resource.freeOnce();
        }
        open.clear();
        return true;
    }
}
