package io.stator.engine.advisor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * F3: one item that takes half of what a partition serves, second after second (advisor.md 6.1).
 * Its load is Contributor Insights' unit, 3 x write units + read units a second (developer
 * guide, contributorinsights_HowItWorks: "the per-item maximum" is 1,000 writes or 3,000 reads a
 * second, 3,000 of that unit), PartiQL's requests counted too (they draw on the same partition).
 * Warn at {@value #WARN_UNITS} of it, projected, held {@value HotPartitionKeys#WARN_SECONDS}
 * consecutive seconds. An item is often hot because it is a counter: the evidence says whether the
 * table has an UpdateItem that ADDs, and which.
 */
final class HotItems implements FindingRule {

    /** What one item can take a second, in Contributor Insights' unit (1,000 writes or 3,000 reads). */
    static final double ITEM_CEILING = 3_000;
    /** Warn at half of it. */
    static final double WARN_UNITS = 1_500;

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        List<ResourceSummary> seconds = context.seconds(null);
        Map<KeyBytes, NavigableMap<Long, Long>> timelines = KeyLoads.timelines(seconds,
                s -> List.of(s.items().getOrDefault(KeyTable.Measure.INSIGHTS, List.of()),
                        s.items().getOrDefault(KeyTable.Measure.WRITE, List.of()),
                        s.items().getOrDefault(KeyTable.Measure.READ, List.of())),
                f -> 3 * f.writeHalves() + f.readHalves());
        List<KeyLoads.HotKey> hot = new ArrayList<>();
        timelines.forEach((item, halves) -> {
            KeyLoads.Heat heat = KeyLoads.judge(KeyLoads.projected(halves, context.scale()), WARN_UNITS,
                    HotPartitionKeys.WARN_SECONDS, Double.POSITIVE_INFINITY);
            if (heat != null) hot.add(new KeyLoads.HotKey(item, halves, heat));
        });
        if (hot.isEmpty()) return;
        hot.sort(Comparator.comparingDouble((KeyLoads.HotKey h) -> -h.heat().peak())
                .thenComparing((a, b) -> a.key().compareBytes(b.key())));

        double scale = context.scale();
        List<String> counters = counterSignatures(context);
        List<Map<String, Object>> items = new ArrayList<>();
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        for (KeyLoads.HotKey h : hot.subList(0, Math.min(KeyLoads.KEYS_SHOWN, hot.size()))) {
            KeyLoads.Heat heat = h.heat();
            from = Math.min(from, heat.fromSecond());
            to = Math.max(to, heat.toSecond());
            long tableHalves = KeyLoads.sum(seconds, heat.fromSecond(), heat.toSecond(),
                    s -> 3 * s.writeHalves() + s.readHalves());
            items.add(KeyLoads.keyEvidence(context, null, h, tableHalves, ITEM_CEILING));
        }
        List<Map<String, Object>> operations = new ArrayList<>(KeyLoads.operations(context, null, true, from, to));
        operations.addAll(KeyLoads.operations(context, null, false, from, to));

        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("measure", "3 x write units + read units (Contributor Insights' ConsumedThroughputUnits)");
        evidence.put("scale", scale);
        evidence.put("itemCeilingUnitsPerSecond", ITEM_CEILING);
        evidence.put("warnUnitsPerSecond", WARN_UNITS);
        evidence.put("warnSeconds", HotPartitionKeys.WARN_SECONDS);
        evidence.put("counter", !counters.isEmpty());
        evidence.put("counterSignatures", counters);
        evidence.put("hotItems", hot.size());
        evidence.put("items", items);
        evidence.put("operations", operations);

        KeyLoads.HotKey top = hot.get(0);
        String summary = "Item " + KeyLoads.describe(context.values(top.key(), null)) + " took "
                + KeyLoads.units(top.heat().peak()) + " units/s (3W+R) at its peak"
                + KeyLoads.projection(scale, top.heat().peak() / scale) + ", at or above "
                + KeyLoads.units(WARN_UNITS) + " for " + top.heat().hotSeconds() + " s: "
                + KeyLoads.percent(top.heat().peak() / ITEM_CEILING) + " of the 1,000 writes or 3,000 reads one item"
                + " can take" + (counters.isEmpty() ? "" : "; the table has a counter (" + counters.get(0) + ")") + ".";
        out.add(context.finding("F3", "Hot item", Finding.Severity.WARN, null, summary, evidence, from * 1000,
                to * 1000 + 999, counters.isEmpty() ? FIX : COUNTER_FIX,
                List.of("bp-partition-key-sharding", "WorkingWithItems"), null));
    }

    /** The table's UpdateItem patterns that ADD to an attribute: what a counter looks like. */
    private static List<String> counterSignatures(AdvisorContext context) {
        List<String> out = new ArrayList<>();
        for (PatternFigures p : context.patterns()) {
            Signature s = p.signature();
            if (!s.action().equals("UpdateItem")) continue;
            if (s.update().stream().anyMatch(u -> u.startsWith("ADD "))) out.add(s.describe());
        }
        return out;
    }

    static final String FIX = "Shard the item: keep N copies under N keys (a suffix), write one and read one"
            + " at random, or spread what it holds over several items, so that no item takes more than its"
            + " partition's 1,000 writes or 3,000 reads a second.";
    static final String COUNTER_FIX = "The item is a counter: shard it N ways (ADD to one of N items chosen at"
            + " random, and sum the N when reading), or aggregate the increments elsewhere (a stream consumer"
            + " or the application) and write the total now and then, so that no item takes more than its"
            + " partition's 1,000 writes a second.";
}
