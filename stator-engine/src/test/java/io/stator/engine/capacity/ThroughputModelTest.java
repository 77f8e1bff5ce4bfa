package io.stator.engine.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The pieces of the throughput model on their own: buckets, partitions, on-demand scaling. */
class ThroughputModelTest {

    @Test
    void aBucketRefillsWithTimeUpToItsCapacityAndARequestMayLeaveItInDebt() {
        TokenBucket bucket = new TokenBucket(10, 100, 0);
        assertTrue(bucket.canStart(0));
        bucket.take(400, 0);
        assertEquals(-300, bucket.balance(0));
        assertFalse(bucket.canStart(0));
        assertFalse(bucket.canStart(30_000), "30 s refill 300: back to zero, still nothing");
        assertTrue(bucket.canStart(30_100));
        assertEquals(100, bucket.balance(1_000_000), "never above its capacity");
        bucket.reshape(1, 5, 1_000_000);
        assertEquals(5, bucket.balance(1_000_000), "a smaller bucket keeps what fits");
    }

    @Test
    void aBankPaysOnlyWhatOneRequestCostsBeyondASecondAndRefillsFromUnusedCapacity() {
        // A partition's write bucket: 1,000 a second, holding 2,000, banking up to 300,000.
        TokenBucket bucket = new TokenBucket(1_000, 2_000, true, 0);
        assertEquals(300_000, bucket.burst(0), "a new bank starts full, as its bucket does");
        bucket.take(2_736, 0); // a transaction's four items of 684 units on this partition
        assertEquals(1_000, bucket.balance(0), "one second of the ceiling from the bucket");
        assertEquals(300_000 - 1_736, bucket.burst(0), "the rest from burst: no debt");
        bucket.take(990, 0);
        bucket.take(20, 0);
        assertEquals(-10, bucket.balance(0), 1e-9, "requests of ordinary size never spend burst");
        assertFalse(bucket.canStart(0));
        assertEquals(300_000 - 1_736, bucket.burst(0));
        assertTrue(bucket.canStart(11));
        // Unused capacity: the bucket fills first, then what it cannot hold is banked.
        assertEquals(2_000, bucket.balance(2_010));
        assertEquals(300_000 - 1_736, bucket.burst(2_010), 1e-9);
        assertEquals(300_000 - 736, bucket.burst(3_010), 1e-9);
        assertEquals(300_000, bucket.burst(10_000), "never more than 300 seconds");
        // A bank spent leaves the rest of a large request as debt, as a bucket without one does.
        TokenBucket spent = new TokenBucket(1_000, 2_000, true, 0);
        spent.take(301_000, 0);
        assertEquals(0, spent.burst(0));
        spent.take(3_000, 0);
        assertEquals(-2_000, spent.balance(0));
        TokenBucket none = new TokenBucket(1_000, 2_000, 0);
        none.take(2_736, 0);
        assertEquals(-736, none.balance(0), "no bank: into debt");
        assertEquals(0, none.burst(0));
    }

    @Test
    void aBankOpensFullWhenABucketStartsBankingAndClosesWhenItStops() {
        TokenBucket bucket = new TokenBucket(10, 3_000, 0); // a provisioned table's 300 s of 10 units
        bucket.reshape(40_000, 40_000, true, 0); // switched to on demand
        assertEquals(12_000_000, bucket.burst(0));
        bucket.reshape(10, 3_000, false, 0);
        assertEquals(0, bucket.burst(0));
    }

    @Test
    void partitionsAreEqualHashRangesThatOnlyEverSplit() {
        Partitions p = new Partitions(4, 0);
        assertEquals(4, p.count());
        assertEquals(0, p.starts()[0]);
        assertEquals(1L << 62, p.starts()[1]);
        assertEquals(Long.MIN_VALUE, p.starts()[2]);
        Partitions.Partition last = p.of(-1L);
        assertSame(last, p.of(0xC000_0000_0000_0000L));
        assertNotSame(last, p.of(0xBFFF_FFFF_FFFF_FFFFL));
        p.growTo(6, 0);
        assertEquals(8, p.count(), "growing doubles every partition");
        p.growTo(2, 0);
        assertEquals(8, p.count(), "never merged");
        Partitions one = new Partitions(1, 0);
        one.split(one.of(5), 0);
        assertEquals(2, one.count());
        assertEquals(Long.MIN_VALUE, one.starts()[1], "the whole range splits at 2^63");
    }

    @Test
    void growingStopsAtTheCeilingEvenFromARangeSplitForHeat() {
        Partitions p = new Partitions(1, 0);
        p.split(p.of(5), 0);
        p.split(p.of(5), 0); // three ranges: a quarter, a quarter, a half
        assertEquals(3, p.count());
        p.growTo(4, 0);
        assertEquals(4, p.count(), "the half is halved first");
        assertEquals(java.util.List.of(0L, 1L << 62, Long.MIN_VALUE, 0xC000_0000_0000_0000L),
                java.util.Arrays.stream(p.starts()).boxed().toList());
        p.split(p.of(5), 0);
        p.growTo(Partitions.MAX_PARTITIONS + 1, 0);
        assertEquals(Partitions.MAX_PARTITIONS, p.count());
        p.growTo(Integer.MAX_VALUE, 0);
        p.split(p.of(7), 0);
        assertEquals(Partitions.MAX_PARTITIONS, p.count(), "4,096 at most");
        long[] starts = p.starts();
        for (int i = 1; i < starts.length; i++) {
            assertTrue(Long.compareUnsigned(starts[i - 1], starts[i]) < 0, "ranges in order at " + i);
        }
    }

    @Test
    void aPartitionHotForTheSplitDelaySplitsAndOneHashNeverDoes() {
        Partitions p = new Partitions(1, 0);
        Partitions.Partition hot = p.of(42);
        long delay = 60_000;
        boolean due = false;
        for (long second = 0; second <= 61 && !due; second++) {
            due = hot.record(0, 900, second * 1000, delay);
        }
        assertTrue(due, "90% of the write ceiling every second for a minute");
        Partitions.Partition cool = new Partitions(1, 0).of(0);
        for (long second = 0; second <= 120; second++) {
            assertFalse(cool.record(0, second % 2 == 0 ? 900 : 100, second * 1000, delay), "a break resets the heat");
        }
    }

    @Test
    void onDemandServesDoubleThePeakAtOnceButNeverMoreThanDoubleWithinThirtyMinutes() {
        OnDemandScaling writes = new OnDemandScaling(4_000, 0);
        assertEquals(4_000, writes.allowance());
        writes.record(4_000, 0);
        assertEquals(8_000, writes.record(1, 1_000), "a peak of 4,000: 8,000 at once");
        writes.record(8_000, 2_000);
        assertEquals(8_000, writes.record(1, 3_000), "a peak of 8,000 within 30 minutes: still 8,000");
        assertEquals(16_000, writes.record(1, 31 * 60_000), "30 minutes after 8,000 was reached");
    }
}
