package io.stator.engine.advisor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The other servers' observations, merged into this server's where a report reads them: on a
 * store several servers share, each server records the requests it serves (the hot path is the
 * same as on one server) and its upkeep publishes them ({@link Observations#publishable}); a
 * report on any server reads every other server's rows of the table ({@link Observations.Elsewhere})
 * and merges them, window by window, with its own, which are fresher.
 *
 * <p><b>The merge.</b> Counts, units, bytes, item sizes, throttles by reason and modelled
 * partitions' units are summed. A key is one key whichever server saw it (its fingerprint is the
 * key's bytes'), its figures summed. Each server publishes its top keys of a window by each
 * measure (50 of a minute, 10 of a second): a key absent from a server's list that was cut had at
 * most that list's last value there, which is added to its figure as an upper bound, its error
 * ({@link KeyFigures#errorHalves}) growing by as much and the figure marked not exact; the
 * merged top N of a measure is exact for a key every server listed. A minute's busiest second
 * is the largest of its seconds' units summed over the servers (each minute's row carries its
 * seconds' units). Distinct keys: the union of the listed keys when every server listed all it
 * saw, else the largest of the servers' counts (a lower bound). An access pattern's figures are
 * summed, its peaks the largest server's (a lower bound of the cluster's busiest second).
 *
 * <p>Rows read are reused for {@value #REUSE_MILLIS} ms: a report's many reads of one table's
 * windows make one read of the store.
 */
final class ObservedElsewhere {

    static final long REUSE_MILLIS = 1_000;

    private final Observations.Elsewhere source;
    private final ConcurrentHashMap<Long, Read> read = new ConcurrentHashMap<>();

    private record Read(long atNanos, long minute, List<ObservationRows.Row> rows) {}

    ObservedElsewhere(Observations.Elsewhere source) {
        this.source = source;
    }

    /** The other servers' rows of the table over the minutes kept up to {@code nowMillis}. */
    private List<ObservationRows.Row> rows(long tableId, long nowMillis) {
        long minute = Math.floorDiv(nowMillis, 60_000);
        Read r = read.get(tableId);
        if (r != null && r.minute() == minute && System.nanoTime() - r.atNanos() < REUSE_MILLIS * 1_000_000L) {
            return r.rows();
        }
        List<ObservationRows.Row> rows = new ArrayList<>();
        for (Observations.Published p : source.rows(tableId, minute - ResourceObservations.MINUTES_KEPT + 1)) {
            rows.add(ObservationRows.read(p.minute(), p.part(), p.figures()));
        }
        read.put(tableId, new Read(System.nanoTime(), minute, rows));
        return rows;
    }

    void tableDeleted(long tableId) {
        read.remove(tableId);
    }

    /** This server's seconds of a resource with the others', oldest first. */
    List<ResourceSummary> seconds(long tableId, int indexId, List<ResourceSummary> here, long nowMillis) {
        long now = Math.floorDiv(nowMillis, 1000);
        TreeMap<Long, ResourceSummary> out = new TreeMap<>();
        for (ResourceSummary s : here) out.put(s.period(), s);
        for (ObservationRows.Row row : rows(tableId, nowMillis)) {
            if (row.part() == ObservationRows.MINUTE_PART) continue;
            ResourceSummary s = row.resources().get(indexId);
            if (s == null || s.period() > now || s.period() <= now - ResourceObservations.SECONDS_KEPT) continue;
            out.merge(s.period(), s, ObservedElsewhere::merge);
        }
        return new ArrayList<>(out.values());
    }

    /**
     * This server's minutes of a resource with the others', oldest first.
     *
     * @param hereSeconds this server's seconds of the resource (its minutes' seconds' units)
     */
    List<ResourceSummary> minutes(long tableId, int indexId, List<ResourceSummary> here, List<ResourceSummary> hereSeconds,
                                  long nowMillis) {
        long now = Math.floorDiv(nowMillis, 60_000);
        TreeMap<Long, ResourceSummary> out = new TreeMap<>();
        Map<Long, long[]> units = new TreeMap<>();
        for (ResourceSummary m : here) {
            out.put(m.period(), m);
            units.put(m.period(), secondUnits(m, hereSeconds));
        }
        boolean others = false;
        for (ObservationRows.Row row : rows(tableId, nowMillis)) {
            if (row.part() != ObservationRows.MINUTE_PART) continue;
            ResourceSummary m = row.resources().get(indexId);
            if (m == null || m.period() > now || m.period() <= now - ResourceObservations.MINUTES_KEPT) continue;
            out.merge(m.period(), m, ObservedElsewhere::merge);
            long[] theirs = row.secondUnits().get(indexId);
            units.merge(m.period(), theirs, (a, b) -> {
                long[] sum = a.clone();
                for (int i = 0; i < sum.length; i++) sum[i] += b[i];
                return sum;
            });
            others = true;
        }
        if (!others) return new ArrayList<>(out.values());
        List<ResourceSummary> merged = new ArrayList<>();
        for (ResourceSummary m : out.values()) merged.add(withPeaks(m, units.get(m.period())));
        return merged;
    }

    /** The table's access patterns of the minutes from {@code fromMinute}, with this server's. */
    Map<Signature, PatternFigures> patterns(long tableId, Map<Signature, PatternFigures> here, long fromMinute,
                                            long nowMillis) {
        long now = Math.floorDiv(nowMillis, 60_000);
        Map<Signature, PatternFigures> out = new LinkedHashMap<>(here);
        for (ObservationRows.Row row : rows(tableId, nowMillis)) {
            if (row.part() != ObservationRows.MINUTE_PART || row.minute() < fromMinute || row.minute() > now) continue;
            row.patterns().forEach((s, f) -> out.merge(s, f, PatternFigures::plus));
        }
        return out;
    }

    // ---- publishing --------------------------------------------------------------------------------

    /**
     * Each second's read then write halves of a minute (120 values), from the seconds kept; a
     * minute older than those counts its busiest second in each (an upper bound).
     */
    static long[] secondUnits(ResourceSummary minute, List<ResourceSummary> seconds) {
        long[] units = new long[120];
        boolean found = false;
        for (ResourceSummary s : seconds) {
            if (Math.floorDiv(s.period(), 60) != minute.period()) continue;
            int i = (int) Math.floorMod(s.period(), 60);
            units[i] = s.readHalves();
            units[60 + i] = s.writeHalves();
            found = true;
        }
        if (!found) {
            for (int i = 0; i < 60; i++) {
                units[i] = minute.peakReadHalves();
                units[60 + i] = minute.peakWriteHalves();
            }
        }
        return units;
    }

    // ---- merging -----------------------------------------------------------------------------------

    private static ResourceSummary withPeaks(ResourceSummary m, long[] units) {
        long read = 0;
        long write = 0;
        for (int i = 0; i < 60; i++) {
            read = Math.max(read, units[i]);
            write = Math.max(write, units[60 + i]);
        }
        return new ResourceSummary(m.period(), m.readHalves(), m.writeHalves(), m.insightsHalves(), m.requests(),
                m.throttleEvents(), m.distinctPartitionKeys(), m.distinctItems(), m.partitionKeys(),
                m.partitionKeysListed(), m.items(), m.itemsListed(), m.partitions(), m.itemSizes(), read, write,
                m.partitionStarts());
    }

    /** Two servers' summaries of one window. */
    static ResourceSummary merge(ResourceSummary a, ResourceSummary b) {
        Map<String, Long> throttles = new TreeMap<>(a.throttleEvents());
        b.throttleEvents().forEach((r, n) -> throttles.merge(r, n, Long::sum));
        Map<Long, ResourceSummary.PartitionFigures> partitions = new TreeMap<>(a.partitions());
        b.partitions().forEach((h, p) -> partitions.merge(h, p, (x, y) -> new ResourceSummary.PartitionFigures(h,
                x.readHalves() + y.readHalves(), x.writeHalves() + y.writeHalves(),
                x.throttleEvents() + y.throttleEvents())));
        long[] sizes = a.itemSizes().clone();
        for (int i = 0; i < Math.min(sizes.length, b.itemSizes().length); i++) sizes[i] += b.itemSizes()[i];
        return new ResourceSummary(a.period(), a.readHalves() + b.readHalves(), a.writeHalves() + b.writeHalves(),
                a.insightsHalves() + b.insightsHalves(), a.requests() + b.requests(), throttles,
                distinct(a.distinctPartitionKeys(), a.partitionKeys(), a.partitionKeysListed(), b.distinctPartitionKeys(),
                        b.partitionKeys(), b.partitionKeysListed()),
                distinct(a.distinctItems(), a.items(), a.itemsListed(), b.distinctItems(), b.items(), b.itemsListed()),
                keys(a.partitionKeys(), a.partitionKeysListed(), b.partitionKeys(), b.partitionKeysListed()),
                a.partitionKeysListed() && b.partitionKeysListed(),
                keys(a.items(), a.itemsListed(), b.items(), b.itemsListed()), a.itemsListed() && b.itemsListed(),
                partitions, sizes, Math.max(a.peakReadHalves(), b.peakReadHalves()),
                Math.max(a.peakWriteHalves(), b.peakWriteHalves()),
                a.partitionStarts().length >= b.partitionStarts().length ? a.partitionStarts() : b.partitionStarts());
    }

    private static long distinct(long a, Map<KeyTable.Measure, List<KeyFigures>> aLists, boolean aListed, long b,
                                 Map<KeyTable.Measure, List<KeyFigures>> bLists, boolean bListed) {
        Set<KeyBytes> union = new HashSet<>();
        for (List<KeyFigures> l : aLists.values()) for (KeyFigures f : l) union.add(f.key());
        for (List<KeyFigures> l : bLists.values()) for (KeyFigures f : l) union.add(f.key());
        return aListed && bListed ? union.size() : Math.max(union.size(), Math.max(a, b));
    }

    private static Map<KeyTable.Measure, List<KeyFigures>> keys(Map<KeyTable.Measure, List<KeyFigures>> a,
                                                               boolean aListed,
                                                               Map<KeyTable.Measure, List<KeyFigures>> b,
                                                               boolean bListed) {
        Map<KeyTable.Measure, List<KeyFigures>> out = new EnumMap<>(KeyTable.Measure.class);
        Set<KeyTable.Measure> measures = new HashSet<>(a.keySet());
        measures.addAll(b.keySet());
        for (KeyTable.Measure m : measures) {
            List<KeyFigures> la = a.getOrDefault(m, List.of());
            List<KeyFigures> lb = b.getOrDefault(m, List.of());
            long floorA = aListed || la.isEmpty() ? 0 : m.of(la.get(la.size() - 1));
            long floorB = bListed || lb.isEmpty() ? 0 : m.of(lb.get(lb.size() - 1));
            Map<KeyBytes, KeyFigures> byKey = new LinkedHashMap<>();
            for (KeyFigures f : la) byKey.put(f.key(), f);
            Set<KeyBytes> inB = new HashSet<>();
            for (KeyFigures f : lb) {
                inB.add(f.key());
                KeyFigures x = byKey.get(f.key());
                byKey.put(f.key(), x == null ? bounded(f, m, floorA) : plus(x, f));
            }
            for (KeyFigures f : la) if (!inB.contains(f.key())) byKey.put(f.key(), bounded(f, m, floorB));
            List<KeyFigures> list = new ArrayList<>(byKey.values());
            list.sort(Comparator.comparingLong((KeyFigures f) -> m.of(f)).reversed()
                    .thenComparing((x, y) -> x.key().compareBytes(y.key())));
            out.put(m, list);
        }
        return out;
    }

    private static KeyFigures plus(KeyFigures x, KeyFigures y) {
        return new KeyFigures(x.key(), x.readHalves() + y.readHalves(), x.writeHalves() + y.writeHalves(),
                x.insightsHalves() + y.insightsHalves(), x.throttles() + y.throttles(),
                x.throttleEvents() + y.throttleEvents(), x.requests() + y.requests(), x.items() + y.items(),
                x.bytes() + y.bytes(), x.exact() && y.exact(), x.errorHalves() + y.errorHalves());
    }

    /** A key one server listed, with at most {@code floor} of the measure on a server whose list was cut. */
    private static KeyFigures bounded(KeyFigures f, KeyTable.Measure m, long floor) {
        if (floor == 0) return f;
        return new KeyFigures(f.key(), f.readHalves() + (m == KeyTable.Measure.READ ? floor : 0),
                f.writeHalves() + (m == KeyTable.Measure.WRITE ? floor : 0),
                f.insightsHalves() + (m == KeyTable.Measure.INSIGHTS ? floor : 0),
                f.throttles() + (m == KeyTable.Measure.THROTTLES ? floor : 0), f.throttleEvents(), f.requests(),
                f.items() + (m == KeyTable.Measure.ITEMS ? floor : 0), f.bytes(), false, f.errorHalves() + floor);
    }
}
