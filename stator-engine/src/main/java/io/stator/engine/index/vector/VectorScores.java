package io.stator.engine.index.vector;

import java.util.Arrays;
import java.util.Comparator;

/**
 * DynamoDB's score of a stored vector against a query vector, computed exactly, and the order
 * in which scores rank (docs/dynamodb/vector-search.md §8).
 *
 * <p>The rules, as DynamoDB was measured to apply them (DYNOXIDE's captures of 2026-08-11..13,
 * recorded in §8): elements are f32, as the index stores them, but every product and sum is
 * taken in f64, so products that overflow f32 but cancel give exactly 0.0 and an f32 underflow
 * ({@code 1e-23} squared) is not a zero; the final score saturates to the f32 range, so a
 * EUCLIDEAN distance or an inner product beyond it is {@code ±Float.MAX_VALUE}, never infinite.
 * COSINE is {@code 1 - q.v/(|q||v|)}, exactly 1.0 when either vector has zero magnitude (never
 * NaN), exactly 0.0 for a vector against itself (the magnitudes' product is taken as
 * {@code sqrt(qq*vv)}, which is exact for {@code qq == vv}), and held to its documented range 0
 * to 2 (API, DG-WORK: "Scores range from 0 (identical) to 2 (opposite)") against the last bit of
 * rounding. EUCLIDEAN is the distance itself, not its square; DOT_PRODUCT the raw inner product.
 *
 * <p>The vectors' elements are finite (DynamoDB refuses any other: "Search vector contains invalid
 * values", §8's sources); with finite f32 elements and at most 4,096 of them no sum here can
 * overflow f64.
 */
public final class VectorScores {

    private static final double F32_MAX = Float.MAX_VALUE;

    private VectorScores() {
    }

    /** DynamoDB's score of {@code vector} for the query {@code query}; both of one length. */
    public static double score(Distance distance, float[] query, float[] vector) {
        if (query.length != vector.length) {
            throw new IllegalArgumentException(
                    "vectors of " + query.length + " and " + vector.length + " dimensions");
        }
        return switch (distance) {
            case COSINE -> cosine(query, vector);
            case EUCLIDEAN -> saturated(Math.sqrt(squaredDistance(query, vector)));
            case DOT_PRODUCT -> saturated(innerProduct(query, vector));
        };
    }

    /**
     * Orders two scores of one distance function best first: negative when {@code a} ranks before
     * {@code b} (lower first for COSINE and EUCLIDEAN, higher first for DOT_PRODUCT).
     */
    public static int compare(Distance distance, double a, double b) {
        return distance.lowerIsBetter() ? Double.compare(a, b) : Double.compare(b, a);
    }

    /** {@link #compare} as a comparator: the better score first. */
    public static Comparator<Double> better(Distance distance) {
        return (a, b) -> compare(distance, a, b);
    }

    /**
     * The order of search results: the better score first, equal scores by their keys' bytes
     * (unsigned), so that a result is deterministic (DynamoDB's own order among equal scores is
     * not, §8's sources).
     */
    public static Comparator<VectorGraph.Hit> ranking(Distance distance) {
        return (a, b) -> {
            int byScore = compare(distance, a.score(), b.score());
            return byScore != 0 ? byScore : Arrays.compareUnsigned(a.key(), b.key());
        };
    }

    /** The squared magnitude, in f64. */
    static double squaredNorm(float[] vector) {
        double sum = 0;
        for (float element : vector) {
            sum += (double) element * element;
        }
        return sum;
    }

    private static double cosine(float[] query, float[] vector) {
        double dot = 0;
        double queryNorm = 0;
        double vectorNorm = 0;
        for (int i = 0; i < query.length; i++) {
            double q = query[i];
            double v = vector[i];
            dot += q * v;
            queryNorm += q * q;
            vectorNorm += v * v;
        }
        if (queryNorm == 0 || vectorNorm == 0) {
            return 1.0;
        }
        double score = 1.0 - dot / Math.sqrt(queryNorm * vectorNorm);
        return Math.min(2.0, Math.max(0.0, score));
    }

    private static double squaredDistance(float[] query, float[] vector) {
        double sum = 0;
        for (int i = 0; i < query.length; i++) {
            double difference = (double) query[i] - vector[i];
            sum += difference * difference;
        }
        return sum;
    }

    private static double innerProduct(float[] query, float[] vector) {
        double sum = 0;
        for (int i = 0; i < query.length; i++) {
            sum += (double) query[i] * vector[i];
        }
        return sum;
    }

    private static double saturated(double score) {
        return Math.max(-F32_MAX, Math.min(F32_MAX, score));
    }
}
