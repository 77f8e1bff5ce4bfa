package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.WarmThroughput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * F17, spike beyond on-demand's instant capacity: an on-demand table or global index reached, at
 * the projected rate, more than it can take at once (advisor.md, section 6; dynamodb-throughput.md,
 * section 10). DynamoDB's on-demand mode "instantly accommodates up to double the previous peak",
 * throttling "if you exceed double your previous peak within 30 minutes", and a new table sustains
 * 4,000 write and 12,000 read units a second (its warm throughput, never lower).
 *
 * <p><b>The model</b> is the capacity meter's ({@code capacity/OnDemandScaling}), at the projected
 * rate and a minute's grain. Each busy minute's rate is its busiest second's units, projected. The
 * instant capacity, the allowance, in minute m is {@code max(warm, min(2 x peak, 2 x the allowance
 * of 30 minutes before))}: the resource's warm throughput (4,000 / 12,000, or what was set), else
 * double the peak of the minutes before m, but never more than double the allowance in force
 * before minute m - {@value #DOUBLING_MINUTES}. A minute whose rate exceeds it is a spike. How
 * DynamoDB measures its peak (window, sustained or instantaneous) is not documented; a second's
 * rate is the strictest reading.
 * Only the minutes kept (the last {@value ResourceObservations#MINUTES_KEPT} busy ones) are known:
 * once older ones were dropped, a minute whose 30-minute lookback reaches before the oldest kept is
 * not judged, as the peak it doubles may have been dropped.
 */
final class OnDemandSpikes implements FindingRule {

    static final int DOUBLING_MINUTES = 30;

    static final String FIX = "Pre-warm the table or index before the launch or event (UpdateTable WarmThroughput: "
            + "the units a second it can take at once), or ramp traffic up, at most doubling the previous peak every "
            + "30 minutes.";
    static final List<String> SOURCES = List.of("on-demand-capacity-mode", "warm-throughput", "bp-switching-capacity-modes");

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        TableDefinition table = context.table();
        if (table.billingMode() != BillingMode.PAY_PER_REQUEST) return;
        for (IndexDefinition resource : context.resources()) {
            WarmThroughput warm = warm(table, resource);
            List<ResourceSummary> minutes = new ArrayList<>();
            for (ResourceSummary m : context.minutes(resource)) {
                if (m.readHalves() + m.writeHalves() > 0) minutes.add(m);
            }
            boolean truncated = minutes.size() >= ResourceObservations.MINUTES_KEPT;
            find(context, resource, minutes, truncated, false, warm.writeUnitsPerSecond(), out);
            find(context, resource, minutes, truncated, true, warm.readUnitsPerSecond(), out);
        }
    }

    private static WarmThroughput warm(TableDefinition table, IndexDefinition index) {
        WarmThroughput baseline = WarmThroughput.ON_DEMAND_BASELINE;
        if (index == null) return table.effectiveWarmThroughput();
        return index.warmThroughput() == null ? baseline : baseline.max(index.warmThroughput());
    }

    private static void find(AdvisorContext context, IndexDefinition resource, List<ResourceSummary> minutes,
                             boolean truncated, boolean reads, long warm, List<Finding> out) {
        double scale = context.scale();
        List<Object> curve = new ArrayList<>();
        double worstRate = 0;
        double worstCapacity = 0;
        long worstMinute = 0;
        long firstSpike = Long.MAX_VALUE;
        long lastSpike = Long.MIN_VALUE;
        long oldest = minutes.isEmpty() ? 0 : minutes.getFirst().period();
        double[] allowanceAfter = new double[minutes.size()];
        double peak = 0;
        for (int i = 0; i < minutes.size(); i++) {
            ResourceSummary m = minutes.get(i);
            double rate = rate(m, reads, scale);
            double allowanceAgo = warm;
            for (int j = 0; j < i && minutes.get(j).period() < m.period() - DOUBLING_MINUTES; j++) {
                allowanceAgo = allowanceAfter[j];
            }
            double capacity = Math.max(warm, Math.min(2 * peak, 2 * allowanceAgo));
            peak = Math.max(peak, rate);
            allowanceAfter[i] = Math.max(warm, Math.min(2 * peak, 2 * allowanceAgo));
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("minute", Instant.ofEpochSecond(m.period() * 60));
            point.put("unitsPerSecond", rate);
            point.put("instantCapacity", capacity);
            curve.add(point);
            boolean judged = !truncated || m.period() - DOUBLING_MINUTES >= oldest;
            if (!judged || rate <= capacity) continue;
            firstSpike = Math.min(firstSpike, m.period());
            lastSpike = Math.max(lastSpike, m.period());
            if (rate / capacity > worstRate / Math.max(worstCapacity, 1)) {
                worstRate = rate;
                worstCapacity = capacity;
                worstMinute = m.period();
            }
        }
        if (firstSpike == Long.MAX_VALUE) return;

        String units = reads ? "read" : "write";
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("units", units);
        evidence.put("scale", scale);
        evidence.put("peakUnitsPerSecond", worstRate);
        evidence.put("observedPeakUnitsPerSecond", worstRate / scale);
        evidence.put("instantCapacity", worstCapacity);
        evidence.put("warmThroughput", warm);
        evidence.put("minute", Instant.ofEpochSecond(worstMinute * 60));
        evidence.put("curve", curve);
        String what = resource == null ? "Table " + context.table().name() : "Index " + resource.name();
        String summary = String.format(Locale.ROOT, "%s reached %,.0f %s units a second (projected) where on demand "
                        + "takes %,.0f at once (twice the previous peak, or its warm throughput of %,d): %.1f times as much",
                what, worstRate, units, worstCapacity, warm, worstRate / worstCapacity);
        out.add(context.finding("F17", "Spike beyond on-demand's instant capacity", Finding.Severity.WARN, resource,
                summary, evidence, firstSpike * 60_000, Math.min(context.nowMillis(), lastSpike * 60_000 + 59_999), FIX,
                SOURCES, null));
    }

    /** A minute's busiest second, projected. */
    private static double rate(ResourceSummary m, boolean reads, double scale) {
        return (reads ? m.peakReadHalves() : m.peakWriteHalves()) / 2.0 * scale;
    }
}
