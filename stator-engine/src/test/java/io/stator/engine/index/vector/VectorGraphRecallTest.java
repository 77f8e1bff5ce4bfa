package io.stator.engine.index.vector;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.index.vector.VectorGraph.Hit;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Recall@10 of the graph against exact search on clustered synthetic data (fixed seeds), for
 * each distance function: the graph's parameters ({@link VectorGraph#MAX_CONNECTIONS},
 * {@link VectorGraph#BEAM_WIDTH}, {@link VectorGraph#DEFAULT_CANDIDATES}) are chosen to reach
 * 0.95 here. The data: 50 Gaussian clusters whose spread (1.4) is larger than the centres'
 * (1.0), so that clusters overlap and the graph has to search; the queries are further points of
 * the same distribution. The figures are printed; the longer measurements are
 * {@link VectorGraphBenchmark}'s.
 */
class VectorGraphRecallTest {

    private static final int K = 10;
    private static final int QUERIES = 100;

    @ParameterizedTest(name = "{0} x {1}, {2}")
    @CsvSource({
        "10000, 128, EUCLIDEAN",
        "10000, 128, COSINE",
        "10000, 128, DOT_PRODUCT",
        "2000, 768, COSINE",
        "2000, 768, DOT_PRODUCT",
    })
    void recallAtTenIsAtLeastNinetyFivePercent(int count, int dimensions, Distance distance) {
        ClusteredVectors data = new ClusteredVectors(42, dimensions, 50, 1.4);
        float[][] points = data.next(count);
        float[][] queries = data.next(QUERIES);
        try (VectorGraph graph = new VectorGraph(dimensions, distance)) {
            long started = System.nanoTime();
            for (int i = 0; i < count; i++) {
                graph.put(ClusteredVectors.key(i), points[i], List.of());
            }
            double buildSeconds = (System.nanoTime() - started) / 1e9;
            double recall = 0;
            graph.search(queries[0], K, List.of());
            started = System.nanoTime();
            for (float[] query : queries) {
                List<Hit> found = graph.search(query, K, List.of());
                recall += ClusteredVectors.recall(
                        ClusteredVectors.exact(distance, points, query, K), found);
            }
            double searchSeconds = (System.nanoTime() - started) / 1e9;
            recall /= QUERIES;
            System.out.printf("recall@%d %s %d x %d: %.4f (built in %.1f s, %.0f vectors/s;"
                    + " %d queries in %.2f s with exact checks)%n", K, distance, count,
                    dimensions, recall, buildSeconds, count / buildSeconds, QUERIES, searchSeconds);
            assertTrue(recall >= 0.95, "recall@10 " + recall);
        }
    }
}
