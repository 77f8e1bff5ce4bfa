package io.stator.bench;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/**
 * The {@code load} workload: writes items {@code 0..n-1} with PutItem over N connections, each
 * thread claiming the next item number. Each request is new, so it is built and signed as it
 * goes (a few microseconds, counted in the generator's CPU). A time budget lets a slow server
 * stop early: the items below the last claimed number are then all written, and the caller
 * runs the other workloads on that many.
 */
final class Loader {

    /** @param loaded items written (all of {@code 0..loaded-1}) */
    record Result(long loaded, double seconds, long errors, double clientCores, String firstError) {
        double itemsPerSecond() { return loaded / seconds; }
    }

    private Loader() {}

    static Result load(DynamoRequests requests, BenchTable table, int connections, double budgetSeconds) {
        return load(requests, List.of(requests.endpoint()), table, connections, budgetSeconds);
    }

    /** Spreads the connections over the endpoints, round-robin, as {@link LoadGenerator} does. */
    static Result load(DynamoRequests requests, List<Endpoint> endpoints, BenchTable table, int connections,
                       double budgetSeconds) {
        AtomicLong next = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        AtomicReference<RuntimeException> fatal = new AtomicReference<>();
        // Compared as elapsed time, so that an unlimited budget cannot overflow.
        long budget = budgetSeconds >= 1e6 ? Long.MAX_VALUE : (long) (budgetSeconds * 1e9);
        CpuClock cpu = CpuClock.self();
        long cpu0 = cpu.cpuNanos();
        long t0 = System.nanoTime();
        List<Thread> threads = IntStream.range(0, connections).mapToObj(k -> Thread.ofPlatform().start(() -> {
            DynamoRequests mine = requests.copy();
            try (HttpConnection connection = new HttpConnection(endpoints.get(k % endpoints.size()))) {
                for (long i; System.nanoTime() - t0 < budget && (i = next.getAndIncrement()) < table.itemCount(); ) {
                    byte[] request = mine.build("PutItem", table.putItem(i));
                    // A put that failed is retried: every claimed item must exist afterwards.
                    for (int attempt = 0; ; attempt++) {
                        String failure;
                        try {
                            int status = connection.exchange(request);
                            if (status / 100 == 2) break;
                            failure = status + " " + connection.bodyText();
                        } catch (IOException e) {
                            connection.close();
                            failure = e.toString();
                        }
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, failure);
                        if (attempt == 5) {
                            fatal.compareAndSet(null, new IllegalStateException("cannot load item " + i + ": " + failure));
                            return;
                        }
                    }
                }
            }
        })).toList();
        LoadGenerator.join(threads);
        if (fatal.get() != null) throw fatal.get();
        double seconds = (System.nanoTime() - t0) / 1e9;
        long loaded = Math.min(next.get(), table.itemCount());
        return new Result(loaded, seconds, errors.get(), (cpu.cpuNanos() - cpu0) / 1e9 / seconds, firstError.get());
    }
}
