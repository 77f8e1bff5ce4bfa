package io.stator.engine.streams;

import java.util.ArrayList;
import java.util.List;

/**
 * A stream's shards, derived rather than stored. Slot s of n holds the partition keys whose hash
 * falls in the s-th of n equal ranges; generation g of a slot is open from {@code created + g *
 * period} until the next begins (or the stream is disabled), then closed and succeeded by its
 * child, generation g + 1 of the same slot (its ParentShardId). A record belongs to the shard of
 * its slot whose window holds its sequence number's time, so shards roll over without any write
 * or background job, and a restart finds them as they were.
 */
final class Shards {

    private Shards() {}

    /** One shard of a stream. */
    record Shard(StreamInfo stream, int slot, long generation) {

        long startMillis() {
            return stream.createdMillis() + generation * stream.shardPeriodMillis();
        }

        /** The first sequence number of the shard (the generation's start; 0 for the first). */
        long firstSequence() {
            return generation == 0 ? 0 : startMillis() * 1_000_000L;
        }

        boolean last(long nowMillis) {
            return generation == lastGeneration(stream, nowMillis);
        }

        /** One past the last sequence number it may hold. */
        long endSequence(long nowMillis) {
            if (last(nowMillis)) return Long.MAX_VALUE;
            return (startMillis() + stream.shardPeriodMillis()) * 1_000_000L;
        }

        /** When it closed, or -1 while open. */
        long closedMillis(long nowMillis) {
            if (!last(nowMillis)) return startMillis() + stream.shardPeriodMillis();
            return stream.enabled() ? -1 : stream.disabledMillis();
        }

        String id() {
            return String.format("shardId-%020d-%08x", startMillis(), slot);
        }

        String parentId() {
            return generation == 0 ? null : new Shard(stream, slot, generation - 1).id();
        }
    }

    static int slotOf(long hash, int shardCount) {
        // The hash's top bits, as an unsigned fraction of the ring, times the shard count.
        return (int) (((hash >>> 32) * shardCount) >>> 32);
    }

    static long generationAt(StreamInfo stream, long millis) {
        return Math.max(0, Math.floorDiv(millis - stream.createdMillis(), stream.shardPeriodMillis()));
    }

    static long lastGeneration(StreamInfo stream, long nowMillis) {
        return generationAt(stream, stream.enabled() ? nowMillis : Math.min(nowMillis, stream.disabledMillis()));
    }

    /** The shards still within retention, oldest generation first, slot by slot. */
    static List<Shard> of(StreamInfo stream, long nowMillis, long retentionMillis) {
        long last = lastGeneration(stream, nowMillis);
        long first = last;
        // A shard is kept while it may hold records younger than the retention.
        while (first > 0 && stream.createdMillis() + first * stream.shardPeriodMillis() > nowMillis - retentionMillis) first--;
        List<Shard> shards = new ArrayList<>();
        for (long g = first; g <= last; g++) {
            for (int s = 0; s < stream.shardCount(); s++) shards.add(new Shard(stream, s, g));
        }
        return shards;
    }

    /** The shard of that id among those still kept, or null. */
    static Shard find(StreamInfo stream, String shardId, long nowMillis, long retentionMillis) {
        for (Shard shard : of(stream, nowMillis, retentionMillis)) if (shard.id().equals(shardId)) return shard;
        return null;
    }
}
