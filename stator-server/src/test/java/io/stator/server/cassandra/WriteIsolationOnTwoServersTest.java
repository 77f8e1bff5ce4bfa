package io.stator.server.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import io.stator.engine.table.WriteIsolation;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import io.stator.storage.cassandra.CassandraCluster;
import io.stator.storage.cassandra.CassandraClusterExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * Plain writes (write isolation only_rmw_uses_lwt) from two servers on one keyspace: the last
 * write wins and both servers read it; a lightweight transaction after a plain write of the same
 * item sees it, and a plain write after the transaction overwrites it (Cassandra orders them by
 * their timestamps: one clock on this machine). That the writes were plain is read from the
 * item table itself: every compare-and-set commit leaves a marker row (kind -1, kept an hour,
 * CassandraCollectionStore) that a plain write does not.
 */
@ExtendWith(CassandraClusterExtension.class)
class WriteIsolationOnTwoServersTest {

    private ServersOnOneKeyspace keyspace;

    @BeforeEach
    void keyspace(CassandraCluster cluster) {
        this.keyspace = new ServersOnOneKeyspace(cluster, "stator_wi_");
    }

    @AfterEach
    void close() throws Exception {
        keyspace.close();
    }

    private static Map<String, AttributeValue> item(String pk, String v) {
        return Map.of("pk", AttributeValue.fromS(pk), "v", AttributeValue.fromS(v));
    }

    /** The marker rows of compare-and-set commits in the item table of the Stator table numbered {@code id}. */
    private int markers(CqlSession session, long id) {
        return session.execute("SELECT pk FROM " + keyspace.keyspace() + ".t_" + id + " WHERE kind = -1 ALLOW FILTERING")
                .all().size();
    }

    @Test
    void plainWritesFromTwoServersEndWithTheLastOneAndBothServersReadIt(CqlSession session) throws Exception {
        // The first server's default is relaxed, the second's the safe one: a tag overrides both.
        DynamoDbClient[] servers = {
                keyspace.serve(keyspace.options().withWriteIsolation(WriteIsolation.ONLY_RMW_USES_LWT)),
                keyspace.serve(keyspace.options())};
        String relaxed = StatorTestServer.tableName(); // the keyspace's table 1
        servers[1].createTable(Tables.onDemand(relaxed)
                .tags(Tag.builder().key(WriteIsolation.TAG).value("only_rmw_uses_lwt").build()).build());
        int writes = 20;
        CountDownLatch start = new CountDownLatch(1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < servers.length; w++) {
            DynamoDbClient server = servers[w];
            String name = "w" + w;
            writers.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    for (int i = 0; i < writes; i++) {
                        String v = name + "-" + i;
                        server.putItem(b -> b.tableName(relaxed).item(item("x", v)));
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        start.countDown();
        for (Thread t : writers) t.join();
        assertTrue(failures.isEmpty(), () -> "writes failed: " + failures);

        Map<String, AttributeValue> strong = servers[0].getItem(b -> b.tableName(relaxed).key(Map.of("pk",
                AttributeValue.fromS("x"))).consistentRead(true)).item();
        // Each writer's writes are in order (one clock): the last of all is one of their last ones.
        assertTrue(Set.of(item("x", "w0-" + (writes - 1)), item("x", "w1-" + (writes - 1))).contains(strong),
                "last write wins: " + strong);
        for (DynamoDbClient server : servers) {
            assertEquals(strong, server.getItem(b -> b.tableName(relaxed).key(Map.of("pk", AttributeValue.fromS("x")))
                    .consistentRead(true)).item());
            assertEquals(strong, server.getItem(b -> b.tableName(relaxed).key(Map.of("pk", AttributeValue.fromS("x"))))
                    .item());
        }
        assertEquals(0, markers(session, 1), "every put was a plain write");

        // A plain put, a lightweight transaction (an update reads first) through the other server,
        // then a plain put again: each sees the one before.
        servers[0].putItem(b -> b.tableName(relaxed).item(Map.of("pk", AttributeValue.fromS("y"),
                "n", AttributeValue.fromN("1"))));
        servers[1].updateItem(b -> b.tableName(relaxed).key(Map.of("pk", AttributeValue.fromS("y")))
                .updateExpression("ADD n :one").expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
        assertEquals("2", servers[0].getItem(b -> b.tableName(relaxed).key(Map.of("pk", AttributeValue.fromS("y")))
                .consistentRead(true)).item().get("n").n());
        assertEquals(1, markers(session, 1), "the update was a compare-and-set");
        servers[0].putItem(b -> b.tableName(relaxed).item(Map.of("pk", AttributeValue.fromS("y"),
                "n", AttributeValue.fromN("10"))));
        for (DynamoDbClient server : servers) {
            assertEquals("10", server.getItem(b -> b.tableName(relaxed).key(Map.of("pk", AttributeValue.fromS("y")))
                    .consistentRead(true)).item().get("n").n());
        }
        servers[1].deleteItem(b -> b.tableName(relaxed).key(Map.of("pk", AttributeValue.fromS("y"))));
        assertTrue(servers[0].getItem(b -> b.tableName(relaxed).key(Map.of("pk", AttributeValue.fromS("y")))
                .consistentRead(true)).item().isEmpty());
        assertEquals(1, markers(session, 1), "the delete was a plain write");

        // Untagged: each server's own default (--write-isolation).
        String untagged = StatorTestServer.tableName(); // table 2
        servers[0].createTable(Tables.onDemand(untagged).build());
        servers[0].putItem(b -> b.tableName(untagged).item(item("a", "1")));
        assertEquals(0, markers(session, 2), "the relaxed server's default: a plain write");
        servers[1].putItem(b -> b.tableName(untagged).item(item("b", "1")));
        assertEquals(1, markers(session, 2), "the safe default: a lightweight transaction");
    }
}
