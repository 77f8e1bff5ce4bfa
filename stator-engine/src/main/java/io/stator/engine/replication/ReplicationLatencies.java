package io.stator.engine.replication;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ReplicationLatency as this region sees it: per table and source region, the time from a
 * change's commit in its region (by that region's clock) to its arrival here, over the last
 * {@value #SAMPLES} changes. DynamoDB publishes it in the source region per receiving region; a
 * Stator region publishes what it received, labelled with both.
 */
public final class ReplicationLatencies {

    static final int SAMPLES = 1024;

    /** One table's changes from one region: the latest latencies in milliseconds, and how many in all. */
    public record Figures(String tableName, String sourceRegion, long count, double p50Millis, double p99Millis,
                          double maxMillis, double averageMillis) {}

    private final Map<String, Samples> byTableAndSource = new ConcurrentHashMap<>();

    void record(String tableName, String sourceRegion, long millis) {
        byTableAndSource.computeIfAbsent(tableName + "\u0000" + sourceRegion, k -> new Samples(tableName, sourceRegion))
                .add(Math.max(0, millis));
    }

    /** The figures of every table and source that sent a change. */
    public List<Figures> figures() {
        List<Figures> out = new ArrayList<>();
        for (Samples s : byTableAndSource.values()) out.add(s.figures());
        return out;
    }

    private static final class Samples {
        private final String tableName;
        private final String sourceRegion;
        private final long[] latest = new long[SAMPLES];
        private long count;
        private long sum;

        Samples(String tableName, String sourceRegion) {
            this.tableName = tableName;
            this.sourceRegion = sourceRegion;
        }

        synchronized void add(long millis) {
            latest[(int) (count++ % SAMPLES)] = millis;
            sum += millis;
        }

        synchronized Figures figures() {
            int n = (int) Math.min(count, SAMPLES);
            long[] sorted = Arrays.copyOf(latest, n);
            Arrays.sort(sorted);
            return new Figures(tableName, sourceRegion, count, quantile(sorted, 0.50), quantile(sorted, 0.99),
                    n == 0 ? 0 : sorted[n - 1], count == 0 ? 0 : (double) sum / count);
        }

        private static double quantile(long[] sorted, double q) {
            if (sorted.length == 0) return 0;
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
        }
    }
}
