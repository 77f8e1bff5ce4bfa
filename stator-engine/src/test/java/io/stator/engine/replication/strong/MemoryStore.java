package io.stator.engine.replication.strong;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A test's item store behind one region's {@link Applier}: it keeps the applied log (index and
 * command) and each key's last payload, skips an index it already holds (the Applier's contract;
 * a test restarting a region keeps its store, as the engine's storage would survive), and can be
 * held at its next apply until released.
 */
final class MemoryStore implements Applier {

    record Applied(long index, long sequence, StrongCommand command) {}

    private final List<Applied> log = new ArrayList<>();
    private final Map<ByteBuffer, String> items = new HashMap<>();
    private long lastIndex = -1;
    private int replayed;
    private volatile CountDownLatch gate;
    private volatile boolean failing;

    @Override
    public byte[] apply(long index, long sequence, StrongCommand command) {
        CountDownLatch held = gate;
        if (held != null) {
            try {
                held.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (failing) throw new IllegalStateException("the disk is full");
        synchronized (this) {
            if (index <= lastIndex) {
                replayed++;
                return new byte[0];
            }
            lastIndex = index;
            log.add(new Applied(index, sequence, command));
            String value = new String(command.payload(), StandardCharsets.UTF_8);
            for (byte[] key : command.keys()) items.put(ByteBuffer.wrap(key), value);
            return ("applied " + value + " at " + index).getBytes(StandardCharsets.UTF_8);
        }
    }

    synchronized List<Applied> log() { return List.copyOf(log); }

    /** How many applies were of an index this store already held. */
    synchronized int replayed() { return replayed; }

    synchronized String get(String key) { return items.get(ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8))); }

    /** Makes every apply fail (a store fault) until {@code false}. */
    void failing(boolean failing) {
        this.failing = failing;
    }

    /** Holds every apply from now on until the returned latch is counted down. */
    CountDownLatch hold() {
        CountDownLatch latch = new CountDownLatch(1);
        gate = latch;
        return latch;
    }

    void release(CountDownLatch latch) {
        gate = null;
        latch.countDown();
    }

    static StrongCommand put(String origin, String key, String value) {
        return put(origin, System.currentTimeMillis(), key, value);
    }

    /** A put proposed at {@code millis} by the proposer's clock. */
    static StrongCommand put(String origin, long millis, String key, String value) {
        return new StrongCommand(origin, millis, List.of(key.getBytes(StandardCharsets.UTF_8)),
                value.getBytes(StandardCharsets.UTF_8));
    }
}
