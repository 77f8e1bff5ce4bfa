package io.stator.engine.advisor;

import io.stator.core.model.AttributeValue;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition.TableClass;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * What the per-key findings (F1 to F4, F9) share: a key's units second by second, read from the
 * seconds kept; the judgement of a load against a warn level held for some seconds and a critical
 * level in any second; the access patterns that ran in a span; and how keys and rates read in a
 * sentence.
 *
 * <p><b>What a second's lists hold.</b> A second keeps its top {@value ResourceObservations#SECOND_TOP}
 * keys by each measure. A key absent from a second's list had less than the tenth key of that
 * list, so a timeline has gaps only where the key was not among the hottest; a run of hot
 * seconds is broken by such a gap, which can only make the judgement milder, never raise a
 * finding a key did not earn.
 */
final class KeyLoads {

    /** Keys shown per finding. */
    static final int KEYS_SHOWN = 10;
    /** Access patterns shown per finding. */
    static final int PATTERNS_SHOWN = 5;

    private KeyLoads() {}

    /** Per key, its halves in each second it was listed in, by {@code list} and {@code halves}. */
    static Map<KeyBytes, NavigableMap<Long, Long>> timelines(List<ResourceSummary> seconds,
                                                             Function<ResourceSummary, List<List<KeyFigures>>> lists,
                                                             ToLongFunction<KeyFigures> halves) {
        Map<KeyBytes, NavigableMap<Long, Long>> out = new HashMap<>();
        for (ResourceSummary s : seconds) {
            for (List<KeyFigures> list : lists.apply(s)) {
                for (KeyFigures f : list) {
                    long h = halves.applyAsLong(f);
                    if (h > 0) out.computeIfAbsent(f.key(), k -> new TreeMap<>()).put(s.period(), h);
                }
            }
        }
        return out;
    }

    /**
     * A load judged: {@code severity} null when it is below both levels.
     *
     * @param fromSecond the first second at or above the warn level
     * @param toSecond   the last one
     * @param peak       the highest second's units (projected)
     * @param longestRun the most consecutive seconds at or above the warn level
     * @param hotSeconds the seconds at or above the warn level
     */
    record Heat(Finding.Severity severity, long fromSecond, long toSecond, double peak, int longestRun,
                int hotSeconds) {}

    /**
     * Judges units per second (projected): critical when a second is over {@code critical}, warn
     * when {@code warnSeconds} consecutive seconds are at or above {@code warn}. Null when neither.
     */
    static Heat judge(NavigableMap<Long, Double> perSecond, double warn, int warnSeconds, double critical) {
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        double peak = 0;
        int run = 0;
        int longest = 0;
        int hot = 0;
        long previous = Long.MIN_VALUE;
        boolean overCritical = false;
        for (Map.Entry<Long, Double> e : perSecond.entrySet()) {
            double v = e.getValue();
            peak = Math.max(peak, v);
            if (v > critical) overCritical = true;
            if (v >= warn) {
                run = previous != Long.MIN_VALUE && e.getKey() == previous + 1 ? run + 1 : 1;
                previous = e.getKey();
                longest = Math.max(longest, run);
                hot++;
                from = Math.min(from, e.getKey());
                to = e.getKey();
            } else {
                run = 0;
                previous = Long.MIN_VALUE;
            }
        }
        Finding.Severity severity = overCritical ? Finding.Severity.CRITICAL
                : longest >= warnSeconds ? Finding.Severity.WARN : null;
        return severity == null ? null : new Heat(severity, from, to, peak, longest, hot);
    }

    /** One hot key (or item): its units each second it was listed in (halves, observed), and its judgement. */
    record HotKey(KeyBytes key, NavigableMap<Long, Long> halves, Heat heat) {

        /** Its halves over its hot span. */
        long halvesInSpan() {
            long sum = 0;
            for (long v : halves.subMap(heat.fromSecond(), true, heat.toSecond(), true).values()) sum += v;
            return sum;
        }
    }

    /**
     * A hot key's evidence: the key, its share of the resource's {@code resourceHalves} over its hot
     * span, its peak (projected and observed) against {@code ceiling}, its hot seconds, its timeline.
     */
    static Map<String, Object> keyEvidence(AdvisorContext context, IndexDefinition index, HotKey hot,
                                           long resourceHalves, double ceiling) {
        Heat heat = hot.heat();
        double scale = context.scale();
        Map<String, Object> k = new LinkedHashMap<>();
        k.put("key", context.key(hot.key(), index));
        k.put("severity", heat.severity().name());
        k.put("share", resourceHalves == 0 ? 0.0 : hot.halvesInSpan() / (double) resourceHalves);
        k.put("peakUnitsPerSecond", heat.peak());
        k.put("observedPeakUnitsPerSecond", heat.peak() / scale);
        k.put("ceilingShare", heat.peak() / ceiling);
        k.put("secondsAtOrAboveWarn", heat.hotSeconds());
        k.put("longestRunSeconds", heat.longestRun());
        k.put("from", Instant.ofEpochSecond(heat.fromSecond()));
        k.put("to", Instant.ofEpochSecond(heat.toSecond()));
        k.put("timeline", timeline(hot.halves(), heat.fromSecond(), heat.toSecond(), scale));
        return k;
    }

