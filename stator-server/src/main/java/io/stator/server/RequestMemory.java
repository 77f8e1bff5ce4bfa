package io.stator.server;

import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The memory requests may hold at once, and admission against it: a request whose working set
 * may be large waits for room rather than run the heap out (which answered 500s, a quarter of
 * them with fifty clients reading 380 KB items on {@code --memory 512MB}).
 *
 * <p>What is counted: a request's estimate ({@link RequestFootprints}) from when it is admitted
 * until its reply has left the process, since until then the reply is still in memory (Netty's
 * copy of it among Netty's direct buffers). Once the reply is built, the estimate is traded for
 * the reply's size ({@link #charge}, {@link #release}).
 *
 * <p>Why a count of bytes and not of requests: one BatchGetItem may answer 16 MB, a thousand
 * others 1 KB each; a bound on requests would either refuse the thousand or let three of the
 * first run the heap out.
 *
 * <p>Fairness: waiters are admitted in arrival order, so that a large request is not starved by a
 * stream of small ones; while anyone waits, newcomers wait behind them. A request larger than the
 * whole budget is admitted alone, when nothing else is held.
 *
 * <p>Cost on the hot path: {@link #hasRoom} is two volatile reads and admission of a request
 * while nothing waits one compare-and-set; the lock is taken only when someone waits.
 */
public final class RequestMemory {

    private final long limit;
    private final AtomicLong held = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    /** Requests waiting: releases take the lock only when someone does. */
    private volatile int waiting;
    // The line, guarded by the lock: tickets in arrival order, the one served next, and those
    // given up (timed out) before their turn.
    private long nextTicket;
    private long servingTicket;
    private final TreeSet<Long> abandoned = new TreeSet<>();

    /** @param limit the bytes requests may hold at once */
    public RequestMemory(long limit) {
        if (limit <= 0) throw new IllegalArgumentException("limit must be positive: " + limit);
        this.limit = limit;
    }

    /**
     * Half of the smaller of the JVM's two memories a request's bytes live in: its heap (items
     * read, the reply as written) and its direct buffers (the reply as sent). The other half is
     * for what is not admitted: brief requests on the event loops, request bodies as they
     * arrive, the live set of the server itself, and the collector's room to work.
     */
    public static RequestMemory ofThisJvm(long maxDirectMemory) {
        return new RequestMemory(Math.min(Runtime.getRuntime().maxMemory(), maxDirectMemory) / 2);
    }

    public long limit() { return limit; }

    /** The bytes held now. */
    public long held() { return held.get(); }

    /** Requests waiting now. */
    int waiting() { return waiting; }

    /** Whether a request could be admitted now without waiting: nothing waits, and the budget is not spent. */
    public boolean hasRoom() {
        return waiting == 0 && held.get() < limit;
    }

    /**
     * Admits {@code bytes}, waiting at most {@code maxWaitNanos} for room. Returns false, holding
     * nothing, when there was none in time.
     */
    public boolean admit(long bytes, long maxWaitNanos) throws InterruptedException {
        if (waiting == 0 && tryHold(bytes)) return true;
        lock.lock();
        try {
            long ticket = nextTicket++;
            waiting++;
            try {
                long left = maxWaitNanos;
                while (ticket != servingTicket || !tryHold(bytes)) {
                    if (left <= 0) return false;
                    left = released.awaitNanos(left);
                }
                return true;
            } finally {
                // Admitted or gone: either way the line moves on past this ticket.
                if (ticket == servingTicket) servingTicket++;
                else abandoned.add(ticket);
                while (!abandoned.isEmpty() && abandoned.first() == servingTicket) {
                    abandoned.pollFirst();
                    servingTicket++;
                }
                waiting--;
                released.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Holds {@code bytes} if they fit (or if nothing is held: a request larger than the limit runs alone). */
    private boolean tryHold(long bytes) {
        while (true) {
            long now = held.get();
            if (now > 0 && now + bytes > limit) return false;
            if (held.compareAndSet(now, now + bytes)) return true;
        }
    }

    /** Holds {@code bytes} without waiting: a reply that is already built. */
    public void charge(long bytes) {
        held.addAndGet(bytes);
    }

    /** Gives back what {@link #admit} or {@link #charge} held. */
    public void release(long bytes) {
        held.addAndGet(-bytes);
        if (waiting > 0) {
            lock.lock();
            try {
                released.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
