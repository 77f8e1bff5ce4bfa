package io.stator.engine.advisor;

import io.stator.core.model.AttributeValue;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Contributor Insights' graphs, from the minutes' summaries: for each key, its value in each
 * minute (ConsumedThroughputUnits: 3 x write units + read units, the minute's sum; ThrottleCount:
 * the minute's throttled requests), and the largest of them, which is what DynamoDB's graphs plot
 * ("each point is the maximum over a 1-minute period", developer guide,
 * contributorinsights_HowItWorks). Keys are ranked by that maximum, then by their sum over the
 * span, then by their bytes (a stable order for equal figures).
 */
final class TopKeysReport {

    private TopKeysReport() {}

    static Reports.TopKeys of(Observations o, TableDefinition table, IndexDefinition index, int minutes, int top) {
        long now = o.clock().millis();
        long toMinute = Math.floorDiv(now, 60_000);
        long fromMinute = toMinute - minutes + 1;
        List<ResourceSummary> span = new ArrayList<>();
        for (ResourceSummary s : o.minutes(table, index)) if (s.period() >= fromMinute) span.add(s);
        boolean sorted = index == null ? table.keySchema().hasSortKey() : index.hasSortKey();
        return new Reports.TopKeys(fromMinute, toMinute,
                graph(span, true, KeyTable.Measure.INSIGHTS, top, table, index),
                sorted ? graph(span, false, KeyTable.Measure.INSIGHTS, top, table, index) : null,
                graph(span, true, KeyTable.Measure.THROTTLES, top, table, index),
                sorted ? graph(span, false, KeyTable.Measure.THROTTLES, top, table, index) : null);
    }

    /** One key's minutes. */
    private static final class Line {
        final KeyBytes key;
        final Map<Long, Long> values = new TreeMap<>();
        boolean approximate;

        Line(KeyBytes key) {
            this.key = key;
        }

        long maximum() {
            long max = 0;
            for (long v : values.values()) max = Math.max(max, v);
            return max;
        }

        long sum() {
            long sum = 0;
            for (long v : values.values()) sum += v;
            return sum;
        }
    }

    private static List<Reports.Contributor> graph(List<ResourceSummary> span, boolean partitionKeys,
                                                   KeyTable.Measure measure, int top, TableDefinition table,
                                                   IndexDefinition index) {
        Map<KeyBytes, Line> lines = new HashMap<>();
        for (ResourceSummary minute : span) {
            List<KeyFigures> list = (partitionKeys ? minute.partitionKeys() : minute.items()).get(measure);
            for (KeyFigures f : list) {
                long v = measure.of(f);
                if (v <= 0) continue;
                Line line = lines.computeIfAbsent(f.key(), Line::new);
                line.values.put(minute.period(), v);
                if (!f.exact()) line.approximate = true;
            }
        }
        // A key missing from a minute whose list was cut may have had some in it.
        for (ResourceSummary minute : span) {
            boolean listed = partitionKeys ? minute.partitionKeysListed() : minute.itemsListed();
            List<KeyFigures> list = (partitionKeys ? minute.partitionKeys() : minute.items()).get(measure);
            if (listed || list.size() < ResourceObservations.MINUTE_TOP) continue;
            for (Line line : lines.values()) if (!line.values.containsKey(minute.period())) line.approximate = true;
        }
        List<Line> ranked = new ArrayList<>(lines.values());
        ranked.sort(Comparator.comparingLong(Line::maximum).reversed().thenComparing(Comparator.comparingLong(Line::sum)
                .reversed()).thenComparing((a, b) -> a.key.compareBytes(b.key)));
        List<Reports.Contributor> out = new ArrayList<>();
        double scale = measure == KeyTable.Measure.THROTTLES ? 1 : 0.5;
        for (Line line : ranked.subList(0, Math.min(top, ranked.size()))) {
            Map<String, AttributeValue> key = line.key.values(table, index);
            if (key == null) continue;
            List<Reports.Datapoint> points = new ArrayList<>();
            line.values.forEach((m, v) -> points.add(new Reports.Datapoint(m, v * scale)));
            out.add(new Reports.Contributor(key, line.maximum() * scale, line.sum() * scale, points, line.approximate));
        }
        return out;
    }
}
