package io.stator.engine.streams;

import io.stator.engine.streams.ShardLineage.Node;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A stream's shards, derived from its lineage ({@link ShardLineage}: one node per partition, split
 * with it) and the periodic rollover: generation g of the stream spans {@code [created + g *
 * period, created + (g + 1) * period)}, and shard (node, g) holds the node's records whose sequence
 * numbers' times fall in both the node's span and the generation's. A shard's parent is the
 * node's shard of the previous generation, or, for a node's first shard, its parent node's last
 * shard (a split: two children share that parent). DynamoDB closes shards both ways: a split as
 * partitions split, and about every four hours a shard succeeded by one child (AWS support's
 * account of stream shards; DynamoDB Local's SHARD_ROLLOVER_TIME is 4 h). Nothing is written
 * when a shard rolls over, and a restart finds the shards as they were.
 */
final class Shards {

    private Shards() {}

    /** One shard of a stream. */
    record Shard(StreamInfo stream, Node node, long generation) {

        int slot() {
            return node.number();
        }

        long startMillis() {
            return Math.max(node.openedMillis(), generationStart(stream, generation));
        }

        /** The first sequence number of the shard (0 for the stream's first shards). */
        long firstSequence() {
            long start = startMillis();
            return start == stream.createdMillis() ? 0 : start * 1_000_000L;
        }

        /** When records stop going to it by the lineage and the rollover, or Long.MAX_VALUE while it is the node's last. */
        private long endMillis(long nowMillis) {
            long end = Long.MAX_VALUE;
            if (node.closedMillis() >= 0) end = node.closedMillis();
            if (generation < lastGeneration(stream, nowMillis)) end = Math.min(end, generationStart(stream, generation + 1));
            return end;
        }

        /** Whether it holds the node's open end: records still go to it, or did until the stream was disabled. */
        boolean last(long nowMillis) {
            return endMillis(nowMillis) == Long.MAX_VALUE;
        }

        /** One past the last sequence number it may hold. */
        long endSequence(long nowMillis) {
            long end = endMillis(nowMillis);
            return end == Long.MAX_VALUE ? Long.MAX_VALUE : end * 1_000_000L;
        }

        /** When it closed, or -1 while open. */
        long closedMillis(long nowMillis) {
            long end = endMillis(nowMillis);
            if (end != Long.MAX_VALUE) return end <= nowMillis ? end : -1;
            return stream.enabled() ? -1 : stream.disabledMillis();
        }

        String id() {
            return String.format("shardId-%020d-%08x", startMillis(), node.number());
        }

        String parentId() {
            if (node.openedMillis() < generationStart(stream, generation)) return new Shard(stream, node, generation - 1).id();
            if (node.parent() < 0) return null;
            Node parent = stream.lineage().node(node.parent());
            return new Shard(stream, parent, generationAt(stream, node.openedMillis() - 1)).id();
        }
    }

    static long generationStart(StreamInfo stream, long generation) {
        return stream.createdMillis() + generation * stream.shardPeriodMillis();
    }

    static long generationAt(StreamInfo stream, long millis) {
        return Math.max(0, Math.floorDiv(millis - stream.createdMillis(), stream.shardPeriodMillis()));
    }

    static long lastGeneration(StreamInfo stream, long nowMillis) {
        return generationAt(stream, stream.enabled() ? nowMillis : Math.min(nowMillis, stream.disabledMillis()));
    }

    /** The shard (node, generation) if the node lived in that generation by now, else null. */
    static Shard shard(StreamInfo stream, int number, long generation, long nowMillis) {
        Node node = stream.lineage().node(number);
        if (node == null || node.openedMillis() > nowMillis || generation < generationAt(stream, node.openedMillis())) return null;
        if (generation > lastGeneration(stream, nowMillis)) return null;
        if (node.closedMillis() >= 0 && generation > generationAt(stream, node.closedMillis() - 1)) return null;
        return new Shard(stream, node, generation);
    }

    /**
     * The shards still within retention (open, or closed less than the retention ago), oldest
     * first: by their start, then their node; a node opening in the future (a split still taking
     * effect) has none yet.
     */
    static List<Shard> of(StreamInfo stream, long nowMillis, long retentionMillis) {
        List<Shard> shards = new ArrayList<>();
        long last = lastGeneration(stream, nowMillis);
        for (Node node : stream.lineage().nodes()) {
            if (node.openedMillis() > nowMillis) continue;
            long to = node.closedMillis() >= 0 ? Math.min(last, generationAt(stream, node.closedMillis() - 1)) : last;
            for (long g = generationAt(stream, node.openedMillis()); g <= to; g++) {
                Shard shard = new Shard(stream, node, g);
                long closed = shard.closedMillis(nowMillis);
                long ends = shard.last(nowMillis) || closed < 0 ? Long.MAX_VALUE : shard.endSequence(nowMillis) / 1_000_000L;
                if (ends > nowMillis - retentionMillis) shards.add(shard);
            }
        }
        shards.sort(Comparator.comparingLong(Shard::startMillis).thenComparingInt(Shard::slot));
        return shards;
    }

    /** The shard of that id among those still kept, or null. */
    static Shard find(StreamInfo stream, String shardId, long nowMillis, long retentionMillis) {
        for (Shard shard : of(stream, nowMillis, retentionMillis)) if (shard.id().equals(shardId)) return shard;
        return null;
    }
}
