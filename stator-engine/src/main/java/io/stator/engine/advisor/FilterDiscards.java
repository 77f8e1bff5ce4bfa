package io.stator.engine.advisor;

import java.util.List;
import java.util.Map;

/**
 * F8, a filter that discards most of what it reads (advisor.md, section 6): a Query or Scan
 * signature with a filter whose Count, summed, is a small share of its ScannedCount. DynamoDB
 * charges for every item read before the filter (developer guide, Query.FilterExpression: "a
 * Query consumes the same amount of read capacity, regardless of whether a filter expression is
 * present"), so the items thrown away are paid for.
 *
 * <p>Warn when at most 10% is kept, info at most 50%, over at least {@value #MIN_REQUESTS}
 * served requests. The units the kept items would have cost are estimated as the kept share of
 * the units paid (the figures per item are not recorded: the items are taken as alike in size).
 */
final class FilterDiscards implements FindingRule {

    static final double WARN_KEPT = 0.10;
    static final double INFO_KEPT = 0.50;
    static final int MIN_REQUESTS = 20;

    private static final String FIX = "Let the key select what the filter keeps: move the filtered attribute into "
            + "the sort key (a composite sort key read with begins_with or a range), or into a sparse global "
            + "secondary index that holds only the items the filter keeps.";
    private static final List<String> SOURCES = List.of("Query.FilterExpression", "Scan", "bp-indexes-general-sparse-indexes");

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        for (PatternFigures p : context.patterns()) {
            Signature s = p.signature();
            if (!("Query".equals(s.action()) || "Scan".equals(s.action())) || s.filter().isEmpty()) continue;
            long served = PatternCosts.served(p);
            if (served < MIN_REQUESTS || p.scanned() == 0) continue;
            double kept = (double) p.returned() / p.scanned();
            Finding.Severity severity;
            if (kept <= WARN_KEPT) severity = Finding.Severity.WARN;
            else if (kept <= INFO_KEPT) severity = Finding.Severity.INFO;
            else continue;

            long paidHalves = PatternCosts.readHalves(p);
            double paid = PatternCosts.units(paidHalves);
            double forKept = paid * kept;
            long wastedHalves = Math.round((paid - forKept) * 2);
            double wastedDollars = PatternCosts.readMonthly(context, wastedHalves);
            Map<String, Object> e = PatternCosts.patternEvidence(p);
            e.put("requests", served);
            e.put("filter", s.filter());
            e.put("scannedCount", p.scanned());
            e.put("count", p.returned());
            e.put("keptShare", kept);
            e.put("readUnitsPaid", paid);
            e.put("readUnitsForKeptItems", forKept);
            e.put("readUnitsWasted", paid - forKept);
            e.put("projectedWastedUnitsPerSecond", PatternCosts.projectedPerSecond(context, wastedHalves));
            e.put("wastedDollarsPerMonth", wastedDollars);
            e.put("pricedAs", PatternCosts.PRICED_AS);
            // A share under 1% is shown to two decimals: "0%" of 800,000 items would hide the 200 kept.
            String summary = String.format(java.util.Locale.ROOT, "%s \"%s\" kept %,d of the %,d items it read ("
                            + (kept < 0.01 ? "%.2f" : "%.0f") + "%%) over %,d requests: %.1f of its %.1f read units "
                            + "paid for items the filter threw away.", s.action(), s.describe(), p.returned(), p.scanned(),
                    kept * 100, served, paid - forKept, paid);
            out.add(context.finding("F8", "Filter discards most of what it reads", severity,
                    PatternCosts.index(context, s), summary, e, PatternCosts.fromMillis(p), PatternCosts.toMillis(p),
                    FIX, SOURCES, wastedDollars));
        }
    }
}
