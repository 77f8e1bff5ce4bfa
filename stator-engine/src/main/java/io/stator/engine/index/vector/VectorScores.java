package io.stator.engine.index.vector;

/**
 * DynamoDB's score of a stored vector against a query vector (docs/dynamodb/vector-search.md §8,
 * measured against the service): COSINE {@code 1 - q.v/(|q||v|)}, exactly 1 when either side has
 * no magnitude; EUCLIDEAN the L2 distance, not squared; DOT_PRODUCT the raw inner product. The
 * elements are 32-bit floats, the sums are in doubles, and the result saturates to the 32-bit
 * range.
 */
public final class VectorScores {

    private VectorScores() {}

    public static double score(Distance distance, float[] q, float[] v) {
        double s = switch (distance) {
            case COSINE -> {
                double dot = 0, qq = 0, vv = 0;
                for (int i = 0; i < q.length; i++) {
                    dot += (double) q[i] * v[i];
                    qq += (double) q[i] * q[i];
                    vv += (double) v[i] * v[i];
                }
                yield qq == 0 || vv == 0 ? 1.0 : 1.0 - dot / (Math.sqrt(qq) * Math.sqrt(vv));
            }
            case EUCLIDEAN -> {
                double sum = 0;
                for (int i = 0; i < q.length; i++) {
                    double d = (double) q[i] - v[i];
                    sum += d * d;
                }
                yield Math.sqrt(sum);
            }
            case DOT_PRODUCT -> {
                double dot = 0;
                for (int i = 0; i < q.length; i++) dot += (double) q[i] * v[i];
                yield dot;
            }
        };
        return Math.max(-Float.MAX_VALUE, Math.min(Float.MAX_VALUE, s));
    }

    /** Whether score {@code a} ranks before {@code b}: lower first, but higher first for DOT_PRODUCT. */
    public static boolean better(Distance distance, double a, double b) {
        return distance == Distance.DOT_PRODUCT ? a > b : a < b;
    }
}
