package io.stator.server.http;

import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Every open connection, where it stands, and since when: the server's defence against clients
 * that hold connections without using them.
 *
 * <p><b>Phases.</b> A connection is always in one phase, each with its own timeout:
 * <ul>
 *   <li>{@code FRESH}: opened, nothing received yet (header timeout, counted from the opening:
 *       a client connects in order to send a request);</li>
 *   <li>{@code HEADERS}: a request's first bytes have come, its headers have not all come
 *       (header timeout, from the first byte);</li>
 *   <li>{@code BODY}: headers in, body not complete (body timeout, from the end of the headers);</li>
 *   <li>{@code BUSY}: the server owes a reply (no timeout: the wait is the server's);</li>
 *   <li>{@code IDLE}: replies sent, nothing of a next request received (idle timeout).</li>
 * </ul>
 * Each timed phase keeps its connections in a list in the order they entered it. Since every
 * connection in a list has the same timeout, the ones past it are at the head: a sweep a few
 * times a second looks at the heads only, and a connection changing phase is unlinked and
 * appended in constant time. Nothing is allocated and no timer is set per request, and a request
 * that arrives in one read (as SDK requests do) moves its connection twice: out of IDLE when it
 * has been read, back in when its reply is written.
 *
 * <p><b>The limit.</b> At {@code maxConnections}, a new connection takes the place of the one
 * that has waited longest for a request ({@code FRESH} or {@code IDLE}, the older of the two
 * heads), which is closed; only when every open connection is in the middle of a request (or
 * owed a reply) is the new one refused, closed as soon as it is accepted. That is what nginx
 * does when it runs out of connections (it closes the oldest of its "reusable" ones, those
 * waiting for a request). The alternative, refusing at the limit, would let anyone who opens
 * that many idle connections lock every other client out until they time out, whereas closing
 * a connection that waits costs its client at most a reconnection: SDKs check pooled
 * connections before reuse, and retry a request that meets a closed one.
 *
 * <p><b>Concurrency.</b> The lists and the count are guarded by this object's monitor, taken
 * twice per request by the connection's event loop, at every opening and closing, and by the
 * sweep; each holds it for a few pointer updates. A connection's own progress through a request
 * (what it has received, how many replies it is owed) is kept by {@link Connection} on its
 * event loop, without the lock.
 */
final class Connections {

    enum Phase { FRESH, HEADERS, BODY, BUSY, IDLE, CLOSED }

    /** An intrusive list of the connections in one phase, oldest first. */
    private static final class Queue {
        final long timeoutNanos;
        Connection head;
        Connection tail;

        Queue(long timeoutNanos) {
            this.timeoutNanos = timeoutNanos;
        }

        void append(Connection c) {
            c.previous = tail;
            c.next = null;
            if (tail == null) head = c;
            else tail.next = c;
            tail = c;
        }

        void remove(Connection c) {
            if (c.previous == null) head = c.next;
            else c.previous.next = c.next;
            if (c.next == null) tail = c.previous;
            else c.next.previous = c.previous;
            c.previous = null;
            c.next = null;
        }
    }

    private final int maxConnections;
    private final Queue fresh;
    private final Queue headers;
    private final Queue body;
    private final Queue idle;
    private final long sweepMillis;
    private final List<Channel> expired = new ArrayList<>();
    private final Warnings warnings = new Warnings();
    private int open;
    private ScheduledFuture<?> sweeper;

    Connections(ConnectionLimits limits) {
        this.maxConnections = limits.maxConnections();
        long header = limits.headerTimeout().toNanos();
        this.fresh = new Queue(header);
        this.headers = new Queue(header);
        this.body = new Queue(limits.bodyTimeout().toNanos());
        this.idle = new Queue(limits.idleTimeout().toNanos());
        // A tenth of the shortest timeout: a connection is closed at most 10% late, and with the
        // defaults (20 s and more) the sweep runs once a second.
        long shortest = Math.min(header, Math.min(body.timeoutNanos, idle.timeoutNanos));
        this.sweepMillis = Math.max(5, Math.min(1_000, TimeUnit.NANOSECONDS.toMillis(shortest) / 10));
    }

    /** Starts the sweep on {@code executor} (a thread that has little else to do: the acceptor). */
    void startSweeping(EventExecutor executor) {
        sweeper = executor.scheduleAtFixedRate(this::sweep, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
    }

    void stopSweeping() {
        if (sweeper != null) sweeper.cancel(false);
    }

    /**
     * Takes a connection just accepted: true if it may stay (in {@code FRESH}), after closing
     * the connection that waited longest if the server was full; false if it must be refused.
     */
    boolean admit(Connection c) {
        Channel victim = null;
        boolean admitted;
        synchronized (this) {
            if (open < maxConnections) {
                open++;
                admitted = true;
            } else {
                Connection oldest = oldestWaiting();
                if (oldest != null) {
                    // The newcomer takes the oldest one's place in the count.
                    queue(oldest.phase).remove(oldest);
                    oldest.phase = Phase.CLOSED;
                    oldest.counted = false;
                    victim = oldest.channel;
                    admitted = true;
                } else {
                    admitted = false;
                }
            }
            if (admitted) {
                c.counted = true;
                c.phase = Phase.FRESH;
                c.since = System.nanoTime();
                fresh.append(c);
            }
        }
        if (victim != null) {
            victim.close();
            warnings.evicted(maxConnections);
        } else if (!admitted) {
            warnings.refused(maxConnections);
        }
        return admitted;
    }

    private Connection oldestWaiting() {
        Connection a = fresh.head;
        Connection b = idle.head;
        if (a == null) return b;
        if (b == null) return a;
        return a.since - b.since <= 0 ? a : b;
    }

    /** Moves a connection into {@code next} (called on its event loop when its phase changes). */
    void move(Connection c, Phase next) {
        long now = next == Phase.BUSY ? 0 : System.nanoTime();
        synchronized (this) {
            if (c.phase == Phase.CLOSED) return;
            Queue from = queue(c.phase);
            if (from != null) from.remove(c);
            c.phase = next;
            Queue to = queue(next);
            if (to != null) {
                c.since = now;
                to.append(c);
            }
        }
    }

    /** Forgets a connection that has closed, freeing its place. */
    void release(Connection c) {
        synchronized (this) {
            if (c.phase != Phase.CLOSED) {
                Queue from = queue(c.phase);
                if (from != null) from.remove(c);
                c.phase = Phase.CLOSED;
            }
            if (c.counted) {
                c.counted = false;
                open--;
            }
        }
    }

    private Queue queue(Phase phase) {
        return switch (phase) {
            case FRESH -> fresh;
            case HEADERS -> headers;
            case BODY -> body;
            case IDLE -> idle;
            case BUSY, CLOSED -> null;
        };
    }

    /** Closes every connection past its phase's timeout. */
    void sweep() {
        long now = System.nanoTime();
        synchronized (this) {
            expire(fresh, now);
            expire(headers, now);
            expire(body, now);
            expire(idle, now);
        }
        // Closing outside the lock: close() only hands the work to the channel's event loop, but
        // that loop may be waiting for this lock.
        for (Channel channel : expired) channel.close();
        expired.clear();
    }

    private void expire(Queue queue, long now) {
        for (Connection c = queue.head; c != null && now - c.since >= queue.timeoutNanos; c = queue.head) {
            queue.remove(c);
            c.phase = Phase.CLOSED;
            expired.add(c.channel);
        }
    }

    synchronized int open() { return open; }

    /**
     * One line on stderr when the limit is first met, then at most one a minute: it is worth an
     * operator's attention (the limit may be too low, or someone is holding connections), but
     * not a line per connection.
     */
    private static final class Warnings {
        private static final long INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);
        private long lastNanos;
        private boolean any;
        private int evicted;
        private int refused;

        void evicted(int max) {
            report(max, true);
        }

        void refused(int max) {
            report(max, false);
        }

        private void report(int max, boolean evictedOne) {
            String line;
            synchronized (this) {
                if (evictedOne) evicted++;
                else refused++;
                long now = System.nanoTime();
                if (any && now - lastNanos < INTERVAL_NANOS) return;
                StringBuilder b = new StringBuilder("stator: --max-connections ").append(max).append(" reached");
                if (any) b.append(" (in the last minute)");
                b.append(':');
                if (evicted > 0) {
                    b.append(" closed ").append(evicted).append(evicted == 1 ? " connection" : " connections")
                            .append(" waiting for a request, to make room");
                }
                if (refused > 0) {
                    b.append(evicted > 0 ? ";" : "").append(" refused ").append(refused)
                            .append(refused == 1 ? " new connection" : " new connections")
                            .append(" while every open one was in the middle of a request");
                }
                line = b.toString();
                any = true;
                lastNanos = now;
                evicted = 0;
                refused = 0;
            }
            System.err.println(line);
        }
    }
}
