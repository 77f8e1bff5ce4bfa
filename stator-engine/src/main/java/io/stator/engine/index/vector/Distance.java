package io.stator.engine.index.vector;

/** DynamoDB's VectorDistanceFunction: how a vector index scores a stored vector against a query. */
public enum Distance { COSINE, EUCLIDEAN, DOT_PRODUCT }
