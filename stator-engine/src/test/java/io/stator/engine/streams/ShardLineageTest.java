package io.stator.engine.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.stator.core.key.KeyLayout;
import io.stator.engine.streams.ShardLineage.Node;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A stream's lineage: its first nodes, its splits, and which node a record goes to when. */
class ShardLineageTest {

    private static final long CREATED = 1_000;

    private static long[] equal(int count) {
        long[] starts = new long[count];
        for (int i = 0; i < count; i++) starts[i] = KeyLayout.segmentStart(i, count);
        return starts;
    }

    @Test
    void aSplitClosesEachCutNodeWithAChildPerPieceAndRoutesByTime() {
        ShardLineage one = ShardLineage.of(equal(1), CREATED);
        assertEquals(List.of(new Node(0, -1, 0, 0, CREATED, -1)), one.nodes());

        // One partition becomes four at once (growTo doubles twice): one parent, four children.
        ShardLineage four = one.split(equal(4), 5_000);
        assertEquals(5, four.nodes().size());
        assertEquals(5_000, four.node(0).closedMillis());
        for (int i = 1; i <= 4; i++) {
            Node child = four.node(i);
            assertEquals(0, child.parent());
            assertEquals(KeyLayout.segmentStart(i - 1, 4), child.start());
            assertEquals(i < 4 ? KeyLayout.segmentStart(i, 4) : 0, child.end());
            assertEquals(5_000, child.openedMillis());
        }
        long hash = KeyLayout.segmentStart(2, 4) + 7;
        assertEquals(0, four.at(hash, 4_999).number(), "before the split: the parent");
        assertEquals(3, four.at(hash, 5_000).number(), "from the split on: the child holding the hash");
        assertSame(four, four.split(equal(4), 9_000), "a split recorded already changes nothing");

        // One child splits again (for heat): only it closes.
        long middle = KeyLayout.segmentStart(2, 4) + (KeyLayout.segmentStart(3, 4) - KeyLayout.segmentStart(2, 4)) / 2;
        long[] starts = {equal(4)[0], equal(4)[1], equal(4)[2], middle, equal(4)[3]};
        ShardLineage five = four.split(starts, 8_000);
        assertEquals(7, five.nodes().size());
        assertEquals(8_000, five.node(3).closedMillis());
        assertEquals(-1, five.node(2).closedMillis());
        assertEquals(3, five.node(5).parent());
        assertEquals(3, five.node(6).parent());
        assertEquals(0, five.at(hash, 4_000).number());
        assertEquals(3, five.at(hash, 7_999).number());
        assertEquals(5, five.at(hash, 8_000).number());
        assertEquals(6, five.at(middle, 8_000).number());
    }

    @Test
    void theSlotsOfAStreamStoredBeforeLineagesRouteAsTheSlotsDid() {
        Random random = new Random(34);
        for (int count : new int[] {1, 3, 4, 7, 1000}) {
            ShardLineage slots = ShardLineage.slots(count, CREATED);
            for (int i = 0; i < 10_000; i++) {
                long hash = random.nextLong();
                // The slot rule of streams stored in format 1: the hash's top bits times the count.
                int slot = (int) (((hash >>> 32) * count) >>> 32);
                assertEquals(slot, slots.at(hash, CREATED + 1).number(), count + " slots, hash " + hash);
            }
        }
    }
}
