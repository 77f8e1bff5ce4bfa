package io.stator.engine.advisor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * A window of a fixed length (a second, a minute) that rolls on by the injected clock, and the
 * summaries of the last closed ones. The first request of a new period opens its window and
 * publishes it with one compare-and-set; the request that won summarises the closed window after
 * that, so no request waits for another. A request that read the clock just before the roll
 * lands in the new window: at a window's edge, concurrent requests may be counted in the
 * neighbouring one. A quiet period leaves no summary (its figures are zero).
 *
 * @param <W> the open window
 * @param <S> a closed window's summary
 */
final class Rolling<W extends Rolling.Period, S> {

    /** A window's period: its start in milliseconds, divided by its length. */
    interface Period {
        long period();
    }

    private final long lengthMillis;
    private final int keep;
    private final LongFunction<W> open;
    private final Function<W, S> close;
    private final AtomicReference<W> current = new AtomicReference<>();
    private final ArrayDeque<S> closed = new ArrayDeque<>();

    /**
     * @param keep  how many closed windows' summaries are kept
     * @param open  a new window for a period
     * @param close a closed window's summary
     */
    Rolling(long lengthMillis, int keep, LongFunction<W> open, Function<W, S> close) {
        this.lengthMillis = lengthMillis;
        this.keep = keep;
        this.open = open;
        this.close = close;
    }

    long period(long nowMillis) {
        return Math.floorDiv(nowMillis, lengthMillis);
    }

    /** The window open at {@code nowMillis}, rolling on first when its period has ended. */
    W at(long nowMillis) {
        long p = period(nowMillis);
        W w = current.get();
        // A clock set back (a test's) counts in the window already open.
        while (w == null || w.period() < p) {
            W next = open.apply(p);
            if (current.compareAndSet(w, next)) {
                if (w != null) {
                    S summary = close.apply(w);
                    synchronized (closed) {
                        closed.addLast(summary);
                        while (closed.size() > keep) closed.removeFirst();
                    }
                }
                return next;
            }
            w = current.get();
        }
        return w;
    }

    /** The open window, or null before the first request. */
    W current() {
        return current.get();
    }

    /** The closed windows' summaries, oldest first. */
    List<S> closed() {
        synchronized (closed) {
            return new ArrayList<>(closed);
        }
    }
}
