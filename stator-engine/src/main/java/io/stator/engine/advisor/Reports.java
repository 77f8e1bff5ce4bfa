package io.stator.engine.advisor;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** What the advisor's read API answers, built by {@link Observations}; units are units, not halves. */
public final class Reports {

    private Reports() {}

    /**
     * Contributor Insights' four graphs of one table or global index over a span of minutes:
     * the top partition keys and items by ConsumedThroughputUnits (3 x write units + read units,
     * per minute) and by ThrottleCount (per minute). The item lists are null for a resource
     * without a sort key (DynamoDB makes no partition-and-sort-key rules for it).
     *
     * @param fromMinute the first minute of the span (minutes since the epoch)
     * @param toMinute   the last minute, the one open now
     */
    public record TopKeys(long fromMinute, long toMinute, List<Contributor> mostAccessedPartitionKeys,
                          List<Contributor> mostAccessedItems, List<Contributor> mostThrottledPartitionKeys,
                          List<Contributor> mostThrottledItems) {}

    /**
     * One key of a graph.
     *
     * @param maximum     the largest per-minute value: what DynamoDB's graph points show
     * @param sum         the values of the span added up
     * @param datapoints  its value in each minute it had one
     * @param approximate some value is estimated (the key was counted by a sketch), or missing for
     *                    a minute whose list was cut (the key was below the minute's top)
     */
    public record Contributor(Map<String, AttributeValue> key, double maximum, double sum, List<Datapoint> datapoints,
                              boolean approximate) {}

    /** @param minute minutes since the epoch */
    public record Datapoint(long minute, double value) {}

    /**
     * The modelled partitions of a table or global index now, each with its consumption in each
     * second of the span ("modelled": Stator's partitions; DynamoDB's boundaries are not public).
     *
     * @param fromSecond    the first second of the span (seconds since the epoch)
     * @param toSecond      the first second of its last period (the one open now, for a span to now)
     * @param periodSeconds the periods' length: 1, or 60 for minutes
     */
    public record Partitions(long fromSecond, long toSecond, int periodSeconds, List<Partition> partitions) {}

    /**
     * @param firstHash    the partition's first hash, unsigned
     * @param lastHash     its last hash, unsigned, inclusive
     * @param seconds      its seconds with traffic
     * @param topKeys      its busiest partition keys in the span (from each period's top keys)
     * @param splitAt      the second it was split off a wider partition, when that happened in the
     *                     span (a period's window opened without it, a later one with it), else -1
     */
    public record Partition(long firstHash, long lastHash, List<PartitionSecond> seconds, double readUnits,
                            double writeUnits, double peakReadUnitsPerSecond, double peakWriteUnitsPerSecond,
                            long throttleEvents, List<KeyUnits> topKeys, long splitAt) {}

    /** One period's units ({@code second}: its first second since the epoch). */
    public record PartitionSecond(long second, double readUnits, double writeUnits, long throttleEvents) {}

    /**
     * A table's or global index's last closed second: its units, and its busiest modelled
     * partition's (what the ceilings of 3,000 and 1,000 units a second judge).
     */
    public record Now(long second, double readUnits, double writeUnits, double hottestPartitionReadUnits,
                      double hottestPartitionWriteUnits, long throttleEvents) {
        public static final Now NONE = new Now(0, 0, 0, 0, 0, 0);
    }

    /**
     * Items read or written one at a time over a span, by size: {@code counts[i]} items of
     * {@code lowBytes[i]} bytes or more (and less than the next bucket's), named {@code labels[i]}.
     */
    public record ItemSizes(List<String> labels, long[] lowBytes, long[] counts) {}

    public record KeyUnits(Map<String, AttributeValue> key, double readUnits, double writeUnits) {}

    /**
     * A table's access patterns over a span of minutes, the costliest first.
     *
     * @param fromMinute the first minute of the span (minutes since the epoch)
     */
    public record AccessPatterns(long fromMinute, long toMinute, List<PatternFigures> patterns) {}

    /**
     * What a table costs a month, its traffic of the last hour (from its first busy minute)
     * projected by the advisor's scale, priced in each capacity mode and table class, storage
     * included (the same figures as F15's, docs/advisor.md).
     *
     * @param monthly dollars a month by billing mode, then table class
     */
    public record TableCost(String billingMode, String tableClass, long minutes, double scale,
                            Map<String, Map<String, Double>> monthly, double storageBytes, double storageMonthly,
                            List<ResourceCost> resources) {}

    /** One resource (the table, index null, or a global index): its projected rates and their month on demand. */
    public record ResourceCost(String indexName, double averageReadUnitsPerSecond, double averageWriteUnitsPerSecond,
                               double peakReadUnitsPerSecond, double peakWriteUnitsPerSecond, double onDemandMonthly) {}
}
