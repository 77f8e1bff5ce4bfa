package io.stator.server.http;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs tasks on another executor, at most {@code limit} of them at a time; the others wait, in
 * arrival order, without holding a thread. Lock-free: a queue and a count of tasks running.
 */
final class LimitedExecutor implements Executor {

    private final Executor executor;
    private final int limit;
    private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger running = new AtomicInteger();

    LimitedExecutor(Executor executor, int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be at least 1: " + limit);
        this.executor = executor;
        this.limit = limit;
    }

    @Override
    public void execute(Runnable task) {
        waiting.add(task);
        startWaiting();
    }

    /**
     * Starts waiting tasks while fewer than the limit run. A thread whose task ends takes the next
     * waiting one itself, keeping its place (a hand-off to another thread would cost two wake-ups
     * per request), and looks at the queue again once it gives the place up: whoever frees a place
     * or adds a task looks at the queue after doing so, so nothing is left waiting while a place
     * is free.
     */
    private void startWaiting() {
        while (!waiting.isEmpty()) {
            int now = running.get();
            if (now >= limit) return;
            if (!running.compareAndSet(now, now + 1)) continue;
            Runnable task = waiting.poll();
            if (task == null) {
                running.decrementAndGet();
                continue;
            }
            try {
                executor.execute(() -> runInTurn(task));
            } catch (RuntimeException e) {
                // The executor refused it (shutting down): the place is free again.
                running.decrementAndGet();
                throw e;
            }
        }
    }

    /** Runs the task, then those waiting while there are any, in the place the task was given. */
    private void runInTurn(Runnable first) {
        try {
            for (Runnable task = first; task != null; task = waiting.poll()) task.run();
        } finally {
            running.decrementAndGet();
            startWaiting();
        }
    }

    /** Tasks running now (for tests). */
    int running() {
        return running.get();
    }
}
