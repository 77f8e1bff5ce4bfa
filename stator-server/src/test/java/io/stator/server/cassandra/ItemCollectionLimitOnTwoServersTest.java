package io.stator.server.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import io.stator.storage.cassandra.CassandraCluster;
import io.stator.storage.cassandra.CassandraClusterExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The item-collection limit with two servers writing one collection at once: each commit of a
 * collection is one compare-and-set that rewrites the collection's size row, so the servers
 * together can no more cross the limit than one can (ItemCollectionLimitTest holds the limit's
 * edges, on both backends).
 */
@ExtendWith(CassandraClusterExtension.class)
class ItemCollectionLimitOnTwoServersTest {

    private static final long LIMIT = 4_000;

    private ServersOnOneKeyspace keyspace;

    @BeforeEach
    void keyspace(CassandraCluster cluster) {
        this.keyspace = new ServersOnOneKeyspace(cluster, "stator_icl_");
    }

    @AfterEach
    void close() throws Exception {
        keyspace.close();
    }

    private DynamoDbClient server() throws Exception {
        return keyspace.serve(keyspace.options().with(m -> m.itemCollectionLimitBytes = LIMIT));
    }

    private static Map<String, AttributeValue> sized(int sk, long bytes) {
        return DynamoSize.padded(Map.of("pk", AttributeValue.fromS("c1"), "sk", AttributeValue.fromN(Integer.toString(sk))),
                bytes);
    }

    @Test
    void writesThroughBothServersCannotTogetherCrossTheLimit() throws Exception {
        DynamoDbClient[] servers = {server(), server()};
        int writers = 6;
        for (int round = 0; round < 2; round++) {
            String table = StatorTestServer.tableName();
            servers[0].createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                            Tables.definition("sk", ScalarAttributeType.N), Tables.definition("l", ScalarAttributeType.S))
                    .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                    .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("by-l")
                            .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("l", KeyType.RANGE))
                            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build()));
            // Room for exactly two of the writers' items, whichever two.
            servers[1].putItem(b -> b.tableName(table).item(sized(0, LIMIT - 1_200)));
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger accepted = new AtomicInteger();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            for (int w = 1; w <= writers; w++) {
                DynamoDbClient client = servers[w % 2];
                Map<String, AttributeValue> item = sized(w, 600);
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        client.putItem(b -> b.tableName(table).item(item));
                        accepted.incrementAndGet();
                    } catch (DynamoDbException e) {
                        if (!"ItemCollectionSizeLimitExceededException".equals(e.awsErrorDetails().errorCode())) {
                            failures.add(e.toString());
                        }
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                }));
            }
            start.countDown();
            for (Thread t : threads) t.join();
            assertTrue(failures.isEmpty(), failures.toString());
            assertEquals(2, accepted.get(), "writes accepted in round " + round);
            for (DynamoDbClient client : servers) {
                assertEquals(3, client.query(b -> b.tableName(table).consistentRead(true).keyConditionExpression("pk = :p")
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("c1")))).count());
            }
            // The collection is full for both servers: one byte more is refused by either, a delete
            // through one makes room for a write through the other.
            for (DynamoDbClient client : servers) {
                DynamoDbException refused = assertThrows(DynamoDbException.class,
                        () -> client.putItem(b -> b.tableName(table).item(sized(99, 1_000))));
                assertEquals("ItemCollectionSizeLimitExceededException", refused.awsErrorDetails().errorCode());
            }
            servers[0].deleteItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("c1"),
                    "sk", AttributeValue.fromN("0"))));
            servers[1].putItem(b -> b.tableName(table).item(sized(99, 1_000)));
        }
    }
}
