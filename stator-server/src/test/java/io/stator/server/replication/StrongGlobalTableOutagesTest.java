package io.stator.server.replication;

import static io.stator.server.replication.StrongGlobalTables.A;
import static io.stator.server.replication.StrongGlobalTables.B;
import static io.stator.server.replication.StrongGlobalTables.C;
import static io.stator.server.replication.StrongGlobalTables.assertReadStrongly;
import static io.stator.server.replication.StrongGlobalTables.idsReadLocally;
import static io.stator.server.replication.StrongGlobalTables.idsReadStrongly;
import static io.stator.server.replication.StrongGlobalTables.idsReadStronglyOrNull;
import static io.stator.server.replication.StrongGlobalTables.valuesReadStrongly;
import static io.stator.server.testing.GlobalTableRegions.ARRIVAL;
import static io.stator.server.testing.GlobalTableRegions.item;
import static io.stator.server.testing.GlobalTableRegions.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.GlobalTableRegions;
import io.stator.server.testing.History;
import io.stator.server.testing.Linearizability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * Regions of a global table with multi-Region strong consistency (MRSC) away: one of three paused
 * (SIGSTOP), the other two go on and it catches up; two paused, the survivor refuses writes and
 * strong reads within a deadline and nothing is half-applied; a region killed (SIGKILL) in the
 * middle of a stream of writes, each region in turn since which one leads the table's Raft group
 * is not exposed: nothing acknowledged is lost, the others go on, and the region restarted
 * catches up. Every test leaves every region running.
 */
@Tag("mrsc")
class StrongGlobalTableOutagesTest {

    private static final List<String> ALL = List.of(A, B, C);
    /** How long a region without a majority may take to refuse a write or a strong read (AWS's error is unknown). */
    private static final Duration REFUSAL = Duration.ofSeconds(10);

    private static GlobalTableRegions regions;

    @BeforeAll
    static void start() throws Exception {
        regions = StrongGlobalTables.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (regions != null) regions.close();
    }

    @AfterEach
    void everyRegionRuns() throws Exception {
        for (String region : ALL) {
            if (regions.regions().isRunning(region)) {
                regions.regions().resume(region); // SIGCONT: harmless to a region not paused
            } else {
                regions.regions().restart(region);
            }
        }
    }

    @Test
    void withOneRegionPausedTheOtherTwoWriteAndReadStronglyAndItCatchesUp() throws Exception {
        String table = StrongGlobalTables.threeReplicas(regions);
        regions.client(A).putItem(r -> r.tableName(table).item(item("before", "1")));
        regions.regions().pause(C);
        Set<String> written = new TreeSet<>(Set.of("before"));
        for (int i = 0; i < 30; i++) {
            String writer = i % 2 == 0 ? A : B;
            String reader = i % 2 == 0 ? B : A;
            String id = "during-" + i;
            regions.client(writer).putItem(r -> r.tableName(table).item(item(id, writer)));
            written.add(id);
            assertEquals(writer, regions.get(reader, table, key(id)).get("v").s(), "a strong read in " + reader);
        }
        regions.regions().resume(C);
        // A strong read in C sees every write at once; its local copy catches up.
        assertEquals(written, idsReadStrongly(regions, C, table));
        assertReadStrongly(regions, table, ALL, key("during-29"), B);
        Eventually.until("C's local copy", ARRIVAL, () -> idsReadLocally(regions, C, table), ids -> ids.equals(written));
        regions.client(C).putItem(r -> r.tableName(table).item(item("after", C)));
        assertReadStrongly(regions, table, ALL, key("after"), C);
    }

    @Test
    void withTheReplicaPausedTheOtherReplicaAndTheWitnessGoOn() throws Exception {
        String table = StrongGlobalTables.twoReplicasAndAWitness(regions);
        regions.regions().pause(B);
        for (int i = 0; i < 10; i++) {
            String id = "without-B-" + i;
            regions.client(A).putItem(r -> r.tableName(table).item(item(id, "1")));
            assertEquals("1", regions.get(A, table, key(id)).get("v").s());
        }
        regions.regions().resume(B);
        Set<String> expected = new TreeSet<>();
        for (int i = 0; i < 10; i++) expected.add("without-B-" + i);
        assertEquals(expected, idsReadStrongly(regions, B, table));

        // The witness paused: the two replicas go on.
        regions.regions().pause(C);
        regions.client(B).putItem(r -> r.tableName(table).item(item("without-witness", B)));
        assertReadStrongly(regions, table, List.of(A, B), key("without-witness"), B);
        regions.regions().resume(C);
    }

