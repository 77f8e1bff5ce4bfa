package io.stator.server.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.stator.engine.capacity.VectorBytes;
import java.util.List;

/**
 * CloudWatch's vector index metrics: VectorSearchRequestBytes and VectorWriteRequestBytes, by
 * table and vector index (its dimension VectorIndexName is the {@value MetricNames#INDEX} label,
 * as a global index's is).
 */
final class VectorMetrics implements MultiCollector {

    private final VectorBytes bytes;

    VectorMetrics(VectorBytes bytes) {
        this.bytes = bytes;
    }

    @Override
    public MetricSnapshots collect() {
        List<VectorBytes.Figures> figures = bytes.snapshot();
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        if (figures.isEmpty()) return out.build();
        out.metricSnapshot(family("VectorSearchRequestBytes", "bytes of vector data the searches of the vector index "
                + "examined and returned, at 1 KB at least per request", figures, true));
        out.metricSnapshot(family("VectorWriteRequestBytes", "bytes written to the vector index, at 1 KB at least per "
                + "request", figures, false));
        return out.build();
    }

    private static CounterSnapshot family(String cloudWatchName, String help, List<VectorBytes.Figures> figures,
                                          boolean search) {
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(MetricNames.prometheusName(cloudWatchName))
                .help(cloudWatchName + ": " + help);
        for (VectorBytes.Figures f : figures) {
            Labels labels = Labels.of(MetricNames.TABLE, f.tableName(), MetricNames.INDEX, f.indexName())
                    .merge(MetricNames.cloudWatch(cloudWatchName));
            b.dataPoint(CounterDataPointSnapshot.builder().labels(labels).value(search ? f.searchBytes() : f.writeBytes())
                    .build());
        }
        return b.build();
    }
}
