package io.stator.engine.advisor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.datasketches.cpc.CpcSketch;
import org.apache.datasketches.cpc.CpcUnion;
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
                case INSIGHTS -> c.insightsHalves();
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
    /** Null for a table that counts its first {@code cap} keys only (a second's). */
    private final Stripe[] stripes;
    /** Units of keys past the cap of a table without sketches: dropped, but known to be. */
    private volatile boolean dropped;

    /**
     * @param sketched whether keys past the cap go to sketches (a minute's), or are left out (a
     *                 second's: a key hot enough for a limit of one second, hundreds of requests in
     *                 it, is among its first keys; the window's totals still count every request)
     */
    KeyTable(int cap, boolean sketched) {
        this.cap = cap;
        this.stripes = sketched ? new Stripe[STRIPES] : null;
        if (sketched) for (int i = 0; i < STRIPES; i++) stripes[i] = new Stripe();
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
        if (stripes == null) {
            if (!dropped) dropped = true;
            return;
        }
        stripes[stripe(key)].add(key, sample);
    }

    /**
     * Adds another window's keys: a closed second's into its minute (a key exact there is added
     * to its counter here, or to the sketches past this table's cap), or a minute's into a copy
     * of it (its sketches merged).
     */
    void fold(KeyTable other) {
        for (Map.Entry<KeyBytes, KeyCounter> e : other.exact.entrySet()) {
            KeyBytes key = e.getKey();
            KeyCounter c = exact.get(key);
            if (c == null && exact.mappingCount() < cap) c = exact.computeIfAbsent(key, k -> new KeyCounter());
            if (c != null) {
                c.add(e.getValue());
            } else if (stripes != null) {
                stripes[stripe(key)].add(key, e.getValue().asSample());
            } else {
                dropped = true;
            }
        }
        if (other.dropped) dropped = true;
        if (other.stripes != null && stripes != null) {
            for (int i = 0; i < STRIPES; i++) stripes[i].merge(other.stripes[i]);
        }
    }

    private static int stripe(KeyBytes key) {
        return (key.hashCode() ^ (key.hashCode() >>> 16)) & (STRIPES - 1);
    }

    /** Keys counted exactly. */
    int exactKeys() {
        return exact.size();
    }

    /** True when some keys went past the cap (to the sketches, or left out: here or in a window folded in). */
    boolean overflowed() {
        if (dropped || stripes == null) return dropped;
        for (Stripe s : stripes) if (s.sketched()) return true;
        return false;
    }

    /**
     * How many distinct keys the window saw: exact below the cap, estimated past it (at least the
     * cap for a table without sketches).
     */
    long distinct() {
        long n = exact.size();
        if (stripes != null) for (Stripe s : stripes) n += s.distinct();
        return n;
    }

    /** The {@code k} keys with the most of {@code measure} (only those with some), most first. */
    List<KeyFigures> top(Measure measure, int k) {
        List<KeyFigures> candidates = new ArrayList<>();
        for (Map.Entry<KeyBytes, KeyCounter> e : exact.entrySet()) {
            if (measure.of(e.getValue()) > 0) candidates.add(KeyFigures.of(e.getKey(), e.getValue()));
        }
        if (stripes != null) for (Stripe s : stripes) s.frequent(measure, candidates);
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
            // No sketch of 3W + R: a key's is its read and write sketches' (see frequent).
            update(Measure.READ, key, s.readHalves());
            update(Measure.WRITE, key, s.writeHalves());
            update(Measure.THROTTLES, key, s.throttles());
        }

        private void update(Measure m, KeyBytes key, long weight) {
            if (weight <= 0) return;
            sketches.computeIfAbsent(m, x -> new ItemsSketch<>(SKETCH_MAP_SIZE)).update(key, weight);
        }

        /** Adds another stripe's sketches (a live minute's, into a copy: this one is not shared yet). */
        void merge(Stripe other) {
            synchronized (other) {
                if (other.distinct == null) return;
                synchronized (this) {
                    CpcUnion union = new CpcUnion(CPC_LG_K);
                    if (distinct != null) union.update(distinct);
                    union.update(other.distinct);
                    distinct = union.getResult();
                    other.sketches.forEach((m, sketch) ->
                            sketches.computeIfAbsent(m, x -> new ItemsSketch<>(SKETCH_MAP_SIZE)).merge(sketch));
                }
            }
        }

        synchronized boolean sketched() {
            return distinct != null;
        }

        synchronized long distinct() {
            return distinct == null ? 0 : Math.round(distinct.getEstimate());
        }

        /**
         * The stripe's candidates for the top of {@code measure}, with every measure's estimate.
         * Contributor Insights' 3W + R is not sketched on its own (one sketch less on every
         * request past the cap): its candidates are the frequent keys of reads and of writes, a
         * key's estimate 3W + R of theirs (PartiQL's units, which Contributor Insights leaves out,
         * are in them: a sketched key's figure is an estimate all the same).
         */
        synchronized void frequent(Measure measure, List<KeyFigures> out) {
            if (measure == Measure.INSIGHTS) {
                java.util.Set<KeyBytes> seen = new java.util.HashSet<>();
                for (Measure m : List.of(Measure.READ, Measure.WRITE)) {
                    ItemsSketch<KeyBytes> sketch = sketches.get(m);
                    if (sketch == null) continue;
                    for (ItemsSketch.Row<KeyBytes> row : sketch.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES)) {
                        if (seen.add(row.getItem())) out.add(figures(row.getItem(), error(Measure.READ, row.getItem())
                                + 3 * error(Measure.WRITE, row.getItem())));
                    }
                }
                return;
            }
            ItemsSketch<KeyBytes> sketch = sketches.get(measure);
            if (sketch == null) return;
            for (ItemsSketch.Row<KeyBytes> row : sketch.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES)) {
                out.add(figures(row.getItem(), row.getEstimate() - row.getLowerBound()));
            }
        }

        private KeyFigures figures(KeyBytes key, long errorHalves) {
            long read = estimate(Measure.READ, key);
            long write = estimate(Measure.WRITE, key);
            return new KeyFigures(key, read, write, read + 3 * write, estimate(Measure.THROTTLES, key), 0, 0, 0, 0,
                    false, errorHalves);
        }

        private long error(Measure m, KeyBytes key) {
            ItemsSketch<KeyBytes> sketch = sketches.get(m);
            return sketch == null ? 0 : sketch.getEstimate(key) - sketch.getLowerBound(key);
        }

        private long estimate(Measure m, KeyBytes key) {
            ItemsSketch<KeyBytes> sketch = sketches.get(m);
            return sketch == null ? 0 : sketch.getEstimate(key);
        }
    }
}
