package io.stator.engine.advisor;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * One access pattern's figures in one window. Every request of a pattern adds here (a
 * benchmark's GetItems all share one signature), so every figure is a striped adder: none is a
 * lock they share.
 */
final class SignatureCounters {

    final LongAdder calls = new LongAdder();
    final LongAdder throttled = new LongAdder();
    final LongAdder conditionFailed = new LongAdder();
    /** Units on the table (read and write), in halves. */
    final LongAdder tableReadHalves = new LongAdder();
    final LongAdder tableWriteHalves = new LongAdder();
    /** ScannedCount and Count summed (Query and Scan pages; a single-item read counts its item). */
    final LongAdder scanned = new LongAdder();
    final LongAdder returned = new LongAdder();
    final LongAdder bytesRead = new LongAdder();
    final LongAdder bytesWritten = new LongAdder();
    final LongAccumulator maxItemBytes = new LongAccumulator(Math::max, 0);
    final LongAccumulator maxCallHalves = new LongAccumulator(Math::max, 0);
    final LongAccumulator firstSecond = new LongAccumulator(Math::min, Long.MAX_VALUE);
    final LongAccumulator lastSecond = new LongAccumulator(Math::max, Long.MIN_VALUE);
    /** Per secondary index, by name. */
    final ConcurrentHashMap<String, IndexCounters> indexes = new ConcurrentHashMap<>();

    /** What the pattern does to one secondary index. */
    static final class IndexCounters {
        final boolean global;
        final LongAdder readHalves = new LongAdder();
        final LongAdder writeHalves = new LongAdder();
        /** Entries written (a new key, or new projected values). */
        final LongAdder entriesWritten = new LongAdder();
        /** Entries removed (the item's key attribute gone, or the item deleted). */
        final LongAdder entriesRemoved = new LongAdder();
        /** Writes that moved the entry: its index key changed (a delete and a put). */
        final LongAdder keyMoves = new LongAdder();
        /** Which key attribute changed, per move. */
        final ConcurrentHashMap<String, LongAdder> movedAttributes = new ConcurrentHashMap<>();
        final LongAccumulator maxEntryBytes = new LongAccumulator(Math::max, 0);

        IndexCounters(boolean global) {
            this.global = global;
        }
    }

    /** One call at {@code second}, of {@code halves} units in all. */
    void call(long second, long halves) {
        calls.increment();
        maxCallHalves.accumulate(halves);
        // Read before writing: the accumulators' cells are only written when a call is earlier or later.
        if (second < firstSecond.get()) firstSecond.accumulate(second);
        if (second > lastSecond.get()) lastSecond.accumulate(second);
    }

    IndexCounters index(String name, boolean global) {
        return indexes.computeIfAbsent(name, n -> new IndexCounters(global));
    }

    /** The figures as they are now. */
    PatternFigures figures(Signature signature) {
        Map<String, PatternFigures.IndexFigures> byIndex = new TreeMap<>();
        indexes.forEach((name, c) -> {
            Map<String, Long> moved = new TreeMap<>();
            c.movedAttributes.forEach((a, n) -> moved.put(a, n.sum()));
            byIndex.put(name, new PatternFigures.IndexFigures(c.global, c.readHalves.sum(), c.writeHalves.sum(),
                    c.entriesWritten.sum(), c.entriesRemoved.sum(), c.keyMoves.sum(), moved, c.maxEntryBytes.get()));
        });
        long returnedSum = returned.sum();
        // A single item's read is not added to scanned: it scans what it returns.
        long scannedSum = signature.action().equals("GetItem") ? returnedSum : scanned.sum();
        return new PatternFigures(signature, calls.sum(), throttled.sum(), conditionFailed.sum(), tableReadHalves.sum(),
                tableWriteHalves.sum(), scannedSum, returnedSum, bytesRead.sum(), bytesWritten.sum(),
                maxItemBytes.get(), maxCallHalves.get(), byIndex, 0, 0, firstSecond.get(), lastSecond.get());
    }
}
