package io.stator.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Sends a workload's requests over N keep-alive connections, one thread each, and measures them.
 * The Java generator: open loops, loads' and soaks' traffic, and the closed loops when wrk is not
 * installed or not asked for ({@link Generator}; wrk keeps more of the CPU for the server).
 *
 * <p>Closed loop ({@code rate == 0}): every connection sends its next request as soon as the
 * previous answer is in, which finds the peak throughput. Open loop: requests are due on a fixed
 * schedule ({@code rate} per second over all connections, connection {@code k} taking every
 * N-th slot), as users' requests would arrive; a connection that falls behind sends its late
 * requests back to back, and each latency is counted from when its request was due, not when it
 * went out. That is the correction for coordinated omission (as in wrk2): a server that stalls
 * for 100 ms is charged for every request that should have gone out during the stall.
 *
 * <p>Requests count when they are due inside the measured window, which follows the warm-up
 * (for the JIT of a JVM server, and for caches); throughput is those requests over the window.
 *
 * <p>Several servers of one deployment (sharing their storage) are measured as one: connection
 * {@code k} goes to endpoint {@code k mod E}. The requests are the same bytes for all of them,
 * signed for the first endpoint's Host, as a load balancer in front of them would pass them on.
 */
final class LoadGenerator {

    record Settings(int connections, Duration warmup, Duration duration, double rate) {
        Settings {
            if (connections < 1) throw new IllegalArgumentException("need at least one connection");
        }

        Settings withRate(double r) { return new Settings(connections, warmup, duration, r); }

        Settings withConnections(int c) { return new Settings(c, warmup, duration, rate); }

        Settings withDuration(Duration warmup, Duration duration) {
            return new Settings(connections, warmup, duration, rate);
        }
    }

    private LoadGenerator() {}

    static RunResult run(Endpoint endpoint, Workload.RequestSource source, Settings settings, CpuClock server) {
        return run(List.of(endpoint), source, settings, server);
    }

    /** Spreads the connections over the endpoints, round-robin. */
    static RunResult run(List<Endpoint> endpoints, Workload.RequestSource source, Settings settings, CpuClock server) {
        long start = System.nanoTime() + 10_000_000; // let every thread start before the first slot
        long measureStart = start + settings.warmup().toNanos();
        long measureEnd = measureStart + settings.duration().toNanos();
        AtomicReference<String> firstError = new AtomicReference<>();
        List<Worker> workers = new ArrayList<>();
        for (int k = 0; k < settings.connections(); k++) {
            workers.add(new Worker(endpoints.get(k % endpoints.size()), source, settings, k, start, measureStart,
                    measureEnd, firstError));
        }
        List<Thread> threads = workers.stream()
                .map(w -> Thread.ofPlatform().name("bench-connection-" + w.index).start(w)).toList();
        sleepUntil(measureStart);
        RunResult.CpuSample cpu0 = RunResult.CpuSample.take(server);
        sleepUntil(measureEnd);
        RunResult.CpuSample cpu1 = RunResult.CpuSample.take(server);
        join(threads);
        Histogram latency = RunResult.newHistogram();
        Histogram service = RunResult.newHistogram();
        long ok = 0;
        long errors = 0;
        for (Worker w : workers) {
            latency.add(w.latency);
            service.add(w.service);
            ok += w.ok;
            errors += w.errors;
        }
        double seconds = settings.duration().toNanos() / 1e9;
        double[] cores = cpu1.coresSince(cpu0, seconds);
        return new RunResult(ok, errors, seconds, latency, service, cores[0], cores[1], cores[2], firstError.get(), RunResult.JAVA);
    }

    private static final class Worker implements Runnable {
        final Endpoint endpoint;
        final Workload.RequestSource source;
        final int index;
        final long start;
        final long measureStart;
        final long measureEnd;
        final long period;
        final long firstSlot;
        final AtomicReference<String> firstError;
        final Histogram latency = RunResult.newHistogram();
        final Histogram service = RunResult.newHistogram();
        long ok;
        long errors;

        Worker(Endpoint endpoint, Workload.RequestSource source, Settings settings, int index, long start,
               long measureStart, long measureEnd, AtomicReference<String> firstError) {
            this.endpoint = endpoint;
            this.source = source;
            this.index = index;
            this.start = start;
            this.measureStart = measureStart;
            this.measureEnd = measureEnd;
            this.firstError = firstError;
            boolean open = settings.rate() > 0;
            double slot = open ? 1e9 / settings.rate() : 0;
            this.period = (long) (slot * settings.connections());
            this.firstSlot = start + (long) (slot * index);
        }

        @Override
        public void run() {
            SplittableRandom random = new SplittableRandom(0xBE7C4L + index);
            sleepUntil(start);
            try (HttpConnection connection = new HttpConnection(endpoint)) {
                long due = firstSlot;
                while (true) {
                    long now = System.nanoTime();
                    if (period > 0) {
                        if (due >= measureEnd) break;
                        if (due > now) {
                            sleepUntil(due);
                            now = System.nanoTime();
                        }
                    } else {
                        if (now >= measureEnd) break;
                        due = now;
                    }
                    byte[] request = source.next(random);
                    boolean success;
                    try {
                        int status = connection.exchange(request);
                        success = status / 100 == 2;
                        if (!success) firstError.compareAndSet(null, status + " " + connection.bodyText());
                    } catch (IOException e) {
                        success = false;
                        firstError.compareAndSet(null, e.toString());
                        connection.close();
                    }
                    long end = System.nanoTime();
                    if (due >= measureStart) {
                        if (success) {
                            ok++;
                            latency.recordValue(Math.max(1, end - due));
                            service.recordValue(Math.max(1, end - now));
                        } else {
                            errors++;
                        }
                    }
                    due += period;
                }
            }
        }
    }

    static void sleepUntil(long deadline) {
        for (long left; (left = deadline - System.nanoTime()) > 0; ) LockSupport.parkNanos(left);
    }

    static void join(List<Thread> threads) {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the connections", e);
            }
        }
    }
}
