package io.stator.engine.advisor;

import io.stator.core.model.AttributeValue;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The modelled partitions of a table or global index as they are now, each with its units in
 * each second of the span. A second recorded before a split counts in the partition that holds
 * the first hash of the partition it was recorded in (partitions only split: the older, wider
 * range is now that partition and the ones split off it to its right).
 */
final class PartitionsReport {

    /** Keys listed per partition. */
    static final int TOP_KEYS = 10;

    private PartitionsReport() {}

    /** The last {@code seconds} seconds, a column each. */
    static Reports.Partitions of(Observations o, TableDefinition table, IndexDefinition index, long[] starts,
                                 int seconds) {
        long toSecond = Math.floorDiv(o.clock().millis(), 1000);
        return of(table, index, starts, o.seconds(table, index), toSecond - seconds + 1, toSecond, 1);
    }

    /**
     * The periods of {@code summaries} (seconds, or minutes when {@code periodSeconds} is 60) from
     * {@code from} to {@code to}, both inclusive, in the summaries' unit; each period's figures at
     * its first second since the epoch.
     */
    static Reports.Partitions of(TableDefinition table, IndexDefinition index, long[] starts,
                                 List<ResourceSummary> summaries, long from, long to, int periodSeconds) {
        if (starts.length == 0) starts = new long[] {0};
        int n = starts.length;
        List<Map<Long, Reports.PartitionSecond>> perSecond = new ArrayList<>(n);
        List<Map<KeyBytes, long[]>> keys = new ArrayList<>(n);
        // Splits: a partition absent from the partitions some period's window opened with, then
        // present from a later one on (partitions only split, so it was split off then).
        long[] lastWithout = new long[n];
        long[] firstWith = new long[n];
        Arrays.fill(lastWithout, Long.MIN_VALUE);
        Arrays.fill(firstWith, Long.MAX_VALUE);
        for (int i = 0; i < n; i++) {
            perSecond.add(new TreeMap<>());
            keys.add(new HashMap<>());
        }
        for (ResourceSummary s : summaries) {
            if (s.period() < from || s.period() > to) continue;
            long second = s.period() * periodSeconds;
            Set<Long> opened = new HashSet<>();
            for (long start : s.partitionStarts()) opened.add(start);
            for (int i = 1; i < n; i++) {
                if (opened.contains(starts[i])) firstWith[i] = Math.min(firstWith[i], second);
                else lastWithout[i] = Math.max(lastWithout[i], second);
            }
            for (ResourceSummary.PartitionFigures p : s.partitions().values()) {
                int i = PartitionMap.indexOf(starts, p.firstHash());
                perSecond.get(i).merge(second, new Reports.PartitionSecond(second, p.readHalves() / 2.0,
                        p.writeHalves() / 2.0, p.throttleEvents()), PartitionsReport::plus);
            }
            Map<KeyBytes, KeyFigures> seen = new HashMap<>();
            for (KeyTable.Measure m : List.of(KeyTable.Measure.READ, KeyTable.Measure.WRITE)) {
                for (KeyFigures f : s.partitionKeys().get(m)) seen.put(f.key(), f);
            }
            for (KeyFigures f : seen.values()) {
                Map<KeyBytes, long[]> partitionKeys = keys.get(PartitionMap.indexOf(starts, f.key().partitionHash()));
                long[] units = partitionKeys.computeIfAbsent(f.key(), k -> new long[2]);
                units[0] += f.readHalves();
                units[1] += f.writeHalves();
            }
        }
        List<Reports.Partition> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double read = 0;
            double write = 0;
            double peakRead = 0;
            double peakWrite = 0;
            long throttles = 0;
            for (Reports.PartitionSecond p : perSecond.get(i).values()) {
                read += p.readUnits();
                write += p.writeUnits();
                peakRead = Math.max(peakRead, p.readUnits());
                peakWrite = Math.max(peakWrite, p.writeUnits());
                throttles += p.throttleEvents();
            }
            List<Map.Entry<KeyBytes, long[]>> ranked = new ArrayList<>(keys.get(i).entrySet());
            ranked.sort((a, b) -> {
                int c = Long.compare(b.getValue()[0] + 3 * b.getValue()[1], a.getValue()[0] + 3 * a.getValue()[1]);
                return c != 0 ? c : a.getKey().compareBytes(b.getKey());
            });
            List<Reports.KeyUnits> top = new ArrayList<>();
            for (Map.Entry<KeyBytes, long[]> e : ranked.subList(0, Math.min(TOP_KEYS, ranked.size()))) {
                Map<String, AttributeValue> key = e.getKey().values(table, index);
                if (key != null) top.add(new Reports.KeyUnits(key, e.getValue()[0] / 2.0, e.getValue()[1] / 2.0));
            }
            long last = i + 1 < n ? starts[i + 1] - 1 : -1L;
            long splitAt = lastWithout[i] != Long.MIN_VALUE && firstWith[i] != Long.MAX_VALUE
                    && firstWith[i] > lastWithout[i] ? firstWith[i] : -1;
            out.add(new Reports.Partition(starts[i], last, new ArrayList<>(perSecond.get(i).values()), read, write,
                    peakRead / periodSeconds, peakWrite / periodSeconds, throttles, top, splitAt));
        }
        return new Reports.Partitions(from * periodSeconds, to * periodSeconds, periodSeconds, out);
    }

    private static Reports.PartitionSecond plus(Reports.PartitionSecond a, Reports.PartitionSecond b) {
        return new Reports.PartitionSecond(a.second(), a.readUnits() + b.readUnits(), a.writeUnits() + b.writeUnits(),
                a.throttleEvents() + b.throttleEvents());
    }
}
