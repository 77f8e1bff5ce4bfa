package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.engine.EngineConfig;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.storage.rocksdb.SmallDisk;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A full disk is a fault that heals. A Stator server runs with its data directory on a small
 * filesystem of its own (a tmpfs the test mounts; skipped where mounting is refused, the
 * storage's StorageFaultsTest then covers the same behaviour with RocksDB's space cap). The test
 * fills the disk until puts fail, and checks that every write then fails with a retry-able
 * InternalServerError that says so, that reads go on, that the cause is logged once, that a put
 * the SDK keeps retrying goes through once space is freed, with no restart, and that every
 * acknowledged write is there, before and after a clean restart, the global index included.
 */
class FullDiskTest {

    /** What the server answers while its disk is full (see DynamoDbEndpoint). */
    private static final String DISK_FULL = "Internal server error: the server's disk is full, please try again later";
    private static final int BLOB_BYTES = 100 << 10;
    private static final String TABLE = "full-disk";
    private static final String INDEX = "by-group";

    @TempDir
    Path tmp;

    /** Acknowledged writes: id to the seed of its blob. */
    private final Map<String, Integer> acknowledged = new LinkedHashMap<>();

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void writesFailRetryablyWhileTheDiskIsFullAndResumeOnceSpaceIsFreed() throws Exception {
        Path stderr = tmp.resolve("stator-stderr.txt");
        // Room enough, once the ballast is gone, for RocksDB's condition to resume: 32 MB free.
        try (SmallDisk disk = SmallDisk.mount(tmp.resolve("disk"), 64L << 20)) {
            Path data = disk.root().resolve("data");
            // The ballast goes in first: RocksDB preallocates its write-ahead log (35 MB) on the
            // first write when there is room, and the puts would have that to fill first.
            disk.fillLeaving(3L << 20);
            // Index changes wait a second in their queue: some are still queued when the disk
            // fills, so the propagator meets the fault too.
            List<String> options = List.of("--gsi-propagation-delay", "1s");
            try (StatorProcess server = StatorProcess.start(data, stderr, List.of("-Xmx256m"), options)) {
                DynamoDbClient client = server.client();
                createTable(client);
                // Every write fails alike, and writes nothing.
                int failed = putUntilTheDiskIsFull(server);
                assertDiskFull(() -> put(client, failed));
                assertDiskFull(() -> client.updateItem(b -> b.tableName(TABLE).key(Map.of("id", id(0)))
                        .updateExpression("SET n = :n").expressionAttributeValues(Map.of(":n", AttributeValue.fromN("1")))));
                assertDiskFull(() -> client.deleteItem(b -> b.tableName(TABLE).key(Map.of("id", id(0)))));
                assertDiskFull(() -> client.transactWriteItems(b -> b.transactItems(
                        TransactWriteItem.builder().put(p -> p.tableName(TABLE).item(item(failed))).build())));
                assertDiskFull(() -> client.batchWriteItem(b -> b.requestItems(Map.of(TABLE, List.of(
                        WriteRequest.builder().putRequest(PutRequest.builder().item(item(failed)).build()).build())))));
                assertDiskFull(() -> client.createTable(b -> b.tableName("another-table")
                        .billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(AttributeDefinition.builder().attributeName("id")
                                .attributeType(ScalarAttributeType.S).build())
                        .keySchema(KeySchemaElement.builder().attributeName("id").keyType(KeyType.HASH).build())));

                // The SDK retries it by itself: it is one of the errors its retry policy retries.
                try (DynamoDbClient retrying = client(server.endpoint(), b -> b.maxAttempts(3))) {
                    InternalServerErrorException e = assertThrows(InternalServerErrorException.class,
                            () -> retrying.putItem(r -> r.tableName(TABLE).item(item(failed))));
                    assertEquals(Integer.valueOf(3), e.numAttempts());
                }

                // Reads go on.
                assertFalse(client.getItem(b -> b.tableName(TABLE).key(Map.of("id", id(failed)))).hasItem());
                assertEveryItem(client);
                assertEquals(TABLE, client.describeTable(b -> b.tableName(TABLE)).table().tableName());

                // A put the SDK keeps retrying while the disk is full goes through once space is
                // freed: the server resumes by itself, with no restart.
                CompletableFuture<Void> patient;
                try (DynamoDbClient retrying = client(server.endpoint(), b -> b.maxAttempts(120)
                        .backoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(500))))) {
                    patient = CompletableFuture.runAsync(
                            () -> retrying.putItem(r -> r.tableName(TABLE).item(item(failed))));
                    Eventually.sleep(1_500);
                    assertFalse(patient.isDone(), "a put went through while the disk was full");
                    disk.free();
                    patient.get(60, TimeUnit.SECONDS);
                }
                acknowledged.put("item-" + failed, failed);
                for (int i = failed + 1; i < failed + 11; i++) put(client, i);
                assertEveryItem(client);
                assertIndexComplete(client);

                // Logged once, with its cause, and its end; no trace per request.
                List<String> lines = Files.readAllLines(stderr);
                assertEquals(1, count(lines, "No space left on device"), () -> "stderr:\n" + String.join("\n", lines));
                assertEquals(1, count(lines, "resume by themselves, with every acknowledged write kept, once at least "
                        + "32 MB are free"), () -> "stderr:\n" + String.join("\n", lines));
                assertEquals(1, count(lines, "resumed"), () -> "stderr:\n" + String.join("\n", lines));
                assertEquals(0, count(lines, "\tat "), () -> "stderr:\n" + String.join("\n", lines));
                assertEquals(0, count(lines, "index propagation failed"), () -> "stderr:\n" + String.join("\n", lines));

                server.stop();
                List<String> afterStop = Files.readAllLines(stderr);
                assertEquals(lines, afterStop, "a clean stop after the fault reports nothing");
            }

