package io.stator.server.replication;

import static io.stator.server.testing.GlobalTableRegions.item;
import static io.stator.server.testing.GlobalTableRegions.key;
import static io.stator.server.testing.GlobalTableRegions.v;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.GlobalTableRegions;
import io.stator.server.testing.StatorTestServer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Concurrent writes to one item in two regions of a global table (MREC): cut apart, each region
 * takes its own write; healed, both keep the write with the greater version, the later by the
 * writing regions' clocks (last writer wins per item), whichever region it came from and however
 * the clocks are skewed. B runs 5 s ahead, C 5 s behind. A deleted item is never brought back by
 * an older write arriving late, before its tombstone is collected or after (then refused as
 * older than the tombstones kept).
 */
class GlobalTableConflictsTest {

    private static final String A = "us-east-1";
    private static final String B = "us-west-2";
    private static final String C = "eu-west-1";
    /** Long enough for C's 5 s behind, short enough to wait past in a test. */
    private static final long RETENTION_SECONDS = 15;

    private static GlobalTableRegions regions;

    @BeforeAll
    static void start() throws Exception {
        List<String> retention = List.of("--replica-tombstone-retention", RETENTION_SECONDS + "s");
        regions = GlobalTableRegions.start(List.of(A, B, C), Map.of(A, retention,
                B, List.of("--replica-tombstone-retention", RETENTION_SECONDS + "s", "--clock-skew", "5s"),
                C, List.of("--replica-tombstone-retention", RETENTION_SECONDS + "s", "--clock-skew", "-5s")));
    }

    @AfterAll
    static void stop() throws Exception {
        if (regions != null) regions.close();
    }

    @AfterEach
    void heal() throws Exception {
        regions.heal();
    }

    private static String globalTable(String first, String second) {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(regions.client(first), table);
        regions.addReplica(first, table, second);
        return table;
    }

    private static void cut(String x, String y) throws Exception {
        regions.faults(x, Set.of(y), Map.of());
        regions.faults(y, Set.of(x), Map.of());
    }

    @Test
    void theRegionWhoseClockIsAheadWinsAConcurrentWrite() throws Exception {
        String table = globalTable(A, B);
        cut(A, B);
        regions.client(B).putItem(r -> r.tableName(table).item(item("k", "from B")));
        Eventually.sleep(100);
        // Later in real time, but B's clock is 5 s ahead: B's version is the greater.
        regions.client(A).putItem(r -> r.tableName(table).item(item("k", "from A")));
        regions.heal();
        regions.await(A, table, key("k"), v("from B"));
        regions.await(B, table, key("k"), v("from B"));
        Eventually.sleep(1_000);
        regions.await(A, table, key("k"), v("from B"));
    }

    @Test
    void withTheSkewReversedTheOtherRegionWins() throws Exception {
        String table = globalTable(A, C);
        cut(A, C);
        regions.client(A).putItem(r -> r.tableName(table).item(item("k", "from A")));
        Eventually.sleep(100);
        // Later in real time, but C's clock is 5 s behind: A's version is the greater.
        regions.client(C).putItem(r -> r.tableName(table).item(item("k", "from C")));
        regions.heal();
        regions.await(C, table, key("k"), v("from A"));
        regions.await(A, table, key("k"), v("from A"));
    }

    @Test
    void aConcurrentDeleteWinsWhenItsVersionIsGreater() throws Exception {
        String table = globalTable(A, B);
        regions.client(A).putItem(r -> r.tableName(table).item(item("k", "0")));
        regions.await(B, table, key("k"), v("0"));
        cut(A, B);
        regions.client(B).deleteItem(r -> r.tableName(table).key(key("k")));
        Eventually.sleep(100);
        regions.client(A).putItem(r -> r.tableName(table).item(item("k", "after the delete, by A's clock before it")));
        regions.heal();
        regions.await(A, table, key("k"), i -> i == null);
        regions.await(B, table, key("k"), i -> i == null);
    }

    @Test
    void aLateOlderWriteNeverBringsBackADeletedItem() throws Exception {
        String table = globalTable(A, C);
        regions.client(A).putItem(r -> r.tableName(table).item(item("k", "0")));
        regions.await(C, table, key("k"), v("0"));
        // C's write cannot reach A; A's delete reaches C, newer than C's write there.
        regions.faults(C, Set.of(A), Map.of());
        regions.client(C).putItem(r -> r.tableName(table).item(item("k", "old")));
        regions.client(A).deleteItem(r -> r.tableName(table).key(key("k")));
        regions.await(C, table, key("k"), i -> i == null);
        // Healed: C's older write arrives at A, whose tombstone refuses it.
        regions.heal();
        Eventually.sleep(3_000);
        assertNull(regions.get(A, table, key("k")));
        assertNull(regions.get(C, table, key("k")));
    }

    @Test
    void aWriteOlderThanTheTombstonesKeptIsRefusedOnceTheyAreCollected() throws Exception {
        String table = globalTable(A, C);
        regions.client(A).putItem(r -> r.tableName(table).item(item("k", "0")));
        regions.await(C, table, key("k"), v("0"));
        regions.faults(C, Set.of(A), Map.of());
        regions.client(C).putItem(r -> r.tableName(table).item(item("k", "old")));
        regions.client(A).deleteItem(r -> r.tableName(table).key(key("k")));
        regions.await(C, table, key("k"), i -> i == null);
        // Past the retention and a collection round: A's tombstone is gone; the late write is
        // older than any tombstone A still keeps, so it is refused all the same.
        Eventually.sleep((RETENTION_SECONDS + 7) * 1_000);
        regions.heal();
        Eventually.sleep(3_000);
        assertNull(regions.get(A, table, key("k")));
        assertNull(regions.get(C, table, key("k")));
    }
}
