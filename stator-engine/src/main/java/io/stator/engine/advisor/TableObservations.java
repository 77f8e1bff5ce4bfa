package io.stator.engine.advisor;

import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One table's observations: its own and each global index's traffic ({@link ResourceObservations},
 * by index id, 0 for the table), its access patterns by second and by minute, and its last
 * throttled requests.
 */
final class TableObservations {

    static final int THROTTLES_KEPT = 256;

    private final PartitionMap partitionMap;
    private final int keyCap;
    /** The last definition a request came with: for the partitions and for reading keys back. */
    volatile TableDefinition definition;
    /** Its item key's shape in signatures, made once per definition. */
    private volatile String itemKey;
    private volatile TableDefinition itemKeyOf;
    private final ConcurrentHashMap<Integer, ResourceObservations> resources = new ConcurrentHashMap<>();
    private final Rolling<SignatureWindow, PatternWindow> patternSeconds;
    /**
     * The minutes' patterns: the sum of their seconds' ({@link PatternFigures#plus}, whose peaks
     * are the busiest second's), each second folded in as it closes; guarded by itself.
     */
    private final PatternMinutes patternMinutes = new PatternMinutes();
    private final AtomicReferenceArray<Logged> throttles = new AtomicReferenceArray<>(THROTTLES_KEPT);
    private final AtomicLong throttleCount = new AtomicLong();
    /** The largest items of the last hour (F12's keys). */
    final LargestItems largestItems = new LargestItems();

    TableObservations(TableDefinition definition, PartitionMap partitionMap, int keyCap) {
        this.definition = definition;
        this.partitionMap = partitionMap;
        this.keyCap = keyCap;
        this.patternSeconds = new Rolling<>(1_000, ResourceObservations.SECONDS_KEPT, SignatureWindow::new, w -> {
            PatternWindow second = new PatternWindow(w.period(), w.secondFigures());
            patternMinutes.fold(second);
            return second;
        });
    }

    /** The item key's shape of {@code table} (this table's definition). */
    String itemKey(TableDefinition table) {
        if (itemKeyOf != table) {
            itemKey = Signature.itemKey(table);
            itemKeyOf = table;
        }
        return itemKey;
    }

    /** The table's (index id 0) or a global index's observations, made at its first request. */
    ResourceObservations resource(int indexId) {
        ResourceObservations r = resources.get(indexId);
        if (r != null) return r;
        return resources.computeIfAbsent(indexId, id -> new ResourceObservations(() -> starts(id), keyCap));
    }

    /** The resource's observations if it had any request, else null. */
    ResourceObservations existing(int indexId) {
        return resources.get(indexId);
    }

    private long[] starts(int indexId) {
        TableDefinition d = definition;
        IndexDefinition index = indexId == 0 ? null : d.indexById(indexId);
        if (indexId != 0 && index == null) return new long[] {0};
        long[] s = partitionMap.starts(d, index);
        return s.length == 0 ? new long[] {0} : s;
    }

    /** The counters of {@code signature} in the second open at {@code nowMillis} (its minute gets them as it closes). */
    SignatureCounters patterns(long nowMillis, Signature signature) {
        return patternSeconds.at(nowMillis).of(signature);
    }

    /** One closed window's patterns: a second's (each with its calls as its peak) or a minute's. */
    record PatternWindow(long period, Map<Signature, PatternFigures> figures) {}

    /** Every pattern over the minutes open or kept since {@code fromMinute}, with its peaks. */
    Map<Signature, PatternFigures> patternsSince(long nowMillis, long fromMinute) {
        Map<Signature, PatternFigures> out = new LinkedHashMap<>();
        for (PatternWindow minute : patternMinutes(nowMillis)) {
            if (minute.period() < fromMinute) continue;
            minute.figures().forEach((s, f) -> out.merge(s, f, PatternFigures::plus));
        }
        return out;
    }

