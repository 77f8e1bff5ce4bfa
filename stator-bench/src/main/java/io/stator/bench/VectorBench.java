package io.stator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * {@code stator-bench vectors}: Stator's vector search against the field's reference libraries
 * on the same data (issue 32's benchmark). For each shape (N vectors of D dimensions):
 *
 * <ol>
 *   <li>the data set ({@link VectorData}: Gaussian clusters from a fixed seed, queries near the
 *       centres) and its exact neighbours, brute force in this process;
 *   <li>one Stator ({@code bin/stator}, durable, as {@code compare} runs it) on a fresh data
 *       directory; the table with its vector index ({@link VectorTable}); the vectors written
 *       with BatchWriteItem over a few connections; then the wait until the index holds them all:
 *       DescribeTable's ItemCount of the ACTIVE index equal to N, and a SearchVectors of the last
 *       vector written finding it first. N over the time from the first write to that moment is
 *       the build rate: what a user waits before the index can be searched whole;
 *   <li>recall@10: every query once on one connection, its results against the exact neighbours;
 *   <li>SearchVectors (TopK 10) per second and its latency, on one connection and on a few, each
 *       a closed loop over the pre-signed queries ({@link LoadGenerator}); the server's resident
 *       memory idle, loaded and after the searches;
 *   <li>the reference: the data written as {@code .npy} files and {@link VectorReference}'s
 *       script run on them for hnswlib, faiss's flat index and faiss's HNSW, one after another,
 *       Stator stopped by then, so that no two measurements share the machine.
 * </ol>
 *
 * <p>Whatever search the server does is what is measured: its recall is counted, never assumed.
 */
final class VectorBench {

    /** A data set's shape: N vectors of D dimensions. */
    record Shape(int count, int dimensions) {
        static Shape parse(String text) {
            String[] parts = text.trim().toLowerCase(Locale.ROOT).split("x");
            if (parts.length != 2) throw new IllegalArgumentException("a shape is COUNTxDIMENSIONS (20000x128), not " + text);
            Shape s = new Shape(Integer.parseInt(parts[0].replace("_", "")), Integer.parseInt(parts[1]));
            if (s.count < VectorTable.BATCH || s.dimensions < 1 || s.dimensions > 4096) {
                throw new IllegalArgumentException("a shape needs at least " + VectorTable.BATCH
                        + " vectors of 1 to 4096 dimensions (DynamoDB's limit), not " + text);
            }
            return s;
        }

        String label() { return String.format(Locale.ROOT, "%,d × %d", count, dimensions); }
    }

    record Options(List<Shape> shapes, int queries, int clusters, long seed, int loadConnections,
                   int searchConnections, Duration warmup, Duration duration, boolean reference) {}

    /**
     * What Stator did on one shape.
     *
     * @param loadSeconds       first write to the last BatchWriteItem acknowledged
     * @param searchableSeconds first write to the whole index searchable
     * @param loadRetries       BatchWriteItem requests sent again (an error, or UnprocessedItems)
     * @param loadServerCores   cores the server kept busy from the first write until searchable
     * @param loadClientCores   cores this process kept busy writing (the JSON of the vectors, signing)
     * @param loadOtherCores    cores other processes kept busy meanwhile
     * @param requestBytesPerVector BatchWriteItem's bytes per vector written (its first request's)
     * @param recallPass        every query once, one connection: its latency (the first searches, JIT warm-up included)
     * @param connections       the connections of {@code several}
     */
    record StatorFigures(double idleMb, double loadedMb, double searchedMb, long dataBytes, double loadSeconds,
                         double searchableSeconds, long loadRetries, double loadServerCores, double loadClientCores,
                         double loadOtherCores, int requestBytesPerVector, double recall, Histogram recallPass, RunResult single,
                         int connections, RunResult several) {

        double buildRate(long vectors) { return vectors / searchableSeconds; }

        /** What the index cost the server's memory: resident after the searches less resident idle. */
        double growthMb() { return searchedMb - idleMb; }
    }

    /** One shape's figures; {@code referenceNote} says why a library did not run, or null. */
    record ShapeOutcome(Shape shape, int queries, double truthSeconds, StatorFigures stator,
                        List<VectorReference.Result> reference, String referenceNote) {

        VectorReference.Result reference(String library) {
            return reference.stream().filter(r -> r.library().equals(library) && r.unavailable() == null)
                    .findFirst().orElse(null);
        }
    }

    private VectorBench() {}

    static List<ShapeOutcome> run(Options options, ServerKind.Places places) throws IOException {
        List<ShapeOutcome> outcomes = new ArrayList<>();
        for (Shape shape : options.shapes()) outcomes.add(run(options, shape, places));
        return outcomes;
    }

    private static ShapeOutcome run(Options options, Shape shape, ServerKind.Places places) throws IOException {
        Compare.progress("vectors %s: generating %,d vectors and %,d queries (%d clusters, seed %d)", shape.label(),
                shape.count(), options.queries(), options.clusters(), options.seed());
        VectorData data = VectorData.generate(shape.count(), shape.dimensions(), options.queries(), options.clusters(),
                options.seed());
        long t0 = System.nanoTime();
        int[][] truth = data.exactNeighbours(VectorData.K, Runtime.getRuntime().availableProcessors());
        double truthSeconds = (System.nanoTime() - t0) / 1e9;
        Compare.progress("vectors %s: exact neighbours of %,d queries in %.1f s", shape.label(), options.queries(), truthSeconds);

        StatorFigures stator = measureStator(options, shape, data, truth, places);

        List<VectorReference.Result> reference = new ArrayList<>();
        String note = options.reference() ? VectorReference.unavailable(places.statorHome()) : "not run (--no-reference)";
        if (note == null) {
            Path dir = places.work().resolve("vectors-" + shape.count() + "x" + shape.dimensions());
            data.writeNpy(dir, truth);
            // The libraries are tuned to Stator's recall (or to 0.95 at least): the issue compares them at the same recall.
            double target = Math.max(0.95, stator.recall());
            try {
                for (String library : VectorReference.LIBRARIES) {
                    Compare.progress("vectors %s: %s", shape.label(), library);
                    Path log = places.work().resolve("vector-reference.log");
                    VectorReference.Result r;
                    try {
                        r = VectorReference.run(places.statorHome(), library, dir, target,
                                Runtime.getRuntime().availableProcessors(), log);
                    } catch (IOException e) {
                        // Stator's figures are kept; the report says what failed.
                        r = new VectorReference.Result(library, null, List.of(), e.getMessage(), Double.NaN, Double.NaN);
                    }
                    reference.add(r);
                    if (r.unavailable() != null) {
                        note = (note == null ? "" : note + "; ") + library + ": " + r.unavailable();
                    } else {
                        VectorReference.Search s = r.atRecall(target);
                        Compare.progress("vectors %s: %s built at %,.0f vectors/s, +%.0f MB; recall %.4f at ef %d: %,.0f queries/s",
                                shape.label(), library, r.build().vectorsPerSecond(), r.build().indexMb(), s.recall(),
                                s.ef(), s.queriesPerSecond());
                    }
                }
            } finally {
                Compare.deleteRecursively(dir);
            }
        }
        return new ShapeOutcome(shape, options.queries(), truthSeconds, stator, reference, note);
    }

    private static StatorFigures measureStator(Options options, Shape shape, VectorData data, int[][] truth,
                                               ServerKind.Places places) throws IOException {
        int port = Compare.freePort();
        Path dir = places.work().resolve("stator-vectors");
        Compare.deleteRecursively(dir);
        Files.createDirectories(dir);
        Endpoint endpoint = Endpoint.local(port);
        // The heap (a quarter of --memory) must hold the index's HNSW graph twice over (the server
        // builds a graph only where it fits: VectorGraphs.fits), and Lucene's SIMD comparisons
        // want the incubating vector module.
        List<String> command = new java.util.ArrayList<>(ServerKind.STATOR.command(places, port, dir));
        long memoryMb = Math.max(1024, 16L * shape.count() * (4L * shape.dimensions() + 400) >> 20);
        command.add("--memory");
        command.add(memoryMb + "mb");
        try (ServerProcess server = ServerProcess.start("stator", command,
                Map.of("STATOR_JAVA_OPTS", "--add-modules jdk.incubator.vector"),
                endpoint, places.work().resolve("stator-vectors.log"), Duration.ofSeconds(120))) {
            DynamoRequests requests = new DynamoRequests(endpoint, SigV4Signer.Credentials.BENCH);
            VectorTable table = new VectorTable("vectors", shape.dimensions());
            table.create(requests);
            double idle = server.residentMegabytes();

            RunResult.CpuSample before = RunResult.CpuSample.take(server.cpu());
            long start = System.nanoTime();
            long retries = load(requests, table, data, options.loadConnections());
            double loadSeconds = (System.nanoTime() - start) / 1e9;
            Compare.progress("vectors %s: %,d vectors written in %.1f s (%,.0f/s), %d requests sent again", shape.label(),
                    shape.count(), loadSeconds, shape.count() / loadSeconds, retries);
            awaitSearchable(requests, table, data);
            double searchable = (System.nanoTime() - start) / 1e9;
            double[] loadCores = RunResult.CpuSample.take(server.cpu()).coresSince(before, searchable);
            double loaded = server.residentMegabytes();
            Compare.progress("vectors %s: searchable after %.1f s (%,.0f vectors/s); RSS %.0f MB (idle %.0f MB)",
                    shape.label(), searchable, shape.count() / searchable, loaded, idle);

            byte[][] searches = new byte[data.queryCount()][];
            for (int q = 0; q < searches.length; q++) {
                searches[q] = requests.build("SearchVectors", table.search(data, q, false, VectorTable.TOP_K));
            }
            Histogram pass = RunResult.newHistogram();
            int[][] found = recallPass(endpoint, searches, pass);
            double recall = VectorData.recall(truth, found, VectorData.K);
            Compare.progress("vectors %s: recall@10 %.4f over %,d queries (%.1f ms each on one connection, p50)",
                    shape.label(), recall, searches.length, pass.getValueAtPercentile(50) / 1e6);

            Workload.RequestSource source = new Workload.RequestSource(new byte[][][] {searches}, new double[] {1}, null);
            LoadGenerator.Settings settings = new LoadGenerator.Settings(1, options.warmup(), options.duration(), 0);
            RunResult single = LoadGenerator.run(endpoint, source, settings, server.cpu());
            report(shape, single);
            RunResult several = LoadGenerator.run(endpoint, source,
                    settings.withConnections(options.searchConnections()), server.cpu());
            report(shape, several);
            double searched = server.residentMegabytes();
            int batch = Math.min(VectorTable.BATCH, data.count());
            int bytesPerVector = table.batchWrite(data, 0, batch).length() / batch;
            return new StatorFigures(idle, loaded, searched, size(dir), loadSeconds, searchable, retries, loadCores[1],
                    loadCores[0], loadCores[2], bytesPerVector, recall, pass, single, options.searchConnections(), several);
        } finally {
            Compare.deleteRecursively(dir);
        }
    }

    private static void report(Shape shape, RunResult r) {
        Compare.progress("vectors %s: SearchVectors: %,.1f/s, p50 %.2f ms, p99 %.2f ms, %d errors, server %.2f cores%s",
                shape.label(), r.throughput(), r.latencyMs(50), r.latencyMs(99), r.errors(), r.serverCores(),
                r.firstError() == null ? "" : "; first error: " + r.firstError());
    }

    /**
     * Writes every vector with BatchWriteItem, {@link VectorTable#BATCH} a request, over the
     * connections, each claiming the next batch; a batch answered with an error or with
     * UnprocessedItems is sent again whole (its puts are idempotent). Returns how many were sent again.
     */
    static long load(DynamoRequests requests, VectorTable table, VectorData data, int connections) {
        AtomicInteger next = new AtomicInteger();
        AtomicLong retries = new AtomicLong();
        AtomicReference<RuntimeException> fatal = new AtomicReference<>();
        List<Thread> threads = IntStream.range(0, connections).mapToObj(k -> Thread.ofPlatform().start(() -> {
            DynamoRequests mine = requests.copy();
            try (HttpConnection connection = new HttpConnection(requests.endpoint())) {
                for (int from; fatal.get() == null && (from = next.getAndAdd(VectorTable.BATCH)) < data.count(); ) {
                    byte[] request = mine.build("BatchWriteItem", table.batchWrite(data, from,
                            Math.min(from + VectorTable.BATCH, data.count())));
                    for (int attempt = 0; ; attempt++) {
                        String failure;
                        try {
                            int status = connection.exchange(request);
                            if (status == 200 && connection.bodyText().replace(" ", "").contains("\"UnprocessedItems\":{}")) break;
                            failure = status + " " + connection.bodyText();
                        } catch (IOException e) {
                            connection.close();
                            failure = e.toString();
                        }
                        retries.incrementAndGet();
                        if (attempt == 10) {
                            fatal.compareAndSet(null, new IllegalStateException("cannot write vectors from " + from + ": " + failure));
                            return;
                        }
                        LockSupport.parkNanos(10_000_000L << Math.min(attempt, 6));
                    }
                }
            }
        })).toList();
        LoadGenerator.join(threads);
        if (fatal.get() != null) throw fatal.get();
        return retries.get();
    }

    /**
     * Waits until the index holds every vector: DescribeTable's ItemCount of the index, ACTIVE,
     * equals N, and a search with the last vector written finds that vector first.
     */
    private static void awaitSearchable(DynamoRequests requests, VectorTable table, VectorData data) throws IOException {
        long deadline = System.nanoTime() + Duration.ofHours(2).toNanos();
        byte[] describe = requests.build("DescribeTable", table.describeTable());
        byte[] probe = requests.build("SearchVectors", table.search(data, data.count() - 1, true, 1));
        try (HttpConnection connection = new HttpConnection(requests.endpoint())) {
            while (true) {
                if (connection.exchange(describe) != 200) {
                    throw new IOException("DescribeTable answered " + connection.status() + ": " + connection.bodyText());
                }
                VectorTable.IndexState state = VectorTable.indexState(connection.bodyText());
                if ("ACTIVE".equals(state.status()) && state.itemCount() == data.count()
                        && connection.exchange(probe) == 200) {
                    int[] first = VectorTable.resultNumbers(connection.bodyBuffer(), connection.bodyOffset(),
                            connection.bodyLength());
                    if (first.length == 1 && first[0] == data.count() - 1) return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("the vector index holds " + state.itemCount() + " of " + data.count()
                            + " vectors after two hours (" + state.status() + ")");
                }
                LockSupport.parkNanos(20_000_000);
            }
        }
    }

    /** Every query once, in order, on one connection: the vector numbers each returned, and each one's latency. */
    private static int[][] recallPass(Endpoint endpoint, byte[][] searches, Histogram latency) throws IOException {
        int[][] found = new int[searches.length][];
        try (HttpConnection connection = new HttpConnection(endpoint)) {
            for (int q = 0; q < searches.length; q++) {
                long t0 = System.nanoTime();
                int status = connection.exchange(searches[q]);
                latency.recordValue(Math.max(1, System.nanoTime() - t0));
                if (status != 200) throw new IOException("SearchVectors answered " + status + ": " + connection.bodyText());
                found[q] = VectorTable.resultNumbers(connection.bodyBuffer(), connection.bodyOffset(), connection.bodyLength());
            }
        }
        return found;
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException gone) {
                    return 0; // a file compacted away while walking
                }
            }).sum();
        }
    }
}
