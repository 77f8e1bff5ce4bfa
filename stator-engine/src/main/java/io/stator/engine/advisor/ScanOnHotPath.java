package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import java.util.List;
import java.util.Map;

/**
 * F7, a Scan on a hot path (advisor.md, section 6): a whole (not parallel) Scan, or a PartiQL
 * SELECT that named no key, repeated by one signature. A Scan reads the whole table whatever it
 * returns, so its cost grows with the table, not with the answer.
 *
 * <p>Warn when it runs at a projected 1 call a second or more, kept up for at least
 * {@value #SUSTAINED_SECONDS} seconds (its average over the seconds from its first call to its
 * last), or when it took at least 10% of the read units of the table and its global indexes over
 * the span kept. Info for any Scan of a table of more than 1,000 items, projected: the item count
 * times the production multiplier, since a production table holds that much more data as well as
 * traffic.
 */
final class ScanOnHotPath implements FindingRule {

    static final double WARN_CALLS_PER_SECOND = 1.0;
    /** What "sustained" takes: the pattern's first to last call span at least this. */
    static final int SUSTAINED_SECONDS = 10;
    static final double WARN_SHARE_OF_READ_UNITS = 0.10;
    /** "Repeated": a single Scan is not a pattern yet. */
    static final int MIN_CALLS = 2;
    static final long INFO_ITEMS = 1_000;

    private static final String FIX = "Read through a key instead: a Query or GetItem on the table or on a global "
            + "secondary index whose key is what the Scan filters on (a sparse index holds only the items it wants). "
            + "Where a Scan must stay, give it a smaller Limit and keep it off the request path (a scheduled job, "
            + "rate-limited).";
    private static final List<String> SOURCES = List.of("bp-query-scan", "bp-indexes-general-sparse-indexes");

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        long resourceReadHalves = 0;
        for (IndexDefinition index : context.resources()) {
            for (ResourceSummary m : context.minutes(index)) resourceReadHalves += m.readHalves();
        }
        double projectedItems = context.itemCount() * context.scale();
        for (PatternFigures p : context.patterns()) {
            Signature s = p.signature();
            if (!"Scan".equals(s.action()) || s.segments() != 1 || p.calls() == 0) continue;
            long served = PatternCosts.served(p);
            long active = Math.max(1, p.activeSeconds());
            double callsPerSecond = (double) p.calls() / active;
            double projectedCalls = callsPerSecond * context.scale();
            long readHalves = PatternCosts.readHalves(p);
            double share = resourceReadHalves == 0 ? 0 : (double) readHalves / resourceReadHalves;
            boolean sustained = active >= SUSTAINED_SECONDS && projectedCalls >= WARN_CALLS_PER_SECOND;
            boolean heavy = p.calls() >= MIN_CALLS && share >= WARN_SHARE_OF_READ_UNITS;
            Finding.Severity severity;
            if (sustained || heavy) severity = Finding.Severity.WARN;
            else if (projectedItems > INFO_ITEMS) severity = Finding.Severity.INFO;
            else continue;

            double unitsPerCall = served == 0 ? 0 : PatternCosts.units(readHalves) / served;
            double dollars = PatternCosts.readMonthly(context, readHalves);
            Map<String, Object> e = PatternCosts.patternEvidence(p);
            e.put("callsPerSecond", Map.of("average", callsPerSecond, "peak", p.peakCallsPerSecond()));
            e.put("projectedCallsPerSecond", projectedCalls);
            e.put("sustained", sustained);
            e.put("readUnitsPerCall", unitsPerCall);
            e.put("maxUnitsPerCall", PatternCosts.units(p.maxCallHalves()));
            e.put("scannedCountPerCall", served == 0 ? 0.0 : (double) p.scanned() / served);
            e.put("countPerCall", served == 0 ? 0.0 : (double) p.returned() / served);
            e.put("filter", s.filter());
            e.put("partiql", s.operation().partiql());
            e.put("shareOfReadUnits", share);
            e.put("tableItems", context.itemCount());
            e.put("projectedTableItems", projectedItems);
            e.put("pricedAs", PatternCosts.PRICED_AS);
            String what = severity == Finding.Severity.WARN
                    ? String.format("runs %.1f times a second (projected %.1f) over %d s and took %.0f%% of the read units",
                            callsPerSecond, projectedCalls, active, share * 100)
                    : String.format("ran %d times on a table of %,d items (projected %,.0f)", p.calls(),
                            context.itemCount(), projectedItems);
            String summary = String.format("Scan \"%s\" %s, reading %.1f units and %,.0f items a call.", s.describe(),
                    what, unitsPerCall, served == 0 ? 0.0 : (double) p.scanned() / served);
            out.add(context.finding("F7", "Scan on a hot path", severity, PatternCosts.index(context, s), summary, e,
                    PatternCosts.fromMillis(p), PatternCosts.toMillis(p), FIX, SOURCES, dollars));
        }
    }
}
