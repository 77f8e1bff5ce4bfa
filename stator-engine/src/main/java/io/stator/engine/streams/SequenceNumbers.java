package io.stator.engine.streams;

import java.util.TreeMap;

/**
 * Sequence numbers, and which of them readers may see.
 *
 * <p><b>Shape.</b> A sequence number is a 64-bit value, the commit's clock in epoch milliseconds
 * times 1,000,000 plus a counter (so a shard's generation can be read from it), strictly
 * increasing in this process; it is restarted above the largest stored one. DynamoDB's are decimal
 * strings of 21 to 40 digits (botocore's dynamodbstreams model: SequenceNumber, min 21, max 40;
 * e.g. "300000000000000499659" in the GetRecords example of the API reference); the text form is
 * "1" followed by the value in 20 digits, so that the strings also sort as the numbers do.
 *
 * <p><b>Visibility.</b> Numbers are taken while a write is staged, before its commit, and writes
 * of different items commit in any order: a reader that saw number 7 must never later find a 6
 * committed behind it. So a number is in flight from {@link #take} until {@link #settle}, and
 * readers see only numbers below the lowest one in flight ({@link #visibleBelow}).
 */
final class SequenceNumbers {

    private long last;
    /** Numbers in flight, with how many writes hold each (one each; a map keeps the lowest at hand). */
    private final TreeMap<Long, Integer> inFlight = new TreeMap<>();

    SequenceNumbers(long floor) {
        this.last = floor;
    }

    synchronized long take(long nowMillis) {
        long next = Math.max(last + 1, nowMillis * 1_000_000L);
        last = next;
        inFlight.put(next, 1);
        return next;
    }

    /**
     * Runs {@code action} with no number being taken meanwhile, given a time (epoch ms) after now
     * and after every number taken so far.
     */
    synchronized <T> T holding(long nowMillis, java.util.function.LongFunction<T> action) {
        return action.apply(Math.max(millisOf(last), nowMillis) + 1);
    }

    synchronized void settle(long sequence) {
        inFlight.remove(sequence);
    }

    /**
     * Every number below this is committed or never will be: with nothing in flight, every number
     * a later {@link #take} can give is at least this one.
     */
    synchronized long visibleBelow(long nowMillis) {
        return inFlight.isEmpty() ? Math.max(last + 1, nowMillis * 1_000_000L) : inFlight.firstKey();
    }

    static String text(long sequence) {
        return "1" + String.format("%020d", sequence);
    }

    /** The value of a sequence number's text, or -1 when it is not one of this server's. */
    static long parse(String text) {
        if (text == null || text.length() != 21 || text.charAt(0) != '1') return -1;
        for (int i = 0; i < text.length(); i++) if (text.charAt(i) < '0' || text.charAt(i) > '9') return -1;
        try {
            return Long.parseLong(text.substring(1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static long millisOf(long sequence) {
        return sequence / 1_000_000L;
    }
}
