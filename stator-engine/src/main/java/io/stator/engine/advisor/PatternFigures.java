package io.stator.engine.advisor;

import java.util.Map;
import java.util.TreeMap;

/**
 * One access pattern's figures over a window or a span of windows. Units are in halves.
 *
 * @param calls           requests (a batch's or a transaction's items, each)
 * @param throttled       of which throttled
 * @param conditionFailed of which refused by their condition (billed all the same)
 * @param scanned         ScannedCount summed
 * @param returned        Count summed (the items the filter kept)
 * @param maxCallHalves   the most one call cost, all arms together
 * @param indexes         per secondary index it read or wrote
 * @param peakCallsPerSecond the busiest second's calls
 * @param peakHalvesPerSecond the busiest second's units, all arms together
 * @param firstSecond     the first second (since the epoch) the pattern ran in, Long.MAX_VALUE for none
 * @param lastSecond      the last one, Long.MIN_VALUE for none
 */
public record PatternFigures(Signature signature, long calls, long throttled, long conditionFailed,
                             long tableReadHalves, long tableWriteHalves, long scanned, long returned, long bytesRead,
                             long bytesWritten, long maxItemBytes, long maxCallHalves,
                             Map<String, IndexFigures> indexes, long peakCallsPerSecond, long peakHalvesPerSecond,
                             long firstSecond, long lastSecond) {

    /**
     * What the pattern did to one secondary index.
     *
     * @param keyMoves        writes that changed the entry's key (a delete and a put)
     * @param movedAttributes per index key attribute, how many moves changed it
     */
    public record IndexFigures(boolean global, long readHalves, long writeHalves, long entriesWritten,
                               long entriesRemoved, long keyMoves, Map<String, Long> movedAttributes,
                               long maxEntryBytes) {

        IndexFigures plus(IndexFigures o) {
            Map<String, Long> moved = new TreeMap<>(movedAttributes);
            o.movedAttributes.forEach((a, n) -> moved.merge(a, n, Long::sum));
            return new IndexFigures(global, readHalves + o.readHalves, writeHalves + o.writeHalves,
                    entriesWritten + o.entriesWritten, entriesRemoved + o.entriesRemoved, keyMoves + o.keyMoves, moved,
                    Math.max(maxEntryBytes, o.maxEntryBytes));
        }
    }

    /** The seconds from the first to the last the pattern ran in, both counted: what its average is over. */
    public long activeSeconds() {
        return lastSecond < firstSecond ? 0 : lastSecond - firstSecond + 1;
    }

    /** All units of every arm, in halves. */
    public long totalHalves() {
        long total = tableReadHalves + tableWriteHalves;
        for (IndexFigures i : indexes.values()) total += i.readHalves + i.writeHalves;
        return total;
    }

    /** Two spans' figures together (peaks: the larger). */
    PatternFigures plus(PatternFigures o) {
        Map<String, IndexFigures> byIndex = new TreeMap<>(indexes);
        o.indexes.forEach((n, f) -> byIndex.merge(n, f, IndexFigures::plus));
        return new PatternFigures(signature, calls + o.calls, throttled + o.throttled, conditionFailed + o.conditionFailed,
                tableReadHalves + o.tableReadHalves, tableWriteHalves + o.tableWriteHalves, scanned + o.scanned,
                returned + o.returned, bytesRead + o.bytesRead, bytesWritten + o.bytesWritten,
                Math.max(maxItemBytes, o.maxItemBytes), Math.max(maxCallHalves, o.maxCallHalves), byIndex,
                Math.max(peakCallsPerSecond, o.peakCallsPerSecond), Math.max(peakHalvesPerSecond, o.peakHalvesPerSecond),
                Math.min(firstSecond, o.firstSecond), Math.max(lastSecond, o.lastSecond));
    }

    /** The same figures under another signature (the patterns counted together as others). */
    PatternFigures as(Signature other) {
        return new PatternFigures(other, calls, throttled, conditionFailed, tableReadHalves, tableWriteHalves, scanned,
                returned, bytesRead, bytesWritten, maxItemBytes, maxCallHalves, indexes, peakCallsPerSecond,
                peakHalvesPerSecond, firstSecond, lastSecond);
    }

    PatternFigures withPeaks(long callsPerSecond, long halvesPerSecond) {
        return new PatternFigures(signature, calls, throttled, conditionFailed, tableReadHalves, tableWriteHalves, scanned,
                returned, bytesRead, bytesWritten, maxItemBytes, maxCallHalves, indexes,
                Math.max(peakCallsPerSecond, callsPerSecond), Math.max(peakHalvesPerSecond, halvesPerSecond), firstSecond,
                lastSecond);
    }
}