            try (StatorProcess restarted = StatorProcess.start(data, stderr)) {
                assertEveryItem(restarted.client());
                assertIndexComplete(restarted.client());
            }
        }
    }

    /**
     * A server killed with -9 while its disk is full starts again on that full disk: it serves
     * every acknowledged item (its storage opened for reads only, see the storage's
     * StartOnFullDiskTest), refuses every write as above, its background work (the index
     * propagator, Time to Live's expirer, the backups' thread) waits it out without a trace, and
     * it takes writes again once space is freed, with no restart.
     */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void restartsOnAFullDiskServesReadsAndTakesWritesOnceSpaceIsFreed() throws Exception {
        Path stderr = tmp.resolve("stator-stderr.txt");
        try (SmallDisk disk = SmallDisk.mount(tmp.resolve("disk"), 64L << 20)) {
            Path data = disk.root().resolve("data");
            disk.fillLeaving(3L << 20);
            List<String> options = List.of("--gsi-propagation-delay", "1s");
            int refused;
            try (StatorProcess server = StatorProcess.start(data, stderr, List.of("-Xmx256m"), options)) {
                DynamoDbClient client = server.client();
                createTable(client);
                client.updateTimeToLive(b -> b.tableName(TABLE)
                        .timeToLiveSpecification(t -> t.enabled(true).attributeName("expires")));
                client.updateContinuousBackups(b -> b.tableName(TABLE)
                        .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
                refused = putUntilTheDiskIsFull(server);
                server.kill();
            }
            Files.writeString(stderr, ""); // what the restarted server says, alone

            try (StatorProcess server = StatorProcess.start(data, stderr, List.of("-Xmx256m"), options)) {
                DynamoDbClient client = server.client();
                assertEveryItem(client);
                assertDiskFull(() -> put(client, refused));
                assertDiskFull(() -> client.deleteItem(b -> b.tableName(TABLE).key(Map.of("id", id(0)))));
                assertDiskFull(() -> client.createBackup(b -> b.tableName(TABLE).backupName("refused")));
                assertFalse(client.getItem(b -> b.tableName(TABLE).key(Map.of("id", id(refused)))).hasItem());

                // The background work meets the refusals for a while (the expirer and the
                // propagator look every few seconds), then writes come back.
                Eventually.sleep(6_000);
                assertTrue(server.isAlive(), server.stderrText());
                try (DynamoDbClient retrying = client(server.endpoint(), b -> b.maxAttempts(120)
                        .backoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(500))))) {
                    disk.free();
                    retrying.putItem(r -> r.tableName(TABLE).item(item(refused)));
                }
                acknowledged.put("item-" + refused, refused);
                for (int i = refused + 1; i < refused + 11; i++) put(client, i);
                assertEveryItem(client);
                assertIndexComplete(client);

                List<String> lines = Files.readAllLines(stderr);
                assertEquals(1, count(lines, "Opened for reads only"), () -> "stderr:\n" + String.join("\n", lines));
                assertEquals(1, count(lines, "writes resumed"), () -> "stderr:\n" + String.join("\n", lines));
                assertEquals(0, count(lines, "\tat "), () -> "stderr:\n" + String.join("\n", lines));
                assertEquals(0, count(lines, "failed"), () -> "stderr:\n" + String.join("\n", lines));
            }
        }
    }

    /** Puts items 0, 1, ... until one is refused as on a full disk; the first refused. */
    private int putUntilTheDiskIsFull(StatorProcess server) {
        for (int next = 0; next <= 1_000; next++) {
            try {
                put(server.client(), next);
            } catch (InternalServerErrorException e) {
                assertDiskFull(e);
                return next;
            }
        }
        return fail("puts never failed on a full disk" + server.stderrText());
    }

    private static void createTable(DynamoDbClient client) {
        client.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        AttributeDefinition.builder().attributeName("id").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("g").attributeType(ScalarAttributeType.S).build())
                .keySchema(KeySchemaElement.builder().attributeName("id").keyType(KeyType.HASH).build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName(INDEX)
                        .keySchema(KeySchemaElement.builder().attributeName("g").keyType(KeyType.HASH).build())
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build()));
    }

    private void put(DynamoDbClient client, int i) {
        client.putItem(b -> b.tableName(TABLE).item(item(i)));
        acknowledged.put("item-" + i, i);
    }

    private static Map<String, AttributeValue> item(int i) {
        byte[] blob = new byte[BLOB_BYTES];
        new Random(i).nextBytes(blob); // incompressible: it fills the disk as it is
        return Map.of("id", id(i), "g", AttributeValue.fromS(group(i)),
                "blob", AttributeValue.fromB(SdkBytes.fromByteArray(blob)));
    }

    private static AttributeValue id(int i) {
        return AttributeValue.fromS("item-" + i);
    }

    private static String group(int i) {
        return "group-" + (i % 4);
    }

    private static void assertDiskFull(DynamoDbException e) {
        assertEquals(500, e.statusCode());
        assertEquals("InternalServerError", e.awsErrorDetails().errorCode());
        assertEquals(DISK_FULL, e.awsErrorDetails().errorMessage());
    }

    private static void assertDiskFull(Executable call) {
        assertDiskFull(assertThrows(InternalServerErrorException.class, call));
    }

    /** Every acknowledged item, whole, by GetItem, and nothing else by Scan. */
    private void assertEveryItem(DynamoDbClient client) {
        for (Map.Entry<String, Integer> e : acknowledged.entrySet()) {
            Map<String, AttributeValue> item = client.getItem(b -> b.tableName(TABLE)
                    .key(Map.of("id", AttributeValue.fromS(e.getKey()))).consistentRead(true)).item();
            assertEquals(item(e.getValue()), item, e.getKey());
        }
        int count = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            var page = client.scan(b -> b.tableName(TABLE).select(Select.COUNT).exclusiveStartKey(from));
            count += page.count();
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        assertEquals(acknowledged.size(), count, "items in the table");
    }

    /** The global index holds every acknowledged item, once its queue has drained. */
    private void assertIndexComplete(DynamoDbClient client) {
        Set<String> expected = new TreeSet<>(acknowledged.keySet());
        Eventually.until("the global index holds every acknowledged item", () -> indexed(client), expected::equals);
    }

    private static Set<String> indexed(DynamoDbClient client) {
        Set<String> ids = new TreeSet<>();
        for (int g = 0; g < 4; g++) {
            String group = "group-" + g;
            client.queryPaginator(b -> b.tableName(TABLE).indexName(INDEX).keyConditionExpression("g = :g")
                    .expressionAttributeValues(Map.of(":g", AttributeValue.fromS(group))))
                    .items().forEach(item -> ids.add(item.get("id").s()));
        }
        return ids;
    }

    private static long count(List<String> lines, String text) {
        return lines.stream().filter(l -> l.contains(text)).count();
    }

    /** A client of the server whose retries the SDK's standard strategy makes, as adjusted. */
    private static DynamoDbClient client(URI endpoint, Consumer<RetryStrategy.Builder<?, ?>> retries) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.of(EngineConfig.DEFAULT_REGION))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(StatorTestServer.ACCESS_KEY, StatorTestServer.SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(RetryMode.STANDARD)
                        .retryStrategy(retries)
                        .build())
                .build();
    }
}
