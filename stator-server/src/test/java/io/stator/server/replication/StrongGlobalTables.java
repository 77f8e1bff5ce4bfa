package io.stator.server.replication;

import static io.stator.server.testing.GlobalTableRegions.replica;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.GlobalTableRegions;
import io.stator.server.testing.History;
import io.stator.server.testing.Linearizability.ConditionalPut;
import io.stator.server.testing.Linearizability.Delete;
import io.stator.server.testing.Linearizability.Get;
import io.stator.server.testing.Linearizability.Op;
import io.stator.server.testing.Linearizability.Outcome;
import io.stator.server.testing.Linearizability.Put;
import io.stator.server.testing.Linearizability.Read;
import io.stator.server.testing.Linearizability;
import io.stator.server.testing.RegisterClient;
import io.stator.server.testing.StatorTestServer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalTableWitnessGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.CreateReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.DeleteReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalTableWitnessDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalTableWitnessGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.MultiRegionConsistency;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicationGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * What the tests of global tables with multi-Region strong consistency (MRSC) share: three
 * regions of one documented MRSC region set (US: us-east-1, us-east-2, us-west-2), and tables made
 * STRONG the two ways DynamoDB allows, from an empty regional table in A with one UpdateTable:
 * replicas in B and C, or a replica in B and a witness in C.
 */
final class StrongGlobalTables {

    static final String A = "us-east-1";
    static final String B = "us-east-2";
    static final String C = "us-west-2";
    /** How long a table may take to turn STRONG and ACTIVE everywhere (a Raft group per table, a busy machine). */
    static final Duration CREATION = Duration.ofSeconds(60);

    private StrongGlobalTables() {}

    /** The three regions, each a peer of the others; nothing else than the MREC tests pass. */
    static GlobalTableRegions start() throws IOException, InterruptedException {
        return GlobalTableRegions.start(List.of(A, B, C), Map.of());
    }

    /** An empty table in A, made STRONG with replicas in B and C; returns once ACTIVE in all three. */
    static String threeReplicas(GlobalTableRegions regions) {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(regions.client(A), table);
        regions.client(A).updateTable(r -> r.tableName(table).multiRegionConsistency(MultiRegionConsistency.STRONG)
                .replicaUpdates(create(B), create(C)));
        awaitActive(regions, table, List.of(A, B, C), null);
        return table;
    }

    /** An empty table in A, made STRONG with a replica in B and a witness in C; returns once ACTIVE. */
    static String twoReplicasAndAWitness(GlobalTableRegions regions) {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(regions.client(A), table);
        regions.client(A).updateTable(r -> r.tableName(table).multiRegionConsistency(MultiRegionConsistency.STRONG)
                .replicaUpdates(create(B)).globalTableWitnessUpdates(witness(C)));
        awaitActive(regions, table, List.of(A, B), C);
        return table;
    }

    /**
     * Waits until the table is ACTIVE in each replica region, each listing the other replicas
     * ACTIVE and the witness (if any) ACTIVE.
     */
    static void awaitActive(GlobalTableRegions regions, String table, List<String> replicas, String witness) {
        for (String region : replicas) {
            Eventually.until("the STRONG table ACTIVE in " + region + " with every member ACTIVE", CREATION,
                    () -> regions.describe(region, table), t -> t != null && t.tableStatusAsString().equals("ACTIVE")
                            && replicas.stream().filter(r -> !r.equals(region)).allMatch(r -> replica(t, r) != null
                                    && replica(t, r).replicaStatusAsString().equals("ACTIVE"))
                            && (witness == null || witnesses(t).equals(Map.of(witness, "ACTIVE"))));
        }
    }

    static ReplicationGroupUpdate create(String region) {
        return ReplicationGroupUpdate.builder()
                .create(CreateReplicationGroupMemberAction.builder().regionName(region).build()).build();
    }

    static ReplicationGroupUpdate delete(String region) {
        return ReplicationGroupUpdate.builder()
                .delete(DeleteReplicationGroupMemberAction.builder().regionName(region).build()).build();
    }

    static GlobalTableWitnessGroupUpdate witness(String region) {
        return GlobalTableWitnessGroupUpdate.builder()
                .create(CreateGlobalTableWitnessGroupMemberAction.builder().regionName(region).build()).build();
    }

    /** The regions the description lists in Replicas. */
    static Set<String> replicaRegions(TableDescription t) {
        Set<String> regions = new TreeSet<>();
        if (t.hasReplicas()) for (ReplicaDescription r : t.replicas()) regions.add(r.regionName());
        return regions;
    }

