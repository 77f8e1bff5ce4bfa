package io.stator.server.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.Regions;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.storage.cassandra.CassandraCluster;
import io.stator.storage.cassandra.CassandraClusterExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicationGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Global tables (MREC) with each region on Apache Cassandra: us-east-1 two {@code bin/stator}
 * processes on one keyspace, us-west-2 one on another (the same test cluster, two deployments).
 * Writes through either server of us-east-1 reach us-west-2 and back, a replica added to a table
 * with items is filled, one item written through both servers at once ends the same in both
 * regions, and a server killed with {@code kill -9} before it shipped what it acknowledged loses
 * none of it: the other server adopts its log once its lease expires.
 */
@ExtendWith(CassandraClusterExtension.class)
class GlobalTablesOnCassandraTest {

    private static final String EAST = "us-east-1";
    private static final String WEST = "us-west-2";
    private static final String SECRET = "global-tables-on-cassandra";
    private static final String TABLE = "Orders";
    /** A short lease, so that a killed server's log moves within seconds. */
    private static final String LEASE = "3000";
    private static final Duration ARRIVAL = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private ServersOnOneKeyspace east;
    private ServersOnOneKeyspace west;
    private final List<Integer> eastPorts = new ArrayList<>();
    private int westPort;
    private final StatorProcess[] eastServers = new StatorProcess[2];
    private DynamoDbClient east1;
    private DynamoDbClient east2;
    private DynamoDbClient westClient;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void regions(CassandraCluster cluster) throws Exception {
        east = new ServersOnOneKeyspace(cluster, "stator_gt_east_");
        west = new ServersOnOneKeyspace(cluster, "stator_gt_west_");
        List<Integer> ports = Regions.freePorts(3);
        eastPorts.addAll(ports.subList(0, 2));
        westPort = ports.get(2);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<StatorProcess>> started = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                int port = eastPorts.get(i);
                int n = i;
                started.add(pool.submit(() -> east.process(dir.resolve("east" + n + ".err"), jvm(),
                        options(EAST, port, WEST + "=http://127.0.0.1:" + westPort))));
            }
            started.add(pool.submit(() -> west.process(dir.resolve("west.err"), jvm(),
                    options(WEST, westPort, EAST + "=http://127.0.0.1:" + eastPorts.get(0)))));
            eastServers[0] = started.get(0).get();
            eastServers[1] = started.get(1).get();
            started.get(2).get();
        } finally {
            pool.shutdown();
        }
        east1 = client(EAST, eastPorts.get(0));
        east2 = client(EAST, eastPorts.get(1));
        westClient = client(WEST, westPort);
    }

    @AfterEach
    void close() throws Exception {
        for (DynamoDbClient c : new DynamoDbClient[] {east1, east2, westClient}) if (c != null) c.close();
        if (east != null) east.close();
        if (west != null) west.close();
    }

    private static List<String> jvm() {
        return List.of("-Xmx256m", "-Dstator.jobLeaseMillis=" + LEASE);
    }

    private static List<String> options(String region, int port, String peers) {
        return List.of("--region", region, "--port", Integer.toString(port), "--replica-peers", peers,
                "--replication-secret", SECRET, "--replication-faults");
    }

    private DynamoDbClient client(String region, int port) {
        return StatorTestServer.newClient(URI.create("http://127.0.0.1:" + port), region, StatorTestServer.ACCESS_KEY,
                StatorTestServer.SECRET_KEY);
    }

    @Test
    void writesThroughEitherServerReachTheOtherRegionAndBackAfterTheReplicaIsFilled() {
        createTable();
        for (int i = 0; i < 30; i++) put(east1, "before-" + i, i);
        addReplica();
        // The replica was filled with the items the table held.
        for (int i = 0; i < 30; i++) awaitValue(westClient, "before-" + i, i);

        for (int i = 0; i < 40; i++) put(i % 2 == 0 ? east1 : east2, "east-" + i, i);
        east2.deleteItem(r -> r.tableName(TABLE).key(key("before-3")));
        east1.deleteItem(r -> r.tableName(TABLE).key(key("east-4")));
        for (int i = 0; i < 40; i++) {
            if (i != 4) awaitValue(westClient, "east-" + i, i);
        }
        awaitAbsent(westClient, "before-3");
        awaitAbsent(westClient, "east-4");

        for (int i = 0; i < 20; i++) put(westClient, "west-" + i, 100 + i);
        for (int i = 0; i < 20; i++) {
            awaitValue(east1, "west-" + i, 100 + i);
            assertEquals(100 + i, value(east2, "west-" + i)); // one store: either server reads it
        }
    }

    @Test
    void oneItemWrittenThroughBothServersAtOnceEndsTheSameInBothRegions() throws Exception {
        createTable();
        addReplica();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (DynamoDbClient c : List.of(east1, east2)) {
                int base = c == east1 ? 0 : 1_000;
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < 60; i++) put(c, "contended", base + i);
                    return null;
                }));
            }
            for (Future<?> w : writers) w.get();
        } finally {
            pool.shutdown();
        }
        int here = value(east1, "contended");
        assertTrue(here == 59 || here == 1_059, "the last write of one of the two writers: " + here);
        Eventually.until("the contended item the same in " + WEST, ARRIVAL, () -> value(westClient, "contended"),
                v -> v != null && v == here);
        Eventually.sleep(2_000); // nothing older arrives after it
        assertEquals(here, value(westClient, "contended"));
    }

    @Test
    void aServerKilledBeforeItShippedWhatItAcknowledgedLosesNoneOfIt() throws Exception {
        createTable();
        addReplica();
        put(east1, "warm-up", 1);
        awaitValue(westClient, "warm-up", 1);
        // The first server's messages to us-west-2 fail from now on: what it logs stays in its log.
        faults(eastPorts.get(0), "{\"drop\":[\"" + WEST + "\"],\"delayMillis\":{}}");
        for (int i = 0; i < 40; i++) put(east1, "doomed-" + i, i);
        Eventually.sleep(1_000);
        assertNull(value(westClient, "doomed-0"));
        eastServers[0].kill();
        // The second server takes the killed one's log once its lease expired, and ships it.
        for (int i = 0; i < 40; i++) awaitValue(westClient, "doomed-" + i, i);
    }

    // ---- helpers --------------------------------------------------------------------------------

    private void createTable() {
        east1.createTable(r -> r.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
    }

    private void addReplica() {
        east1.updateTable(r -> r.tableName(TABLE).replicaUpdates(ReplicationGroupUpdate.builder()
                .create(CreateReplicationGroupMemberAction.builder().regionName(WEST).build()).build()));
        Eventually.until(WEST + " ACTIVE in " + EAST + "'s Replicas", ARRIVAL, () -> describe(east2),
                t -> t != null && replicaStatus(t, WEST).equals("ACTIVE") && t.tableStatusAsString().equals("ACTIVE"));
        Eventually.until("the table ACTIVE in " + WEST, ARRIVAL, () -> describe(westClient),
                t -> t != null && t.tableStatusAsString().equals("ACTIVE"));
    }

    private static TableDescription describe(DynamoDbClient c) {
        try {
            return c.describeTable(r -> r.tableName(TABLE)).table();
        } catch (ResourceNotFoundException e) {
            return null;
        }
    }

    private static String replicaStatus(TableDescription t, String region) {
        if (!t.hasReplicas()) return "";
        for (ReplicaDescription r : t.replicas()) if (r.regionName().equals(region)) return r.replicaStatusAsString();
        return "";
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", AttributeValue.fromS(pk));
    }

    private static void put(DynamoDbClient c, String pk, int v) {
        Map<String, AttributeValue> item = new HashMap<>(key(pk));
        item.put("v", AttributeValue.fromN(Integer.toString(v)));
        c.putItem(r -> r.tableName(TABLE).item(item));
    }

    private static Integer value(DynamoDbClient c, String pk) {
        Map<String, AttributeValue> item = c.getItem(r -> r.tableName(TABLE).key(key(pk)).consistentRead(true)).item();
        return item == null || item.isEmpty() ? null : Integer.valueOf(item.get("v").n());
    }

    private static void awaitValue(DynamoDbClient c, String pk, int v) {
        Eventually.until(pk + " = " + v, ARRIVAL, () -> value(c, pk), x -> x != null && x == v);
    }

    private static void awaitAbsent(DynamoDbClient c, String pk) {
        Eventually.until(pk + " deleted", ARRIVAL, () -> value(c, pk), x -> x == null);
    }

    private void faults(int port, String json) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/_stator/replication/faults")).POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
    }
}
