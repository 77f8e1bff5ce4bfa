package io.stator.engine.index.vector;

import io.stator.engine.index.vector.VectorGraph.Hit;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Synthetic embeddings for the graph's tests and benchmark: points scattered around random
 * cluster centres (Gaussian centres, Gaussian spread), as real embeddings cluster by topic; and
 * the exact answers to compare the graph's with.
 */
final class ClusteredVectors {

    private final Random random;
    private final float[][] centres;
    private final double spread;

    /** {@code clusters} centres in {@code dimensions}, points {@code spread} around them. */
    ClusteredVectors(long seed, int dimensions, int clusters, double spread) {
        this.random = new Random(seed);
        this.spread = spread;
        this.centres = new float[clusters][];
        for (int c = 0; c < clusters; c++) {
            centres[c] = gaussian(dimensions, 1.0, null);
        }
    }

    /** The next point: around a centre drawn at random. */
    float[] next() {
        return gaussian(centres[0].length, spread, centres[random.nextInt(centres.length)]);
    }

    float[][] next(int count) {
        float[][] points = new float[count][];
        for (int i = 0; i < count; i++) {
            points[i] = next();
        }
        return points;
    }

    private float[] gaussian(int dimensions, double deviation, float[] around) {
        float[] point = new float[dimensions];
        for (int i = 0; i < dimensions; i++) {
            double centre = around == null ? 0 : around[i];
            point[i] = (float) (centre + random.nextGaussian() * deviation);
        }
        return point;
    }

    /** The key of the {@code i}th point: 4 bytes, big-endian, so keys sort as their numbers. */
    static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    static int number(byte[] key) {
        return ByteBuffer.wrap(key).getInt();
    }

    /** The exact best {@code k} of {@code points} (the ith under key(i)), in ranking order. */
    static List<Hit> exact(Distance distance, float[][] points, float[] query, int k) {
        List<Hit> all = new ArrayList<>(points.length);
        for (int i = 0; i < points.length; i++) {
            if (points[i] != null) {
                all.add(new Hit(key(i), VectorScores.score(distance, query, points[i])));
            }
        }
        all.sort(VectorScores.ranking(distance));
        return all.subList(0, Math.min(k, all.size()));
    }

    /** The share of the exact hits' keys among the found ones. */
    static double recall(List<Hit> exact, List<Hit> found) {
        Set<Integer> expected = new HashSet<>();
        for (Hit hit : exact) {
            expected.add(number(hit.key()));
        }
        int matched = 0;
        for (Hit hit : found) {
            if (expected.contains(number(hit.key()))) {
                matched++;
            }
        }
        return (double) matched / exact.size();
    }
}
