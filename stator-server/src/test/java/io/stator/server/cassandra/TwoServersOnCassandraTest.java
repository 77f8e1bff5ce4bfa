package io.stator.server.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stator.server.ServerOptions;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.storage.cassandra.CassandraCluster;
import io.stator.storage.cassandra.CassandraClusterExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.DeleteGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Get;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Two Stator servers on one keyspace of a real three-node Cassandra cluster at replication
 * factor 3, through the AWS SDK: the faults issue 15 names. Writers and readers are spread over
 * both servers; what one acknowledges the other must see.
 */
@ExtendWith(CassandraClusterExtension.class)
class TwoServersOnCassandraTest {

    private ServersOnOneKeyspace keyspace;

    @BeforeEach
    void keyspace(CassandraCluster cluster) {
        this.keyspace = new ServersOnOneKeyspace(cluster, "stator_two_");
    }

    @AfterEach
    void close() throws Exception {
        keyspace.close();
    }

    private ServerOptions options() {
        return keyspace.options();
    }

    /** A server on the keyspace, in this JVM, and its client. */
    private DynamoDbClient server() throws Exception {
        return keyspace.serve(options());
    }

    private static Map<String, AttributeValue> key(String id) {
        return Map.of("id", AttributeValue.fromS(id));
    }

    private static long number(Map<String, AttributeValue> item, String name) {
        return Long.parseLong(item.get(name).n());
    }

    // ---- the bank-transfer audit ------------------------------------------------------------------

