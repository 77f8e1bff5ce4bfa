package io.stator.server.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.Regions;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.StreamReading;
import io.stator.storage.cassandra.CassandraCluster;
import io.stator.storage.cassandra.CassandraClusterExtension;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.MultiRegionConsistency;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicatedWriteConflictException;
import software.amazon.awssdk.services.dynamodb.model.ReplicationGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Global tables with multi-Region strong consistency (MRSC) with one region on Apache Cassandra:
 * us-east-1 is two {@code bin/stator} processes on one keyspace, one of them hosting the region's
 * consensus member ({@code --consensus-port}) and the other handing it its MRSC work; us-east-2
 * and us-west-2 are one process each on RocksDB. The other regions know us-east-1 by the server
 * that does not host the member, so their messages about the groups are handed on too. A write
 * through any server of any region is read strongly everywhere at once, concurrent writes to one
 * item from two regions either commit or are refused as ReplicatedWriteConflictException and end
 * the same everywhere, the stream records carry the same sequence numbers in every region, and the
 * hosting server killed ({@code kill -9}) loses nothing: the other regions go on, and us-east-1
 * catches up once it is back.
 */
@ExtendWith(CassandraClusterExtension.class)
class StrongGlobalTablesOnCassandraTest {

    private static final String A = "us-east-1";
    private static final String B = "us-east-2";
    private static final String C = "us-west-2";
    private static final String SECRET = "strong-global-tables-on-cassandra";
    private static final String TABLE = "Accounts";
    private static final Duration CREATION = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private ServersOnOneKeyspace east;
    private final List<StatorProcess> processes = new ArrayList<>();
    /** us-east-1's server hosting the member, its other server, us-east-2's, us-west-2's. */
    private final Map<String, DynamoDbClient> clients = new LinkedHashMap<>();
    private final Map<String, URI> endpoints = new LinkedHashMap<>();
    private List<String> memberOptions;

