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
 * the table has. Read from the table's and each global index's minutes: a minute is led when its
 * top partition key took 80% or more of its write units; the leaders in time order, a repeated one
 * counted once, form the sequence of hot values. The leads of closed minutes are kept as they close
 * ({@link ResourceObservations.Lead}, the last 256 runs), past the 60 minutes' summaries: a date as
 * the key leads for a day. The finding needs
 * the hot value to have changed {@value #MIN_ROTATIONS} times or more, each time to a greater
 * value (dates written year first, times, counters: what sorts like time).
 */
final class TimeBucketKeys implements FindingRule {

    /** A minute is led at this share of its write units (kept as the minutes close: ResourceObservations). */
    static final double HOT_SHARE = ResourceObservations.LEAD_SHARE;
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

    /**
     * The minutes led by one value, in time order, consecutive leads of one value as one run: the
     * closed minutes' leads (kept past the minutes' summaries), then the minute open now.
     */
    private static List<Run> runs(AdvisorContext context, IndexDefinition index) {
        List<Run> runs = new ArrayList<>();
        for (ResourceObservations.Lead lead : context.leads(index)) {
            add(context, index, runs, lead.key(), lead.firstMinute(), lead.lastMinute(), lead.keyWriteHalves(),
                    lead.writeHalves());
        }
        List<ResourceSummary> minutes = context.minutes(index);
        ResourceSummary open = minutes.isEmpty() ? null : minutes.get(minutes.size() - 1);
        if (open != null && open.period() == Math.floorDiv(context.nowMillis(), 60_000) && open.writeHalves() > 0) {
            List<KeyFigures> top = open.partitionKeys().getOrDefault(KeyTable.Measure.WRITE, List.of());
            if (!top.isEmpty() && top.get(0).writeHalves() >= HOT_SHARE * open.writeHalves()) {
                add(context, index, runs, top.get(0).key(), open.period(), open.period(), top.get(0).writeHalves(),
                        open.writeHalves());
            }
        }
        return runs;
    }

    private static void add(AdvisorContext context, IndexDefinition index, List<Run> runs, KeyBytes key,
                            long firstMinute, long lastMinute, long keyHalves, long writeHalves) {
        Run last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
        if (last != null && last.key().equals(key)) {
            runs.set(runs.size() - 1, new Run(key, last.value(), last.firstMinute(), lastMinute,
                    last.keyHalves() + keyHalves, last.writeHalves() + writeHalves));
            return;
        }
        Map<String, AttributeValue> values = context.values(key, index);
        if (values == null || values.size() != 1) return; // a multi-attribute key does not sort as one value
        runs.add(new Run(key, values.values().iterator().next(), firstMinute, lastMinute, keyHalves, writeHalves));
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
