package io.stator.engine.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The judgement the per-key findings share, and the order F6 reads values in. */
class KeyLoadsTest {

    private static NavigableMap<Long, Double> seconds(long first, double... values) {
        NavigableMap<Long, Double> out = new TreeMap<>();
        for (int i = 0; i < values.length; i++) if (values[i] >= 0) out.put(first + i, values[i]);
        return out;
    }

    @Test
    void warnNeedsItsSecondsInARowAndAGapBreaksTheRun() {
        assertNull(KeyLoads.judge(seconds(100, 500, 500, 500, 500), 500, 5, 1_000), "four seconds are one short");
        KeyLoads.Heat five = KeyLoads.judge(seconds(100, 500, 500, 500, 500, 500), 500, 5, 1_000);
        assertEquals(Finding.Severity.WARN, five.severity());
        assertEquals(100, five.fromSecond());
        assertEquals(104, five.toSecond());
        assertEquals(5, five.longestRun());
        // A quiet second (no summary) between them, or one below the level: two runs, neither of five.
        assertNull(KeyLoads.judge(seconds(100, 600, 600, 600, -1, 600, 600, 600), 500, 5, 1_000));
        assertNull(KeyLoads.judge(seconds(100, 600, 600, 600, 499.5, 600, 600, 600), 500, 5, 1_000));
    }

    @Test
    void criticalIsPastTheLevelInAnySecond() {
        assertEquals(Finding.Severity.WARN,
                KeyLoads.judge(seconds(100, 1_000, 1_000, 1_000, 1_000, 1_000), 500, 5, 1_000).severity());
        KeyLoads.Heat once = KeyLoads.judge(seconds(100, 1_000.5), 500, 5, 1_000);
        assertEquals(Finding.Severity.CRITICAL, once.severity());
        assertEquals(1_000.5, once.peak());
        assertEquals(1, once.hotSeconds());
    }

    @Test
    void valuesCompareAsDynamoDbOrdersKeys() {
        assertTrue(TimeBucketKeys.compare(new AttributeValue.S("2026-12-01"), new AttributeValue.S("2026-12-02")) < 0);
        assertTrue(TimeBucketKeys.compare(new AttributeValue.N(DynamoNumber.parse("9")),
                new AttributeValue.N(DynamoNumber.parse("10"))) < 0, "numbers by value, not text");
        assertTrue(TimeBucketKeys.compare(new AttributeValue.S("\uFFFD"), new AttributeValue.S("\uD83D\uDE00")) < 0,
                "strings by their UTF-8 bytes");
    }
}