    /** GlobalTableWitnesses as region → WitnessStatus. */
    static Map<String, String> witnesses(TableDescription t) {
        if (!t.hasGlobalTableWitnesses()) return Map.of();
        Map<String, String> witnesses = new java.util.TreeMap<>();
        for (GlobalTableWitnessDescription w : t.globalTableWitnesses()) {
            witnesses.put(w.regionName(), w.witnessStatusAsString());
        }
        return witnesses;
    }

    /** The ids of the items a strongly consistent Scan of the region returns. */
    static Set<String> idsReadStrongly(GlobalTableRegions regions, String region, String table) {
        Set<String> ids = new TreeSet<>();
        regions.client(region).scanPaginator(r -> r.tableName(table).consistentRead(true)).items()
                .forEach(i -> ids.add(i.get("id").s()));
        return ids;
    }

    /** As {@link #idsReadStrongly}, or null when the region does not answer (yet). */
    static Set<String> idsReadStronglyOrNull(GlobalTableRegions regions, String region, String table) {
        try {
            return idsReadStrongly(regions, region, table);
        } catch (SdkException e) {
            return null;
        }
    }

    /** The ids of the items an eventually consistent Scan of the region returns (its local copy). */
    static Set<String> idsReadLocally(GlobalTableRegions regions, String region, String table) {
        Set<String> ids = new TreeSet<>();
        regions.client(region).scanPaginator(r -> r.tableName(table).consistentRead(false)).items()
                .forEach(i -> ids.add(i.get("id").s()));
        return ids;
    }

    /** The item's "v" as a strongly consistent read in each region sees it (null: no item), in A, B, C order. */
    static List<String> valuesReadStrongly(GlobalTableRegions regions, String table, List<String> in,
                                           Map<String, AttributeValue> key) {
        List<String> values = new ArrayList<>();
        for (String region : in) {
            Map<String, AttributeValue> item = regions.get(region, table, key);
            values.add(item == null ? null : item.get("v").s());
        }
        return values;
    }

    /** Asserts that a strongly consistent read in every one of {@code in} sees that value of "v" (null: no item). */
    static void assertReadStrongly(GlobalTableRegions regions, String table, List<String> in,
                                   Map<String, AttributeValue> key, String v) {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) expected.add(v);
        assertEquals(expected, valuesReadStrongly(regions, table, in, key), "strong reads of " + key + " in " + in);
    }

    /**
     * Two clients per region ({@link RegisterClient}s of the region's SDK client), each making
     * random operations on ten keys (40% strong reads, 30% puts, 15% conditional puts on the value
     * it last saw, 15% deletes; values unique) until it made {@code operationsPerClient} or
     * {@code length} passed, recorded in one history. Six clients, so under the dozen per key that
     * {@link Linearizability}'s search decides within its budget.
     */
    static final class RegisterClients implements AutoCloseable {
        private final ExecutorService pool;
        private final List<Future<?>> clients = new ArrayList<>();

        private RegisterClients(ExecutorService pool) {
            this.pool = pool;
        }

        static RegisterClients start(GlobalTableRegions regions, String table, History history, int operationsPerClient,
                                     Duration length) {
            List<String> all = List.of(A, B, C);
            long end = System.nanoTime() + length.toNanos();
            RegisterClients started = new RegisterClients(Executors.newFixedThreadPool(2 * all.size()));
            for (int c = 0; c < 2 * all.size(); c++) {
                int client = c;
                RegisterClient register = new RegisterClient(history, client, regions.client(all.get(c % all.size())), table);
                started.clients.add(started.pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(client);
                    Map<String, String> seen = new HashMap<>(); // the value this client last read or wrote, per key
                    for (int i = 0; i < operationsPerClient && System.nanoTime() < end; i++) {
                        String key = "k" + random.nextInt(10);
                        String value = client + "-" + i;
                        int dice = random.nextInt(100);
                        Op op = dice < 40 ? new Get(key) : dice < 70 ? new Put(key, value)
                                : dice < 85 ? new ConditionalPut(key, seen.get(key), value) : new Delete(key);
                        Outcome outcome = register.run(op);
                        if (outcome instanceof Read read) seen.put(key, read.value());
                        if (outcome == Linearizability.OK) seen.put(key, op instanceof Delete ? null : value);
                    }
                    return null;
                }));
            }
            return started;
        }

        /** Waits until every client has ended; fails if one threw or is still running after {@code deadline}. */
        void awaitEnd(Duration deadline) throws Exception {
            long end = System.nanoTime() + deadline.toNanos();
            for (Future<?> f : clients) f.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
        }

        @Override
        public void close() {
            pool.shutdownNow();
        }
    }
}
