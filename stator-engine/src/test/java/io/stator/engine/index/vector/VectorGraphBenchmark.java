package io.stator.engine.index.vector;

import io.stator.engine.index.vector.VectorGraph.Hit;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The graph's figures at benchmark scale, printed, never asserted: build rate (puts and the
 * first refresh, one thread; Lucene's merges go on in the background), memory (the graph's own
 * estimate, and the heap it holds measured around a full GC), single-thread queries a second at
 * k = 10 and recall@10 against exact search, as built and after {@link VectorGraph#compact}
 * (with its time), for each shape in {@code stator.vectorBenchmark}
 * ({@code count x dimensions : distance}, comma-separated). Off by default; run with
 *
 * <pre>{@code
 * ./mvnw -B -o -pl stator-engine -am test -Dtest=VectorGraphBenchmark \
 *     -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dtest.jvm.args="-Dstator.vectorBenchmark=100000x128:COSINE,100000x768:COSINE"
 * }</pre>
 *
 * adding {@code --add-modules jdk.incubator.vector} to {@code test.jvm.args} for Lucene's SIMD
 * similarities, {@code -Dstator.vectorCandidates=200} for another candidate count, and
 * {@code -Dstator.vectorSpread=2.0} for clusters that overlap more (1.4 unless set: the data of
 * {@link VectorGraphRecallTest}).
 */
@EnabledIfSystemProperty(named = "stator.vectorBenchmark", matches = ".+")
class VectorGraphBenchmark {

    private static final int K = 10;
    private static final int QUERIES = 1_000;
    private static final int RECALL_QUERIES = 200;

    @Test
    void measure() {
        for (String shape : System.getProperty("stator.vectorBenchmark").split(",")) {
            String[] parts = shape.trim().split("[x:]");
            measure(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]),
                    Distance.valueOf(parts[2]), Integer.getInteger("stator.vectorCandidates",
                            VectorGraph.DEFAULT_CANDIDATES));
        }
    }

    private static void measure(int count, int dimensions, Distance distance, int candidates) {
        double spread = Double.parseDouble(System.getProperty("stator.vectorSpread", "1.4"));
        ClusteredVectors data = new ClusteredVectors(42, dimensions, 50, spread);
        float[][] points = data.next(count);
        float[][] queries = data.next(QUERIES);
        long heapBefore = usedHeap();
        try (VectorGraph graph = new VectorGraph(dimensions, distance)) {
            graph.setCandidates(candidates);
            long started = System.nanoTime();
            for (int i = 0; i < count; i++) {
                graph.put(ClusteredVectors.key(i), points[i], Set.of());
            }
            graph.size();
            double buildSeconds = seconds(started);
            long estimate = graph.memoryBytes();
            long measured = usedHeap() - heapBefore;

            String built = queryFigures(graph, distance, points, queries);
            started = System.nanoTime();
            graph.compact();
            double compactSeconds = seconds(started);
            String compacted = queryFigures(graph, distance, points, queries);
            System.out.printf("%s %d x %d (spread %.1f), %d candidates: built in %.1f s"
                    + " (%.0f vectors/s); raw vectors %.1f MB; memory %.1f MB estimated,"
                    + " %.1f MB measured; as built %s; compacted in %.1f s, memory %.1f MB"
                    + " estimated, %s%n",
                    distance, count, dimensions, spread, candidates, buildSeconds,
                    count / buildSeconds, 4.0 * count * dimensions / 1e6, estimate / 1e6,
                    measured / 1e6, built, compactSeconds, graph.memoryBytes() / 1e6, compacted);
        }
    }

    /** Queries a second at k = 10, one thread (after a warm-up), and recall@10. */
    private static String queryFigures(VectorGraph graph, Distance distance, float[][] points,
            float[][] queries) {
        for (int i = 0; i < 100; i++) {
            graph.search(queries[i], K, Set.of());
        }
        long started = System.nanoTime();
        for (float[] query : queries) {
            graph.search(query, K, Set.of());
        }
        double rate = QUERIES / seconds(started);
        double recall = 0;
        for (int q = 0; q < RECALL_QUERIES; q++) {
            List<Hit> found = graph.search(queries[q], K, Set.of());
            recall += ClusteredVectors.recall(
                    ClusteredVectors.exact(distance, points, queries[q], K), found);
        }
        return String.format("%.0f queries/s, recall@%d %.4f", rate, K, recall / RECALL_QUERIES);
    }

    private static double seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    private static long usedHeap() {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
