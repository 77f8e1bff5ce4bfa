package io.stator.server;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.IndexContents;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A server killed with {@code kill -9} while Time to Live is being enabled on a table of expired
 * items and deleting them, and while clients write, restarts with its expirer resuming where it
 * was: every item that has expired goes, every
 * acknowledged item that has not stays, and the table's global index and counters agree with
 * its items (the deletions and their index changes were committed together, or not at all).
 */
class TimeToLiveCrashTest {

    private static final int EXPIRING = 6_000;

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theExpirerResumesWhereItWasAfterAKillNine() throws Exception {
        Path data = tmp.resolve("data");
        Path stderr = tmp.resolve("stator-stderr.txt");
        String table = StatorTestServer.tableName();
        Set<String> kept = ConcurrentHashMap.newKeySet();
        try (StatorProcess first = StatorProcess.start(data, stderr)) {
            DynamoDbClient client = first.client();
            client.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                            Tables.definition("g", ScalarAttributeType.S))
                    .keySchema(Tables.key("pk", KeyType.HASH))
                    .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("by-g")
                            .keySchema(Tables.key("g", KeyType.HASH))
                            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build()));
            // Items that expired a second ago, written before Time to Live is enabled: enabling
            // backfills the expiry index with them, and the expirer deletes them meanwhile.
            long past = Instant.now().getEpochSecond() - 1;
            for (int i = 0; i < EXPIRING; i += 25) {
                List<WriteRequest> batch = new ArrayList<>();
                for (int j = i; j < i + 25; j++) {
                    Map<String, AttributeValue> item = item("pk", s("e" + j), "g", s("g" + (j % 7)),
                            "exp", n(Long.toString(past)));
                    batch.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
                }
                client.batchWriteItem(b -> b.requestItems(Map.of(table, batch)));
            }
            // A client keeps writing items that expire in an hour until the kill.
            AtomicBoolean stop = new AtomicBoolean();
            long later = Instant.now().getEpochSecond() + 3600;
            Thread writer = new Thread(() -> {
                for (int i = 0; !stop.get(); i++) {
                    String pk = "k" + i;
                    try {
                        client.putItem(b -> b.tableName(table).item(item("pk", s(pk), "g", s("k"),
                                "exp", n(Long.toString(later)))));
                        kept.add(pk);
                    } catch (RuntimeException e) {
                        return; // killed
                    }
                }
            });
            writer.start();
            client.updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(t -> t.enabled(true)
                    .attributeName("exp")));
            int left = Eventually.until("the expirer has begun", () -> expiredLeft(client, table),
                    count -> count < EXPIRING);
            first.kill();
            System.out.println("TimeToLiveCrashTest: killed with about " + left + " of " + EXPIRING
                    + " expired items still to delete");
            stop.set(true);
            writer.join();
        }
        try (StatorProcess second = StatorProcess.start(data, stderr)) {
            DynamoDbClient client = second.client();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (expiredLeft(client, table) > 0) {
                assertTrue(System.nanoTime() < deadline, "expired items left after the restart" + second.stderrText());
                Eventually.sleep(50);
            }
            List<Map<String, AttributeValue>> items = client.scan(b -> b.tableName(table).consistentRead(true)).items();
            Set<String> left = ConcurrentHashMap.newKeySet();
            for (Map<String, AttributeValue> i : items) left.add(i.get("pk").s());
            assertTrue(left.containsAll(kept), "every acknowledged item that has not expired is there");
            assertTrue(left.stream().allMatch(pk -> pk.startsWith("k")), "only those");
            IndexContents.awaitIndexesMatch(client, table, Duration.ofSeconds(30));
            IndexContents.assertCounts(client, table);
            Eventually.until("ENABLED", () -> client.describeTimeToLive(b -> b.tableName(table))
                    .timeToLiveDescription().timeToLiveStatus(), TimeToLiveStatus.ENABLED::equals);
        }
    }

    /** How many items starting with "e" (all expired by now) the table still has, every page read. */
    private static int expiredLeft(DynamoDbClient client, String table) {
        return client.scanPaginator(b -> b.tableName(table).consistentRead(true).filterExpression("begins_with(pk, :e)")
                .expressionAttributeValues(Map.of(":e", s("e")))).stream().mapToInt(r -> r.count()).sum();
    }
}
