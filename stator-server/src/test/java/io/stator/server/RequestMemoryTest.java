package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RequestMemoryTest {

    private static final long WAIT = TimeUnit.SECONDS.toNanos(60);

    @Test
    void admitsUpToTheLimitAtOnceAndThenWaitsForRoom() throws Exception {
        RequestMemory memory = new RequestMemory(100);
        assertTrue(memory.admit(60, 0));
        assertTrue(memory.admit(40, 0));
        assertFalse(memory.hasRoom());
        assertFalse(memory.admit(1, TimeUnit.MILLISECONDS.toNanos(20)), "no room came: not admitted, nothing held");
        assertEquals(100, memory.held());

        CompletableFuture<Boolean> waiter = admitLater(memory, 50);
        awaitWaiting(memory, 1);
        memory.release(60);
        assertTrue(waiter.get(60, TimeUnit.SECONDS));
        assertEquals(90, memory.held());
    }

    @Test
    void aRequestLargerThanTheLimitRunsAloneWhenNothingElseIsHeld() throws Exception {
        RequestMemory memory = new RequestMemory(100);
        assertTrue(memory.admit(10, 0));
        CompletableFuture<Boolean> huge = admitLater(memory, 250);
        awaitWaiting(memory, 1);
        memory.release(10);
        assertTrue(huge.get(60, TimeUnit.SECONDS));
        assertEquals(250, memory.held());
        assertFalse(memory.admit(1, 0), "nothing else while it runs");
    }

    @Test
    void waitersAreAdmittedInArrivalOrderSoThatALargeOneIsNotStarved() throws Exception {
        RequestMemory memory = new RequestMemory(100);
        assertTrue(memory.admit(90, 0));
        CompletableFuture<Boolean> large = admitLater(memory, 60);
        awaitWaiting(memory, 1);
        // It would fit beside the 90 held, but the large one came first.
        assertFalse(memory.admit(5, 0));
        CompletableFuture<Boolean> small = admitLater(memory, 5);
        awaitWaiting(memory, 2);
        memory.release(50);
        assertTrue(large.get(60, TimeUnit.SECONDS));
        assertEquals(100, memory.held());
        assertFalse(small.isDone(), "no room for the small one until the large one is in and more is freed");
        memory.release(5);
        assertTrue(small.get(60, TimeUnit.SECONDS));
        assertEquals(100, memory.held());
    }

    @Test
    void aWaiterThatGivesUpLetsTheNextOneIn() throws Exception {
        RequestMemory memory = new RequestMemory(100);
        assertTrue(memory.admit(100, 0));
        CompletableFuture<Boolean> impatient = CompletableFuture.supplyAsync(() -> {
            try {
                return memory.admit(80, TimeUnit.MILLISECONDS.toNanos(50));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        awaitWaiting(memory, 1);
        CompletableFuture<Boolean> patient = admitLater(memory, 30);
        assertFalse(impatient.get(60, TimeUnit.SECONDS));
        memory.release(70);
        assertTrue(patient.get(60, TimeUnit.SECONDS));
        assertEquals(60, memory.held());
        assertEquals(0, memory.waiting());
    }

    @Test
    void chargesAndReleasesAreCounted() {
        RequestMemory memory = new RequestMemory(100);
        memory.charge(150);
        assertFalse(memory.hasRoom());
        memory.release(150);
        assertTrue(memory.hasRoom());
        assertEquals(0, memory.held());
    }

    private static CompletableFuture<Boolean> admitLater(RequestMemory memory, long bytes) {
        CompletableFuture<Boolean> admitted = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            try {
                admitted.complete(memory.admit(bytes, WAIT));
            } catch (Throwable e) {
                admitted.completeExceptionally(e);
            }
        });
        return admitted;
    }

    private static void awaitWaiting(RequestMemory memory, int count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT;
        while (memory.waiting() < count) {
            if (System.nanoTime() > deadline) throw new AssertionError("no " + count + " waiting");
            Thread.sleep(1);
        }
    }
}
