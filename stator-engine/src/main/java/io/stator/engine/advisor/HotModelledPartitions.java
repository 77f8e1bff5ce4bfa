package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * F4: a partition near its ceiling while no key in it is hot (advisor.md 6.1): many keys that
 * happen to share a hash range together need more than one partition serves. The partitions are
 * Stator's model ({@code Throughput}'s hash ranges, the same the capacity model throttles by),
 * not DynamoDB's, whose hash and boundaries are not public: the finding says "modelled". A
 * partition's load in a second is the larger of its write units over 1,000 and its read units
 * over 3,000 (the two ceilings are enforced apart), projected; warn at {@value #WARN_SHARE} of it
 * held {@value HotPartitionKeys#WARN_SECONDS} consecutive seconds. A second in which a key of the
 * partition is itself at F1's or F2's warn level does not count: that key's finding explains it.
 */
final class HotModelledPartitions implements FindingRule {

    /** The share of a ceiling that warns (the capacity model's own "hot" share, Partitions.HOT_SHARE). */
    static final double WARN_SHARE = 0.8;
    /** Keys of the partition shown. */
    static final int KEYS_SHOWN = 50;

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        for (IndexDefinition index : context.resources()) {
            List<ResourceSummary> seconds = context.seconds(index);
            if (seconds.isEmpty()) continue;
            List<Reports.Partition> partitions = context.partitions(index).partitions();
            long[] starts = new long[partitions.size()];
            for (int i = 0; i < starts.length; i++) starts[i] = partitions.get(i).firstHash();
            // Per partition, the seconds a key of its own was at F1's or F2's level.
            Map<Integer, Set<Long>> keyedSeconds = new HashMap<>();
            for (ResourceSummary s : seconds) {
                for (KeyTable.Measure m : List.of(KeyTable.Measure.WRITE, KeyTable.Measure.READ)) {
                    for (KeyFigures f : s.partitionKeys().getOrDefault(m, List.of())) {
                        if (f.writeHalves() / 2.0 * context.scale() >= HotPartitionKeys.WRITE_WARN
                                || f.readHalves() / 2.0 * context.scale() >= HotPartitionKeys.READ_WARN) {
                            keyedSeconds.computeIfAbsent(PartitionMap.indexOf(starts, f.key().partitionHash()),
                                    x -> new HashSet<>()).add(s.period());
                        }
                    }
                }
            }
            for (int p = 0; p < partitions.size(); p++) {
                Reports.Partition partition = partitions.get(p);
                Set<Long> keyed = keyedSeconds.getOrDefault(p, Set.of());
                NavigableMap<Long, Double> load = new TreeMap<>();
                Map<Long, Reports.PartitionSecond> bySecond = new HashMap<>();
                for (Reports.PartitionSecond s : partition.seconds()) {
                    bySecond.put(s.second(), s);
                    if (!keyed.contains(s.second())) load.put(s.second(), share(s, context.scale()));
                }
                KeyLoads.Heat heat = KeyLoads.judge(load, WARN_SHARE, HotPartitionKeys.WARN_SECONDS,
                        Double.POSITIVE_INFINITY);
                if (heat != null) {
                    out.add(finding(context, index, partition, heat, load, bySecond));
                }
            }
        }
    }

    /** A second's load as a share of the partition's ceiling: the larger of writes' and reads'. */
    private static double share(Reports.PartitionSecond s, double scale) {
        return Math.max(s.writeUnits() * scale / HotPartitionKeys.WRITE_CEILING,
                s.readUnits() * scale / HotPartitionKeys.READ_CEILING);
    }

    private static Finding finding(AdvisorContext context, IndexDefinition index, Reports.Partition partition,
                                   KeyLoads.Heat heat, NavigableMap<Long, Double> load,
                                   Map<Long, Reports.PartitionSecond> bySecond) {
        double scale = context.scale();
        List<Map<String, Object>> timeline = new ArrayList<>();
        double peakWrite = 0;
        double peakRead = 0;
        for (Map.Entry<Long, Double> e : load.subMap(heat.fromSecond(), true, heat.toSecond(), true).entrySet()) {
            Reports.PartitionSecond s = bySecond.get(e.getKey());
            peakWrite = Math.max(peakWrite, s.writeUnits() * scale);
            peakRead = Math.max(peakRead, s.readUnits() * scale);
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("second", Instant.ofEpochSecond(e.getKey()));
            point.put("writeUnits", s.writeUnits() * scale);
            point.put("readUnits", s.readUnits() * scale);
            point.put("ceilingShare", e.getValue());
            timeline.add(point);
        }
        // The keys of the partition among the top of the minutes of the span (50 a minute), busiest first.
        Map<KeyBytes, long[]> keys = new HashMap<>();
        for (ResourceSummary m : context.minutes(index)) {
            if (m.period() < Math.floorDiv(heat.fromSecond(), 60) || m.period() > Math.floorDiv(heat.toSecond(), 60)) continue;
            Map<KeyBytes, KeyFigures> listed = new HashMap<>();
            for (KeyTable.Measure measure : List.of(KeyTable.Measure.WRITE, KeyTable.Measure.READ)) {
                for (KeyFigures f : m.partitionKeys().getOrDefault(measure, List.of())) listed.put(f.key(), f);
            }
            for (KeyFigures f : listed.values()) {
                long hash = f.key().partitionHash();
                if (Long.compareUnsigned(hash, partition.firstHash()) < 0
                        || Long.compareUnsigned(hash, partition.lastHash()) > 0) continue;
                long[] units = keys.computeIfAbsent(f.key(), k -> new long[2]);
                units[0] += f.readHalves();
                units[1] += f.writeHalves();
            }
        }
        List<Map.Entry<KeyBytes, long[]>> inSpan = new ArrayList<>(keys.entrySet());
        inSpan.sort((a, b) -> {
            int c = Long.compare(3 * b.getValue()[1] + b.getValue()[0], 3 * a.getValue()[1] + a.getValue()[0]);
            return c != 0 ? c : a.getKey().compareBytes(b.getKey());
        });
        List<Map<String, Object>> keyList = new ArrayList<>();
        for (Map.Entry<KeyBytes, long[]> e : inSpan.subList(0, Math.min(KEYS_SHOWN, inSpan.size()))) {
            Map<String, Object> k = new LinkedHashMap<>();
            k.put("key", context.key(e.getKey(), index));
            k.put("observedWriteUnits", e.getValue()[1] / 2.0);
            k.put("observedReadUnits", e.getValue()[0] / 2.0);
            keyList.add(k);
        }
        boolean writes = peakWrite / HotPartitionKeys.WRITE_CEILING >= peakRead / HotPartitionKeys.READ_CEILING;
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("modelled", true);
        evidence.put("model", "Stator's partitions: hash ranges of the partition key's 64-bit hash; DynamoDB's"
                + " hash and boundaries are not public, so its partitions differ (per-key limits are exact)");
        evidence.put("firstHash", String.format("%016x", partition.firstHash()));
        evidence.put("lastHash", String.format("%016x", partition.lastHash()));
        evidence.put("scale", scale);
        Map<String, Object> ceilings = new LinkedHashMap<>();
        ceilings.put("writeUnitsPerSecond", HotPartitionKeys.WRITE_CEILING);
        ceilings.put("readUnitsPerSecond", HotPartitionKeys.READ_CEILING);
        evidence.put("ceilings", ceilings);
        evidence.put("warnShare", WARN_SHARE);
        evidence.put("warnSeconds", HotPartitionKeys.WARN_SECONDS);
        evidence.put("peakCeilingShare", heat.peak());
        evidence.put("peakWriteUnitsPerSecond", peakWrite);
        evidence.put("peakReadUnitsPerSecond", peakRead);
        evidence.put("timeline", timeline);
        evidence.put("keysListed", inSpan.size());
        evidence.put("keys", keyList);
        evidence.put("operations", KeyLoads.operations(context, index, writes, heat.fromSecond(), heat.toSecond()));

        double peak = writes ? peakWrite : peakRead;
        String unit = writes ? "WCU/s" : "RCU/s";
        String summary = "Modelled partition " + evidence.get("firstHash") + "-" + evidence.get("lastHash") + " of "
                + KeyLoads.resource(index) + " took " + KeyLoads.units(peak) + " " + unit + " at its peak"
                + KeyLoads.projection(scale, peak / scale) + ", at or above "
                + KeyLoads.percent(WARN_SHARE) + " of its ceiling for " + heat.hotSeconds() + " s, while no key in"
                + " it reached F1's or F2's level: " + inSpan.size() + " keys or more share it.";
        return context.finding("F4", "Hot modelled partition", Finding.Severity.WARN, index, summary, evidence,
                heat.fromSecond() * 1000, heat.toSecond() * 1000 + 999, FIX,
                List.of("burst-adaptive-capacity", "warm-throughput", "bp-partition-key-uniform-load"), null);
    }

    static final String FIX = "Give the load more partitions: raise the table's (or the index's) warm throughput,"
            + " or its provisioned capacity, so that it is split ahead of the traffic; and spread the keys, so"
            + " that no hash range carries a partition's worth (the partition is modelled: DynamoDB's own"
            + " boundaries differ, the load that needs more than one partition does not).";
}
