package io.stator.server.replication;

import static io.stator.server.testing.GlobalTableRegions.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.GlobalTableRegions;
import io.stator.server.testing.PrometheusText;
import io.stator.server.testing.StatorTestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A region of a global table away (paused with SIGSTOP for a minute, or the shipping region
 * killed with SIGKILL in the middle of its batches): nothing acknowledged is lost, the backlog
 * drains when the region returns, and ReplicationLatency shows the outage, then recovers; a
 * replica's deletion its region could not announce before it was killed is announced after.
 */
class GlobalTableOutagesTest {

    private static final String A = "us-east-1";
    private static final String B = "us-west-2";
    private static final Duration DRAIN = Duration.ofSeconds(90);

    private static GlobalTableRegions regions;

    @BeforeAll
    static void start() throws Exception {
        regions = GlobalTableRegions.start(List.of(A, B), Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (regions != null) regions.close();
    }

    private static String globalTable() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(regions.client(A), table);
        regions.addReplica(A, table, B);
        return table;
    }

    private static long countIn(String region, String table) {
        return regions.client(region).scanPaginator(r -> r.tableName(table)).stream().mapToLong(p -> p.count()).sum();
    }

    @Test
    void aRegionPausedForAMinuteCatchesUpAndItsLatencyRecovers() throws Exception {
        String table = globalTable();
        regions.client(A).putItem(r -> r.tableName(table).item(item("before", "1")));
        regions.await(B, table, Map.of("id", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("before")),
                i -> i != null);
        regions.regions().pause(B);
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int written = 0;
        while (System.nanoTime() < end) {
            String id = "p" + written++;
            regions.client(A).putItem(r -> r.tableName(table).item(item(id, "during the pause")));
            Eventually.sleep(50);
        }
        regions.regions().resume(B);
        int total = written + 1;
        Eventually.until("every item in B", DRAIN, () -> countIn(B, table), n -> n == total);
        double maximum = latency(B, table, "Maximum");
        assertTrue(maximum >= 30_000, "ReplicationLatency rose during the pause: " + maximum + " ms");

        // Enough changes since to fill the window the figures are over (the latest 1,024): the latency is back down.
        for (int i = 0; i < 1100; i += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (int j = i; j < i + 25; j++) {
                String id = "q" + j;
                batch.add(WriteRequest.builder().putRequest(p -> p.item(item(id, "after"))).build());
            }
            regions.client(A).batchWriteItem(r -> r.requestItems(Map.of(table, batch)));
        }
        Eventually.until("every later item in B", DRAIN, () -> countIn(B, table), n -> n == total + 1100);
        double p99 = latency(B, table, "p99");
        assertTrue(p99 < 10_000, "ReplicationLatency recovered: p99 " + p99 + " ms");
    }

    @Test
    void theShippingRegionKilledMidBatchLosesNothing() throws Exception {
        String table = globalTable();
        List<String> acknowledged = new ArrayList<>();
        for (int i = 0; i < 3000; i += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (int j = i; j < i + 25; j++) {
                String id = "k" + j;
                batch.add(WriteRequest.builder().putRequest(p -> p.item(item(id, "v" + id))).build());
            }
            regions.client(A).batchWriteItem(r -> r.requestItems(Map.of(table, batch)));
            for (WriteRequest w : batch) acknowledged.add(w.putRequest().item().get("id").s());
        }
        // Killed while its shipper is still sending: some batches sent and not yet recorded as sent.
        regions.regions().kill(A);
        regions.regions().restart(A);
        Eventually.until("every acknowledged item in B", DRAIN, () -> countIn(B, table), n -> n == acknowledged.size());
        assertEquals(acknowledged.size(), countIn(A, table));
    }

    /**
     * A replica deleted by DeleteTable in a region that is killed before the other region heard of
     * it: the restarted region tells it then (the departure is committed with the deletion), and
     * the other region's table turns regional again rather than listing the replica for ever.
     */
    @Test
    void aReplicaDeletedJustBeforeItsRegionIsKilledIsAnnouncedAfterTheRestart() throws Exception {
        String table = globalTable();
        regions.faults(B, Set.of(A), Map.of()); // B's messages to A are lost
        regions.client(B).deleteTable(r -> r.tableName(table));
        Eventually.until("the replica gone in " + B, DRAIN, () -> regions.client(B).listTables().tableNames(),
                names -> !names.contains(table));
        Eventually.sleep(1_500); // a round or two of the departure's sending, each lost
        assertTrue(regions.describe(A, table).hasReplicas(), "A has not heard");

        regions.regions().kill(B);
        regions.regions().restart(B); // its faults gone with the process
        TableDescription regional = Eventually.until(A + " hears " + B + " left", DRAIN, () -> regions.describe(A, table),
                t -> !t.hasReplicas());
        assertNull(regional.globalTableVersion());
        regions.client(A).putItem(r -> r.tableName(table).item(item("after", "1"))); // still served
    }

    /** A statistic of ReplicationLatency for the table in the region, from its /metrics. */
    private static double latency(String region, String table, String statistic) throws Exception {
        return PrometheusText.parse(regions.metrics(region)).sum("dynamodb_replication_latency_milliseconds",
                "table", table, "statistic", statistic);
    }
}
