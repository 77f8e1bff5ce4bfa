package io.stator.engine;

import io.stator.engine.capacity.ThroughputSettings;
import io.stator.engine.index.PropagationDelay;
import io.stator.engine.streams.StreamSettings;
import io.stator.engine.table.WriteIsolation;
import java.time.Clock;
import java.time.Duration;

/**
 * Settings the engine needs from the command line: the region and account id that appear in
 * ARNs, the clock (injected so that tests control time), how long changes take to reach global
 * secondary indexes, the size an item collection may reach on a table with a local index, and how
 * late Time to Live deletes an expired item, the shape of DynamoDB Streams' shards and records,
 * how throughput limits apply, the write isolation of tables without the tag
 * ({@link WriteIsolation}, {@code --write-isolation}), how long a table stays CREATING after
 * CreateTable and UPDATING after UpdateTable ({@code --table-creation-delay}; 0, as before: at once),
 * and how far behind now point-in-time recovery's latest restorable time is
 * ({@code --pitr-restorable-lag}; DynamoDB's five minutes by default).
 */
public record EngineConfig(String region, String accountId, Clock clock, PropagationDelay gsiPropagationDelay,
                           long itemCollectionLimitBytes, PropagationDelay ttlDelay, StreamSettings streams,
                           ThroughputSettings throughput, WriteIsolation writeIsolation, Duration tableCreationDelay,
                           Duration pitrRestorableLag) {

    public EngineConfig(String region, String accountId, Clock clock, PropagationDelay gsiPropagationDelay,
                        long itemCollectionLimitBytes, PropagationDelay ttlDelay, StreamSettings streams,
                        ThroughputSettings throughput, WriteIsolation writeIsolation, Duration tableCreationDelay) {
        this(region, accountId, clock, gsiPropagationDelay, itemCollectionLimitBytes, ttlDelay, streams, throughput,
                writeIsolation, tableCreationDelay, DEFAULT_PITR_RESTORABLE_LAG);
    }

    public EngineConfig(String region, String accountId, Clock clock, PropagationDelay gsiPropagationDelay,
                        long itemCollectionLimitBytes, PropagationDelay ttlDelay, StreamSettings streams,
                        ThroughputSettings throughput, WriteIsolation writeIsolation) {
        this(region, accountId, clock, gsiPropagationDelay, itemCollectionLimitBytes, ttlDelay, streams, throughput,
                writeIsolation, Duration.ZERO);
    }

    public static final String DEFAULT_REGION = "us-east-1";
    /** DynamoDB's latest restorable time: "typically 5 minutes" before now (API reference). */
    public static final Duration DEFAULT_PITR_RESTORABLE_LAG = Duration.ofMinutes(5);
    public static final String DEFAULT_ACCOUNT_ID = "000000000000";
    /** DynamoDB's limit on an item collection of a table with a local secondary index: 10 GB. */
    public static final long DEFAULT_ITEM_COLLECTION_LIMIT_BYTES = 10L * 1024 * 1024 * 1024;

    public EngineConfig(String region, String accountId, Clock clock, PropagationDelay gsiPropagationDelay,
                        long itemCollectionLimitBytes, PropagationDelay ttlDelay, StreamSettings streams,
                        ThroughputSettings throughput) {
        this(region, accountId, clock, gsiPropagationDelay, itemCollectionLimitBytes, ttlDelay, streams, throughput,
                WriteIsolation.ALWAYS_USE_LWT);
    }

    public EngineConfig(String region, String accountId, Clock clock, PropagationDelay gsiPropagationDelay,
                        long itemCollectionLimitBytes, PropagationDelay ttlDelay) {
        this(region, accountId, clock, gsiPropagationDelay, itemCollectionLimitBytes, ttlDelay, StreamSettings.DEFAULTS,
                ThroughputSettings.DEFAULTS);
    }

    public EngineConfig(String region, String accountId, Clock clock) {
        this(region, accountId, clock, PropagationDelay.NONE, DEFAULT_ITEM_COLLECTION_LIMIT_BYTES, PropagationDelay.NONE);
    }

    public static EngineConfig defaults() {
        return new EngineConfig(DEFAULT_REGION, DEFAULT_ACCOUNT_ID, Clock.systemUTC());
    }
}
