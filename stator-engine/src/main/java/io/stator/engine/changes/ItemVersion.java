package io.stator.engine.changes;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * An item's version in a global table: the hybrid logical clock of its last write (48 bits of
 * milliseconds, 16 of a counter) and the region that made it. Replicas apply a change only when
 * its version is greater than the item's (last writer wins, per item, as DynamoDB's MREC
 * resolves conflicts: "the modification with the latest internal timestamp on a per-item
 * basis"). DynamoDB documents no tie rule; equal clocks order by region name, so every replica
 * picks the same winner.
 *
 * @param clock  the hybrid logical clock's value ({@code io.stator.engine.replication.HybridClock})
 * @param region the region whose write this is
 */
public record ItemVersion(long clock, String region) implements Comparable<ItemVersion> {

    /** The version of an item written before its table turned global: older than any write since. */
    public static ItemVersion initial(String region) {
        return new ItemVersion(0, region);
    }

    /** The clock's milliseconds: when the write was made, by its region's clock. */
    public long millis() {
        return clock >>> 16;
    }

    @Override
    public int compareTo(ItemVersion o) {
        int c = Long.compareUnsigned(clock, o.clock);
        return c != 0 ? c : region.compareTo(o.region);
    }

    public boolean newerThan(ItemVersion o) {
        return o == null || compareTo(o) > 0;
    }

    /** i64 clock; utf-8 region (the rest). */
    public byte[] encode() {
        byte[] r = region.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + r.length).putLong(clock).put(r).array();
    }

    public static ItemVersion decode(byte[] bytes, int offset, int length) {
        ByteBuffer b = ByteBuffer.wrap(bytes, offset, length);
        long clock = b.getLong();
        return new ItemVersion(clock, new String(bytes, offset + 8, length - 8, StandardCharsets.UTF_8));
    }
}
