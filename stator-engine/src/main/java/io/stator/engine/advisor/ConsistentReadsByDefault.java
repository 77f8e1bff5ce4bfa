package io.stator.engine.advisor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * F14, strongly consistent reads as the default (advisor.md, section 6): at least half of the
 * table's reads (GetItem, Query, Scan, their batch and PartiQL forms; transactional reads are
 * left out, they have no choice) ask for ConsistentRead, which costs twice an eventually
 * consistent read (developer guide, read-write-operations: "An eventually consistent read request
 * of an item up to 4 KB requires one-half read unit", a strongly consistent one a whole). Info:
 * often it is needed, often it is a default no one chose.
 *
 * <p>The share is of calls, over at least {@value #MIN_READS} served reads; the saving is half
 * the strongly consistent reads' units, priced as the pattern findings are.
 */
final class ConsistentReadsByDefault implements FindingRule {

    static final double INFO_SHARE = 0.50;
    static final int MIN_READS = 20;
    /** Signatures listed in the evidence, the costliest first. */
    static final int LISTED = 5;

    private static final String FIX = "Read with ConsistentRead=false where a read may miss a write of the last "
            + "second: an eventually consistent read costs half a strongly consistent one.";
    private static final List<String> SOURCES = List.of("HowItWorks.ReadConsistency",
            "read-write-operations");

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        long reads = 0;
        long consistent = 0;
        long consistentHalves = 0;
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        List<PatternFigures> strong = new ArrayList<>();
        for (PatternFigures p : context.patterns()) {
            if (!PatternCosts.isRead(p) || p.signature().transactional()) continue;
            long served = PatternCosts.served(p);
            reads += served;
            if (!p.signature().consistentRead()) continue;
            consistent += served;
            consistentHalves += PatternCosts.readHalves(p);
            strong.add(p);
            from = Math.min(from, PatternCosts.fromMillis(p));
            to = Math.max(to, PatternCosts.toMillis(p));
        }
        if (reads < MIN_READS || consistent == 0) return;
        double share = (double) consistent / reads;
        if (share < INFO_SHARE) return;

        long savedHalves = consistentHalves / 2;
        double saved = PatternCosts.readMonthly(context, savedHalves);
        strong.sort(Comparator.comparingLong(PatternCosts::readHalves).reversed());
        List<Map<String, Object>> listed = new ArrayList<>();
        for (PatternFigures p : strong.subList(0, Math.min(LISTED, strong.size()))) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("signature", p.signature().describe());
            s.put("calls", p.calls());
            s.put("readUnits", PatternCosts.units(PatternCosts.readHalves(p)));
            listed.add(s);
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("reads", reads);
        e.put("stronglyConsistentReads", consistent);
        e.put("stronglyConsistentShare", share);
        e.put("stronglyConsistentReadUnits", PatternCosts.units(consistentHalves));
        e.put("readUnitsSavedAtEventualConsistency", PatternCosts.units(savedHalves));
        e.put("signatures", listed);
        e.put("pricedAs", PatternCosts.PRICED_AS);
        String summary = String.format("%.0f%% of the table's %,d reads were strongly consistent: eventually "
                + "consistent, they would have cost %.1f read units less.", share * 100, reads,
                PatternCosts.units(savedHalves));
        out.add(context.finding("F14", "Strongly consistent reads as the default", Finding.Severity.INFO, null,
                summary, e, from, to, FIX, SOURCES, saved));
    }
}
