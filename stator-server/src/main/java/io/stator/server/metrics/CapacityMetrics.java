package io.stator.server.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.stator.engine.capacity.Throughput;
import io.stator.engine.capacity.Throughput.PartitionFigures;
import io.stator.engine.capacity.Throughput.ResourceFigures;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The capacity figures of every table and global secondary index, read from
 * {@link Throughput#snapshot()} when Prometheus scrapes (so that nothing is added to a request's
 * path): ConsumedRead/WriteCapacityUnits, ProvisionedRead/WriteCapacityUnits (provisioned tables
 * and indexes only, as CloudWatch reports them), Read/WriteThrottleEvents and the throttle
 * events by reason (Read/Write ProvisionedThroughput, KeyRangeThroughput,
 * MaxOnDemandThroughput, AccountLimit ThrottleEvents: those the resource's mode can give, and any
 * other it has given); and of its partitions, their number, units and key-range throttle events.
 *
 * <p>Partitions are bounded: a table or index may have thousands (4,096 at most), and a label
 * value each would make a scrape as large. Those of a resource with at most
 * {@value #PARTITIONS_SHOWN} partitions are all exported; of a larger one, the
 * {@value #PARTITIONS_SHOWN} that refused the most (key-range throttle events), then that
 * consumed the most: the hot ones, which are what a partition-level figure is for.
 * {@code stator_partitions} says how many there are.
 */
final class CapacityMetrics implements MultiCollector {

    static final int PARTITIONS_SHOWN = 10;

    /** The limit types of the throttling reasons, and which billing mode can hit each. */
    private enum LimitType {
        PROVISIONED_THROUGHPUT("ProvisionedThroughput", false, true),
        KEY_RANGE_THROUGHPUT("KeyRangeThroughput", true, true),
        MAX_ON_DEMAND_THROUGHPUT("MaxOnDemandThroughput", true, false),
        ACCOUNT_LIMIT("AccountLimit", true, false);

        final String name;
        final boolean onDemand;
        final boolean provisioned;

        LimitType(String name, boolean onDemand, boolean provisioned) {
            this.name = name;
            this.onDemand = onDemand;
            this.provisioned = provisioned;
        }
    }

    private final Throughput throughput;

    CapacityMetrics(Throughput throughput) {
        this.throughput = throughput;
    }

    @Override
    public MetricSnapshots collect() {
        List<ResourceFigures> resources = throughput.snapshot();
        resources.sort(Comparator.comparing(ResourceFigures::tableName)
                .thenComparing(r -> r.indexName() == null ? "" : r.indexName()));

        Family consumedRead = Family.counter("ConsumedReadCapacityUnits",
                "read units consumed by the table (its local indexes included) or by the global index");
        Family consumedWrite = Family.counter("ConsumedWriteCapacityUnits",
                "write units consumed by the table (its local indexes included) or by the global index");
        Family provisionedRead = Family.gauge("ProvisionedReadCapacityUnits",
                "the provisioned read units of a provisioned table or global index");
        Family provisionedWrite = Family.gauge("ProvisionedWriteCapacityUnits",
                "the provisioned write units of a provisioned table or global index");
        Family readEvents = Family.counter("ReadThrottleEvents", "reads refused by a limit of the table or index, "
                + "one per limit that refused (the four ...ThrottleEvents by reason add up to it)");
        Family writeEvents = Family.counter("WriteThrottleEvents", "writes refused by a limit of the table or index, "
                + "one per limit that refused (the four ...ThrottleEvents by reason add up to it)");
        List<Family> byReason = new ArrayList<>(8);
        for (String direction : List.of("Read", "Write")) {
            for (LimitType limit : LimitType.values()) {
                byReason.add(Family.counter(direction + limit.name + "ThrottleEvents", direction.toLowerCase(Locale.ROOT)
                        + "s refused with the reason <Table|Index>" + direction + limit.name + "Exceeded"));
            }
        }
        Family partitions = Family.stator("stator_partitions", false,
                "the partitions of the table or global index now (each a range of partition-key hashes)");
        Family partitionRead = Family.stator("stator_partition_consumed_read_capacity_units", true,
                "read units consumed in the partition (ConsumedReadCapacityUnits by partition; "
                        + PARTITIONS_SHOWN + " partitions at most per table or index, the hottest)");
        Family partitionWrite = Family.stator("stator_partition_consumed_write_capacity_units", true,
                "write units consumed in the partition (ConsumedWriteCapacityUnits by partition; "
                        + PARTITIONS_SHOWN + " partitions at most per table or index, the hottest)");
        Family partitionReadEvents = Family.stator("stator_partition_read_key_range_throughput_throttle_events", true,
                "reads the partition refused (ReadKeyRangeThroughputThrottleEvents by partition)");
        Family partitionWriteEvents = Family.stator("stator_partition_write_key_range_throughput_throttle_events", true,
                "writes the partition refused (WriteKeyRangeThroughputThrottleEvents by partition)");

        for (ResourceFigures r : resources) {
            Labels labels = Labels.of(MetricNames.TABLE, r.tableName(), MetricNames.INDEX,
                    r.indexName() == null ? "" : r.indexName());
            consumedRead.add(labels, r.consumedReadUnits());
            consumedWrite.add(labels, r.consumedWriteUnits());
            if (!r.onDemand()) {
                provisionedRead.add(labels, r.provisionedReadUnits());
                provisionedWrite.add(labels, r.provisionedWriteUnits());
            }
            long reads = 0;
            long writes = 0;
            int f = 0;
            for (String direction : List.of("Read", "Write")) {
                for (LimitType limit : LimitType.values()) {
                    long n = events(r.throttleEventsByReason(), direction + limit.name + "Exceeded");
                    if (direction.equals("Read")) reads += n;
                    else writes += n;
                    if (n > 0 || (r.onDemand() ? limit.onDemand : limit.provisioned)) byReason.get(f).add(labels, n);
                    f++;
                }
            }
            readEvents.add(labels, reads);
            writeEvents.add(labels, writes);

            partitions.add(labels, r.partitions().size());
            for (PartitionFigures p : shown(r.partitions())) {
                Labels pl = labels.add(MetricNames.PARTITION, String.format("%016x", p.firstHash()));
                partitionRead.add(pl, p.consumedReadUnits());
                partitionWrite.add(pl, p.consumedWriteUnits());
                partitionReadEvents.add(pl, p.readKeyRangeThrottleEvents());
                partitionWriteEvents.add(pl, p.writeKeyRangeThrottleEvents());
            }
        }
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        for (Family family : List.of(consumedRead, consumedWrite, provisionedRead, provisionedWrite, readEvents,
                writeEvents)) {
            family.addTo(out);
        }
        for (Family family : byReason) family.addTo(out);
        for (Family family : List.of(partitions, partitionRead, partitionWrite, partitionReadEvents,
                partitionWriteEvents)) {
            family.addTo(out);
        }
        return out.build();
    }

    /**
     * The count of a reason, whichever way the resource named it: a reason is
     * {@code <Table|Index><Read|Write><LimitType>}, whose LimitType is
     * ProvisionedThroughputExceeded, KeyRangeThroughputExceeded, MaxOnDemandThroughputExceeded or
     * AccountLimitExceeded.
     */
    private static long events(Map<String, Long> byReason, String directionAndLimitType) {
        long n = 0;
        for (Map.Entry<String, Long> e : byReason.entrySet()) {
            String reason = e.getKey();
            boolean resource = reason.startsWith("Table") || reason.startsWith("Index");
            if (resource && reason.substring(5).equals(directionAndLimitType)) n += e.getValue();
        }
        return n;
    }

    /** All partitions if there are few; else the hottest: most refusals, then most units consumed. */
    static List<PartitionFigures> shown(List<PartitionFigures> all) {
        if (all.size() <= PARTITIONS_SHOWN) return all;
        List<PartitionFigures> hottest = new ArrayList<>(all);
        hottest.sort(Comparator.comparingLong((PartitionFigures p) ->
                        p.readKeyRangeThrottleEvents() + p.writeKeyRangeThrottleEvents()).reversed()
                .thenComparing(Comparator.comparingDouble((PartitionFigures p) ->
                        p.consumedReadUnits() + p.consumedWriteUnits()).reversed()));
        List<PartitionFigures> shown = new ArrayList<>(hottest.subList(0, PARTITIONS_SHOWN));
        shown.sort(Comparator.comparing(PartitionFigures::firstHash, Long::compareUnsigned));
        return shown;
    }

    /** One metric family being built from the snapshot. */
    private static final class Family {
        final String name;
        final String help;
        final boolean counter;
        final Labels constant;
        final List<Object> points = new ArrayList<>();

        private Family(String name, String help, boolean counter, Labels constant) {
            this.name = name;
            this.help = help;
            this.counter = counter;
            this.constant = constant;
        }

        static Family counter(String cloudWatchName, String help) {
            return new Family(MetricNames.prometheusName(cloudWatchName), cloudWatchName + ": " + help, true,
                    MetricNames.cloudWatch(cloudWatchName));
        }

        static Family gauge(String cloudWatchName, String help) {
            return new Family(MetricNames.prometheusName(cloudWatchName), cloudWatchName + ": " + help, false,
                    MetricNames.cloudWatch(cloudWatchName));
        }

        static Family stator(String name, boolean counter, String help) {
            return new Family(name, help, counter, Labels.EMPTY);
        }

        void add(Labels labels, double value) {
            Labels all = constant.isEmpty() ? labels : labels.merge(constant);
            points.add(counter ? CounterDataPointSnapshot.builder().labels(all).value(value).build()
                    : GaugeDataPointSnapshot.builder().labels(all).value(value).build());
        }

        void addTo(MetricSnapshots.Builder out) {
            if (points.isEmpty()) return;
            if (counter) {
                CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
                for (Object p : points) b.dataPoint((CounterDataPointSnapshot) p);
                out.metricSnapshot(b.build());
            } else {
                GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
                for (Object p : points) b.dataPoint((GaugeDataPointSnapshot) p);
                out.metricSnapshot(b.build());
            }
        }
    }
}
