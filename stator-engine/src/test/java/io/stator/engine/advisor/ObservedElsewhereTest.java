package io.stator.engine.advisor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Two servers' observations of one window merged (docs/advisor.md, "Across the cluster"): sums,
 * one key whichever server saw it, and the bound a cut list puts on a key it does not show; and
 * the rows' format, read back as written.
 */
class ObservedElsewhereTest {

    /** A key of its own bytes (what a report would read back is not needed here). */
    private static KeyBytes key(int n) {
        return KeyBytes.restored(new byte[] {(byte) n, 1, 2, 3}, 0, 1_000L + n);
    }

    private static KeyFigures writes(int n, long halves) {
        return new KeyFigures(key(n), 0, halves, 3 * halves, 0, 0, 1, 0, 0, true, 0);
    }

    private static ResourceSummary second(long period, boolean listed, KeyFigures... keys) {
        long write = 0;
        for (KeyFigures k : keys) write += k.writeHalves();
        return new ResourceSummary(period, 0, write, 3 * write, keys.length, Map.of("KeyRangeThroughputExceeded", 1L),
                keys.length, keys.length, Map.of(KeyTable.Measure.WRITE, List.of(keys)), listed, Map.of(), true,
                Map.of(0L, new ResourceSummary.PartitionFigures(0, 0, write, 1)), new long[] {keys.length, 0, 0, 0, 0,
                0, 0, 0, 0, 0}, 0, write, new long[] {0});
    }

    @Test
    void aKeyBothServersListedIsOneKeyWithTheSumOfTheirFiguresExactly() {
        ResourceSummary merged = ObservedElsewhere.merge(second(10, true, writes(1, 20), writes(2, 6)),
                second(10, true, writes(1, 30)));
        List<KeyFigures> top = merged.partitionKeys().get(KeyTable.Measure.WRITE);
        assertEquals(2, top.size());
        assertEquals(key(1), top.get(0).key());
        assertEquals(50, top.get(0).writeHalves());
        assertEquals(150, top.get(0).insightsHalves());
        assertTrue(top.get(0).exact());
        assertEquals(56, merged.writeHalves());
        assertEquals(Map.of("KeyRangeThroughputExceeded", 2L), merged.throttleEvents());
        assertEquals(56, merged.partitions().get(0L).writeHalves());
        assertEquals(3, merged.itemSizes()[0]);
        assertEquals(2, merged.distinctPartitionKeys(), "both listed every key: the union");
        assertTrue(merged.partitionKeysListed());
    }

    @Test
    void aKeyMissingFromAServersCutListGetsThatListsLastValueAsItsErrorBound() {
        // Server A listed 3 keys of more (cut): a key it does not show had at most 4 there.
        ResourceSummary a = second(10, false, writes(1, 10), writes(2, 6), writes(3, 4));
        ResourceSummary b = second(10, false, writes(1, 5), writes(4, 8), writes(2, 5));
        List<KeyFigures> top = ObservedElsewhere.merge(a, b).partitionKeys().get(KeyTable.Measure.WRITE);
        Map<KeyBytes, KeyFigures> byKey = new TreeMap<>((x, y) -> x.compareBytes(y));
        for (KeyFigures f : top) byKey.put(f.key(), f);
        assertEquals(15, byKey.get(key(1)).writeHalves());
        assertTrue(byKey.get(key(1)).exact());
        assertEquals(11, byKey.get(key(2)).writeHalves());
        KeyFigures fromB = byKey.get(key(4));
        assertEquals(8 + 4, fromB.writeHalves(), "an upper bound: A's last listed value added");
        assertEquals(4, fromB.errorHalves());
        assertFalse(fromB.exact());
        KeyFigures fromA = byKey.get(key(3));
        assertEquals(4 + 5, fromA.writeHalves());
        assertEquals(5, fromA.errorHalves());
        assertEquals(List.of(key(1), key(4), key(2), key(3)), top.stream().map(KeyFigures::key).toList());
    }

    @Test
    void rowsAreReadBackAsWritten() {
        ResourceSummary s = second(600, false, writes(1, 10), writes(2, 6));
        ObservationRows.Row row = ObservationRows.read(10, 1, ObservationRows.second(Map.of(0, s)));
        ResourceSummary back = row.resources().get(0);
        assertEquals(s.period(), back.period());
        assertEquals(s.writeHalves(), back.writeHalves());
        assertEquals(s.throttleEvents(), back.throttleEvents());
        assertEquals(s.partitionKeys(), back.partitionKeys());
        assertEquals(s.partitions(), back.partitions());
        assertArrayEquals(s.itemSizes(), back.itemSizes());
        assertArrayEquals(s.partitionStarts(), back.partitionStarts());

        Signature put = new Signature(Operation.PUT_ITEM, "PutItem", null, "pk = :v", List.of(), null, false, false, 0,
                List.of("v"), List.of());
        PatternFigures p = new PatternFigures(put, 3, 1, 0, 0, 6, 0, 0, 0, 300, 100, 2, Map.of(), 3, 6, 600, 601);
        long[] units = new long[120];
        units[60] = 6;
        ObservationRows.Row minute = ObservationRows.read(10, ObservationRows.MINUTE_PART,
                ObservationRows.minute(Map.of(0, s), Map.of(0, units), Map.of(put, p)));
        assertEquals(p, minute.patterns().get(put));
        assertArrayEquals(units, minute.secondUnits().get(0));
    }
}
