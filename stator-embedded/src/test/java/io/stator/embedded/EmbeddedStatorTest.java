package io.stator.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbBean;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbPartitionKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSortKey;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** The embedded server through each of its ready-made clients, on real ports and real RocksDB. */
class EmbeddedStatorTest {

    private static final String ORDERS_TABLE = resource("/stator/orders-table.json");
    private static final String SEED = resource("/stator/seed.json");

    @Test
    void twoServersInOneJvmAreIndependent() {
        try (EmbeddedStator a = EmbeddedStator.builder().start();
             EmbeddedStator b = EmbeddedStator.builder().region("eu-west-1").start()) {
            assertNotEquals(a.port(), b.port());
            a.createTable(ORDERS_TABLE);
            assertEquals(List.of("orders"), a.client().listTables().tableNames());
            assertEquals(List.of(), b.client().listTables().tableNames());
            b.createTable(ORDERS_TABLE);
            assertTrue(b.client().describeTable(r -> r.tableName("orders")).table().tableArn()
                    .startsWith("arn:aws:dynamodb:eu-west-1:"));
            a.clock().advance(Duration.ofDays(1));
            assertEquals(Duration.ZERO, b.clock().offset());
        }
    }

    @Test
    void everyReadyMadeClientReachesTheServer() {
        try (EmbeddedStator stator = EmbeddedStator.builder().start()) {
            createOrdersAndUsers(stator);
            stator.seed(SEED);
            assertEquals(30, stator.client().scan(r -> r.tableName("orders")).count(), "30 items: two batches");
            assertEquals(2, stator.client().scan(r -> r.tableName("users")).count());
            assertEquals(10, stator.asyncClient().query(r -> r.tableName("orders")
                    .keyConditionExpression("customer = :c")
                    .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("c1")))).join().count());
            Order order = stator.enhancedClient().table("orders", TableSchema.fromBean(Order.class))
                    .getItem(Key.builder().partitionValue("c0").sortValue("o03").build());
            assertEquals(13, order.getTotal());
            assertEquals(List.of(), stator.streamsClient().listStreams().streams(), "no table has a stream");
        }
    }

    static void createOrdersAndUsers(EmbeddedStator stator) {
        stator.createTable(ORDERS_TABLE);
        stator.client().createTable(r -> r.tableName("users").billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
                .keySchema(k -> k.attributeName("id").keyType("HASH")));
        stator.awaitActive("users");
    }

    /** An order as the Enhanced Client maps it. */
    @DynamoDbBean
    public static class Order {
        private String customer;
        private String orderId;
        private String status;
        private int total;

        @DynamoDbPartitionKey
        public String getCustomer() { return customer; }
        public void setCustomer(String customer) { this.customer = customer; }

        @DynamoDbSortKey
        public String getOrderId() { return orderId; }
        public void setOrderId(String orderId) { this.orderId = orderId; }

        public String getStatus() { return status; }
        public void setStatus(String status) { this.status = status; }

        public int getTotal() { return total; }
        public void setTotal(int total) { this.total = total; }
    }

    @Test
    void aTableFileThatDynamoDbRefusesFailsAsTheSdkWould() {
        try (EmbeddedStator stator = EmbeddedStator.builder().start()) {
            DynamoDbException e = assertThrows(DynamoDbException.class,
                    () -> stator.createTable(ORDERS_TABLE.replace("\"HASH\"", "\"RANGE\"")));
            assertEquals("ValidationException", e.awsErrorDetails().errorCode());
            assertEquals(List.of(), stator.client().listTables().tableNames());
        }
    }

    @Test
    void dataOnADirectoryOutlivesTheServer(@TempDir Path dir) {
        try (EmbeddedStator stator = EmbeddedStator.builder().dataDirectory(dir).start()) {
            stator.createTable(ORDERS_TABLE);
            stator.client().putItem(r -> r.tableName("orders").item(Map.of("customer", AttributeValue.fromS("c"),
                    "orderId", AttributeValue.fromS("o"))));
        }
        try (EmbeddedStator again = EmbeddedStator.builder().dataDirectory(dir).start()) {
            assertEquals(1, again.client().scan(r -> r.tableName("orders")).count());
        }
    }

    /** gsiPropagationDelay(Duration.ZERO): a global index read right after each write finds it (issue 38). */
    @Test
    void aZeroGsiPropagationDelayPutsEachWriteInTheIndexBeforeItAnswers() {
        try (EmbeddedStator stator = EmbeddedStator.builder().gsiPropagationDelay(Duration.ZERO).start()) {
            DynamoDbClient client = stator.client();
            createPeopleByTeam(client);
            for (int i = 0; i < 100; i++) {
                String team = "team" + i;
                client.putItem(r -> r.tableName("people").item(Map.of("id", AttributeValue.fromS("p" + team),
                        "team", AttributeValue.fromS(team))));
                assertEquals(1, inTeam(client, team), team);
            }
        }
    }

    /** awaitIndexes: after it, a global index holds every write made before, whatever the delay (issue 38). */
    @Test
    void awaitIndexesWaitsOutTheGsiPropagationDelay() {
        try (EmbeddedStator stator = EmbeddedStator.builder().gsiPropagationDelay(Duration.ofSeconds(2)).start()) {
            DynamoDbClient client = stator.client();
            createPeopleByTeam(client);
            for (int i = 0; i < 20; i++) {
                String id = "p" + i;
                client.putItem(r -> r.tableName("people").item(Map.of("id", AttributeValue.fromS(id),
                        "team", AttributeValue.fromS("red"))));
            }
            assertTrue(inTeam(client, "red") < 20, "the delay holds some back");
            stator.awaitIndexes(Duration.ofSeconds(30));
            assertEquals(20, inTeam(client, "red"));
        }
    }

    /** A table "people" (key id) with a global index "by-team" on team. */
    private static void createPeopleByTeam(DynamoDbClient client) {
        client.createTable(r -> r.tableName("people").billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(a -> a.attributeName("id").attributeType("S"),
                        a -> a.attributeName("team").attributeType("S"))
                .keySchema(k -> k.attributeName("id").keyType("HASH"))
                .globalSecondaryIndexes(g -> g.indexName("by-team").keySchema(k -> k.attributeName("team").keyType("HASH"))
                        .projection(p -> p.projectionType("KEYS_ONLY"))));
    }

    /** How many people the global index lists in the team. */
    private static int inTeam(DynamoDbClient client, String team) {
        return client.query(r -> r.tableName("people").indexName("by-team").keyConditionExpression("team = :t")
                .expressionAttributeValues(Map.of(":t", AttributeValue.fromS(team)))).count();
    }

    @Test
    void resetDeletesTheItemsAndKeepsTheTables() {
        try (EmbeddedStator stator = EmbeddedStator.builder().start()) {
            createOrdersAndUsers(stator);
            stator.seed(SEED);
            stator.resetItems();
            assertEquals(List.of("orders", "users"), stator.client().listTables().tableNames());
            assertEquals(0, stator.client().scan(r -> r.tableName("users")).count());
            assertEquals(0, stator.client().scan(r -> r.tableName("orders")).count());
            assertEquals(0, stator.client().scan(r -> r.tableName("orders").indexName("byStatus")).count());
        }
    }

    /**
     * Issue 18's clock test: an item whose TTL is an hour ahead, the clock moved two hours, the
     * item gone and its REMOVE record, made by Time to Live, in the stream.
     */
    @Test
    void advancingTheClockExpiresAnItemAndStreamsItsRemoval() {
        try (EmbeddedStator stator = EmbeddedStator.builder().start()) {
            stator.client().createTable(r -> r.tableName("sessions")
                    .billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
                    .keySchema(k -> k.attributeName("id").keyType("HASH"))
                    .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
            stator.awaitActive("sessions");
            stator.client().updateTimeToLive(r -> r.tableName("sessions")
                    .timeToLiveSpecification(t -> t.enabled(true).attributeName("expiresAt")));
            long inAnHour = stator.clock().instant().plus(Duration.ofHours(1)).getEpochSecond();
            stator.client().putItem(r -> r.tableName("sessions").item(Map.of("id", AttributeValue.fromS("s1"),
                    "expiresAt", AttributeValue.fromN(Long.toString(inAnHour)))));

            stator.clock().advance(Duration.ofMinutes(59));
            assertTrue(stator.client().getItem(r -> r.tableName("sessions")
                    .key(Map.of("id", AttributeValue.fromS("s1")))).hasItem(), "not yet expired");

            stator.clock().advance(Duration.ofHours(2));
            assertTrue(!stator.client().getItem(r -> r.tableName("sessions").consistentRead(true)
                    .key(Map.of("id", AttributeValue.fromS("s1")))).hasItem(), "gone once advance returns");

            String streamArn = stator.client().describeTable(r -> r.tableName("sessions")).table().latestStreamArn();
            List<Record> records = new java.util.ArrayList<>();
            // A stream has several shards (by the key's hash): the item's records are in one of them.
            for (var shard : stator.streamsClient().describeStream(r -> r.streamArn(streamArn))
                    .streamDescription().shards()) {
                String iterator = stator.streamsClient().getShardIterator(r -> r.streamArn(streamArn)
                        .shardId(shard.shardId()).shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
                records.addAll(stator.streamsClient().getRecords(r -> r.shardIterator(iterator)).records());
            }
            assertEquals(List.of(OperationType.INSERT, OperationType.REMOVE),
                    records.stream().map(Record::eventName).toList());
            Record removal = records.get(1);
            assertEquals("Service", removal.userIdentity().type());
            assertEquals("dynamodb.amazonaws.com", removal.userIdentity().principalId());
            assertTrue(removal.dynamodb().approximateCreationDateTime()
                    .isAfter(Instant.now().plus(Duration.ofHours(2))), "stamped with the server's time");
        }
    }

    /** The same clock refills token buckets: a table that used up its burst writes again five minutes on. */
    @Test
    void advancingTheClockRefillsAnExhaustedBurst() {
        try (EmbeddedStator stator = EmbeddedStator.builder().start();
             // The ready-made clients retry throttled requests, as the SDK does by default: not this one.
             DynamoDbClient once = DynamoDbClient.builder().endpointOverride(stator.endpoint())
                     .region(Region.of(stator.region())).credentialsProvider(stator.credentialsProvider())
                     .httpClient(UrlConnectionHttpClient.create())
                     .overrideConfiguration(c -> c.retryStrategy(b -> b.maxAttempts(1))).build()) {
            stator.client().createTable(r -> r.tableName("slow")
                    .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
                    .keySchema(k -> k.attributeName("id").keyType("HASH"))
                    .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L)));
            stator.awaitActive("slow");
            String kilobyte = "x".repeat(1000);
            int written = 0;
            DynamoDbException throttled = null;
            // 1 WCU banks up to 300 s of unused capacity (burst): about 300 writes of 1 KB, then throttling.
            while (throttled == null && written < 2_000) {
                String id = "i" + written;
                try {
                    once.putItem(r -> r.tableName("slow").item(Map.of("id", AttributeValue.fromS(id),
                            "v", AttributeValue.fromS(kilobyte))));
                    written++;
                } catch (DynamoDbException e) {
                    throttled = e;
                }
            }
            assertTrue(throttled instanceof software.amazon.awssdk.services.dynamodb.model
                    .ProvisionedThroughputExceededException, "throttled after " + written + " writes: " + throttled);
            stator.clock().advance(Duration.ofMinutes(5));
            once.putItem(r -> r.tableName("slow").item(Map.of("id", AttributeValue.fromS("after"),
                    "v", AttributeValue.fromS(kilobyte))));
        }
    }

    @Test
    void startsInWellUnderASecondInAWarmJvm() {
        EmbeddedStator.builder().start().close();
        long started = System.nanoTime();
        try (EmbeddedStator stator = EmbeddedStator.builder().start()) {
            stator.client().listTables();
            long millis = (System.nanoTime() - started) / 1_000_000;
            System.out.println("embedded Stator: started and served ListTables in " + millis + " ms (warm JVM)");
        }
    }

    private static String resource(String name) {
        try (var in = EmbeddedStatorTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
