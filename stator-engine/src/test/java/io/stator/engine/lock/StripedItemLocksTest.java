package io.stator.engine.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What writers are promised of each other: claims, exclusion, and no deadlock. */
class StripedItemLocksTest {

    private final ItemLocks locks = new StripedItemLocks();

    @Test
    void aClaimedItemFailsASingleWriteAtOnceAndAnotherTransactionAtItsPosition() {
        try (ItemLocks.Held transaction = locks.claimAndLock(List.of(key("a"), key("b")))) {
            assertEquals(0, assertThrows(ItemClaimedException.class, () -> locks.lockForWrite(key("b"))).position());
            ItemClaimedException other = assertThrows(ItemClaimedException.class,
                    () -> locks.claimAndLock(List.of(key("c"), key("a"))));
            assertEquals(1, other.position());
            assertEquals(1, locks.firstClaimed(List.of(key("z"), key("b"))));
        }
        // Released with the transaction, claims and all.
        assertEquals(-1, locks.firstClaimed(List.of(key("a"), key("b"), key("c"))));
        locks.lockForWrite(key("a")).close();
        locks.claimAndLock(List.of(key("c"))).close();
    }

    @Test
    void transactionsOverTheSameItemsInAnyOrderNeitherDeadlockNorOverlap() throws InterruptedException {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(2);
        for (List<String> order : List.of(List.of("x", "y", "z"), List.of("z", "y", "x"))) {
            Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 2000; i++) {
                    try (ItemLocks.Held held = locks.claimAndLock(order.stream().map(StripedItemLocksTest::key).toList())) {
                        if (inside.incrementAndGet() > 1) overlaps.incrementAndGet();
                        inside.decrementAndGet();
                    } catch (ItemClaimedException e) {
                        // The other one holds them: a transaction conflict, tried again.
                    }
                }
                done.countDown();
            });
        }
        assertEquals(true, done.await(60, TimeUnit.SECONDS), "deadlocked");
        assertEquals(0, overlaps.get());
    }

    private static byte[] key(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }
}