    @Test
    void withTwoRegionsPausedTheSurvivorRefusesWritesAndStrongReadsAndNothingIsHalfApplied() throws Exception {
        String table = StrongGlobalTables.threeReplicas(regions);
        regions.client(A).putItem(r -> r.tableName(table).item(item("k", "before")));
        assertReadStrongly(regions, table, ALL, key("k"), "before");
        // A's local copy has it too before A is cut off (a strong read may have been served by the leader).
        Eventually.until(A + "'s local copy of k", ARRIVAL, () -> regions.client(A).getItem(r -> r.tableName(table)
                .key(key("k"))).item(), item -> item != null && "before".equals(item.get("v").s()));
        regions.regions().pause(B);
        regions.regions().pause(C);
        try (DynamoDbClient survivor = regions.regions().newClient(A, REFUSAL.multipliedBy(3))) {
            assertRefusedWithinTheDeadline(() -> survivor.putItem(r -> r.tableName(table).item(item("k", "alone"))));
            assertRefusedWithinTheDeadline(() -> survivor.getItem(r -> r.tableName(table).key(key("k")).consistentRead(true)));
            assertRefusedWithinTheDeadline(() -> survivor.updateItem(r -> r.tableName(table).key(key("other"))
                    .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", AttributeValue.fromS("alone")))));
            // Eventually consistent reads are local: still served.
            assertEquals("before", survivor.getItem(r -> r.tableName(table).key(key("k")).consistentRead(false))
                    .item().get("v").s());
        }
        regions.regions().resume(B);
        regions.regions().resume(C);

        // The refused writes may or may not have taken effect (a 500), but all or nowhere: every region agrees.
        List<String> agreed = Eventually.until("every region reads k strongly, alike", ARRIVAL, () -> {
            try {
                return valuesReadStrongly(regions, table, ALL, key("k"));
            } catch (SdkException e) {
                return null;
            }
        }, values -> values != null && values.stream().distinct().count() == 1);
        assertTrue(List.of("before", "alone").contains(agreed.get(0)), "k is " + agreed);
        List<String> other = valuesReadStrongly(regions, table, ALL, key("other"));
        assertEquals(1, other.stream().distinct().count(), "every region agrees on the other item: " + other);
        regions.client(B).putItem(r -> r.tableName(table).item(item("k", "after")));
        assertReadStrongly(regions, table, ALL, key("k"), "after");
        for (String region : ALL) {
            String k = Eventually.until(region + "'s local copy of k", ARRIVAL, () -> regions.client(region)
                    .getItem(r -> r.tableName(table).key(key("k"))).item().get("v").s(), "after"::equals);
            assertEquals("after", k);
        }
    }

    /** The call fails with InternalServerError (HTTP 500) within {@link #REFUSAL} and a margin for a busy machine. */
    private static void assertRefusedWithinTheDeadline(Executable call) {
        long start = System.nanoTime();
        DynamoDbException e = assertThrows(DynamoDbException.class, call);
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertEquals(500, e.statusCode(), () -> "status of " + e);
        assertEquals("InternalServerError", e.awsErrorDetails().errorCode(), () -> "error of " + e);
        assertTrue(millis <= REFUSAL.toMillis() + 5_000, "refused after " + millis + " ms");
    }

    @Test
    void aHistoryAcrossARegionPausedAndResumedIsLinearizable() throws Exception {
        // A is where the table was made STRONG: likely its group's first leader, so a leader change is likely.
        String table = StrongGlobalTables.threeReplicas(regions);
        History history = new History();
        try (StrongGlobalTables.RegisterClients clients = StrongGlobalTables.RegisterClients.start(regions, table,
                history, 400, Duration.ofSeconds(15))) {
            Eventually.sleep(3_000);
            regions.regions().pause(A);
            Eventually.sleep(5_000);
            regions.regions().resume(A);
            clients.awaitEnd(Duration.ofSeconds(120));
        }
        long acknowledged = history.operations().stream().filter(o -> o.outcome() == Linearizability.OK).count();
        assertTrue(acknowledged > 50, acknowledged + " writes acknowledged");
        Linearizability.Result result = history.check();
        assertEquals(Linearizability.Verdict.LINEARIZABLE, result.verdict(), result.toString());
    }

    @ParameterizedTest(name = "{0} killed")
    @ValueSource(strings = {A, B, C})
    void aRegionKilledDuringWritesLosesNothingAcknowledgedAndCatchesUp(String killed) throws Exception {
        String table = StrongGlobalTables.threeReplicas(regions);
        Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
        Queue<String> acknowledgedAfterTheKill = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean killedYet = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(ALL.size());
        List<DynamoDbClient> clients = new ArrayList<>();
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (String region : ALL) {
                DynamoDbClient client = regions.regions().newClient(region, Duration.ofSeconds(15));
                clients.add(client);
                writers.add(pool.submit(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        String id = region + "-" + i;
                        boolean afterTheKill = killedYet.get();
                        try {
                            client.putItem(r -> r.tableName(table).item(item(id, region)));
                            acknowledged.add(id);
                            if (afterTheKill) acknowledgedAfterTheKill.add(id);
                        } catch (SdkException e) {
                            // Unknown: the killed region's writes, and those in flight while a leader is elected.
                            Eventually.sleep(100);
                        }
                    }
                    return null;
                }));
            }
            // Killed once it has had writes acknowledged (a loaded machine's first writes can take
            // longer than a fixed wait: the group's first election, a first ReadIndex).
            Eventually.sleep(3_000);
            long ready = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < ready && acknowledged.stream().noneMatch(id -> id.startsWith(killed + "-"))) {
                Eventually.sleep(100);
            }
            regions.regions().kill(killed);
            killedYet.set(true);
            // Writing on until each survivor has had writes acknowledged since (a new leader elected, if need be).
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < end && !ALL.stream().filter(r -> !r.equals(killed)).allMatch(r ->
                    acknowledgedAfterTheKill.stream().filter(id -> id.startsWith(r + "-")).count() >= 3)) {
                Eventually.sleep(100);
            }
            stop.set(true);
            for (Future<?> w : writers) w.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
            clients.forEach(DynamoDbClient::close);
        }

        List<String> survivors = ALL.stream().filter(r -> !r.equals(killed)).toList();
        for (String region : survivors) {
            assertTrue(acknowledgedAfterTheKill.stream().anyMatch(id -> id.startsWith(region + "-")),
                    region + " went on writing after " + killed + " was killed");
            regions.client(region).putItem(r -> r.tableName(table).item(item("last-in-" + region, region)));
            acknowledged.add("last-in-" + region);
        }
        Set<String> mustHave = new TreeSet<>(acknowledged);
        assertTrue(acknowledged.stream().anyMatch(id -> id.startsWith(killed + "-")), killed + " wrote before its kill");
        for (String region : survivors) {
            Set<String> ids = idsReadStrongly(regions, region, table);
            assertTrue(ids.containsAll(mustHave), region + " lost " + missing(mustHave, ids));
        }

        regions.regions().restart(killed);
        Set<String> inSurvivor = idsReadStrongly(regions, survivors.get(0), table);
        Set<String> inKilled = Eventually.until(killed + " restarted reads every write strongly", ARRIVAL,
                () -> idsReadStronglyOrNull(regions, killed, table), ids -> ids != null && ids.equals(inSurvivor));
        assertTrue(inKilled.containsAll(mustHave), killed + " lost " + missing(mustHave, inKilled));
        Eventually.until(killed + "'s local copy caught up", ARRIVAL, () -> idsReadLocally(regions, killed, table),
                ids -> ids.equals(inSurvivor));
        regions.client(killed).putItem(r -> r.tableName(table).item(item("after-restart", killed)));
        assertReadStrongly(regions, table, ALL, key("after-restart"), killed);
    }

    private static Set<String> missing(Set<String> expected, Set<String> actual) {
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(actual);
        return missing;
    }
}
