package io.stator.engine.streams;

import io.stator.engine.index.PropagationDelay;

/**
 * How the server shapes its streams (a stream has one open shard per partition of its table,
 * {@link ShardLineage}): how long a shard stays open before a child succeeds it (DynamoDB: about
 * four hours), how long records are kept (DynamoDB: 24 hours), and how late records become
 * readable ({@code --stream-delay}).
 */
public record StreamSettings(long shardPeriodMillis, long retentionMillis, PropagationDelay delay) {

    /** DynamoDB's rollover, about every four hours (DynamoDB Local's SHARD_ROLLOVER_TIME is 4 h). */
    public static final long DEFAULT_SHARD_PERIOD_MILLIS = 4L * 3600 * 1000;
    /** "Stream records are retained for 24 hours" (developer guide, "Change data capture for DynamoDB Streams"). */
    public static final long DEFAULT_RETENTION_MILLIS = 24L * 3600 * 1000;

    public static final StreamSettings DEFAULTS =
            new StreamSettings(DEFAULT_SHARD_PERIOD_MILLIS, DEFAULT_RETENTION_MILLIS, PropagationDelay.NONE);

    public StreamSettings {
        if (shardPeriodMillis < 1 || retentionMillis < 1) throw new IllegalArgumentException("periods must be positive");
    }

    public StreamSettings withDelay(PropagationDelay d) {
        return new StreamSettings(shardPeriodMillis, retentionMillis, d);
    }
}
