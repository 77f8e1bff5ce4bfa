package io.stator.engine.index.vector;

/**
 * A vector index's distance function, DynamoDB's {@code VectorDistanceFunction}
 * (docs/dynamodb/vector-search.md §2.4, §8): how a stored vector is scored against the query
 * vector, and which scores rank first.
 */
public enum Distance {
    /** {@code 1 - q.v/(|q||v|)}, 0 (same direction) to 2 (opposite); lowest first. */
    COSINE(true),
    /** The L2 distance {@code sqrt(sum (qi-vi)^2)}; lowest first. */
    EUCLIDEAN(true),
    /** The raw inner product {@code sum qi*vi}, negative allowed; highest first. */
    DOT_PRODUCT(false);

    private final boolean lowerIsBetter;

    Distance(boolean lowerIsBetter) {
        this.lowerIsBetter = lowerIsBetter;
    }

    /** Whether the lowest scores rank first (COSINE, EUCLIDEAN), not the highest (DOT_PRODUCT). */
    public boolean lowerIsBetter() {
        return lowerIsBetter;
    }
}
