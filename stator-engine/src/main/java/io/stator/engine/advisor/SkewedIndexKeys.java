package io.stator.engine.advisor;

import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.table.IndexDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * F9: a global index whose partition key has too few values or too hot a value, and the
 * back-pressure that follows (advisor.md 6.1). An index is written as its table is, but its key
 * is often a low-cardinality attribute (a status, a type) that the table's key is not, and when
 * an index cannot take its writes the table's writes are throttled (the throttling reasons
 * {@code IndexWrite...}: developer guide, TroubleshootingThrottling; GSI back-pressure,
 * dynamodb-throughput.md section 9). Per global index: F5's test on the index's key
 * ({@link LowCardinalityKeys#assess}), its hot keys by F1's levels (shown; F1 reports them too), and
 * the table's writes an {@code IndexWrite...} reason refused. It fires on the first or the last;
 * critical when writes were refused.
 */
final class SkewedIndexKeys implements FindingRule {

    /** Throttled writes shown. */
    static final int EVENTS_SHOWN = 5;

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        for (IndexDefinition index : context.globalIndexes()) {
            LowCardinalityKeys.Assessment low = LowCardinalityKeys.assess(context, index);
            Map<String, Long> reasons = backPressure(context, index);
            long refused = 0;
            for (long n : reasons.values()) refused += n;
            if (low == null && refused == 0) continue;

            Map<String, Object> evidence = low != null ? LowCardinalityKeys.evidence(context, index, low)
                    : new LinkedHashMap<>(Map.of("scale", context.scale()));
            evidence.put("lowCardinality", low != null);
            List<KeyLoads.HotKey> hot = HotPartitionKeys.hotKeys(context, index, true);
            List<Map<String, Object>> hotKeys = new ArrayList<>();
            for (KeyLoads.HotKey h : hot.subList(0, Math.min(KeyLoads.KEYS_SHOWN, hot.size()))) {
                Map<String, Object> k = new LinkedHashMap<>();
                k.put("key", context.key(h.key(), index));
                k.put("severity", h.heat().severity().name());
                k.put("peakUnitsPerSecond", h.heat().peak());
                k.put("secondsAtOrAboveWarn", h.heat().hotSeconds());
                hotKeys.add(k);
            }
            evidence.put("hotKeys", hotKeys);
            evidence.put("throttledTableWrites", refused);
            evidence.put("throttlingReasons", reasons);
            evidence.put("throttledWrites", events(context, index));

            long from = low != null ? low.firstMinute() * 60_000 : Long.MAX_VALUE;
            long to = low != null ? low.lastMinute() * 60_000 + 59_999 : Long.MIN_VALUE;
            String summary = low != null ? LowCardinalityKeys.summary(context, index, low) : "";
            if (refused > 0) {
                long[] span = eventSpan(context, index);
                from = Math.min(from, span == null ? context.nowMillis() : span[0]);
                to = Math.max(to, span == null ? context.nowMillis() : span[1]);
                summary += (summary.isEmpty() ? "" : " ") + "Index " + index.name() + " throttled " + refused
                        + " of its table's writes (" + String.join(", ", reasons.keySet()) + ").";
            }
            Finding.Severity severity = refused > 0
                    || hot.stream().anyMatch(h -> h.heat().severity() == Finding.Severity.CRITICAL)
                    ? Finding.Severity.CRITICAL : Finding.Severity.WARN;
            out.add(context.finding("F9", "Low-cardinality or skewed global index key", severity, index, summary,
                    evidence, from, to, FIX, SOURCES, null));
        }
    }

    /** The index's IndexWrite... throttling reasons, by reason: the table's writes it refused. */
    private static Map<String, Long> backPressure(AdvisorContext context, IndexDefinition index) {
        Map<String, Long> out = new TreeMap<>();
        for (ResourceSummary m : context.minutes(index)) {
            m.throttleEvents().forEach((reason, n) -> {
                if (reason.startsWith("IndexWrite")) out.merge(reason, n, Long::sum);
            });
        }
        return out;
    }

    private static boolean onIndex(ThroughputExceededException.Reason r, IndexDefinition index) {
        return r.reason().startsWith("IndexWrite") && r.resource().endsWith("/index/" + index.name());
    }

    /** The last table writes the index refused: when, which pattern, which item. */
    private static List<Map<String, Object>> events(AdvisorContext context, IndexDefinition index) {
        List<Map<String, Object>> out = new ArrayList<>();
        List<ThrottleEvent> events = context.throttleEvents();
        for (int i = events.size() - 1; i >= 0 && out.size() < EVENTS_SHOWN; i--) {
            ThrottleEvent e = events.get(i);
            if (e.reasons().stream().noneMatch(r -> onIndex(r, index))) continue;
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("time", Instant.ofEpochMilli(e.timeMillis()));
            o.put("signature", e.signature().describe());
            if (e.key() != null) o.put("key", new Finding.Key(e.key()));
            o.put("reasons", e.reasons().stream().map(ThroughputExceededException.Reason::reason).toList());
            o.put("errorType", e.errorType());
            out.add(o);
        }
        return out;
    }

    private static long[] eventSpan(AdvisorContext context, IndexDefinition index) {
        long[] span = null;
        for (ThrottleEvent e : context.throttleEvents()) {
            if (e.reasons().stream().noneMatch(r -> onIndex(r, index))) continue;
            if (span == null) span = new long[] {e.timeMillis(), e.timeMillis()};
            span[0] = Math.min(span[0], e.timeMillis());
            span[1] = Math.max(span[1], e.timeMillis());
        }
        return span;
    }

    static final List<String> SOURCES = List.of("bp-indexes-gsi-sharding", "bp-indexes-general-sparse-indexes",
            "bp-indexes-general", "TroubleshootingThrottling");
    static final String FIX = "Give the index a key of many values, or shard it: write the index key with a suffix"
            + " (ShardNumber#0 .. #9, computed from the item) and query every shard; or make the index sparse, so"
            + " that only the items it is queried for carry its key. An index that cannot take its writes"
            + " throttles the table's: give it the capacity its key's spread allows.";
}
