package io.stator.engine.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.table.TableArns;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.MovableClock;
import io.stator.engine.testing.TestEngine;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Burst capacity at a partition, both ways: a request larger than a second of its partition's
 * ceiling is served from burst and leaves no debt behind it, while ordinary requests, and large
 * ones once the burst is spent, meet the ceiling. The model alone (no storage written), on a new
 * on-demand table, with a clock the test moves.
 */
class BurstCapacityTest {

    /** Every item in one partition: one key's item collection. */
    private static final long ONE_PARTITION = 42;
    /** A transaction of ten items of 350,000 bytes: 342 units each, 684 in a transaction, 6,840 in all. */
    private static final int ITEMS = 10;
    private static final long ITEM_BYTES = 350_000;

    @TempDir
    Path directory;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-06-01T00:00:00Z"));
    private CapacityMeter meter;
    private TableDefinition table;

    @BeforeEach
    void newOnDemandTable() {
        try (TestEngine test = TestEngine.open(directory)) {
            table = test.createTable("t", true, null, null);
        }
        meter = new CapacityMeter(new Throughput(clock, ThroughputSettings.DEFAULTS, new TableArns("us-east-1", "000000000000")));
    }

    @Test
    void aTransactionLargerThanASecondOfItsPartitionLeavesNoDebtBehindIt() {
        assertNull(transaction().refusals());
        // The partition paid one second (1,000 of its 2,000), burst the other 5,840: 100
        // ordinary writes of ten units fit at once, as a second's worth does on a fresh partition.
        assertEquals(100, writesAdmittedNow(10_000));
    }

    @Test
    void ordinaryRequestsNeverSpendBurst() {
        // Ten-unit writes on one key: the bucket's 2,000 and no more, the burst untouched.
        assertEquals(200, writesAdmittedNow(10_000));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(100, writesAdmittedNow(10_000), "then the ceiling, 1,000 a second");
    }

    @Test
    void aStreamOfLargeTransactionsOnOnePartitionMeetsTheCeilingOnceBurstIsSpent() {
        // One a second: 6,840 units on a partition of 1,000 a second. Each pays the partition a
        // second and burst 5,840, so burst's 300,000 serve 51 in full; the 52nd takes the last
        // 2,160 and leaves a debt of 2,680, and the 53rd is refused.
        int served = 0;
        while (served < 100 && transaction().refusals() == null) {
            served++;
            clock.advance(Duration.ofSeconds(1));
        }
        assertEquals(52, served);
        // From then on the partition serves its ceiling: at most 1,000 a second, with what its
        // bucket holds (2,000) and one transaction's overshoot (6,840) on top.
        int more = 0;
        for (int second = 0; second < 100; second++) {
            clock.advance(Duration.ofSeconds(1));
            if (transaction().refusals() == null) more++;
        }
        assertTrue(more * 6_840 <= 100 * 1_000 + 2_000 + 6_840, more + " more transactions in 100 seconds");
        assertTrue(more >= 12, "the ceiling is still served: " + more);
    }

    @Test
    void burstRefillsFromUnusedCapacityOnly() {
        while (transaction().refusals() == null) clock.advance(Duration.ofSeconds(1));
        // Idle: the debt is repaid and the bucket refilled first; only then does burst grow
        // again, a second of the ceiling each second, so that a large transaction is served
        // from burst again after a few seconds.
        clock.advance(Duration.ofSeconds(12));
        assertNull(transaction().refusals());
        assertEquals(100, writesAdmittedNow(10_000), "and no debt left behind it");
    }

    // ---- helpers -------------------------------------------------------------------------------

    private CapacityMeter.TransactionAdmission transaction() {
        Usage.Write item = new Usage.Write(0, ITEM_BYTES, List.of(), true, ONE_PARTITION);
        return meter.admitWrites(Collections.nCopies(ITEMS, table), Collections.nCopies(ITEMS, item));
    }

    /** How many writes of {@code bytes} on the one partition are admitted before the first refusal. */
    private int writesAdmittedNow(long bytes) {
        Usage.Write write = new Usage.Write(0, bytes, List.of(), false, ONE_PARTITION);
        int admitted = 0;
        while (admitted < 10_000) {
            try {
                meter.admitWrite(table, write);
            } catch (ThroughputExceededException e) {
                assertNotNull(e.reasons());
                assertEquals("TableWriteKeyRangeThroughputExceeded", e.reasons().get(0).reason());
                return admitted;
            }
            admitted++;
        }
        return admitted;
    }
}
