package io.stator.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.engine.capacity.Throughput.PartitionFigures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bound on partition series: all of few partitions, the hottest of many. */
class CapacityMetricsTest {

    @Test
    void everyPartitionOfATableWithFewIsShown() {
        List<PartitionFigures> four = partitions(4);
        assertEquals(four, CapacityMetrics.shown(four));
    }

    @Test
    void ofManyPartitionsTheMostRefusingThenTheMostConsumingAreShownInHashOrder() {
        List<PartitionFigures> all = partitions(40);
        // Partition 39 refused once and consumed nothing: it comes first; then the ones that consumed most.
        all.set(39, new PartitionFigures(all.get(39).firstHash(), 0, 0, 0, 1));
        List<PartitionFigures> shown = CapacityMetrics.shown(all);
        assertEquals(CapacityMetrics.PARTITIONS_SHOWN, shown.size());
        List<Long> expected = new ArrayList<>();
        for (int i = 30; i < 39; i++) expected.add(all.get(i).firstHash());
        expected.add(all.get(39).firstHash());
        assertEquals(expected, shown.stream().map(PartitionFigures::firstHash).toList());
    }

    /** {@code n} partitions, each consuming as many read units as its position. */
    private static List<PartitionFigures> partitions(int n) {
        List<PartitionFigures> p = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            p.add(new PartitionFigures(Long.divideUnsigned(-1L, n) * i, i, 0, 0, 0));
        }
        return p;
    }
}
