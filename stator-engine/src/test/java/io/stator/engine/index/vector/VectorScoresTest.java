package io.stator.engine.index.vector;

import static io.stator.engine.index.vector.Distance.COSINE;
import static io.stator.engine.index.vector.Distance.DOT_PRODUCT;
import static io.stator.engine.index.vector.Distance.EUCLIDEAN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.index.vector.VectorGraph.Hit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * DynamoDB's scores (docs/dynamodb/vector-search.md §8): the fixture DYNOXIDE captured against
 * DynamoDB (query (1,0,0); a = (1,0,0), b = (0,1,0), c = (-1,0,0), d = (0.6,0.8,0)), the zero
 * vector rule, f64 sums and the f32 saturation, and the order of scores.
 */
class VectorScoresTest {

    private static final float[] Q = {1, 0, 0};
    private static final float[] A = {1, 0, 0};
    private static final float[] B = {0, 1, 0};
    private static final float[] C = {-1, 0, 0};
    private static final float[] D = {0.6f, 0.8f, 0};
    private static final double F32_MAX = 3.4028234663852886e38;

    @Test
    void cosineScoresTheCapturedFixture() {
        assertEquals(0.0, VectorScores.score(COSINE, Q, A), "a self-match is exactly 0.0");
        assertEquals(0.4, VectorScores.score(COSINE, Q, D), 1e-6);
        assertEquals(1.0, VectorScores.score(COSINE, Q, B));
        assertEquals(2.0, VectorScores.score(COSINE, Q, C));
    }

    @Test
    void euclideanIsTheDistanceNotItsSquare() {
        assertEquals(0.0, VectorScores.score(EUCLIDEAN, Q, A));
        assertEquals(Math.sqrt(0.8), VectorScores.score(EUCLIDEAN, Q, D), 1e-6);
        assertEquals(Math.sqrt(2), VectorScores.score(EUCLIDEAN, Q, B));
        assertEquals(2.0, VectorScores.score(EUCLIDEAN, Q, C));
    }

    @Test
    void dotProductIsTheRawInnerProductNegativeAllowed() {
        assertEquals(1.0, VectorScores.score(DOT_PRODUCT, Q, A));
        assertEquals(0.6, VectorScores.score(DOT_PRODUCT, Q, D), 1e-6);
        assertEquals(0.0, VectorScores.score(DOT_PRODUCT, Q, B));
        assertEquals(-1.0, VectorScores.score(DOT_PRODUCT, Q, C));
        assertEquals(6.0, VectorScores.score(DOT_PRODUCT, new float[] {2, 0}, new float[] {3, 5}),
                "vectors need not be of unit length");
    }

    @Test
    void cosineWithAZeroVectorOnEitherSideIsExactlyOne() {
        float[] zero = {0, 0, 0};
        assertEquals(1.0, VectorScores.score(COSINE, zero, A));
        assertEquals(1.0, VectorScores.score(COSINE, Q, zero));
        assertEquals(1.0, VectorScores.score(COSINE, zero, zero));
    }

    @Test
    void anF32UnderflowIsNotAZeroVector() {
        float[] tiny = {1e-23f, 0};
        assertEquals(0.0, VectorScores.score(COSINE, tiny, tiny));
        assertEquals(1e-46, VectorScores.score(DOT_PRODUCT, tiny, tiny), 1e-52);
    }

    @Test
    void productsThatOverflowF32ButCancelAreExactlyZero() {
        float[] q = {1e30f, 1e30f};
        float[] v = {1e30f, -1e30f};
        assertEquals(0.0, VectorScores.score(DOT_PRODUCT, q, v));
        assertEquals(1.0, VectorScores.score(COSINE, q, v));
    }

    @Test
    void scoresBeyondTheF32RangeSaturate() {
        float[] high = {Float.MAX_VALUE, Float.MAX_VALUE};
        float[] low = {-Float.MAX_VALUE, -Float.MAX_VALUE};
        assertEquals(F32_MAX, VectorScores.score(EUCLIDEAN, high, low));
        assertEquals(F32_MAX, VectorScores.score(DOT_PRODUCT, high, high));
        assertEquals(-F32_MAX, VectorScores.score(DOT_PRODUCT, high, low));
        assertEquals(2.0, VectorScores.score(COSINE, high, low));
        float[] nearlyHigh = {Float.MAX_VALUE, 0};
        float[] nearlyLow = {Float.MAX_VALUE / 2, 0};
        assertEquals((double) Float.MAX_VALUE / 2,
                VectorScores.score(EUCLIDEAN, nearlyHigh, nearlyLow),
                "within the range, no saturation");
    }

    @Test
    void cosineOfAVectorWithItselfIsExactlyZeroAndNeverNegative() {
        Random random = new Random(7);
        for (int i = 0; i < 1_000; i++) {
            float[] v = new float[1 + random.nextInt(64)];
            for (int j = 0; j < v.length; j++) {
                v[j] = (float) (random.nextGaussian() * Math.pow(10, random.nextInt(20) - 10));
            }
            assertEquals(0.0, VectorScores.score(COSINE, v, v), "self-match");
            float[] w = v.clone();
            w[0] = Math.nextUp(w[0]);
            assertTrue(VectorScores.score(COSINE, v, w) >= 0.0);
        }
    }

    @Test
    void vectorsOfDifferentLengthsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> VectorScores.score(EUCLIDEAN, new float[2], new float[3]));
    }

    @Test
    void lowerScoresRankFirstExceptForDotProduct() {
        assertTrue(VectorScores.compare(COSINE, 0.1, 0.2) < 0);
        assertTrue(VectorScores.compare(EUCLIDEAN, 0.1, 0.2) < 0);
        assertTrue(VectorScores.compare(DOT_PRODUCT, 0.2, 0.1) < 0);
        assertEquals(0, VectorScores.compare(DOT_PRODUCT, 0.5, 0.5));
        List<Double> scores = new ArrayList<>(List.of(0.5, -1.0, 2.0));
        scores.sort(VectorScores.better(DOT_PRODUCT));
        assertEquals(List.of(2.0, 0.5, -1.0), scores);
        scores.sort(VectorScores.better(EUCLIDEAN));
        assertEquals(List.of(-1.0, 0.5, 2.0), scores);
    }

    @Test
    void equalScoresRankByKeyBytesUnsigned() {
        Hit high = new Hit(new byte[] {(byte) 0x80}, 1.0);
        Hit low = new Hit(new byte[] {0x7f}, 1.0);
        Hit shorter = new Hit(new byte[] {0x7f, 0}, 1.0);
        Hit better = new Hit(new byte[] {(byte) 0xff}, 0.5);
        List<Hit> hits = new ArrayList<>(List.of(high, shorter, low, better));
        hits.sort(VectorScores.ranking(COSINE));
        assertEquals(List.of(better, low, shorter, high), hits);
        hits.sort(VectorScores.ranking(DOT_PRODUCT));
        assertEquals(List.of(low, shorter, high, better), hits);
    }
}
