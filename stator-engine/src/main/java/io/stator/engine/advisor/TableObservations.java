package io.stator.engine.advisor;

import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
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
    private final Rolling<SignatureWindow, PatternWindow> patternMinutes;
    private final AtomicReferenceArray<Logged> throttles = new AtomicReferenceArray<>(THROTTLES_KEPT);
    private final AtomicLong throttleCount = new AtomicLong();
    /** The largest items of the last hour (F12's keys). */
    final LargestItems largestItems = new LargestItems();

    TableObservations(TableDefinition definition, PartitionMap partitionMap, int keyCap) {
        this.definition = definition;
        this.partitionMap = partitionMap;
        this.keyCap = keyCap;
        this.patternSeconds = new Rolling<>(1_000, ResourceObservations.SECONDS_KEPT, SignatureWindow::new,
                w -> new PatternWindow(w.period(), w.secondFigures()));
        this.patternMinutes = new Rolling<>(60_000, ResourceObservations.MINUTES_KEPT, SignatureWindow::new,
                w -> withPeaks(w, patternSeconds.closed()));
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

    /** The counters of {@code signature} in the second and the minute open at {@code nowMillis}. */
    SignatureCounters[] patterns(long nowMillis, Signature signature) {
        return new SignatureCounters[] {patternSeconds.at(nowMillis).of(signature),
                patternMinutes.at(nowMillis).of(signature)};
    }

    /** One closed window's patterns: a second's (each with its calls as its peak) or a minute's. */
    record PatternWindow(long period, Map<Signature, PatternFigures> figures) {}

    /** Every pattern over the minutes open or kept since {@code fromMinute}, with its peaks. */
    Map<Signature, PatternFigures> patternsSince(long nowMillis, long fromMinute) {
        if (patternSeconds.current() != null) patternSeconds.at(nowMillis);
        if (patternMinutes.current() != null) patternMinutes.at(nowMillis);
        List<PatternWindow> seconds = new ArrayList<>(patternSeconds.closed());
        SignatureWindow openSecond = patternSeconds.current();
        if (openSecond != null) seconds.add(new PatternWindow(openSecond.period(), openSecond.secondFigures()));
        List<PatternWindow> minutes = new ArrayList<>(patternMinutes.closed());
        SignatureWindow open = patternMinutes.current();
        if (open != null) minutes.add(withPeaks(open, seconds));
        Map<Signature, PatternFigures> out = new LinkedHashMap<>();
        for (PatternWindow minute : minutes) {
            if (minute.period() < fromMinute) continue;
            minute.figures().forEach((s, f) -> out.merge(s, f, PatternFigures::plus));
        }
        return out;
    }

    /** The patterns of each second kept up to {@code nowMillis}, the one open included, oldest first. */
    List<PatternWindow> patternSeconds(long nowMillis) {
        if (patternSeconds.current() != null) patternSeconds.at(nowMillis);
        List<PatternWindow> seconds = new ArrayList<>(patternSeconds.closed());
        SignatureWindow open = patternSeconds.current();
        if (open != null) seconds.add(new PatternWindow(open.period(), open.secondFigures()));
        return seconds;
    }

    /** A minute's figures, each pattern with its busiest second among {@code seconds}. */
    private static PatternWindow withPeaks(SignatureWindow minute, List<PatternWindow> seconds) {
        Map<Signature, PatternFigures> out = new LinkedHashMap<>();
        minute.figures().forEach((s, f) -> {
            long calls = 0;
            long halves = 0;
            for (PatternWindow second : seconds) {
                if (Math.floorDiv(second.period(), 60) != minute.period()) continue;
                PatternFigures p = second.figures().get(s);
                if (p == null) continue;
                calls = Math.max(calls, p.calls());
                halves = Math.max(halves, p.totalHalves());
            }
            out.put(s, f.withPeaks(calls, halves));
        });
        return new PatternWindow(minute.period(), out);
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
