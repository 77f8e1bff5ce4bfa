package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * F5: a partition key with too few values, or one value with too large a share, for a load that
 * needs more than one partition (advisor.md 6.1). A partition serves 1,000 write units and 3,000
 * read units a second; a load past that can only be spread over partitions by its keys, and a
 * key of a few values (the developer guide's uniformity table, bp-partition-key-uniform-load,
 * rates "status code" as Bad) cannot be. The rule reads the minutes kept: a minute counts when its
 * busiest second, projected, is over one partition's ceiling (writes or reads) and it saw fewer
 * than {@value #MIN_DISTINCT} distinct values, or its top value took {@value #TOP_SHARE} or more of
 * its units (3 x write units + read units, so that reads and writes weigh as the two ceilings do).
 * Below one partition's ceiling the key's spread does not matter (one partition serves it all),
 * which keeps a small table's skew quiet. {@link #assess} serves F9 on each global index.
 */
final class LowCardinalityKeys implements FindingRule {

    static final long MIN_DISTINCT = 100;
    static final double TOP_SHARE = 0.25;
    /** Values shown with their shares. */
    static final int VALUES_SHOWN = 10;

    /**
     * A resource's worst minute by this test: its load (the larger share of a partition's ceilings,
     * projected), distinct values, and top values' shares (of 3W + R).
     */
    record Assessment(ResourceSummary minute, int minutesFound, long firstMinute, long lastMinute, double load,
                      double peakWriteUnits, double peakReadUnits, long distinct, boolean distinctExact,
                      List<Map.Entry<KeyBytes, Double>> topShares) {

        double topShare() { return topShares.isEmpty() ? 0 : topShares.get(0).getValue(); }
    }

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        Assessment a = assess(context, null);
        if (a == null) return;
        out.add(context.finding("F5", "Low-cardinality partition key", Finding.Severity.WARN, null,
                summary(context, null, a), evidence(context, null, a), a.firstMinute() * 60_000,
                a.lastMinute() * 60_000 + 59_999, FIX, SOURCES, null));
    }

    /** The resource's minutes that fail the test, summed up by the one with the most load; null when none. */
    static Assessment assess(AdvisorContext context, IndexDefinition index) {
        double scale = context.scale();
        Assessment worst = null;
        int found = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (ResourceSummary m : context.minutes(index)) {
            double peakWrite = m.peakWriteHalves() / 2.0 * scale;
            double peakRead = m.peakReadHalves() / 2.0 * scale;
            double load = Math.max(peakWrite / HotPartitionKeys.WRITE_CEILING, peakRead / HotPartitionKeys.READ_CEILING);
            if (!(load > 1)) continue;
            long total = 3 * m.writeHalves() + m.readHalves();
            if (total == 0) continue;
            Map<KeyBytes, Long> byKey = new HashMap<>();
            for (KeyTable.Measure measure : List.of(KeyTable.Measure.INSIGHTS, KeyTable.Measure.WRITE,
                    KeyTable.Measure.READ)) {
                for (KeyFigures f : m.partitionKeys().getOrDefault(measure, List.of())) {
                    byKey.put(f.key(), 3 * f.writeHalves() + f.readHalves());
                }
            }
            List<Map.Entry<KeyBytes, Double>> shares = new ArrayList<>();
            byKey.forEach((k, h) -> shares.add(Map.entry(k, h / (double) total)));
            shares.sort((x, y) -> {
                int c = Double.compare(y.getValue(), x.getValue());
                return c != 0 ? c : x.getKey().compareBytes(y.getKey());
            });
            double top = shares.isEmpty() ? 0 : shares.get(0).getValue();
            if (m.distinctPartitionKeys() >= MIN_DISTINCT && top < TOP_SHARE) continue;
            found++;
            first = Math.min(first, m.period());
            last = Math.max(last, m.period());
            if (worst == null || load > worst.load()) {
                worst = new Assessment(m, 0, 0, 0, load, peakWrite, peakRead, m.distinctPartitionKeys(),
                        m.distinctPartitionKeys() < Observations.KEY_CAP,
                        shares.subList(0, Math.min(VALUES_SHOWN, shares.size())));
            }
        }
        if (worst == null) return null;
        return new Assessment(worst.minute(), found, first, last, worst.load(), worst.peakWriteUnits(),
                worst.peakReadUnits(), worst.distinct(), worst.distinctExact(), worst.topShares());
    }

    /** The evidence of an assessment: the figures, the values and their shares. */
    static Map<String, Object> evidence(AdvisorContext context, IndexDefinition index, Assessment a) {
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("scale", context.scale());
        evidence.put("minute", Instant.ofEpochSecond(a.minute().period() * 60));
        evidence.put("minutesFound", a.minutesFound());
        evidence.put("distinctValues", a.distinct());
        evidence.put("distinctExact", a.distinctExact());
        evidence.put("minDistinct", MIN_DISTINCT);
        evidence.put("topShareWarn", TOP_SHARE);
        evidence.put("peakWriteUnitsPerSecond", a.peakWriteUnits());
        evidence.put("peakReadUnitsPerSecond", a.peakReadUnits());
        evidence.put("partitionsNeeded", Math.ceil(a.load()));
        List<Map<String, Object>> values = new ArrayList<>();
        for (Map.Entry<KeyBytes, Double> e : a.topShares()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("key", context.key(e.getKey(), index));
            v.put("share", e.getValue());
            values.add(v);
        }
        evidence.put("topValues", values);
        evidence.put("uniformity", "bp-partition-key-uniform-load rates a key of few values (\"status code, where"
                + " there are only a few possible status codes\") as Bad");
        return evidence;
    }

    /** One sentence: the key, its values, the load. */
    static String summary(AdvisorContext context, IndexDefinition index, Assessment a) {
        String attribute = index == null ? context.table().keySchema().partitionKey()
                : String.join("#", index.partitionKey().stream().map(IndexDefinition.KeyAttribute::name).toList());
        boolean writes = a.peakWriteUnits() / HotPartitionKeys.WRITE_CEILING
                >= a.peakReadUnits() / HotPartitionKeys.READ_CEILING;
        String load = writes ? KeyLoads.units(a.peakWriteUnits()) + " WCU/s" : KeyLoads.units(a.peakReadUnits()) + " RCU/s";
        String top = a.topShares().isEmpty() ? ""
                : "; its top value " + KeyLoads.describe(context.values(a.topShares().get(0).getKey(), index))
                + " took " + KeyLoads.percent(a.topShare()) + " of the units";
        return "Partition key " + attribute + " of " + KeyLoads.resource(index) + " had " + a.distinct()
                + " distinct value" + (a.distinct() == 1 ? "" : "s") + " in a minute whose peak needed "
                + (long) Math.ceil(a.load()) + " partitions (" + load + ")" + top + ".";
    }

    static final List<String> SOURCES = List.of("bp-partition-key-uniform-load", "bp-partition-key-design",
            "bp-partition-key-sharding");
    static final String FIX = "Choose a partition key with many values that the load spreads over evenly (a user,"
            + " device or order id rather than a status or a type), or add a suffix to the values (write"
            + " sharding) so that each takes no more than a partition's share.";
}
