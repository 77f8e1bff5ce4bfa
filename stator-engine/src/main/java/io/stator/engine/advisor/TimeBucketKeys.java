package io.stator.engine.advisor;

import io.stator.core.model.AttributeValue;
import io.stator.engine.table.IndexDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * F6: a time-bucket or monotonic partition key (advisor.md 6.1): nearly all of each minute's
 * writes go to one value, and that value moves on as time does (today's date, this hour, an
 * increasing sequence), so that one partition takes the whole write load at any time however many
 * the table has. Read from the minutes kept of the table and of each global index: a minute is
 * led when its top partition key took {@value #HOT_SHARE} or more of its write units; the leaders
 * in time order, a repeated one counted once, form the sequence of hot values. The finding needs
 * the hot value to have changed {@value #MIN_ROTATIONS} times or more, each time to a greater
 * value (dates written year first, times, counters: what sorts like time).
 */
final class TimeBucketKeys implements FindingRule {

    static final double HOT_SHARE = 0.8;
    static final int MIN_ROTATIONS = 2;
    /** Values shown of the sequence (the last ones). */
    static final int VALUES_SHOWN = 20;
    /** What a value that looks like a date or a time starts with: 2026, 2026-12, 2026-12-06, 20261206. */
    private static final Pattern DATE_LIKE = Pattern.compile("^\\d{4}([-/.]?\\d{2}){0,5}([T ].*)?$");

    /** A run of minutes led by one value. */
    private record Run(KeyBytes key, AttributeValue value, long firstMinute, long lastMinute, long keyHalves,
                       long writeHalves) {}

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        for (IndexDefinition index : context.resources()) {
            List<Run> runs = runs(context, index);
            if (runs.size() < MIN_ROTATIONS + 1) continue;
            // The last increasing stretch of rotations: older leaders before a decrease do not count.
            int start = runs.size() - 1;
            while (start > 0 && compare(runs.get(start - 1).value(), runs.get(start).value()) < 0) start--;
            List<Run> rising = runs.subList(start, runs.size());
            if (rising.size() < MIN_ROTATIONS + 1) continue;
            out.add(finding(context, index, rising));
        }
    }

    /** The minutes led by one value, in time order, consecutive minutes of one leader as one run. */
    private static List<Run> runs(AdvisorContext context, IndexDefinition index) {
        List<Run> runs = new ArrayList<>();
        for (ResourceSummary m : context.minutes(index)) {
            List<KeyFigures> top = m.partitionKeys().getOrDefault(KeyTable.Measure.WRITE, List.of());
            if (top.isEmpty() || m.writeHalves() == 0) continue;
            KeyFigures leader = top.get(0);
            if (leader.writeHalves() < HOT_SHARE * m.writeHalves()) continue;
            Run last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && last.key().equals(leader.key())) {
                runs.set(runs.size() - 1, new Run(last.key(), last.value(), last.firstMinute(), m.period(),
                        last.keyHalves() + leader.writeHalves(), last.writeHalves() + m.writeHalves()));
                continue;
            }
            Map<String, AttributeValue> values = context.values(leader.key(), index);
            if (values == null || values.size() != 1) continue; // a multi-attribute key does not sort as one value
            runs.add(new Run(leader.key(), values.values().iterator().next(), m.period(), m.period(),
                    leader.writeHalves(), m.writeHalves()));
        }
        return runs;
    }

    /** Values of one key attribute in DynamoDB's order (S and B by bytes, N by number); 0 for mixed types. */
    static int compare(AttributeValue a, AttributeValue b) {
        if (a instanceof AttributeValue.S x && b instanceof AttributeValue.S y) {
            return Arrays.compareUnsigned(x.value().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    y.value().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (a instanceof AttributeValue.N x && b instanceof AttributeValue.N y) return x.value().compareTo(y.value());
        if (a instanceof AttributeValue.B x && b instanceof AttributeValue.B y) {
            return Arrays.compareUnsigned(x.value(), y.value());
        }
        return 0;
    }

    private static Finding finding(AdvisorContext context, IndexDefinition index, List<Run> runs) {
        List<Run> shown = runs.subList(Math.max(0, runs.size() - VALUES_SHOWN), runs.size());
        boolean dateLike = true;
        List<Map<String, Object>> sequence = new ArrayList<>();
        for (Run r : shown) {
            dateLike &= r.value() instanceof AttributeValue.N
                    || r.value() instanceof AttributeValue.S s && DATE_LIKE.matcher(s.value()).matches();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("key", context.key(r.key(), index));
            v.put("from", Instant.ofEpochSecond(r.firstMinute() * 60));
            v.put("to", Instant.ofEpochSecond(r.lastMinute() * 60 + 59));
            v.put("share", r.keyHalves() / (double) r.writeHalves());
            sequence.add(v);
        }
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("hotShare", HOT_SHARE);
        evidence.put("rotations", runs.size() - 1);
        evidence.put("minRotations", MIN_ROTATIONS);
        evidence.put("increasing", true);
        evidence.put("dateLike", dateLike);
        evidence.put("sequence", sequence);

        String attribute = index == null ? context.table().keySchema().partitionKey()
                : String.join("#", index.partitionKey().stream().map(IndexDefinition.KeyAttribute::name).toList());
        String values = String.join(", ", shown.subList(Math.max(0, shown.size() - 3), shown.size()).stream()
                .map(r -> KeyLoads.value(r.value())).toList());
        String summary = "Partition key " + attribute + " of " + KeyLoads.resource(index) + " took "
                + KeyLoads.percent(HOT_SHARE) + " or more of each minute's writes on one value, and that value moved on "
                + (runs.size() - 1) + " times, each time to a greater one (" + (runs.size() > 3 ? "..., " : "") + values
                + "): the whole write load is on one partition at a time.";
        Run first = runs.get(0);
        Run last = runs.get(runs.size() - 1);
        return context.finding("F6", "Time-bucket or monotonic partition key", Finding.Severity.WARN, index, summary,
                evidence, first.firstMinute() * 60_000, last.lastMinute() * 60_000 + 59_999, FIX,
                List.of("bp-time-series", "bp-partition-key-sharding"), null);
    }

    static final String FIX = "Shard the time bucket: add a suffix to the date or time (2026-12-06#0 .. #N, random"
            + " or computed from the item) and read all N when querying a period, so that the current bucket's"
            + " writes spread over N partitions; for time series, a table per period (the current one provisioned"
            + " for writes, older ones for reads) as the developer guide's time-series design has it.";
}
