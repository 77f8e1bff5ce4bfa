package io.stator.engine.advisor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.datasketches.cpc.CpcSketch;
import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.ItemsSketch;

/**
 * The keys of one window (partition keys, or items), in bounded memory whatever their number.
 *
 * <p><b>Exact, then sketched.</b> The first {@code cap} distinct keys of the window are counted
 * exactly, each in its own {@link KeyCounter}. Past the cap a new key is not given a counter: its
 * units go into Apache DataSketches' frequent-items sketches ({@link ItemsSketch}, weighted, one
 * per measure), its identity into a distinct-count sketch ({@link CpcSketch}). A key is counted
 * in one place for the whole window (the map never loses a key), so a key in the map is exact and
 * a key in the sketches has the sketch's error bounds, which the figures carry. A hot key is met
 * early, and so is almost always exact.
 *
 * <p><b>Concurrency.</b> The map is a ConcurrentHashMap (its bins' locks, never a table-wide one),
 * a counter is added to atomically. The sketches are not thread-safe: they are split into
 * {@link #STRIPES} stripes by the key's hash, each with its own lock, so that requests of
 * different keys rarely meet, and a key's figures stay in one stripe (which makes the stripes'
 * estimates a key's estimates). Only keys past the cap ever take a stripe's lock.
 */
final class KeyTable {

    static final int STRIPES = 4;
    /** Each stripe's sketch map size: its error is about 3.5 / 256 of the weight the stripe saw. */
    static final int SKETCH_MAP_SIZE = 256;
    static final int CPC_LG_K = 10;

    /** What keys are ranked by. */
    enum Measure {
        READ, WRITE, INSIGHTS, THROTTLES, ITEMS;

        long of(KeyCounter c) {
            return switch (this) {
                case READ -> c.readHalves;
                case WRITE -> c.writeHalves;
                case INSIGHTS -> c.insightsHalves;
                case THROTTLES -> c.throttles;
                case ITEMS -> c.items;
            };
        }

        long of(KeyFigures f) {
            return switch (this) {
                case READ -> f.readHalves();
                case WRITE -> f.writeHalves();
                case INSIGHTS -> f.insightsHalves();
                case THROTTLES -> f.throttles();
                case ITEMS -> f.items();
            };
        }
    }

    private final int cap;
    private final ConcurrentHashMap<KeyBytes, KeyCounter> exact = new ConcurrentHashMap<>();
    private final Stripe[] stripes = new Stripe[STRIPES];

    KeyTable(int cap) {
        this.cap = cap;
        for (int i = 0; i < STRIPES; i++) stripes[i] = new Stripe();
    }

    void add(KeyBytes key, KeyCounter.Sample sample) {
        KeyCounter c = exact.get(key);
        // Past the cap no key is added (a few may be, by racing requests: the bound is loose by
        // the number of threads, never unbounded).
        if (c == null && exact.mappingCount() < cap) c = exact.computeIfAbsent(key, k -> new KeyCounter());
        if (c != null) {
            c.add(sample);
            return;
        }
        stripes[(key.hashCode() ^ (key.hashCode() >>> 16)) & (STRIPES - 1)].add(key, sample);
    }

    /** Keys counted exactly. */
    int exactKeys() {
        return exact.size();
    }

    /** True when some keys went to the sketches. */
    boolean overflowed() {
        for (Stripe s : stripes) if (s.sketched()) return true;
        return false;
    }

    /** How many distinct keys the window saw: exact below the cap, estimated past it. */
    long distinct() {
        long n = exact.size();
        for (Stripe s : stripes) n += s.distinct();
        return n;
    }

    /** The {@code k} keys with the most of {@code measure} (only those with some), most first. */
    List<KeyFigures> top(Measure measure, int k) {
        List<KeyFigures> candidates = new ArrayList<>();
        for (Map.Entry<KeyBytes, KeyCounter> e : exact.entrySet()) {
            if (measure.of(e.getValue()) > 0) candidates.add(KeyFigures.of(e.getKey(), e.getValue()));
        }
        for (Stripe s : stripes) s.frequent(measure, candidates);
        candidates.sort(order(measure));
        return candidates.size() <= k ? candidates : new ArrayList<>(candidates.subList(0, k));
    }

    static Comparator<KeyFigures> order(Measure measure) {
        return Comparator.comparingLong((KeyFigures f) -> measure.of(f)).reversed()
                .thenComparing((a, b) -> a.key().compareBytes(b.key()));
    }

    /** The sketches of one stripe, created as keys first overflow into it. */
    private static final class Stripe {
        private final Map<Measure, ItemsSketch<KeyBytes>> sketches = new HashMap<>();
        private CpcSketch distinct;

        synchronized void add(KeyBytes key, KeyCounter.Sample s) {
            if (distinct == null) distinct = new CpcSketch(CPC_LG_K);
            distinct.update(key.fingerprint);
            update(Measure.READ, key, s.readHalves());
            update(Measure.WRITE, key, s.writeHalves());
            update(Measure.INSIGHTS, key, s.insightsHalves());
            update(Measure.THROTTLES, key, s.throttles());
        }

        private void update(Measure m, KeyBytes key, long weight) {
            if (weight <= 0) return;
            sketches.computeIfAbsent(m, x -> new ItemsSketch<>(SKETCH_MAP_SIZE)).update(key, weight);
        }

        synchronized boolean sketched() {
            return distinct != null;
        }

        synchronized long distinct() {
            return distinct == null ? 0 : Math.round(distinct.getEstimate());
        }

        /** The stripe's candidates for the top of {@code measure}, with every measure's estimate. */
        synchronized void frequent(Measure measure, List<KeyFigures> out) {
            ItemsSketch<KeyBytes> sketch = sketches.get(measure);
            if (sketch == null) return;
            for (ItemsSketch.Row<KeyBytes> row : sketch.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES)) {
                KeyBytes key = row.getItem();
                out.add(new KeyFigures(key, estimate(Measure.READ, key), estimate(Measure.WRITE, key),
                        estimate(Measure.INSIGHTS, key), estimate(Measure.THROTTLES, key), 0, 0, 0, 0, false,
                        row.getEstimate() - row.getLowerBound()));
            }
        }

        private long estimate(Measure m, KeyBytes key) {
            ItemsSketch<KeyBytes> sketch = sketches.get(m);
            return sketch == null ? 0 : sketch.getEstimate(key);
        }
    }
}
