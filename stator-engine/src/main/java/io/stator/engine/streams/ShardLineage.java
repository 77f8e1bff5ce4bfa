package io.stator.engine.streams;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which hash ranges a stream's records have gone to, and when: DynamoDB has one open shard per
 * partition of the table, and a partition split closes its shard and opens a child for each half
 * (developer guide, "Change data capture for DynamoDB Streams": shards "are created and deleted
 * automatically", "any shard can also split into multiple new shards"). A <b>node</b> is one
 * range of partition-key hashes over one span of time: the stream's first nodes are the table's
 * partitions when the stream was enabled; a split of the table's partitions closes each node it
 * cuts, at one moment, and opens a child node for each piece, whose parent it is. (Each node is
 * further cut into shards by the periodic rollover, {@link Shards}.)
 *
 * <p><b>Routing.</b> A record goes to the node holding its partition key's hash at its sequence
 * number's time, so one item's records stay in order across a split: those before it in the
 * parent, those after in the child, and a reader that finishes the parent before the child (the
 * KCL's rule) reads them in order. A split takes effect at a moment chosen later than every server
 * can have learned of it ({@link #split}), so no server routes a record by the lineage before it.
 *
 * <p>Node numbers are their places in the list (the records' storage keys and shard iterators
 * carry them in two bytes): past {@link #MAX_NODES} the lineage stops splitting.
 */
public final class ShardLineage {

    static final int MAX_NODES = 0xFFFF;

    /**
     * @param parent        the number of the node it was split from, or -1
     * @param start         its first hash (unsigned)
     * @param end           one past its last hash (unsigned), 0 for the end of the hash space
     * @param openedMillis  from when records go to it
     * @param closedMillis  from when they no longer do (it was split), or -1
     */
    record Node(int number, int parent, long start, long end, long openedMillis, long closedMillis) {
        boolean holds(long hash) {
            return Long.compareUnsigned(start, hash) <= 0 && (end == 0 || Long.compareUnsigned(hash, end) < 0);
        }

        Node closedAt(long millis) {
            return new Node(number, parent, start, end, openedMillis, millis);
        }
    }

    private final List<Node> nodes;
    /** The open nodes (those not split), by first hash. */
    private final Node[] open;

    ShardLineage(List<Node> nodes) {
        this.nodes = List.copyOf(nodes);
        this.open = nodes.stream().filter(n -> n.closedMillis < 0)
                .sorted(Comparator.comparing(Node::start, Long::compareUnsigned)).toArray(Node[]::new);
    }

    List<Node> nodes() {
        return nodes;
    }

    /** The first nodes of a stream: one per partition, {@code starts} their first hashes in order. */
    static ShardLineage of(long[] starts, long createdMillis) {
        List<Node> nodes = new ArrayList<>(starts.length);
        for (int i = 0; i < starts.length; i++) {
            nodes.add(new Node(i, -1, starts[i], i + 1 < starts.length ? starts[i + 1] : 0, createdMillis, -1));
        }
        return new ShardLineage(nodes);
    }

    /**
     * The {@code count} equal slots of a stream created before shards followed partitions: slot s
     * holds the hashes whose top 32 bits, times count, shifted down 32, give s.
     */
    static ShardLineage slots(int count, long createdMillis) {
        long[] starts = new long[count];
        for (int s = 0; s < count; s++) starts[s] = ((s * (1L << 32) + count - 1) / count) << 32;
        return of(starts, createdMillis);
    }

    Node node(int number) {
        return number >= 0 && number < nodes.size() ? nodes.get(number) : null;
    }

    /**
     * The node that holds the hash at that time: the open node of its range found by a binary
     * search, then its ancestors while it opened later (a split taking effect in the future).
     */
    Node at(long hash, long millis) {
        int low = 0;
        int high = open.length - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (Long.compareUnsigned(open[mid].start, hash) <= 0) low = mid;
            else high = mid - 1;
        }
        Node n = open[low];
        while (n.openedMillis > millis && n.parent >= 0) n = nodes.get(n.parent);
        return n;
    }

    /**
     * The lineage after the table's partitions became {@code starts}: each open node with a start
     * inside its range closes at {@code atMillis} with a child per piece; this lineage when no
     * open node is cut (another server recorded the split already), or when the nodes would pass
     * {@link #MAX_NODES}.
     */
    ShardLineage split(long[] starts, long atMillis) {
        List<Node> next = new ArrayList<>(nodes);
        for (Node n : open) {
            List<Long> inside = new ArrayList<>();
            for (long s : starts) {
                if (s != n.start && n.holds(s)) inside.add(s);
            }
            if (inside.isEmpty()) continue;
            inside.sort(Long::compareUnsigned);
            if (next.size() + inside.size() + 1 > MAX_NODES) break;
            next.set(n.number, n.closedAt(atMillis));
            long from = n.start;
            for (int i = 0; i <= inside.size(); i++) {
                long to = i < inside.size() ? inside.get(i) : n.end;
                next.add(new Node(next.size(), n.number, from, to, atMillis, -1));
                from = to;
            }
        }
        return next.size() == nodes.size() ? this : new ShardLineage(next);
    }

    /** When the last split takes effect (the stream's creation if none). */
    long lastOpenedMillis() {
        long last = Long.MIN_VALUE;
        for (Node n : nodes) last = Math.max(last, n.openedMillis);
        return last;
    }
}
