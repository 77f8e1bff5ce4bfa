package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * F1 and F2: a partition key value that takes a large share of one partition's ceiling, second
 * after second (advisor.md 6.1). DynamoDB serves one partition key value from one partition,
 * which serves at most 1,000 write units and 3,000 read units a second whatever the table has
 * (developer guide, warm-throughput-scenarios: "each individual partition is limited to 1,000 write
 * units per second and 3,000 read units per second"): however much the table may take, a key past
 * that is throttled. The rule reads each second kept (the last 300) of the table and of each global index
 * (an index entry's write lands on its own key in the index: a table's writes fan out there), and
 * judges each key's units per second, projected by {@code --advisor-scale}: warn at half the
 * ceiling held for {@value #WARN_SECONDS} consecutive seconds, critical past the ceiling in any
 * second. One finding per table or index, its hottest keys in its evidence.
 */
final class HotPartitionKeys implements FindingRule {

    static final double WRITE_CEILING = 1_000;
    static final double READ_CEILING = 3_000;
    /** Warn at half a partition's ceiling... */
    static final double WRITE_WARN = 500;
    static final double READ_WARN = 1_500;
    /** ...held this many consecutive seconds. */
    static final int WARN_SECONDS = 5;
    /** Critical past the ceiling in any second. */
    static final double WRITE_CRITICAL = 1_000;
    static final double READ_CRITICAL = 3_000;

    static final HotPartitionKeys WRITES = new HotPartitionKeys(true);
    static final HotPartitionKeys READS = new HotPartitionKeys(false);

    private final boolean writes;

    private HotPartitionKeys(boolean writes) {
        this.writes = writes;
    }

    /** The keys of a table (index null) or global index that are hot by writes or reads, hottest first. */
    static List<KeyLoads.HotKey> hotKeys(AdvisorContext context, IndexDefinition index, boolean writes) {
        List<ResourceSummary> seconds = context.seconds(index);
        KeyTable.Measure measure = writes ? KeyTable.Measure.WRITE : KeyTable.Measure.READ;
        Map<KeyBytes, NavigableMap<Long, Long>> timelines = KeyLoads.timelines(seconds,
                s -> List.of(s.partitionKeys().getOrDefault(measure, List.of())),
                f -> writes ? f.writeHalves() : f.readHalves());
        List<KeyLoads.HotKey> hot = new ArrayList<>();
        timelines.forEach((key, halves) -> {
            KeyLoads.Heat heat = KeyLoads.judge(KeyLoads.projected(halves, context.scale()),
                    writes ? WRITE_WARN : READ_WARN, WARN_SECONDS, writes ? WRITE_CRITICAL : READ_CRITICAL);
            if (heat != null) hot.add(new KeyLoads.HotKey(key, halves, heat));
        });
        hot.sort(Comparator.comparing((KeyLoads.HotKey h) -> h.heat().severity()).reversed()
                .thenComparing(h -> -h.heat().peak()).thenComparing((a, b) -> a.key().compareBytes(b.key())));
        return hot;
    }

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        for (IndexDefinition index : context.resources()) {
            List<KeyLoads.HotKey> hot = hotKeys(context, index, writes);
            if (!hot.isEmpty()) out.add(finding(context, index, hot));
        }
    }

    private Finding finding(AdvisorContext context, IndexDefinition index, List<KeyLoads.HotKey> hot) {
        double scale = context.scale();
        double ceiling = writes ? WRITE_CEILING : READ_CEILING;
        String unit = writes ? "WCU/s" : "RCU/s";
        List<ResourceSummary> seconds = context.seconds(index);
        List<Map<String, Object>> keys = new ArrayList<>();
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        double dollars = 0;
        for (KeyLoads.HotKey h : hot.subList(0, Math.min(KeyLoads.KEYS_SHOWN, hot.size()))) {
            KeyLoads.Heat heat = h.heat();
            from = Math.min(from, heat.fromSecond());
            to = Math.max(to, heat.toSecond());
            long resourceHalves = KeyLoads.sum(seconds, heat.fromSecond(), heat.toSecond(),
                    writes ? ResourceSummary::writeHalves : ResourceSummary::readHalves);
            double averagePerSecond = h.halvesInSpan() / 2.0 * scale / (heat.toSecond() - heat.fromSecond() + 1);
            dollars += context.prices().onDemandMonthly(KeyLoads.tableClass(context), writes ? 0 : averagePerSecond,
                    writes ? averagePerSecond : 0);
            keys.add(KeyLoads.keyEvidence(context, index, h, resourceHalves, ceiling));
        }
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("measure", writes ? "write units" : "read units");
        evidence.put("scale", scale);
        evidence.put("partitionCeilingUnitsPerSecond", ceiling);
        evidence.put("warnUnitsPerSecond", writes ? WRITE_WARN : READ_WARN);
        evidence.put("warnSeconds", WARN_SECONDS);
        evidence.put("criticalUnitsPerSecond", writes ? WRITE_CRITICAL : READ_CRITICAL);
        evidence.put("hotKeys", hot.size());
        evidence.put("keys", keys);
        evidence.put("operations", KeyLoads.operations(context, index, writes, from, to));

        KeyLoads.HotKey top = hot.get(0);
        String more = hot.size() > 1 ? " (and " + (hot.size() - 1) + " more key" + (hot.size() > 2 ? "s" : "") + ")" : "";
        String summary = "Partition key " + KeyLoads.describe(context.values(top.key(), index)) + " of "
                + KeyLoads.resource(index) + " took " + KeyLoads.units(top.heat().peak()) + " " + unit + " at its peak"
                + KeyLoads.projection(scale, top.heat().peak() / scale) + ", at or above "
                + KeyLoads.units(writes ? WRITE_WARN : READ_WARN) + " for " + top.heat().hotSeconds() + " s: "
                + KeyLoads.percent(top.heat().peak() / ceiling) + " of a partition's " + KeyLoads.units(ceiling) + more
                + ".";
        Finding.Severity severity = top.heat().severity();
        return writes
                ? context.finding("F1", "Hot partition key (writes)", severity, index, summary, evidence, from * 1000,
                        to * 1000 + 999, index == null ? WRITE_FIX : INDEX_WRITE_FIX,
                        index == null ? List.of("bp-partition-key-sharding", "bp-partition-key-uniform-load")
                                : List.of("bp-indexes-gsi-sharding", "bp-partition-key-sharding"), dollars)
                : context.finding("F2", "Hot partition key (reads)", severity, index, summary, evidence, from * 1000,
                        to * 1000 + 999, READ_FIX, List.of("DAX", "HowItWorks.ReadConsistency",
                                "bp-partition-key-sharding"), dollars);
    }

    static final String WRITE_FIX = "Spread the key's writes over several partition key values: write sharding, a"
            + " random or calculated suffix (pk#1 .. pk#N, read back from all N), or a composite key that adds"
            + " what varies (device_id#hour), so that no one value needs more than a partition's 1,000 WCU/s.";
    static final String INDEX_WRITE_FIX = "Shard the index's partition key: write it with a suffix"
            + " (value#0 .. value#9, computed from the item) and query every shard, so that no index key value"
            + " takes more than a partition's 1,000 WCU/s; an index whose writes are throttled throttles the"
            + " table's writes.";
    static final String READ_FIX = "Take the key's reads off its partition: cache them (DynamoDB Accelerator or"
            + " a cache of your own), keep copies of the item under several keys and read one at random, and read"
            + " eventually consistent where staleness is acceptable (half the units).";
}
