package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * F13, an unbounded item collection (advisor.md, section 6): a partition key whose items keep
 * coming, read whole by a Query with no sort-key condition. Such a read gets slower and dearer
 * as the collection grows; with a local index the collection also has a hard 10 GB limit
 * (developer guide, LSI: "the maximum size of any item collection ... is 10 GB").
 *
 * <ul>
 *   <li>With a local index (warn): a collection whose size now (its items and their local index
 *   entries, which the table's counters keep for its limit), times the production multiplier, is
 *   at least 5 GB.</li>
 *   <li>Without (warn): a collection that grew steadily (items added in at least
 *   {@value #GROWTH_MINUTES} minutes, in at least three of every four minutes from its first
 *   growth to its last) and that was read, while a Query of the table or a local index with only
 *   a partition-key condition read a full page in one call: a page cut at the 1 MB limit, so the
 *   whole read was larger than 1 MB. The bytes of a call are estimated from its units (4 KB a
 *   half unit eventually consistent, 2 KB strongly); a full page is taken as at least 95% of 1 MB
 *   by that count, because the page limit measures items a little differently from the units
 *   (Query.Pagination; Stator's {@code PageSize}: a page of 1 KB items is 252 units' worth). A
 *   Limit shows as small calls.</li>
 * </ul>
 */
final class UnboundedCollections implements FindingRule {

    static final long GB = 1L << 30;
    static final long LSI_WARN_BYTES = 5 * GB;
    static final long LSI_LIMIT_BYTES = 10 * GB;
    static final int GROWTH_MINUTES = 3;
    /** What one call must read to be a full 1 MB page (see above). */
    static final long FULL_PAGE_BYTES = (1L << 20) * 95 / 100;

    private static final String FIX = "Bound the reads: a sort-key range (the newest first, ScanIndexForward=false) and "
            + "a Limit. Bound the collection: put a time bucket in the partition key (device#2026-12) so each one "
            + "stops growing. Avoid a local secondary index on a collection that keeps growing: it caps it at 10 GB.";
    private static final List<String> SOURCES = List.of("bp-indexes-general", "LSI", "Query.Pagination");

    /** One partition key's additions, per minute kept (index as in the minutes' list). */
    private record Growth(KeyBytes key, long[] items, long[] bytes) {}

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        List<ResourceSummary> minutes = context.minutes(null);
        Map<KeyBytes, Growth> growth = new LinkedHashMap<>();
        Set<KeyBytes> read = new HashSet<>();
        for (int m = 0; m < minutes.size(); m++) {
            ResourceSummary minute = minutes.get(m);
            for (KeyFigures f : minute.partitionKeys().getOrDefault(KeyTable.Measure.ITEMS, List.of())) {
                Growth g = growth.computeIfAbsent(f.key(), k -> new Growth(k, new long[minutes.size()],
                        new long[minutes.size()]));
                g.items[m] += f.items();
                g.bytes[m] += f.bytes();
            }
            for (KeyFigures f : minute.partitionKeys().getOrDefault(KeyTable.Measure.READ, List.of())) read.add(f.key());
        }
        List<PatternFigures> unbounded = new ArrayList<>();
        boolean readsPastAPage = false;
        for (PatternFigures p : context.patterns()) {
            if (!unboundedQuery(context, p.signature())) continue;
            unbounded.add(p);
            if (maxBytesPerCall(p) >= FULL_PAGE_BYTES) readsPastAPage = true;
        }
        boolean local = !context.table().localIndexes().isEmpty();
        for (Growth g : growth.values()) {
            long size = local ? context.collectionSizeBytes(g.key()) : 0;
            double projected = size * context.scale();
            boolean trigger = local ? projected >= LSI_WARN_BYTES : readsPastAPage && read.contains(g.key()) && steady(g);
            if (!trigger) continue;
            out.add(finding(context, minutes, g, local, size, projected, unbounded));
        }
    }

    private static Finding finding(AdvisorContext context, List<ResourceSummary> minutes, Growth g, boolean local,
                                   long size, double projected, List<PatternFigures> unbounded) {
        List<Map<String, Object>> timeline = new ArrayList<>();
        long items = 0;
        long bytes = 0;
        int first = -1;
        for (int m = 0; m < minutes.size(); m++) {
            if (first < 0 && g.items[m] == 0 && g.bytes[m] == 0) continue;
            if (first < 0) first = m;
            items += g.items[m];
            bytes += g.bytes[m];
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("minute", Instant.ofEpochSecond(minutes.get(m).period() * 60));
            point.put("itemsAdded", g.items[m]);
            point.put("bytesAdded", g.bytes[m]);
            point.put("itemsAddedSoFar", items);
            point.put("bytesAddedSoFar", bytes);
            timeline.add(point);
        }
        List<Map<String, Object>> readers = new ArrayList<>();
        long readHalves = 0;
        for (PatternFigures p : unbounded) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("signature", p.signature().describe());
            r.put("calls", p.calls());
            r.put("bytesRead", p.bytesRead());
            r.put("maxBytesPerCall", maxBytesPerCall(p));
            r.put("readUnits", PatternCosts.units(PatternCosts.readHalves(p)));
            readers.add(r);
            readHalves += PatternCosts.readHalves(p);
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("key", context.key(g.key(), null));
        e.put("itemsAdded", items);
        e.put("bytesAdded", bytes);
        if (local) {
            e.put("collectionSizeBytes", size);
            e.put("projectedCollectionSizeBytes", projected);
            e.put("limitBytes", LSI_LIMIT_BYTES);
        }
        e.put("collectionOverTime", timeline);
        e.put("unboundedQueries", readers);
        e.put("pricedAs", PatternCosts.PRICED_AS);
        String key = context.values(g.key(), null).toString();
        String summary = local
                ? String.format("Item collection %s holds %,d bytes (projected %.1f GB) on a table with a local index: "
                        + "past 10 GB its writes fail.", key, size, projected / GB)
                : String.format("Item collection %s grew by %,d items (%,d bytes) in %d of the last %d minutes and is "
                        + "read by a Query with no sort-key condition that reads 1 MB pages of it.", key, items, bytes,
                        growingMinutes(g), timeline.size());
        long from = first < 0 ? context.nowMillis() : minutes.get(first).period() * 60_000;
        return context.finding("F13", "Unbounded item collection", Finding.Severity.WARN, null, summary, e, from,
                context.nowMillis(), FIX, SOURCES, PatternCosts.readMonthly(context, readHalves));
    }

    private static int growingMinutes(Growth g) {
        int n = 0;
        for (long i : g.items) if (i > 0) n++;
        return n;
    }

    /** Items added in enough minutes, and in three of every four from the first growth to the last. */
    private static boolean steady(Growth g) {
        int first = -1;
        int last = -1;
        int growing = 0;
        for (int m = 0; m < g.items.length; m++) {
            if (g.items[m] <= 0) continue;
            if (first < 0) first = m;
            last = m;
            growing++;
        }
        return growing >= GROWTH_MINUTES && growing * 4 >= (last - first + 1) * 3;
    }

    /** A Query of the table or a local index whose only key condition is on the partition key. */
    private static boolean unboundedQuery(AdvisorContext context, Signature s) {
        if (!"Query".equals(s.action()) || s.keyCondition().contains(" AND ")) return false;
        if (s.index() == null) return true;
        IndexDefinition index = context.table().index(s.index());
        return index != null && !index.global();
    }

    /** The most one call read, from its units (an upper bound: units are rounded up). */
    private static long maxBytesPerCall(PatternFigures p) {
        return p.maxCallHalves() * (p.signature().consistentRead() ? 2048L : 4096L);
    }
}
