package io.stator.engine.capacity;

import java.util.Locale;

/**
 * How Stator applies DynamoDB's throughput limits.
 *
 * @param mode              {@link Mode#ENFORCE}: throttle as DynamoDB would (the default);
 *                          {@link Mode#REPORT}: compute and report everything, throttle nothing.
 *                          A table's tag {@value #MODE_TAG} ({@code enforce} or {@code report})
 *                          overrides it for that table.
 * @param splitDelayMillis  how long a partition must run hot before it splits for heat
 * @param tableQuotaUnits   DynamoDB's default per-table quota, 40,000 read and 40,000 write units
 *                          a second (developer guide, ServiceQuotas; also DescribeLimits' table values)
 * @param partitionBytes    the data a partition holds before it splits: about 10 GB on DynamoDB
 *                          (developer guide, burst-adaptive-capacity); smaller in tests
 */
public record ThroughputSettings(Mode mode, long splitDelayMillis, long tableQuotaUnits, long partitionBytes) {

    public ThroughputSettings(Mode mode, long splitDelayMillis, long tableQuotaUnits) {
        this(mode, splitDelayMillis, tableQuotaUnits, DEFAULT_PARTITION_BYTES);
    }

    public ThroughputSettings withMode(Mode newMode) {
        return new ThroughputSettings(newMode, splitDelayMillis, tableQuotaUnits, partitionBytes);
    }

    public ThroughputSettings withPartitionBytes(long bytes) {
        return new ThroughputSettings(mode, splitDelayMillis, tableQuotaUnits, bytes);
    }

    public enum Mode {
        ENFORCE, REPORT;

        public static Mode parse(String text) {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "enforce" -> ENFORCE;
                case "report" -> REPORT;
                default -> throw new IllegalArgumentException("expected enforce or report, not " + text);
            };
        }
    }

    /** The tag that sets one table's mode. */
    public static final String MODE_TAG = "stator:throughput";

    /**
     * Five minutes: DynamoDB splits for heat "typically in minutes" (the 2022 paper), with no
     * threshold published (dynamodb-throughput.md, section 14).
     */
    public static final long DEFAULT_SPLIT_DELAY_MILLIS = 5 * 60 * 1000L;
    public static final long DEFAULT_TABLE_QUOTA_UNITS = 40_000;
    public static final long DEFAULT_PARTITION_BYTES = 10L * 1024 * 1024 * 1024;
    /** How often a table's size is read to split partitions that outgrew {@link #partitionBytes}. */
    public static final long SIZE_CHECK_INTERVAL_MILLIS = 60_000;

    public static final ThroughputSettings DEFAULTS =
            new ThroughputSettings(Mode.ENFORCE, DEFAULT_SPLIT_DELAY_MILLIS, DEFAULT_TABLE_QUOTA_UNITS);
}