    @BeforeEach
    void regions(CassandraCluster cluster) throws Exception {
        east = new ServersOnOneKeyspace(cluster, "stator_mrsc_east_");
        List<Integer> ports = Regions.freePorts(5);
        String member = "http://127.0.0.1:" + ports.get(0);
        String relay = "http://127.0.0.1:" + ports.get(1);
        String b = "http://127.0.0.1:" + ports.get(2);
        String c = "http://127.0.0.1:" + ports.get(3);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<StatorProcess>> started = new ArrayList<>();
            memberOptions = with(options(A, ports.get(0), B + "=" + b + "," + C + "=" + c), "--consensus-port",
                    Integer.toString(ports.get(4)), "--data-dir", dir.resolve("east-consensus").toString());
            started.add(pool.submit(() -> east.process(dir.resolve("east-member.err"), jvm(), memberOptions)));
            started.add(pool.submit(() -> east.process(dir.resolve("east-relay.err"), jvm(),
                    options(A, ports.get(1), B + "=" + b + "," + C + "=" + c))));
            started.add(pool.submit(() -> StatorProcess.start(dir.resolve("b"), dir.resolve("b.err"), jvm(),
                    options(B, ports.get(2), A + "=" + relay + "," + C + "=" + c))));
            started.add(pool.submit(() -> StatorProcess.start(dir.resolve("c"), dir.resolve("c.err"), jvm(),
                    options(C, ports.get(3), A + "=" + relay + "," + B + "=" + b))));
            for (Future<StatorProcess> f : started) processes.add(f.get());
        } finally {
            pool.shutdown();
        }
        endpoints.put("member", URI.create(member));
        endpoints.put("relay", URI.create(relay));
        endpoints.put(B, URI.create(b));
        endpoints.put(C, URI.create(c));
        clients.put("member", client(A, member));
        clients.put("relay", client(A, relay));
        clients.put(B, client(B, b));
        clients.put(C, client(C, c));
    }

    @AfterEach
    void close() throws Exception {
        for (DynamoDbClient c : clients.values()) c.close();
        // us-east-1's processes are the keyspace's; the RocksDB ones are this test's.
        for (int i = processes.size() - 1; i >= 2; i--) processes.get(i).close();
        if (east != null) east.close();
    }

    @Test
    void aWriteThroughAnyServerOfAnyRegionIsReadStronglyEverywhereAtOnce() {
        makeStrong();
        for (String writer : clients.keySet()) {
            String id = "from-" + writer;
            clients.get(writer).putItem(r -> r.tableName(TABLE).item(item(id, 1)));
            // No waiting: the write was acknowledged, so a strongly consistent read anywhere has it.
            for (String reader : clients.keySet()) assertEquals(Integer.valueOf(1), value(reader, id), reader);
        }
        // A counter incremented in turn through every server counts every increment.
        for (int i = 0; i < 8; i++) {
            List<String> all = List.copyOf(clients.keySet());
            clients.get(all.get(i % all.size())).updateItem(r -> r.tableName(TABLE).key(key("n"))
                    .updateExpression("ADD v :one").expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
        }
        for (String reader : clients.keySet()) assertEquals(Integer.valueOf(8), value(reader, "n"), reader);
    }

    @Test
    void concurrentWritesToOneItemFromTwoRegionsCommitOrConflictAndEndTheSameEverywhere() throws Exception {
        makeStrong();
        clients.get("relay").putItem(r -> r.tableName(TABLE).item(item("hot", 0)));
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger unknown = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<DynamoDbClient> once = List.of(clientWithoutRetries(A, endpoints.get("relay")),
                clientWithoutRetries(B, endpoints.get(B)));
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (DynamoDbClient c : once) {
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        attempts.incrementAndGet();
                        try {
                            c.updateItem(r -> r.tableName(TABLE).key(key("hot")).updateExpression("ADD v :one")
                                    .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
                            acknowledged.incrementAndGet();
                        } catch (ReplicatedWriteConflictException e) {
                            assertEquals(400, e.statusCode());
                            conflicts.incrementAndGet();
                        } catch (software.amazon.awssdk.services.dynamodb.model.DynamoDbException e) {
                            // No quorum in time (a busy machine's election): it may commit later.
                            assertEquals(500, e.statusCode(), e.getMessage());
                            unknown.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> w : writers) w.get();
        } finally {
            pool.shutdown();
            for (DynamoDbClient c : once) c.close();
        }
        assertTrue(conflicts.get() + acknowledged.get() + unknown.get() == attempts.get());
        // Every acknowledged increment counted, none refused as a conflict; one without an answer either.
        int total = Eventually.until("the unanswered increments decided", CREATION, () -> value("member", "hot"),
                v -> v >= acknowledged.get());
        assertTrue(total <= acknowledged.get() + unknown.get(), total + " of " + acknowledged + " acknowledged, "
                + conflicts + " conflicts, " + unknown + " unanswered");
        for (String reader : clients.keySet()) assertEquals(Integer.valueOf(total), value(reader, "hot"), reader);
    }

    @Test
    void streamRecordsCarryTheSameSequenceNumbersInEveryRegion() {
        makeStrong();
        clients.get("relay").updateTable(r -> r.tableName(TABLE).streamSpecification(s -> s.streamEnabled(true)
                .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        for (String server : clients.keySet()) {
            Eventually.until("the stream on through " + server, CREATION, () -> describe(server),
                    t -> t.tableStatusAsString().equals("ACTIVE") && t.latestStreamArn() != null
                            && t.streamSpecification() != null && t.streamSpecification().streamEnabled());
        }
        List<String> writers = List.copyOf(clients.keySet());
        for (int i = 0; i < 12; i++) {
            int n = i;
            clients.get(writers.get(i % writers.size())).putItem(r -> r.tableName(TABLE).item(item("k" + (n % 4), n)));
        }
        List<String> first = null;
        for (String server : List.of("relay", B, C)) {
            List<Record> records = Eventually.until("12 records through " + server, CREATION, () -> records(server),
                    l -> l.size() >= 12);
            List<String> numbered = records.stream()
                    .sorted(Comparator.comparing(rec -> new BigInteger(rec.dynamodb().sequenceNumber())))
                    .map(rec -> rec.dynamodb().sequenceNumber() + " " + rec.eventNameAsString() + " "
                            + rec.dynamodb().keys().get("pk").s() + "=" + rec.dynamodb().newImage().get("v").n())
                    .toList();
            assertEquals(12, numbered.size(), server);
            if (first == null) first = numbered;
            else assertEquals(first, numbered, server + "'s records against us-east-1's");
        }
    }

    @Test
    void theHostingServerKilledLosesNothingAndItsRegionCatchesUpOnceItIsBack() throws Exception {
        makeStrong();
        clients.get("relay").putItem(r -> r.tableName(TABLE).item(item("before", 1)));
        processes.get(0).kill();
        // The other two regions are a quorum: they go on.
        clients.get(B).putItem(r -> r.tableName(TABLE).item(item("during", 2)));
        assertEquals(Integer.valueOf(2), value(C, "during"));
        // us-east-1's other server cannot reach the group: an MRSC write or strong read there fails
        // (as a region without a quorum does), an eventually consistent read is served.
        try (DynamoDbClient once = clientWithoutRetries(A, endpoints.get("relay"))) {
            software.amazon.awssdk.services.dynamodb.model.DynamoDbException refused = assertThrows(
                    software.amazon.awssdk.services.dynamodb.model.DynamoDbException.class,
                    () -> once.putItem(r -> r.tableName(TABLE).item(item("refused", 3))));
            assertEquals(500, refused.statusCode());
            assertEquals("InternalServerError", refused.awsErrorDetails().errorCode());
        }
        assertEquals("1", clients.get("relay").getItem(r -> r.tableName(TABLE).key(key("before"))).item().get("v").n());

        // Back on its Raft logs: the region catches up with what the others committed meanwhile.
        processes.set(0, east.process(dir.resolve("east-member.err"), jvm(), memberOptions));
        Eventually.until("us-east-1 caught up", CREATION, () -> valueOrNull("relay", "during"), v -> v != null && v == 2);
        assertEquals(Integer.valueOf(2), value("member", "during"));
        assertEquals(Integer.valueOf(1), value(B, "before"));
        assertEquals(null, value(C, "refused"));
        clients.get("relay").putItem(r -> r.tableName(TABLE).item(item("after", 4)));
        for (String reader : clients.keySet()) assertEquals(Integer.valueOf(4), value(reader, "after"), reader);
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** The table created through us-east-1's relaying server, made STRONG there, ACTIVE everywhere. */
    private void makeStrong() {
        DynamoDbClient relay = clients.get("relay");
        relay.createTable(r -> r.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
        relay.updateTable(r -> r.tableName(TABLE).multiRegionConsistency(MultiRegionConsistency.STRONG)
                .replicaUpdates(create(B), create(C)));
        for (String server : clients.keySet()) {
            // Replicas lists the other regions' replicas.
            List<String> others = new ArrayList<>(List.of(A, B, C));
            others.remove(server.equals(B) || server.equals(C) ? server : A);
            Eventually.until("the table STRONG and ACTIVE through " + server, CREATION, () -> describe(server),
                    t -> t != null && t.tableStatusAsString().equals("ACTIVE")
                            && t.multiRegionConsistency() == MultiRegionConsistency.STRONG && t.hasReplicas()
                            && t.replicas().stream().map(ReplicaDescription::regionName).sorted().toList().equals(others)
                            && t.replicas().stream().allMatch(d -> d.replicaStatusAsString().equals("ACTIVE")));
        }
    }

    private static ReplicationGroupUpdate create(String region) {
        return ReplicationGroupUpdate.builder().create(CreateReplicationGroupMemberAction.builder().regionName(region)
                .build()).build();
    }

    private TableDescription describe(String server) {
        try {
            return clients.get(server).describeTable(r -> r.tableName(TABLE)).table();
        } catch (software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException e) {
            return null;
        }
    }

    private List<Record> records(String server) {
        String arn = describe(server).latestStreamArn();
        String region = server.equals(B) || server.equals(C) ? server : A;
        try (DynamoDbStreamsClient streams = StreamReading.client(endpoints.get(server), region)) {
            return StreamReading.readAll(streams, arn);
        }
    }

    private Integer value(String server, String pk) {
        Map<String, AttributeValue> item = clients.get(server).getItem(r -> r.tableName(TABLE).key(key(pk))
                .consistentRead(true)).item();
        return item == null || item.isEmpty() ? null : Integer.valueOf(item.get("v").n());
    }

    /** A strongly consistent read's value, or null while the read fails (the region catching up). */
    private Integer valueOrNull(String server, String pk) {
        try {
            return value(server, pk);
        } catch (software.amazon.awssdk.core.exception.SdkException e) {
            return null;
        }
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", AttributeValue.fromS(pk));
    }

    private static Map<String, AttributeValue> item(String pk, int v) {
        return Map.of("pk", AttributeValue.fromS(pk), "v", AttributeValue.fromN(Integer.toString(v)));
    }

    private static List<String> jvm() {
        return List.of("-Xmx256m");
    }

    private static List<String> options(String region, int port, String peers) {
        return List.of("--region", region, "--port", Integer.toString(port), "--replica-peers", peers,
                "--replication-secret", SECRET);
    }

    private static List<String> with(List<String> options, String... more) {
        List<String> all = new ArrayList<>(options);
        all.addAll(List.of(more));
        return all;
    }

    private static DynamoDbClient client(String region, String endpoint) {
        return StatorTestServer.newClient(URI.create(endpoint), region, StatorTestServer.ACCESS_KEY,
                StatorTestServer.SECRET_KEY);
    }

    /** A client whose every call is made once: what it was answered is what happened. */
    private static DynamoDbClient clientWithoutRetries(String region, URI endpoint) {
        return DynamoDbClient.builder().endpointOverride(endpoint)
                .region(software.amazon.awssdk.regions.Region.of(region))
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(StatorTestServer.ACCESS_KEY,
                                StatorTestServer.SECRET_KEY)))
                .overrideConfiguration(o -> o.retryPolicy(RetryPolicy.none())).build();
    }
}