    /** The patterns of each minute kept up to {@code nowMillis}, the one open included, oldest first. */
    List<PatternWindow> patternMinutes(long nowMillis) {
        if (patternSeconds.current() != null) patternSeconds.at(nowMillis);
        SignatureWindow openSecond = patternSeconds.current();
        return patternMinutes.upTo(Math.floorDiv(nowMillis, 60_000), openSecond == null ? null
                : new PatternWindow(openSecond.period(), openSecond.secondFigures()));
    }

    /** The table's (index id 0) and its global indexes' observations, by index id. */
    Map<Integer, ResourceObservations> resources() {
        return resources;
    }

    /** The patterns of each second kept up to {@code nowMillis}, the one open included, oldest first. */
    List<PatternWindow> patternSeconds(long nowMillis) {
        if (patternSeconds.current() != null) patternSeconds.at(nowMillis);
        List<PatternWindow> seconds = new ArrayList<>(patternSeconds.closed());
        SignatureWindow open = patternSeconds.current();
        if (open != null) seconds.add(new PatternWindow(open.period(), open.secondFigures()));
        return seconds;
    }

    /** The minutes' patterns, summed from their seconds. */
    private static final class PatternMinutes {
        private final ArrayDeque<PatternWindow> closed = new ArrayDeque<>();
        private long open = Long.MIN_VALUE;
        private Map<Signature, PatternFigures> figures = new LinkedHashMap<>();

        /** A closed second, added to its minute (a straggler of a minute already closed is dropped). */
        synchronized void fold(PatternWindow second) {
            long minute = Math.floorDiv(second.period(), 60);
            roll(minute);
            if (minute == open) add(figures, second.figures());
        }

        /** The minutes kept up to {@code minute}, the open one with {@code openSecond} in it, oldest first. */
        synchronized List<PatternWindow> upTo(long minute, PatternWindow openSecond) {
            roll(minute);
            List<PatternWindow> out = new ArrayList<>(closed);
            Map<Signature, PatternFigures> now = new LinkedHashMap<>(figures);
            if (openSecond != null && Math.floorDiv(openSecond.period(), 60) == open) add(now, openSecond.figures());
            if (open != Long.MIN_VALUE) out.add(new PatternWindow(open, now));
            return out;
        }

        private void roll(long minute) {
            if (minute <= open) return;
            if (open != Long.MIN_VALUE) {
                closed.addLast(new PatternWindow(open, figures));
                while (closed.size() > ResourceObservations.MINUTES_KEPT) closed.removeFirst();
                figures = new LinkedHashMap<>();
            }
            open = minute;
        }

        /** At most {@link SignatureWindow#MAX_SIGNATURES} patterns a minute; the rest together as others. */
        private static void add(Map<Signature, PatternFigures> into, Map<Signature, PatternFigures> more) {
            more.forEach((s, f) -> {
                if (!into.containsKey(s) && into.size() >= SignatureWindow.MAX_SIGNATURES) {
                    into.merge(SignatureWindow.OTHERS, f.as(SignatureWindow.OTHERS), PatternFigures::plus);
                } else {
                    into.merge(s, f, PatternFigures::plus);
                }
            });
        }
    }

    // ---- throttled requests -------------------------------------------------------------------

    /** One throttled request as logged: its key is read back only when shown. */
    record Logged(long timeMillis, Signature signature, TableDefinition table, IndexDefinition index, KeyBytes key,
                  ThroughputExceededException refusal) {}

    void throttled(Logged event) {
        throttles.set((int) (throttleCount.getAndIncrement() % THROTTLES_KEPT), event);
    }

    /** The last throttled requests, oldest first. */
    List<Logged> throttled() {
        long n = throttleCount.get();
        List<Logged> out = new ArrayList<>();
        for (long i = Math.max(0, n - THROTTLES_KEPT); i < n; i++) {
            Logged e = throttles.get((int) (i % THROTTLES_KEPT));
            if (e != null) out.add(e);
        }
        out.sort(java.util.Comparator.comparingLong(Logged::timeMillis));
        return out;
    }
}
