package io.stator.server.cassandra;

import static io.stator.server.testing.AdvisorApi.field;
import static io.stator.server.testing.AdvisorApi.findings;
import static io.stator.server.testing.AdvisorApi.number;
import static io.stator.server.testing.AdvisorApi.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.stator.server.StatorServer;
import io.stator.server.testing.AdvisorApi;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import io.stator.storage.cassandra.CassandraCluster;
import io.stator.storage.cassandra.CassandraClusterExtension;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The advisor's observations are the cluster's (issue 34): two Stator servers on one keyspace of
 * a real Cassandra cluster, one partition key written half through each, are seen by either
 * server as one key with the combined figures: in Contributor Insights' graphs (top-keys), in the
 * hot-key finding F1, which fires only on both servers' writes together, and in the access
 * pattern's calls; what a server published still counts once it stopped.
 *
 * <p>Both servers take one test clock, still between two advances, so that every write between
 * them falls in one second of both; the servers publish in real time (every second), so the
 * reads wait for the merged view, generously.
 */
@ExtendWith(CassandraClusterExtension.class)
class AdvisorAcrossServersTest {

    /** 3 writes of 1 WCU a second through each server stand for 300 WCU/s: F1 warns at 500, so only both together are hot. */
    private static final double SCALE = 100;
    private static final int WRITES_PER_SERVER_PER_SECOND = 3;
    private static final int SECONDS = 6;
    private static final String PAYLOAD_1KB = "x".repeat(900);

    /** The servers publish every second; a loaded machine may take many. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final TestClock clock = new TestClock();
    private ServersOnOneKeyspace keyspace;

    @BeforeEach
    void keyspace(CassandraCluster cluster) {
        this.keyspace = new ServersOnOneKeyspace(cluster, "stator_adv_");
        clock.set(Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(5));
    }

    @AfterEach
    void close() throws Exception {
        keyspace.close();
    }

    @Test
    void aKeyWrittenHalfThroughEachServerIsOneHotKeyWithTheCombinedFiguresOnEitherEvenOnceOneStopped() throws Exception {
        long t0 = System.nanoTime();
        StatorServer[] servers = new StatorServer[2];
        DynamoDbClient[] clients = new DynamoDbClient[2];
        servers[0] = keyspace.start(keyspace.options().withClock(clock).withAdvisorScale(SCALE));
        // The second is closed by the test, before the end: what it published still counts.
        servers[1] = StatorServer.start(keyspace.options().withClock(clock).withAdvisorScale(SCALE));
        boolean secondOpen = true;
        try {
            for (int i = 0; i < 2; i++) clients[i] = keyspace.client(servers[i]);
            System.out.printf("AdvisorAcrossServersTest: two servers up in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            String table = StatorTestServer.tableName();
            int writes = writeHalfThroughEach(clients, table);
            System.out.printf("AdvisorAcrossServersTest: table and writes at %.1f s%n", (System.nanoTime() - t0) / 1e9);
            for (StatorServer server : servers) assertCombined(server, table, writes);
            System.out.printf("AdvisorAcrossServersTest: merged views at %.1f s%n", (System.nanoTime() - t0) / 1e9);
            servers[1].close();
            secondOpen = false;
            Eventually.sleep(2 * 1_000);
            assertCombined(servers[0], table, writes);
        } finally {
            if (secondOpen) servers[1].close();
        }
    }

    /** The table, and one key written {@value #SECONDS} test-seconds through both servers; the writes. */
    private int writeHalfThroughEach(DynamoDbClient[] clients, String table) {
        clients[0].createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("sk").attributeType("N"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE")));
        // The second server reads a table it does not know from the store at once.
        AtomicInteger sk = new AtomicInteger();
        for (int s = 0; s < SECONDS; s++) {
            for (DynamoDbClient c : clients) {
                List<WriteRequest> batch = new ArrayList<>();
                for (int i = 0; i < WRITES_PER_SERVER_PER_SECOND; i++) {
                    batch.add(WriteRequest.builder().putRequest(r -> r.item(Map.of("pk", AttributeValue.fromS("hot"),
                            "sk", AttributeValue.fromN(Integer.toString(sk.incrementAndGet())),
                            "v", AttributeValue.fromS(PAYLOAD_1KB)))).build());
                }
                assertEquals(Map.of(), c.batchWriteItem(b -> b.requestItems(Map.of(table, batch))).unprocessedItems());
            }
            clock.advance(Duration.ofSeconds(1));
        }
        return 2 * SECONDS * WRITES_PER_SERVER_PER_SECOND;
    }

    /** What {@code server}'s advisor shows of the key and its pattern: both servers' writes together. */
    private static void assertCombined(StatorServer server, String table, int writes) {
        // F1: 6 WCU a test-second on one key, 600 projected, 300 through each server; the other
        // server's seconds arrive as it publishes them (F1 fires at five, the writes took six).
        List<JsonNode> f1 = Eventually.until("F1 on both servers' writes", WAIT,
                () -> slowly(() -> findings(server.port(), table, "F1")), f -> !f.isEmpty()
                        && number(field(f.get(0), "evidence", "keys").asArray().get(0), "secondsAtOrAboveWarn")
                        == SECONDS);
        JsonNode key = field(f1.get(0), "evidence", "keys").asArray().get(0);
        assertEquals("hot", string(key, "key", "pk", "S"));
        assertEquals(2 * WRITES_PER_SERVER_PER_SECOND * SCALE, number(key, "peakUnitsPerSecond"));
        assertEquals(SECONDS, number(key, "secondsAtOrAboveWarn"));

        // Contributor Insights' Most Accessed partition keys: one key, 3 x its writes' units.
        JsonNode top = Eventually.until("the hot key's combined units", WAIT,
                () -> slowly(() -> AdvisorApi.get(server.port(), "/stator/advisor/top-keys?table=" + table)),
                t -> field(t, "mostAccessedPartitionKeys").asArray().stream()
                        .anyMatch(k -> number(k, "sum") == 3.0 * writes));
        List<JsonNode> keys = field(top, "mostAccessedPartitionKeys").asArray();
        assertEquals(1, keys.size(), keys.toString());
        assertEquals("hot", string(keys.get(0), "key", "pk", "S"));
        assertFalse(field(keys.get(0), "approximate").asBoolean(), "both servers listed it: exact");
        // Each item was written once, through one server or the other: 3 units each.
        for (JsonNode item : field(top, "mostAccessedItems").asArray()) assertEquals(3.0, number(item, "sum"));

        // The access pattern's calls, both servers' together.
        JsonNode put = Eventually.until("the pattern's calls of both servers", WAIT,
                () -> slowly(() -> field(AdvisorApi.get(server.port(), "/stator/advisor/access-patterns?table="
                        + table), "patterns").asArray().stream()
                        .filter(p -> string(p, "signature").equals("BatchWriteItem PutItem: pk = :v AND sk = :v"))
                        .findFirst().orElse(null)),
                p -> p != null && number(p, "calls") == writes);
        assertEquals(writes, number(put, "calls"));
    }

    /** A read, a moment after the last: the reads poll the servers, not race them. */
    private static <T> T slowly(java.util.function.Supplier<T> read) {
        Eventually.sleep(200);
        return read.get();
    }
}
