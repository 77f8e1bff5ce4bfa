package io.stator.server.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.StatorServer;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import io.stator.storage.cassandra.CassandraCluster;
import io.stator.storage.cassandra.CassandraClusterExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Point-in-time recovery over two servers on one keyspace of a real Cassandra cluster, on one test
 * clock: recovery enabled through one server, both then write at once, one second of the clock per
 * step, into the same items; a restore, through either server, to a time between two steps gives
 * exactly the table as both servers' acknowledged writes had left it at that time.
 */
@ExtendWith(CassandraClusterExtension.class)
class PointInTimeRecoveryOnTwoServersTest {

    private static final Instant START = Instant.parse("2032-05-01T00:00:00Z");
    private final TestClock clock = new TestClock();
    private ServersOnOneKeyspace keyspace;

    @BeforeEach
    void keyspace(CassandraCluster cluster) {
        this.keyspace = new ServersOnOneKeyspace(cluster, "stator_pitr_");
    }

    @AfterEach
    void close() throws Exception {
        keyspace.close();
    }

    private StatorServer server() throws Exception {
        return keyspace.start(keyspace.options().withClock(clock));
    }

    private DynamoDbClient client(StatorServer server) {
        return keyspace.client(server);
    }

    private static Map<String, AttributeValue> item(int key, int version, int server) {
        return Map.of("id", AttributeValue.fromS("k" + key), "v", AttributeValue.fromN(Integer.toString(version)),
                "by", AttributeValue.fromN(Integer.toString(server)));
    }

    private static Set<Map<String, AttributeValue>> scanAll(DynamoDbClient client, String table) {
        return client.scanPaginator(b -> b.tableName(table).consistentRead(true)).items().stream()
                .collect(Collectors.toSet());
    }

    @Test
    void restoresHoldEachServersAcknowledgedWritesUpToTheTime() throws Exception {
        clock.set(START);
        StatorServer first = server();
        StatorServer second = server();
        DynamoDbClient[] clients = {client(first), client(second)};
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(clients[0], table);
        for (int k = 0; k < 6; k++) {
            int key = k;
            clients[k % 2].putItem(b -> b.tableName(table).item(item(key, 0, key % 2)));
        }
        clients[1].updateContinuousBackups(b -> b.tableName(table).pointInTimeRecoverySpecification(p -> p
                .pointInTimeRecoveryEnabled(true).recoveryPeriodInDays(1)));
        second.engine().backups().awaitIdle(); // the base copied, every server keeping the history

        // Each step one second later: both servers write at once, into the same items, a put, an
        // update, a delete and a transaction each; the table after the step is the reference.
        List<Set<Map<String, AttributeValue>>> states = new ArrayList<>();
        states.add(scanAll(clients[0], table));
        int steps = 6;
        for (int s = 1; s <= steps; s++) {
            clock.advance(Duration.ofSeconds(1));
            int step = s;
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int server = w;
                DynamoDbClient client = clients[w];
                writers.add(Thread.ofPlatform().start(() -> {
                    Random random = new Random(step * 31L + server);
                    try {
                        for (int n = 0; n < 3; n++) {
                            int k = random.nextInt(6);
                            int version = step * 10 + n;
                            switch (random.nextInt(4)) {
                                case 0 -> client.putItem(b -> b.tableName(table).item(item(k, version, server)));
                                case 1 -> client.updateItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS("k" + k)))
                                        .updateExpression("SET v = :v, #by = :by").expressionAttributeNames(Map.of("#by", "by"))
                                        .expressionAttributeValues(Map.of(":v", AttributeValue.fromN(Integer.toString(version)),
                                                ":by", AttributeValue.fromN(Integer.toString(server)))));
                                case 2 -> client.deleteItem(b -> b.tableName(table).key(Map.of("id", AttributeValue.fromS("k" + k))));
                                default -> {
                                    int j = (k + 1) % 6;
                                    client.transactWriteItems(b -> b.transactItems(
                                            TransactWriteItem.builder().put(p -> p.tableName(table).item(item(k, version, server))).build(),
                                            TransactWriteItem.builder().put(p -> p.tableName(table).item(item(j, version, server))).build()));
                                }
                            }
                        }
                    } catch (software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException
                             | software.amazon.awssdk.services.dynamodb.model.TransactionConflictException conflict) {
                        // The two servers' writes met on an item: not acknowledged, so in no restore
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : writers) t.join();
            assertTrue(failures.isEmpty(), () -> "writes failed: " + failures);
            states.add(scanAll(clients[step % 2], table));
        }
        clock.advance(Duration.ofMinutes(10));

        // Restores between steps, each through the other server: the table as it was then.
        for (int p : new int[] {0, 3, steps}) {
            Instant at = START.plusSeconds(p).plusMillis(500);
            String target = StatorTestServer.tableName();
            DynamoDbClient client = clients[p % 2];
            client.restoreTableToPointInTime(b -> b.sourceTableName(table).targetTableName(target).restoreDateTime(at));
            DynamoDbClient other = clients[(p + 1) % 2];
            for (DynamoDbClient c : List.of(client, other)) { // the other sees it within a catalog re-read
                Eventually.until(target + " ACTIVE", Duration.ofSeconds(60),
                        () -> c.describeTable(b -> b.tableName(target)).table().tableStatus(), TableStatus.ACTIVE::equals);
            }
            assertEquals(states.get(p), scanAll(other, target), "restored to step " + p);
        }
    }
}