    @Test
    void transfersOverTwoServersNeverChangeTheTotalThatAuditsSee() throws Exception {
        DynamoDbClient[] servers = {server(), server()};
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(servers[0], table);
        int accounts = 100;
        for (int i = 0; i < accounts; i++) {
            int account = i;
            servers[i % 2].putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS("acct" + account),
                    "balance", AttributeValue.fromN("100"))));
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger transfers = new AtomicInteger();
        AtomicInteger audits = new AtomicInteger();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            DynamoDbClient client = servers[w % 2];
            long seed = w;
            writers.add(Thread.ofPlatform().start(() -> {
                Random random = new Random(seed);
                for (int done = 0; done < 6; ) {
                    int from = random.nextInt(accounts);
                    int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
                    String amount = Integer.toString(1 + random.nextInt(10));
                    try {
                        client.transactWriteItems(b -> b.transactItems(
                                move(table, "acct" + from, "-" + amount), move(table, "acct" + to, amount)));
                        transfers.incrementAndGet();
                        done++;
                    } catch (TransactionCanceledException conflict) {
                        // TransactionConflict with another transfer: try another, as a client would
                    } catch (RuntimeException e) {
                        failures.add("transfer: " + e);
                        return;
                    }
                }
            }));
        }
        List<Thread> auditors = new ArrayList<>();
        for (DynamoDbClient client : servers) {
            auditors.add(Thread.ofPlatform().start(() -> {
                List<TransactGetItem> gets = new ArrayList<>();
                for (int i = 0; i < accounts; i++) {
                    gets.add(TransactGetItem.builder().get(Get.builder().tableName(table).key(key("acct" + i)).build()).build());
                }
                boolean audited = false;
                while (writing.get() || !audited) {
                    try {
                        long total = 0;
                        for (ItemResponse r : client.transactGetItems(b -> b.transactItems(gets)).responses()) {
                            total += number(r.item(), "balance");
                        }
                        if (total != 100L * accounts) failures.add("an audit saw " + total);
                        audits.incrementAndGet();
                        audited = true;
                    } catch (TransactionCanceledException conflict) {
                        // a transfer in flight on one of the accounts: DynamoDB cancels such a read too
                    } catch (RuntimeException e) {
                        failures.add("audit: " + e);
                        return;
                    }
                }
            }));
        }
        for (Thread t : writers) t.join();
        writing.set(false);
        for (Thread t : auditors) t.join();
        assertTrue(failures.isEmpty(), failures.toString());
        assertEquals(48, transfers.get());
        assertTrue(audits.get() >= 2, "each server audited");
        long total = 0;
        for (int i = 0; i < accounts; i++) {
            int account = i;
            total += number(servers[i % 2].getItem(b -> b.tableName(table).key(key("acct" + account))
                    .consistentRead(true)).item(), "balance");
        }
        assertEquals(100L * accounts, total, "after " + transfers.get() + " transfers and " + audits.get() + " audits");
    }

    private static TransactWriteItem move(String table, String account, String amount) {
        return TransactWriteItem.builder().update(u -> u.tableName(table).key(key(account))
                .updateExpression("SET balance = balance + :amount")
                .expressionAttributeValues(Map.of(":amount", AttributeValue.fromN(amount)))).build();
    }

    // ---- conditional increments --------------------------------------------------------------------

    @Test
    void conditionalIncrementsFromBothServersCountExactly() throws Exception {
        DynamoDbClient[] servers = {server(), server()};
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(servers[0], table);
        servers[1].putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS("counter"),
                "n", AttributeValue.fromN("0"))));
        AtomicInteger succeeded = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            DynamoDbClient client = servers[t % 2];
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 10; ) {
                    long seen = number(client.getItem(b -> b.tableName(table).key(key("counter")).consistentRead(true))
                            .item(), "n");
                    try {
                        client.updateItem(b -> b.tableName(table).key(key("counter"))
                                .updateExpression("SET n = :next").conditionExpression("n = :seen")
                                .expressionAttributeValues(Map.of(":next", AttributeValue.fromN(Long.toString(seen + 1)),
                                        ":seen", AttributeValue.fromN(Long.toString(seen)))));
                        succeeded.incrementAndGet();
                        i++;
                    } catch (ConditionalCheckFailedException lost) {
                        refused.incrementAndGet(); // the other server (or a neighbour) counted first
                    } catch (RuntimeException e) {
                        failures.add(e.toString());
                        return;
                    }
                }
            }));
        }
        for (Thread t : threads) t.join();
        assertTrue(failures.isEmpty(), failures.toString());
        assertEquals(60, succeeded.get());
        assertEquals(60, number(servers[0].getItem(b -> b.tableName(table).key(key("counter")).consistentRead(true))
                .item(), "n"), refused.get() + " increments refused on the way");
    }

    // ---- a global index added and deleted while both servers write --------------------------------

    @Test
    void aGlobalIndexAddedThroughOneServerWhileBothWriteIsExactAndGoesWhenDeletedThroughTheOther() throws Exception {
        DynamoDbClient[] servers = {server(), server()};
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(servers[0], table);
        int items = 24;
        for (int i = 0; i < items; i++) {
            servers[i % 2].putItem(grouped(table, "k" + i, i % 4, i));
        }
        // One writer per server moves items between groups (group 3: out of the index) from before
        // the index exists until after it is ACTIVE.
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            DynamoDbClient client = servers[w];
            Random random = new Random(w);
            int writer = w;
            writers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; writing.get(); i++) {
                    try {
                        client.putItem(grouped(table, "k" + random.nextInt(items), random.nextInt(4), i * 2 + writer));
                    } catch (RuntimeException e) {
                        failures.add(e.toString());
                        return;
                    }
                }
            }));
        }
        Thread.sleep(500);
        servers[1].updateTable(b -> b.tableName(table)
                .attributeDefinitions(AttributeDefinition.builder().attributeName("group").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("at").attributeType(ScalarAttributeType.N).build())
                .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().create(CreateGlobalSecondaryIndexAction.builder()
                        .indexName("byGroup").keySchema(KeySchemaElement.builder().attributeName("group").keyType(KeyType.HASH).build(),
                                KeySchemaElement.builder().attributeName("at").keyType(KeyType.RANGE).build())
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build()).build()));
        for (DynamoDbClient client : servers) awaitIndex(client, table, IndexStatus.ACTIVE);
        Thread.sleep(500);
        writing.set(false);
        for (Thread t : writers) t.join();
        assertTrue(failures.isEmpty(), failures.toString());

        Map<String, Map<String, AttributeValue>> expected = new java.util.TreeMap<>();
        for (int i = 0; i < items; i++) {
            String id = "k" + i;
            Map<String, AttributeValue> item = servers[0].getItem(b -> b.tableName(table).key(key(id)).consistentRead(true)).item();
            if (item.containsKey("group")) expected.put(id, item);
        }
        for (DynamoDbClient client : servers) {
            Map<String, Map<String, AttributeValue>> indexed = new java.util.TreeMap<>();
            for (int group = 0; group < 3; group++) {
                String g = "g" + group;
                client.queryPaginator(b -> b.tableName(table).indexName("byGroup").keyConditionExpression("#g = :g")
                        .expressionAttributeNames(Map.of("#g", "group")).expressionAttributeValues(Map.of(":g", AttributeValue.fromS(g))))
                        .items().forEach(i -> assertEquals(null, indexed.put(i.get("id").s(), i), "one entry per item: " + i));
            }
            assertEquals(expected, indexed);
        }
        // ItemCount (the table's and the index's), counted again after the writes: within seconds.
        for (DynamoDbClient client : servers) {
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (true) {
                var described = client.describeTable(b -> b.tableName(table)).table();
                List<Long> counts = List.of(described.itemCount(), described.globalSecondaryIndexes().get(0).itemCount());
                if (counts.equals(List.of((long) items, (long) expected.size()))) break;
                assertTrue(System.nanoTime() < deadline, "ItemCount " + counts + ", expected " + items + " and " + expected.size());
                Thread.sleep(500);
            }
        }

        servers[0].updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                .delete(DeleteGlobalSecondaryIndexAction.builder().indexName("byGroup").build()).build()));
        for (DynamoDbClient client : servers) awaitIndex(client, table, null);
        assertEquals(items, servers[1].scan(b -> b.tableName(table).consistentRead(true)).count());
    }

    private static java.util.function.Consumer<software.amazon.awssdk.services.dynamodb.model.PutItemRequest.Builder> grouped(
            String table, String id, int group, int at) {
        Map<String, AttributeValue> item = group == 3
                ? Map.of("id", AttributeValue.fromS(id), "at", AttributeValue.fromN(Integer.toString(at)))
                : Map.of("id", AttributeValue.fromS(id), "group", AttributeValue.fromS("g" + group),
                        "at", AttributeValue.fromN(Integer.toString(at)));
        return b -> b.tableName(table).item(item);
    }

    /** Waits (two minutes at most) until the server describes the index in that status, or (null) no longer. */
    private static void awaitIndex(DynamoDbClient client, String table, IndexStatus status) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            List<GlobalSecondaryIndexDescription> indexes = client.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes();
            IndexStatus now = indexes.isEmpty() ? null : indexes.get(0).indexStatus();
            if (now == status) return;
            assertTrue(System.nanoTime() < deadline, "index still " + now);
            Thread.sleep(200);
        }
    }

    // ---- a node killed under load -------------------------------------------------------------------

    @Test
    void aNodeKilledUnderMixedLoadLosesNoAcknowledgedWriteAndRejoins() throws Exception {
        assumeTrue(keyspace.cluster().managed(), "the test kills a node it started");
        DynamoDbClient[] servers = {server(), server()};
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(servers[0], table);
        servers[0].putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS("counter"),
                "n", AttributeValue.fromN("0"))));
        AtomicBoolean running = new AtomicBoolean(true);
        Set<String> acknowledgedPuts = ConcurrentHashMap.newKeySet();
        Set<String> acknowledgedPairs = ConcurrentHashMap.newKeySet();
        Set<String> triedPairs = ConcurrentHashMap.newKeySet();
        AtomicLong acknowledgedAdds = new AtomicLong();
        AtomicLong uncertainAdds = new AtomicLong();
        AtomicInteger retryableErrors = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            DynamoDbClient client = servers[t % 2];
            int kind = t % 3;
            int thread = t;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; running.get(); i++) {
                    String id = "t" + thread + "-" + i;
                    try {
                        if (kind == 0) {
                            client.putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS(id))));
                            acknowledgedPuts.add(id);
                        } else if (kind == 1) {
                            try {
                                client.updateItem(b -> b.tableName(table).key(key("counter"))
                                        .updateExpression("ADD n :one")
                                        .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
                                acknowledgedAdds.incrementAndGet();
                            } catch (SdkException e) {
                                uncertainAdds.incrementAndGet();
                                throw e;
                            }
                        } else {
                            triedPairs.add(id);
                            client.transactWriteItems(b -> b.transactItems(
                                    pairItem(table, id + "a", id), pairItem(table, id + "b", id)));
                            acknowledgedPairs.add(id);
                        }
                    } catch (TransactionCanceledException conflict) {
                        retryableErrors.incrementAndGet();
                    } catch (AwsServiceException e) {
                        if (e.statusCode() >= 500 || e.isThrottlingException()) retryableErrors.incrementAndGet();
                        else failures.add(id + ": " + e);
                    } catch (SdkException e) {
                        retryableErrors.incrementAndGet(); // a client-side timeout: retryable
                    }
                    sleep(20);
                }
            }));
        }
        sleep(4_000);
        int victim = keyspace.cluster().size() - 1;
        keyspace.cluster().killNode(victim);
        sleep(8_000);
        keyspace.cluster().startNode(victim);
        keyspace.cluster().awaitAllSeenUp(Duration.ofMinutes(3));
        sleep(4_000);
        running.set(false);
        for (Thread t : threads) t.join();

        assertTrue(failures.isEmpty(), "only DynamoDB's retryable errors are allowed: " + failures);
        assertFalse(acknowledgedPuts.isEmpty());
        assertTrue(keyspace.cluster().isRunning(victim), "the node rejoined");
        for (String id : acknowledgedPuts) {
            assertNotNull(servers[1].getItem(b -> b.tableName(table).key(key(id)).consistentRead(true)).item(),
                    "acknowledged put " + id);
        }
        long n = number(servers[1].getItem(b -> b.tableName(table).key(key("counter")).consistentRead(true)).item(), "n");
        assertTrue(n >= acknowledgedAdds.get() && n <= acknowledgedAdds.get() + uncertainAdds.get(),
                n + " adds stored, " + acknowledgedAdds + " acknowledged, " + uncertainAdds + " uncertain");
        for (String id : triedPairs) {
            boolean a = present(servers[0], table, id + "a");
            assertEquals(a, present(servers[1], table, id + "b"), "transaction " + id + " whole or absent");
            if (acknowledgedPairs.contains(id)) assertTrue(a, "acknowledged transaction " + id);
        }
        System.out.printf("node killed under load: %d puts, %d adds (%d uncertain), %d transactions acknowledged;"
                + " %d retryable errors%n", acknowledgedPuts.size(), acknowledgedAdds.get(), uncertainAdds.get(),
                acknowledgedPairs.size(), retryableErrors.get());
    }

    private static TransactWriteItem pairItem(String table, String id, String pair) {
        return TransactWriteItem.builder().put(p -> p.tableName(table).item(Map.of("id", AttributeValue.fromS(id),
                "pair", AttributeValue.fromS(pair)))).build();
    }

    // ---- a server killed mid-transaction ------------------------------------------------------------

    @Test
    void aServerKilledMidTransactionLeavesEveryTransactionWholeOrAbsent(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        StatorProcess doomed = keyspace.process(dir.resolve("doomed.err"), List.of("-Xmx256m"));
        DynamoDbClient survivor = server();
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(doomed.client(), table);
        Set<String> tried = ConcurrentHashMap.newKeySet();
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; running.get(); i++) {
                    String id = "t" + thread + "-" + i;
                    tried.add(id);
                    try {
                        doomed.client().transactWriteItems(b -> b.transactItems(
                                pairItem(table, id + "a", id), pairItem(table, id + "b", id), pairItem(table, id + "c", id)));
                        acknowledged.add(id);
                    } catch (RuntimeException e) {
                        return; // the server is gone
                    }
                }
            }));
        }
        while (acknowledged.size() < 10) sleep(50);
        doomed.kill();
        running.set(false);
        for (Thread t : threads) t.join();

        // Whatever the dead server left undecided, the survivor finishes: each transaction's
        // items all there or none, every acknowledged one there, and the items writable again
        // (no intent left that would make a write conflict).
        for (String id : tried) {
            List<Boolean> present = new ArrayList<>();
            for (String part : List.of("a", "b", "c")) present.add(present(survivor, table, id + part));
            assertEquals(1, new java.util.HashSet<>(present).size(), "transaction " + id + " whole or absent: " + present);
            if (acknowledged.contains(id)) assertTrue(present.get(0), "acknowledged transaction " + id);
        }
        long deadline = System.currentTimeMillis() + 60_000;
        List<String> ids = new ArrayList<>(tried);
        for (int from = 0; from < ids.size(); from += 30) {
            List<TransactWriteItem> touch = new ArrayList<>();
            for (String id : ids.subList(from, Math.min(ids.size(), from + 30))) {
                for (String part : List.of("a", "b", "c")) {
                    touch.add(TransactWriteItem.builder().update(u -> u.tableName(table).key(key(id + part))
                            .updateExpression("SET touched = :t")
                            .expressionAttributeValues(Map.of(":t", AttributeValue.fromBool(true)))).build());
                }
            }
            while (true) {
                try {
                    survivor.transactWriteItems(b -> b.transactItems(touch));
                    break;
                } catch (TransactionCanceledException conflict) {
                    // an intent of the dead server's, not yet stale: the survivor aborts it once it is
                    assertTrue(System.currentTimeMillis() < deadline, "intents never settled: " + conflict.getMessage());
                    sleep(1_000);
                }
            }
        }
        System.out.printf("server killed mid-transaction: %d transactions tried, %d acknowledged%n", tried.size(),
                acknowledged.size());
    }

    /** Whether the item is there, read strongly consistent. */
    private static boolean present(DynamoDbClient client, String table, String id) {
        return client.getItem(b -> b.tableName(table).key(key(id)).consistentRead(true)).hasItem();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