    /** Halves to units times the production multiplier. */
    static NavigableMap<Long, Double> projected(NavigableMap<Long, Long> halves, double scale) {
        NavigableMap<Long, Double> out = new TreeMap<>();
        halves.forEach((s, h) -> out.put(s, h / 2.0 * scale));
        return out;
    }

    /** A timeline for evidence: each second of the span the key was listed in, projected and observed. */
    static List<Map<String, Object>> timeline(NavigableMap<Long, Long> halves, long fromSecond, long toSecond,
                                              double scale) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<Long, Long> e : halves.subMap(fromSecond, true, toSecond, true).entrySet()) {
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("second", Instant.ofEpochSecond(e.getKey()));
            point.put("units", e.getValue() / 2.0 * scale);
            point.put("observedUnits", e.getValue() / 2.0);
            out.add(point);
        }
        return out;
    }

    /** The sum of {@code halves} over the seconds of {@code [from, to]}. */
    static long sum(List<ResourceSummary> seconds, long fromSecond, long toSecond, ToLongFunction<ResourceSummary> halves) {
        long sum = 0;
        for (ResourceSummary s : seconds) {
            if (s.period() >= fromSecond && s.period() <= toSecond) sum += halves.applyAsLong(s);
        }
        return sum;
    }

    /**
     * The access patterns that drew on the resource in the seconds {@code [from, to]}, by the
     * units they took of it, most first: the operations that made the load. Per key the patterns
     * are not recorded, so these are the resource's, over the key's hot seconds.
     *
     * @param index  the global index (null: the table)
     * @param writes write units, else read units
     */
    static List<Map<String, Object>> operations(AdvisorContext context, IndexDefinition index, boolean writes,
                                                long fromSecond, long toSecond) {
        Map<String, long[]> bySignature = new HashMap<>();
        long total = 0;
        for (TableObservations.PatternWindow second : context.patternSeconds()) {
            if (second.period() < fromSecond || second.period() > toSecond) continue;
            for (PatternFigures p : second.figures().values()) {
                long halves = halvesOn(p, index, writes);
                if (halves <= 0) continue;
                long[] figures = bySignature.computeIfAbsent(p.signature().describe(), k -> new long[2]);
                figures[0] += halves;
                figures[1] += p.calls();
                total += halves;
            }
        }
        List<Map.Entry<String, long[]>> ranked = new ArrayList<>(bySignature.entrySet());
        ranked.sort((a, b) -> {
            int c = Long.compare(b.getValue()[0], a.getValue()[0]);
            return c != 0 ? c : a.getKey().compareTo(b.getKey());
        });
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<String, long[]> e : ranked.subList(0, Math.min(PATTERNS_SHOWN, ranked.size()))) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("signature", e.getKey());
            o.put("calls", e.getValue()[1]);
            o.put("observedUnits", e.getValue()[0] / 2.0);
            o.put("share", e.getValue()[0] / (double) total);
            out.add(o);
        }
        return out;
    }

    private static long halvesOn(PatternFigures p, IndexDefinition index, boolean writes) {
        if (index == null) return writes ? p.tableWriteHalves() : p.tableReadHalves();
        PatternFigures.IndexFigures f = p.indexes().get(index.name());
        return f == null ? 0 : writes ? f.writeHalves() : f.readHalves();
    }

    /** The table's class, for its prices (Standard when it has none). */
    static TableClass tableClass(AdvisorContext context) {
        TableClass c = context.table().tableClass();
        return c == null ? TableClass.STANDARD : c;
    }

    /** A key as a sentence shows it: {@code pk="hot", sk=5}. */
    static String describe(Map<String, AttributeValue> key) {
        if (key == null) return "(unreadable key)";
        StringBuilder s = new StringBuilder();
        for (Map.Entry<String, AttributeValue> e : key.entrySet()) {
            if (!s.isEmpty()) s.append(", ");
            s.append(e.getKey()).append('=').append(value(e.getValue()));
        }
        return s.toString();
    }

    static String value(AttributeValue v) {
        return switch (v) {
            case AttributeValue.S s -> '"' + s.value() + '"';
            case AttributeValue.N n -> n.value().toString();
            case AttributeValue.B b -> "b64:" + Base64.getEncoder().encodeToString(b.value());
            default -> String.valueOf(v);
        };
    }

    /** A rate for a sentence: whole units with thousands separators. */
    static String units(double v) {
        return String.format(java.util.Locale.ROOT, "%,.0f", v);
    }

    /** A share as a whole percentage. */
    static String percent(double share) {
        return String.format(java.util.Locale.ROOT, "%.0f%%", share * 100);
    }

    /** " (projected at scale 10 from 80 observed)" when the multiplier is not 1, else nothing. */
    static String projection(double scale, double observed) {
        return scale == 1 ? "" : " (projected at --advisor-scale " + trim(scale) + " from " + units(observed) + " observed)";
    }

    static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** "table" or "index I": what a sentence says the resource is. */
    static String resource(IndexDefinition index) {
        return index == null ? "the table" : "index " + index.name();
    }
}
