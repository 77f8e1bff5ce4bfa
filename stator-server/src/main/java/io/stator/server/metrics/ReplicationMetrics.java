package io.stator.server.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.stator.engine.replication.ReplicationLatencies;
import java.util.List;

/**
 * Global tables' ReplicationLatency, in milliseconds as CloudWatch has it, over the latest changes
 * this region received: one series per table, source region and statistic (p50, p99, Average,
 * Maximum). CloudWatch keeps it in the source region with the dimension ReceivingRegion; a Stator
 * region reports what it received, labelled with both regions.
 */
final class ReplicationMetrics implements MultiCollector {

    private static final String NAME = "ReplicationLatency";

    private final ReplicationLatencies latencies;
    private final String region;

    ReplicationMetrics(ReplicationLatencies latencies, String region) {
        this.latencies = latencies;
        this.region = region;
    }

    @Override
    public MetricSnapshots collect() {
        List<ReplicationLatencies.Figures> figures = latencies.figures();
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        if (figures.isEmpty()) return out.build();
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(MetricNames.prometheusName(NAME) + "_milliseconds")
                .help(NAME + ": the time from a change's commit in its region to its arrival in this one, over the "
                        + "latest changes received");
        for (ReplicationLatencies.Figures f : figures) {
            point(b, f, "p50", f.p50Millis());
            point(b, f, "p99", f.p99Millis());
            point(b, f, "Average", f.averageMillis());
            point(b, f, "Maximum", f.maxMillis());
        }
        return out.metricSnapshot(b.build()).build();
    }

    private void point(GaugeSnapshot.Builder b, ReplicationLatencies.Figures f, String statistic, double value) {
        Labels labels = Labels.of(MetricNames.TABLE, f.tableName(), "source_region", f.sourceRegion(),
                "receiving_region", region, "statistic", statistic).merge(MetricNames.cloudWatch(NAME));
        b.dataPoint(GaugeDataPointSnapshot.builder().labels(labels).value(value).build());
    }
}
