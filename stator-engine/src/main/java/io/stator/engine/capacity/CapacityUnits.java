package io.stator.engine.capacity;

/**
 * What one operation consumes, by DynamoDB's published rules (developer guide, "Read/write
 * capacity mode" and "Item sizes and formats"):
 * <ul>
 *   <li>a strongly consistent read of an item consumes one read unit per 4 KB, rounded up;
 *       an eventually consistent read half of that; reading nothing still costs the minimum;</li>
 *   <li>a write consumes one write unit per 1 KB, rounded up, of the larger of the item before
 *       and after the write; deleting nothing still costs one unit;</li>
 *   <li>transactional reads and writes cost twice as much.</li>
 * </ul>
 * Every operation's ConsumedCapacity comes from here, whether or not throughput is enforced.
 */
public final class CapacityUnits {

    public static final int READ_UNIT_BYTES = 4096;
    public static final int WRITE_UNIT_BYTES = 1024;
    /** Vector index capacity is metered at 1 KB at least per request (developer guide, VectorSearchMonitoring). */
    public static final int VECTOR_MINIMUM_BYTES = 1024;

    private CapacityUnits() {}

    /** Read units for reading one item of the given size (0 when the item was absent). */
    public static double read(long itemBytes, boolean consistentRead) {
        long units = Math.max(1, ceilDiv(itemBytes, READ_UNIT_BYTES));
        return consistentRead ? units : units / 2.0;
    }

    /** Write units for writing an item whose old and new sizes are given (0 when absent). */
    public static double write(long oldItemBytes, long newItemBytes) {
        return Math.max(1, ceilDiv(Math.max(oldItemBytes, newItemBytes), WRITE_UNIT_BYTES));
    }

    /**
     * Write units of one index entry change: writing an entry costs as writing an item of its
     * size, removing one costs one unit, and moving one (its key changed) costs both, as
     * DynamoDB bills index maintenance. Nothing when the entry is unchanged.
     *
     * @param removedBytes the size of the entry removed, or -1 when none is
     * @param writtenBytes the size of the entry written, or -1 when none is
     */
    public static double indexWrite(long removedBytes, long writtenBytes) {
        double units = 0;
        if (removedBytes >= 0) units += Math.max(1, ceilDiv(removedBytes, WRITE_UNIT_BYTES));
        if (writtenBytes >= 0) units += Math.max(1, ceilDiv(writtenBytes, WRITE_UNIT_BYTES));
        return units;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
