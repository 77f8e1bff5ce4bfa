package io.stator.engine.advisor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * F12, large items (advisor.md, section 6). An item's units grow with its size (a write unit per
 * 1 KB, a read unit per 4 KB: developer guide, read-write-operations), whatever part of it the
 * request wanted, and an item may not pass 400 KB (developer guide, ServiceQuotas). Warn at
 * {@value #WARN_BYTES} bytes (100 KB), critical at {@value #CRITICAL_BYTES} (350 KB, near the
 * limit), from the largest item any pattern read or wrote one at a time; info for a GetItem that
 * projects at most {@value #FEW_ATTRIBUTES} attributes of an item of at least
 * {@value #INFO_GET_BYTES} bytes (16 KB): it pays for the whole item to read a few attributes.
 *
 * <p>Evidence: the size histogram of the items read or written one at a time over the hour kept,
 * the largest keys, and the signatures that touched large items with their units per call.
 */
final class LargeItems implements FindingRule {

    static final long WARN_BYTES = 100 * 1024;
    static final long CRITICAL_BYTES = 350 * 1024;
    static final long INFO_GET_BYTES = 16 * 1024;
    static final int FEW_ATTRIBUTES = 3;

    private static final String FIX = "Make the item smaller: compress large attributes (gzip into a Binary), split "
            + "the item into several under one partition key (vertical partitioning: the parts read often apart "
            + "from the rest), or keep the large value in Amazon S3 with its object key in the item.";
    private static final List<String> SOURCES = List.of("bp-use-s3-too", "ServiceQuotas");
    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        long largest = 0;
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        long halves = 0;
        long readHalves = 0;
        List<Map<String, Object>> signatures = new ArrayList<>();
        for (PatternFigures p : context.patterns()) {
            fewAttributesOfALargeItem(context, p, out);
            if (p.maxItemBytes() < WARN_BYTES) continue;
            largest = Math.max(largest, p.maxItemBytes());
            from = Math.min(from, PatternCosts.fromMillis(p));
            to = Math.max(to, PatternCosts.toMillis(p));
            long read = PatternCosts.readHalves(p);
            readHalves += read;
            halves += p.totalHalves();
            long served = Math.max(1, PatternCosts.served(p));
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("signature", p.signature().describe());
            s.put("calls", p.calls());
            s.put("maxItemBytes", p.maxItemBytes());
            s.put("unitsPerCall", PatternCosts.units(p.totalHalves()) / served);
            signatures.add(s);
        }
        if (largest < WARN_BYTES) return;

        Finding.Severity severity = largest >= CRITICAL_BYTES ? Finding.Severity.CRITICAL : Finding.Severity.WARN;
        List<Map<String, Object>> keys = new ArrayList<>();
        for (LargestItems.Seen seen : context.largestItems()) {
            Map<String, Object> k = new LinkedHashMap<>();
            k.put("key", context.key(seen.item(), null));
            k.put("bytes", seen.bytes());
            k.put("seen", java.time.Instant.ofEpochMilli(seen.timeMillis()));
            keys.add(k);
        }
        double dollars = PatternCosts.readMonthly(context, readHalves)
                + PatternCosts.writeMonthly(context, halves - readHalves);
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("largestItemBytes", largest);
        e.put("limitBytes", 400 * 1024);
        e.put("sizeHistogram", histogram(context));
        e.put("largestItems", keys);
        e.put("signatures", signatures);
        e.put("pricedAs", PatternCosts.PRICED_AS);
        String summary = String.format("Items up to %,d bytes (%.0f KB) were read or written: %.0f%% of DynamoDB's "
                + "400 KB item limit, and every access pays for the whole item.", largest, largest / 1024.0,
                100.0 * largest / (400 * 1024));
        out.add(context.finding("F12", "Large items", severity, null, summary, e, from, to, FIX, SOURCES, dollars));
    }

    /** Info: a GetItem that projects a few attributes of a large item (it pays for all of it). */
    private static void fewAttributesOfALargeItem(AdvisorContext context, PatternFigures p, List<Finding> out) {
        Signature s = p.signature();
        if (!"GetItem".equals(s.action()) || s.projection() == null || s.projection().size() > FEW_ATTRIBUTES
                || p.maxItemBytes() < INFO_GET_BYTES) {
            return;
        }
        long served = Math.max(1, PatternCosts.served(p));
        long readHalves = PatternCosts.readHalves(p);
        Map<String, Object> e = PatternCosts.patternEvidence(p);
        e.put("projection", s.projection());
        e.put("maxItemBytes", p.maxItemBytes());
        e.put("readUnitsPerCall", PatternCosts.units(readHalves) / served);
        e.put("pricedAs", PatternCosts.PRICED_AS);
        String summary = String.format("GetItem \"%s\" reads %s of items up to %,d bytes: %.1f read units a call for "
                + "%d attributes.", s.describe(), String.join(", ", s.projection()), p.maxItemBytes(),
                PatternCosts.units(readHalves) / served, s.projection().size());
        out.add(context.finding("F12", "Few attributes read from large items", Finding.Severity.INFO, null, summary, e,
                PatternCosts.fromMillis(p), PatternCosts.toMillis(p), "Keep the attributes read often in an item of "
                        + "their own (vertical partitioning: a small item beside the large one under the same "
                        + "partition key), so that the read pays for them alone.", SOURCES,
                PatternCosts.readMonthly(context, readHalves)));
    }

    /** Items read or written one at a time over the minutes kept, by size. */
    private static Map<String, Object> histogram(AdvisorContext context) {
        Reports.ItemSizes sizes = context.itemSizes();
        Map<String, Object> h = new LinkedHashMap<>();
        for (int i = 0; i < sizes.counts().length; i++) h.put(sizes.labels().get(i), sizes.counts()[i]);
        return h;
    }
}
