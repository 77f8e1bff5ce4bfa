package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.StreamReading;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Time to Live's deletions in a table's stream: a REMOVE record whose {@code userIdentity} is
 * {@code {"type": "Service", "principalId": "dynamodb.amazonaws.com"}} ("Items that are deleted by
 * the Time to Live process after expiration have the following fields: Records[].userIdentity.type
 * "Service", Records[].userIdentity.principalId "dynamodb.amazonaws.com"": API reference, DynamoDB
 * Streams, Record and Identity), with the OldImage its view type shows; a client's DeleteItem is a
 * REMOVE record without userIdentity, as is every other client write. The SDK reads the identity's
 * members by the service model's names ("Type", "PrincipalId"), so this also checks the wire form.
 * Time is the server's test clock, only ever moved forward (shards are derived from it).
 */
class StreamsTimeToLiveTest {

    private static final TestClock CLOCK = new TestClock();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK));

    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        CLOCK.set(Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS));
        streams = StreamReading.client(server.endpoint(), "us-east-1");
    }

    @AfterAll
    static void stop() {
        streams.close();
        CLOCK.useSystemTime();
    }

    private static DynamoDbClient client() {
        return server.client();
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", AttributeValue.fromS(pk));
    }

    private static Map<String, AttributeValue> item(String pk, Long exp) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(key(pk));
        item.put("v", AttributeValue.fromS("value of " + pk));
        if (exp != null) item.put("exp", AttributeValue.fromN(Long.toString(exp)));
        return item;
    }

    @ParameterizedTest
    @EnumSource(value = StreamViewType.class, names = {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"})
    void timeToLiveDeletionsAreRemoveRecordsByTheServiceAndClientDeletesHaveNoIdentity(StreamViewType view) {
        String table = StatorTestServer.tableName();
        client().createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(view)));
        client().updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(t -> t.enabled(true).attributeName("exp")));
        Eventually.until("ENABLED", () -> client().describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription()
                .timeToLiveStatus(), TimeToLiveStatus.ENABLED::equals);

        long now = CLOCK.instant().getEpochSecond();
        Map<String, AttributeValue> expiring = item("expiring", now + 60);
        Map<String, AttributeValue> deleted = item("deleted", now + 3600);
        client().putItem(b -> b.tableName(table).item(expiring));
        client().putItem(b -> b.tableName(table).item(deleted));
        client().deleteItem(b -> b.tableName(table).key(key("deleted")));

        CLOCK.advance(Duration.ofSeconds(61));
        Eventually.until("the expired item is deleted",
                () -> client().getItem(b -> b.tableName(table).key(key("expiring")).consistentRead(true)).hasItem(),
                present -> !present);

        String arn = client().describeTable(b -> b.tableName(table)).table().latestStreamArn();
        List<Record> records = StreamReading.readAll(streams, arn);
        Map<String, List<Record>> byItem = new LinkedHashMap<>();
        for (Record r : records) byItem.computeIfAbsent(r.dynamodb().keys().get("pk").s(), k -> new ArrayList<>()).add(r);
        assertEquals(List.of(OperationType.INSERT, OperationType.REMOVE),
                byItem.get("expiring").stream().map(Record::eventName).toList(), view.toString());
        assertEquals(List.of(OperationType.INSERT, OperationType.REMOVE),
                byItem.get("deleted").stream().map(Record::eventName).toList(), view.toString());
        assertEquals(4, records.size(), view.toString());
        boolean oldImage = view == StreamViewType.OLD_IMAGE || view == StreamViewType.NEW_AND_OLD_IMAGES;

        Record byTtl = byItem.get("expiring").get(1);
        assertNotNull(byTtl.userIdentity(), view + ": a Time to Live deletion carries userIdentity");
        assertEquals("Service", byTtl.userIdentity().type());
        assertEquals("dynamodb.amazonaws.com", byTtl.userIdentity().principalId());
        assertEquals(key("expiring"), byTtl.dynamodb().keys());
        assertEquals(oldImage ? expiring : Map.of(), byTtl.dynamodb().oldImage(), view + ": OldImage");
        assertEquals(Map.of(), byTtl.dynamodb().newImage(), view + ": no NewImage on a REMOVE");
        assertEquals(view, byTtl.dynamodb().streamViewType());
        assertTrue(byTtl.dynamodb().approximateCreationDateTime().getEpochSecond() >= now + 60,
                "made after the item expired, on the server's clock");

        Record byClient = byItem.get("deleted").get(1);
        assertNull(byClient.userIdentity(), view + ": a client's DeleteItem has no userIdentity");
        assertEquals(key("deleted"), byClient.dynamodb().keys());
        assertEquals(oldImage ? deleted : Map.of(), byClient.dynamodb().oldImage(), view + ": OldImage");
        for (Record insert : List.of(byItem.get("expiring").get(0), byItem.get("deleted").get(0))) {
            assertNull(insert.userIdentity(), "a client's PutItem has no userIdentity");
        }
    }
}
