package io.stator.engine.advisor;

import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.IndexDefinition.ProjectionType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * F11, an unused or over-projected global secondary index (advisor.md, section 6). Every write
 * that reaches a global index is paid for again on the index, and its entries are stored again
 * (developer guide, bp-indexes-general: an index nothing reads is pure cost; projecting ALL
 * "in most cases doubles" storage and write cost).
 *
 * <ul>
 *   <li>Unused (info): writes reached the index and no Query or Scan read it, while the table has
 *   had traffic for at least {@value #UNUSED_AFTER_MINUTES} minutes (its first call to its last,
 *   in the hour kept): long enough that a read pattern would have shown.</li>
 *   <li>Over-projected (warn): an ALL or INCLUDE projection whose largest entry written is over
 *   1 KB (the write unit), while every read of it projects at most {@value #MAX_ATTRIBUTES_READ}
 *   non-key attributes (a read with no projection reads every attribute, and clears it).</li>
 * </ul>
 * What the index costs a month: its write units over the session and its size now
 * (IndexSizeBytes), projected.
 */
final class UnusedIndexes implements FindingRule {

    static final int UNUSED_AFTER_MINUTES = 5;
    static final long OVER_PROJECTED_ENTRY_BYTES = 1024;
    static final int MAX_ATTRIBUTES_READ = 3;

    private static final List<String> SOURCES = List.of("bp-indexes-general");

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        long trafficSeconds = PatternCosts.trafficSeconds(context);
        for (IndexDefinition index : context.globalIndexes()) {
            long writeHalves = 0;
            long entriesWritten = 0;
            long entriesRemoved = 0;
            long maxEntryBytes = 0;
            long from = Long.MAX_VALUE;
            long to = Long.MIN_VALUE;
            long reads = 0;
            boolean readsWholeEntries = false;
            TreeSet<String> attributesRead = new TreeSet<>();
            for (PatternFigures p : context.patterns()) {
                if (PatternCosts.isRead(p)) {
                    if (!index.name().equals(p.signature().index())) continue;
                    reads += p.calls();
                    List<String> projection = p.signature().projection();
                    if (projection == null && !p.signature().countOnly()) readsWholeEntries = true;
                    if (projection != null) {
                        for (String a : projection) if (!isKey(context, index, a)) attributesRead.add(a);
                    }
                    continue;
                }
                PatternFigures.IndexFigures f = p.indexes().get(index.name());
                if (f == null || (f.writeHalves() == 0 && f.entriesWritten() == 0 && f.entriesRemoved() == 0)) continue;
                writeHalves += f.writeHalves();
                entriesWritten += f.entriesWritten();
                entriesRemoved += f.entriesRemoved();
                maxEntryBytes = Math.max(maxEntryBytes, f.maxEntryBytes());
                from = Math.min(from, PatternCosts.fromMillis(p));
                to = Math.max(to, PatternCosts.toMillis(p));
            }
            if (writeHalves == 0 && entriesWritten == 0 && entriesRemoved == 0) continue;

            boolean unused = reads == 0 && trafficSeconds >= UNUSED_AFTER_MINUTES * 60L;
            boolean overProjected = reads > 0 && !readsWholeEntries && index.projectionType() != ProjectionType.KEYS_ONLY
                    && maxEntryBytes > OVER_PROJECTED_ENTRY_BYTES && attributesRead.size() <= MAX_ATTRIBUTES_READ;
            if (!unused && !overProjected) continue;

            long sizeBytes = context.indexSizeBytes(index);
            double writeDollars = PatternCosts.writeMonthly(context, writeHalves);
            double storageDollars = context.prices().storageMonthly(PatternCosts.tableClass(context),
                    sizeBytes * context.scale());
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("projection", index.projectionType().name());
            if (index.projectionType() == ProjectionType.INCLUDE) e.put("nonKeyAttributes", index.nonKeyAttributes());
            e.put("reads", reads);
            e.put("attributesRead", List.copyOf(attributesRead));
            e.put("entriesWritten", entriesWritten);
            e.put("entriesRemoved", entriesRemoved);
            e.put("maxEntryBytes", maxEntryBytes);
            e.put("indexWriteUnits", PatternCosts.units(writeHalves));
            e.put("projectedIndexWriteUnitsPerSecond", PatternCosts.projectedPerSecond(context, writeHalves));
            e.put("indexSizeBytes", sizeBytes);
            e.put("writeDollarsPerMonth", writeDollars);
            e.put("storageDollarsPerMonth", storageDollars);
            e.put("minutesOfTraffic", trafficSeconds / 60.0);
            e.put("pricedAs", PatternCosts.PRICED_AS + "; storage at the class's GB-month price, projected");
            if (unused) {
                String summary = String.format("Global index %s was written %,d times (%.1f write units) and never "
                                + "read in %.0f minutes of traffic: it costs $%.2f a month for nothing.", index.name(),
                        entriesWritten + entriesRemoved, PatternCosts.units(writeHalves), trafficSeconds / 60.0,
                        writeDollars + storageDollars);
                out.add(context.finding("F11", "Unused global secondary index", Finding.Severity.INFO, index, summary,
                        e, from, to, "Drop the index (UpdateTable, GlobalSecondaryIndexUpdates Delete) if no access "
                                + "pattern needs it: every write to the table that reaches it is paid for twice.",
                        SOURCES, writeDollars + storageDollars));
            } else {
                // UpdateTable's UpdateGlobalSecondaryIndexAction changes throughput only: a projection
                // is changed by a new index (API reference, UpdateGlobalSecondaryIndexAction).
                String summary = String.format("Global index %s projects %s (entries up to %,d bytes) while its %,d reads "
                                + "read only %s: the rest is written and stored for nothing.", index.name(),
                        index.projectionType(), maxEntryBytes, reads,
                        attributesRead.isEmpty() ? "its keys" : String.join(", ", attributesRead));
                out.add(context.finding("F11", "Over-projected global secondary index", Finding.Severity.WARN, index,
                        summary, e, from, to, "Project only what the index's queries read: INCLUDE "
                                + (attributesRead.isEmpty() ? "nothing (KEYS_ONLY)" : String.join(", ", attributesRead))
                                + ". An index's projection cannot be changed: create the new index, move the reads "
                                + "to it, then delete this one.", SOURCES, writeDollars + storageDollars));
            }
        }
    }

    private static boolean isKey(AdvisorContext context, IndexDefinition index, String attribute) {
        if (context.table().keySchema().isKeyAttribute(attribute)) return true;
        for (IndexDefinition.KeyAttribute k : index.keyAttributes()) if (k.name().equals(attribute)) return true;
        return false;
    }
}
