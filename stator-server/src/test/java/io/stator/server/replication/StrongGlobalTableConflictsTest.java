package io.stator.server.replication;

import static io.stator.server.replication.StrongGlobalTables.A;
import static io.stator.server.replication.StrongGlobalTables.B;
import static io.stator.server.replication.StrongGlobalTables.C;
import static io.stator.server.testing.GlobalTableRegions.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.server.testing.GlobalTableRegions;
import io.stator.server.testing.History;
import io.stator.server.testing.Linearizability;
import io.stator.server.testing.Linearizability.Get;
import io.stator.server.testing.Linearizability.Operation;
import io.stator.server.testing.Linearizability.Outcome;
import io.stator.server.testing.Linearizability.Put;
import io.stator.server.testing.Linearizability.Read;
import io.stator.server.testing.Linearizability.Result;
import io.stator.server.testing.RegisterClient;
import io.stator.server.testing.StatorTestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ReplicatedWriteConflictException;

/**
 * Concurrent writers of a global table with multi-Region strong consistency (MRSC), in three
 * regions: two regions writing one item at the same instant each either succeed or get
 * ReplicatedWriteConflictException, and lose nothing acknowledged; clients in every region,
 * recorded, make a linearizable history ({@link Linearizability}). That the checker does find a
 * history that is not linearizable (stale reads, a lost acknowledged write) is shown by
 * LinearizabilityTest (registersServingStaleReadsAreNotLinearizable,
 * lostAcknowledgedWriteIsNotLinearizable, staleReadAfterACompletedWriteIsNotLinearizable).
 */
@Tag("mrsc")
class StrongGlobalTableConflictsTest {

    private static final List<String> ALL = List.of(A, B, C);

    private static GlobalTableRegions regions;

    @BeforeAll
    static void start() throws Exception {
        regions = StrongGlobalTables.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (regions != null) regions.close();
    }

    @Test
    void twoRegionsWritingOneItemAtOnceEachSucceedOrConflictAndTheLastAcknowledgedStays() throws Exception {
        String table = StrongGlobalTables.threeReplicas(regions);
        History history = new History();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        int conflicts = 0;
        String latest = null; // the value every region holds after the previous round
        try {
            for (int round = 0; round < 30; round++) {
                CyclicBarrier together = new CyclicBarrier(2);
                List<Future<Outcome>> writes = new ArrayList<>();
                List<String> values = List.of(A + "-" + round, B + "-" + round);
                for (int w = 0; w < 2; w++) {
                    int client = w;
                    DynamoDbClient dynamo = regions.client(ALL.get(w));
                    writes.add(pool.submit(() -> {
                        together.await(30, TimeUnit.SECONDS);
                        return put(history, client, dynamo, table, values.get(client));
                    }));
                }
                List<String> acknowledged = new ArrayList<>();
                for (int w = 0; w < 2; w++) {
                    Outcome outcome = writes.get(w).get(60, TimeUnit.SECONDS);
                    if (outcome == Linearizability.OK) {
                        acknowledged.add(values.get(w));
                    } else {
                        conflicts++;
                    }
                }
                // Read strongly in every region, recorded too: all agree, on an acknowledged write of the round
                // (either one when both were: they overlapped), or on the previous round's value when neither was.
                List<String> read = new ArrayList<>();
                for (int r = 0; r < 3; r++) {
                    Outcome o = new RegisterClient(history, 2 + r, regions.client(ALL.get(r)), table).run(new Get("k"));
                    if (!(o instanceof Read value)) throw new AssertionError("strong read in " + ALL.get(r) + ": " + o);
                    read.add(value.value());
                }
                assertEquals(1, read.stream().distinct().count(), "round " + round + ": every region agrees: " + read);
                String now = read.get(0);
                if (acknowledged.isEmpty()) {
                    assertEquals(latest, now, "round " + round + ": no write acknowledged, nothing changed");
                } else {
                    assertTrue(acknowledged.contains(now), "round " + round + ": " + now + " is one of "
                            + acknowledged + ", acknowledged");
                }
                latest = now;
            }
        } finally {
            pool.shutdownNow();
        }
        // Thirty pairs sent at the same instant: DynamoDB refuses the write to an item being modified by another region.
        assertTrue(conflicts > 0, "some write met ReplicatedWriteConflictException");
        Result result = history.check();
        assertEquals(Linearizability.Verdict.LINEARIZABLE, result.verdict(), result.toString());
    }

    /** A recorded PutItem that succeeds or is refused with ReplicatedWriteConflictException; anything else fails the test. */
    private static Outcome put(History history, int client, DynamoDbClient dynamo, String table, String value) {
        History.Call call = history.invoke(client, new Put("k", value));
        try {
            dynamo.putItem(r -> r.tableName(table).item(item("k", value)));
            call.ok();
        } catch (ReplicatedWriteConflictException e) {
            assertEquals(400, e.statusCode());
            assertEquals("ReplicatedWriteConflictException", e.awsErrorDetails().errorCode());
            call.threw(e);
        } catch (SdkException e) {
            call.threw(e);
            throw new AssertionError("neither success nor ReplicatedWriteConflictException: " + e, e);
        }
        return call.outcome();
    }

    @Test
    void clientsInEveryRegionMakeALinearizableHistory() throws Exception {
        String table = StrongGlobalTables.threeReplicas(regions);
        History history = new History();
        try (StrongGlobalTables.RegisterClients clients = StrongGlobalTables.RegisterClients.start(regions, table,
                history, 150, Duration.ofSeconds(20))) {
            clients.awaitEnd(Duration.ofSeconds(120));
        }
        int reads = 0;
        int writes = 0;
        for (Operation o : history.operations()) {
            // No fault here: every answer says what happened (a 500 or a timeout would be unknown).
            if (o.outcome() == Linearizability.UNKNOWN) fail("an answer that says nothing: " + o);
            if (o.outcome() instanceof Read) reads++;
            if (o.outcome() == Linearizability.OK) writes++;
        }
        assertTrue(reads > 50 && writes > 50, reads + " reads and " + writes + " writes acknowledged");
        Result result = history.check();
        assertEquals(Linearizability.Verdict.LINEARIZABLE, result.verdict(), result.toString());
    }

    /**
     * The control: the same clients on a global table with eventual consistency (MREC), whose
     * strongly consistent reads are local (reference section 2) and whose replication is delayed
     * here by 300 ms, make a history the checker finds not linearizable. So a LINEARIZABLE verdict
     * above says something about MRSC, not about the clients or the checker.
     */
    @Test
    void theSameClientsOnAnEventuallyConsistentGlobalTableAreCaught() throws Exception {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(regions.client(A), table);
        regions.addReplica(A, table, B);
        regions.addReplica(A, table, C);
        History history = new History();
        try {
            for (String from : ALL) {
                Map<String, Long> delays = new HashMap<>();
                for (String to : ALL) if (!to.equals(from)) delays.put(to, 300L);
                regions.faults(from, Set.of(), delays);
            }
            try (StrongGlobalTables.RegisterClients clients = StrongGlobalTables.RegisterClients.start(regions, table,
                    history, 150, Duration.ofSeconds(10))) {
                clients.awaitEnd(Duration.ofSeconds(120));
            }
        } finally {
            regions.heal();
        }
        Result result = history.check();
        assertEquals(Linearizability.Verdict.NOT_LINEARIZABLE, result.verdict(), result.toString());
    }
}
