package io.stator.bench;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.stator.storage.cassandra.CassandraSessions;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stator-bench cassandra}: what the Cassandra cluster itself serves, through the driver
 * with the settings of Stator's own sessions ({@link CassandraSessions}: protocol v4, prepared
 * statements, token-aware routing), so that Stator's figures on the cluster have a ceiling beside
 * them. A closed loop: {@code --connections} threads, each with one request in flight, on a table
 * of {@code --rows} rows of {@code --row-size} bytes (replication factor 3 by default).
 *
 * <p>Workloads: {@code read} (a row by key at QUORUM), {@code serial-read} (the same at SERIAL, a
 * Paxos read), {@code write} (a row written at QUORUM), {@code lwt-insert} ({@code INSERT ... IF
 * NOT EXISTS} of new rows) and {@code lwt-update} ({@code UPDATE ... IF EXISTS} of existing
 * ones): lightweight transactions at serial consistency SERIAL, committed at QUORUM, as Stator's
 * commits are; {@code slice} (the first {@value #SLICE_ROWS} rows of a random partition at
 * QUORUM, a clustering range with LIMIT, what a Query of {@code Limit} 10 reads), on a second
 * table laid out as Stator's ({@code CassandraCollectionStore}: {@code (pk blob, kind int, ck
 * blob, hash bigint, value blob, PRIMARY KEY ((pk), kind, ck))}), of {@code --rows} rows in
 * partitions of {@value #SLICE_PARTITION_ROWS}, as the bench's items are (BenchTable); and
 * {@code lwt-update-collection}, {@code lwt-update} on a random row of that table, whose
 * lightweight transactions meet on partitions of {@value #SLICE_PARTITION_ROWS} rows as a PutItem's
 * do on the bench's item collections (one Paxos state per partition).
 */
@Command(name = "cassandra", mixinStandardHelpOptions = true,
        description = "Measures what a Cassandra cluster itself serves (QUORUM reads and writes, lightweight "
                + "transactions) with a plain driver loop, for Stator's figures on it to stand beside.")
final class CassandraBench implements Callable<Integer> {

    /** Rows a slice reads: a Query's page of the bench's query workload (BenchTable.QUERY_PAGE). */
    static final int SLICE_ROWS = BenchTable.QUERY_PAGE;
    /** Rows of each partition of the slice table, as the bench's items are (BenchTable). */
    static final int SLICE_PARTITION_ROWS = 100;

    @Option(names = "--contact-points", required = true, paramLabel = "HOST[:PORT],...",
            description = "Some nodes of the cluster (port 9042 unless given).")
    String contactPoints;

    @Option(names = "--datacenter", description = "The local datacenter (default: ${DEFAULT-VALUE}).")
    String datacenter = "datacenter1";

    @Option(names = "--keyspace", description = "Keyspace of the bench's table, created if missing (default: ${DEFAULT-VALUE}).")
    String keyspace = "stator_bench";

    @Option(names = "--replication", description = "Replication factor of a keyspace it creates (default: ${DEFAULT-VALUE}).")
    int replication = 3;

    @Option(names = "--workload", split = ",", description = "Workloads, in order: read, serial-read, write, "
            + "lwt-insert, lwt-update, slice, lwt-update-collection (default: ${DEFAULT-VALUE}).")
    List<String> workloads = List.of("read", "write", "lwt-insert", "lwt-update");

    @Option(names = "--connections", description = "Requests in flight, one per thread (default: ${DEFAULT-VALUE}).")
    int connections = 16;

    @Option(names = "--warmup", paramLabel = "SECONDS", description = "Warm-up before each measurement (default: ${DEFAULT-VALUE}).")
    int warmup = 2;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "Length of each measurement (default: ${DEFAULT-VALUE}).")
    int duration = 10;

    @Option(names = "--rows", description = "Rows written before the workloads (default: ${DEFAULT-VALUE}).")
    int rows = 5000;

    @Option(names = "--row-size", paramLabel = "BYTES", description = "Bytes of each row's value (default: ${DEFAULT-VALUE}).")
    int rowBytes = 1024;

    @Override
    public Integer call() throws InterruptedException {
        try (CqlSession session = CassandraSessions.open(CassandraSessions.contactPoints(contactPoints), datacenter)) {
            session.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + keyspace
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': " + replication + "}")
                    .setTimeout(Duration.ofSeconds(60)));
            String table = keyspace + ".kv";
            session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + table
                    + " (k bigint PRIMARY KEY, v blob)").setTimeout(Duration.ofSeconds(60)));
            PreparedStatement select = session.prepare("SELECT v FROM " + table + " WHERE k = ?");
            PreparedStatement insert = session.prepare("INSERT INTO " + table + " (k, v) VALUES (?, ?)");
            PreparedStatement insertIf = session.prepare("INSERT INTO " + table + " (k, v) VALUES (?, ?) IF NOT EXISTS");
            PreparedStatement updateIf = session.prepare("UPDATE " + table + " SET v = ? WHERE k = ? IF EXISTS");
            ByteBuffer value = ByteBuffer.wrap(new byte[rowBytes]);
            boolean collections = workloads.contains("slice") || workloads.contains("lwt-update-collection");
            PreparedStatement slice = collections ? prepareSlices(session, value) : null;
            PreparedStatement updateRowIf = collections ? session.prepare("UPDATE " + keyspace
                    + ".rows SET value = ? WHERE pk = ? AND kind = 0 AND ck = ? IF EXISTS") : null;

            long began = System.nanoTime();
            Result loaded = loop(session, i -> i < rows ? insert.bind((long) i, value).setConsistencyLevel(ConsistencyLevel.QUORUM)
                    : null, Long.MAX_VALUE);
            System.out.printf(Locale.ROOT, "prefill: %,d rows of %d B in %.1f s, %d errors%n",
                    loaded.operations, rowBytes, (System.nanoTime() - began) / 1e9, loaded.errors);

            // New keys for lwt-insert, above every row of this run and of earlier runs.
            AtomicLong fresh = new AtomicLong(System.currentTimeMillis() * 1_000_000L);
            for (String w : workloads) {
                LongFunction<BoundStatement> request = switch (w) {
                    case "read" -> i -> select.bind(randomRow()).setConsistencyLevel(ConsistencyLevel.QUORUM);
                    case "serial-read" -> i -> select.bind(randomRow()).setConsistencyLevel(ConsistencyLevel.SERIAL);
                    case "write" -> i -> insert.bind(randomRow(), value).setConsistencyLevel(ConsistencyLevel.QUORUM);
                    case "lwt-insert" -> i -> lwt(insertIf.bind(fresh.incrementAndGet(), value));
                    case "lwt-update" -> i -> lwt(updateIf.bind(value, randomRow()));
                    case "slice" -> i -> slice.bind(partition(randomRow() / SLICE_PARTITION_ROWS))
                            .setConsistencyLevel(ConsistencyLevel.QUORUM);
                    case "lwt-update-collection" -> i -> {
                        long row = randomRow();
                        return lwt(updateRowIf.bind(value, partition(row / SLICE_PARTITION_ROWS),
                                ByteBuffer.allocate(8).putLong(0, row % SLICE_PARTITION_ROWS)));
                    };
                    default -> throw new IllegalArgumentException("unknown workload " + w
                            + " (read, serial-read, write, lwt-insert, lwt-update, slice, lwt-update-collection)");
                };
                loop(session, request, System.nanoTime() + Duration.ofSeconds(warmup).toNanos());
                Result r = loop(session, request, System.nanoTime() + Duration.ofSeconds(duration).toNanos());
                System.out.printf(Locale.ROOT, "%s: %,.0f ops/s, p50 %.3f ms, p99 %.3f ms, max %.3f ms, %d errors%s%n",
                        w, r.operations / r.seconds, r.latency.getValueAtPercentile(50) / 1e6,
                        r.latency.getValueAtPercentile(99) / 1e6, r.latency.getMaxValue() / 1e6, r.errors,
                        r.firstError == null ? "" : "; first error: " + r.firstError);
            }
        }
        return 0;
    }

    /**
     * The slice table ({@code rows}, Stator's layout: items are kind 0), filled with the rows the
     * {@code kv} table has, and the slice's statement: the first {@value #SLICE_ROWS} items of a
     * partition, a clustering range from the empty clustering key (as Stator's Query reads).
     */
    private PreparedStatement prepareSlices(CqlSession session, ByteBuffer value) throws InterruptedException {
        String table = keyspace + ".rows";
        session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + table
                + " (pk blob, kind int, ck blob, hash bigint, value blob, PRIMARY KEY ((pk), kind, ck))")
                .setTimeout(Duration.ofSeconds(60)));
        PreparedStatement insert = session.prepare("INSERT INTO " + table + " (pk, kind, ck, hash, value) VALUES (?, 0, ?, ?, ?)");
        long began = System.nanoTime();
        Result loaded = loop(session, i -> i < rows ? insert.bind(partition(i / SLICE_PARTITION_ROWS),
                ByteBuffer.allocate(8).putLong(0, i % SLICE_PARTITION_ROWS), i / SLICE_PARTITION_ROWS, value)
                .setConsistencyLevel(ConsistencyLevel.QUORUM) : null, Long.MAX_VALUE);
        System.out.printf(Locale.ROOT, "prefill (slice): %,d rows in partitions of %d in %.1f s, %d errors%n",
                loaded.operations, SLICE_PARTITION_ROWS, (System.nanoTime() - began) / 1e9, loaded.errors);
        return session.prepare("SELECT pk, kind, ck, hash, value FROM " + table
                + " WHERE pk = ? AND kind = 0 AND ck >= 0x LIMIT " + SLICE_ROWS);
    }

    private static ByteBuffer partition(long p) {
        return ByteBuffer.allocate(8).putLong(0, p);
    }

    private long randomRow() {
        return ThreadLocalRandom.current().nextLong(rows);
    }

    private static BoundStatement lwt(BoundStatement s) {
        return s.setConsistencyLevel(ConsistencyLevel.QUORUM).setSerialConsistencyLevel(ConsistencyLevel.SERIAL);
    }

    private record Result(long operations, long errors, double seconds, Histogram latency, String firstError) {}

    /**
     * {@link #connections} threads sending request(0), request(1), ... until {@code until} or the
     * requests run out (a null request).
     */
    private Result loop(CqlSession session, LongFunction<BoundStatement> request, long until) throws InterruptedException {
        AtomicLong next = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        Histogram latency = RunResult.newHistogram();
        String[] firstError = new String[1];
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < connections; t++) {
            threads.add(Thread.ofPlatform().name("cassandra-bench-" + t).start(() -> {
                Histogram mine = RunResult.newHistogram();
                while (System.nanoTime() < until) {
                    BoundStatement s = request.apply(next.getAndIncrement());
                    if (s == null) break;
                    long sent = System.nanoTime();
                    try {
                        session.execute(s);
                        mine.recordValue(Math.max(1, System.nanoTime() - sent));
                    } catch (RuntimeException e) {
                        if (errors.getAndIncrement() == 0) firstError[0] = e.toString();
                    }
                }
                synchronized (latency) {
                    latency.add(mine);
                }
            }));
        }
        for (Thread t : threads) t.join();
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Result(latency.getTotalCount(), errors.get(), seconds, latency, firstError[0]);
    }
}
