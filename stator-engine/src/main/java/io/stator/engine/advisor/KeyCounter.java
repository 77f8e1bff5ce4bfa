package io.stator.engine.advisor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One key's figures in one window. Units are counted in halves (an eventually consistent read
 * of up to 4 KB is half a unit), so that every figure is a whole number and adds up exactly.
 * The fields are added to with atomic adds, never under a lock: the requests of a hot key all
 * add here, and none waits for another.
 */
final class KeyCounter {

    private static final VarHandle READ;
    private static final VarHandle WRITE;
    private static final VarHandle EXCLUDED;
    private static final VarHandle THROTTLES;
    private static final VarHandle THROTTLE_EVENTS;
    private static final VarHandle REQUESTS;
    private static final VarHandle ITEMS;
    private static final VarHandle BYTES;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            READ = l.findVarHandle(KeyCounter.class, "readHalves", long.class);
            WRITE = l.findVarHandle(KeyCounter.class, "writeHalves", long.class);
            EXCLUDED = l.findVarHandle(KeyCounter.class, "excludedHalves", long.class);
            THROTTLES = l.findVarHandle(KeyCounter.class, "throttles", long.class);
            THROTTLE_EVENTS = l.findVarHandle(KeyCounter.class, "throttleEvents", long.class);
            REQUESTS = l.findVarHandle(KeyCounter.class, "requests", long.class);
            ITEMS = l.findVarHandle(KeyCounter.class, "items", long.class);
            BYTES = l.findVarHandle(KeyCounter.class, "bytes", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Read units taken, in halves (every front end). */
    volatile long readHalves;
    /** Write units taken, in halves (every front end). */
    volatile long writeHalves;
    /**
     * The part of 3 W + R that Contributor Insights leaves out (PartiQL's requests), in halves:
     * kept instead of the measure itself, so that the common request adds one figure less.
     */
    volatile long excludedHalves;
    /** Contributor Insights' ThrottleCount: throttled requests it counts. */
    volatile long throttles;
    /** Every throttled request of the key, whoever refused it (the advisor's). */
    volatile long throttleEvents;
    /** Requests that read or wrote the key. */
    volatile long requests;
    /** Items added to the key's collection, less those deleted (partition keys of a table only). */
    volatile long items;
    /** Bytes added to the key's collection, less those removed. */
    volatile long bytes;

    void add(Sample s) {
        if (s.readHalves != 0) READ.getAndAdd(this, s.readHalves);
        if (s.writeHalves != 0) WRITE.getAndAdd(this, s.writeHalves);
        long excluded = s.readHalves + 3 * s.writeHalves - s.insightsHalves;
        if (excluded != 0) EXCLUDED.getAndAdd(this, excluded);
        if (s.throttles != 0) THROTTLES.getAndAdd(this, s.throttles);
        if (s.throttleEvents != 0) THROTTLE_EVENTS.getAndAdd(this, s.throttleEvents);
        REQUESTS.getAndAdd(this, 1L);
        if (s.items != 0) ITEMS.getAndAdd(this, s.items);
        if (s.bytes != 0) BYTES.getAndAdd(this, s.bytes);
    }

    /** Contributor Insights' ConsumedThroughputUnits, 3 W + R, in halves: PartiQL's left out. */
    long insightsHalves() {
        return readHalves + 3 * writeHalves - excludedHalves;
    }

    /** Another window's figures of the same key (a closed second's, folded into its minute). */
    void add(KeyCounter o) {
        READ.getAndAdd(this, o.readHalves);
        WRITE.getAndAdd(this, o.writeHalves);
        EXCLUDED.getAndAdd(this, o.excludedHalves);
        THROTTLES.getAndAdd(this, o.throttles);
        THROTTLE_EVENTS.getAndAdd(this, o.throttleEvents);
        REQUESTS.getAndAdd(this, o.requests);
        ITEMS.getAndAdd(this, o.items);
        BYTES.getAndAdd(this, o.bytes);
    }

    /** The figures as one sample (for a sketch, which counts units, not requests). */
    Sample asSample() {
        return new Sample(readHalves, writeHalves, insightsHalves(), throttles, throttleEvents, items, bytes);
    }

    /** What one request adds to one key. */
    record Sample(long readHalves, long writeHalves, long insightsHalves, long throttles, long throttleEvents, long items,
                  long bytes) {

        /** Units as halves, rounded up (units are whole or half units: nothing is lost). */
        static long halves(double units) {
            return (long) Math.ceil(units * 2);
        }
    }
}
