package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.l;
import static io.stator.server.testing.Attrs.m;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.ns;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Attrs.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.IndexContents;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * Time to Live deletes the items whose TTL attribute is a Number of epoch seconds in the past,
 * as DeleteItem would (out of the table, its global and local indexes and its counters), and
 * keeps every other item; time is the server's test clock, moved by the tests.
 *
 * <p>The table: key {@code pk} (S) and {@code sk} (N), global index {@code by-g} (ALL, on g),
 * local index {@code by-l} (INCLUDE exp, on l); Time to Live on {@code exp}.
 */
class TimeToLiveExpiryTest {

    private static final TestClock CLOCK = new TestClock();
    private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
    private static final long NOW = T0.getEpochSecond();
    private static final long FIVE_YEARS = 5L * 365 * 24 * 3600;

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK));

    private String table;

    @BeforeEach
    void createTable() {
        CLOCK.set(T0);
        table = StatorTestServer.tableName();
        create(table);
    }

    private static void create(String table) {
        client().createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N),
                        Tables.definition("g", ScalarAttributeType.S),
                        Tables.definition("l", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("by-g")
                        .keySchema(Tables.key("g", KeyType.HASH)).projection(p -> p.projectionType(ProjectionType.ALL))
                        .build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("by-l")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("l", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("exp")).build()));
    }

    @AfterEach
    void followSystemTime() {
        CLOCK.useSystemTime();
    }

    private static DynamoDbClient client() {
        return server.client();
    }

    private void enable() {
        client().updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(s -> s.enabled(true).attributeName("exp")));
        Eventually.until("ENABLED", () -> client().describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription()
                .timeToLiveStatus(), TimeToLiveStatus.ENABLED::equals);
    }

    private static Map<String, AttributeValue> key(int i) {
        return item("pk", s("p" + (i % 3)), "sk", n(Integer.toString(i)));
    }

    /** Item i, in both indexes, with {@code exp} as given (none when null). */
    private void put(int i, AttributeValue exp) {
        Map<String, AttributeValue> item = with(key(i), "g", s("g" + (i % 2)), "l", s("l" + i), "data", s("x".repeat(i)));
        if (exp != null) item.put("exp", exp);
        client().putItem(b -> b.tableName(table).item(item));
    }

    private static AttributeValue seconds(long epochSeconds) {
        return n(Long.toString(epochSeconds));
    }

    /** The sk of every item in the table. */
    private Set<Integer> items() {
        Set<Integer> sks = new TreeSet<>();
        for (Map<String, AttributeValue> i : client().scan(b -> b.tableName(table).consistentRead(true)).items()) {
            sks.add(Integer.parseInt(i.get("sk").n()));
        }
        return sks;
    }

    /** Lets the expirer run a whole round on the clock as it is now. */
    private static void awaitExpirer() {
        try {
            assertTrue(server.engine().timeToLive().expirer().awaitRound(10_000), "the expirer ran");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private void awaitItems(Set<Integer> expected) {
        Eventually.until("items " + expected, this::items, expected::equals);
    }

    @Test
    void expiredItemsLeaveTheTableItsIndexesAndItsCounters() {
        enable();
        for (int i = 0; i < 12; i++) put(i, seconds(i < 8 ? NOW + 60 : NOW + 86_400));
        IndexContents.awaitIndexesMatch(client(), table, Duration.ofSeconds(10));
        IndexContents.assertCounts(client(), table);
        awaitExpirer();
        assertEquals(12, items().size(), "nothing has expired yet");

        CLOCK.advance(Duration.ofSeconds(61));
        awaitItems(Set.of(8, 9, 10, 11));
        IndexContents.awaitIndexesMatch(client(), table, Duration.ofSeconds(10));
        IndexContents.assertCounts(client(), table);
        assertEquals(4, client().query(b -> b.tableName(table).indexName("by-g").keyConditionExpression("g = :g")
                .expressionAttributeValues(Map.of(":g", s("g0")))).count()
                + client().query(b -> b.tableName(table).indexName("by-g").keyConditionExpression("g = :g")
                .expressionAttributeValues(Map.of(":g", s("g1")))).count());
    }

    @Test
    void itemsWithoutAValidTtlAreKept() {
        enable();
        Map<Integer, AttributeValue> kept = new LinkedHashMap<>();
        kept.put(0, null);                                                    // no attribute
        kept.put(1, s(Long.toString(NOW - 60)));                              // a String
        kept.put(2, l(seconds(NOW - 60)));                                    // a List
        kept.put(3, ns(Long.toString(NOW - 60)));                             // a Number Set
        kept.put(4, m("at", seconds(NOW - 60)));                              // a Map
        kept.put(5, seconds(NOW - FIVE_YEARS - 86_400));                      // more than five years ago
        kept.put(6, n("-1"));                                                 // before 1970
        kept.put(7, n("1e30"));                                               // later than the year 9999
        kept.forEach(this::put);
        put(8, seconds(NOW - 60));                                            // expired a minute ago
        put(9, seconds(NOW - FIVE_YEARS + 86_400));                           // a day short of five years
        put(10, n("1780271999.5"));                                           // half a second ago

        awaitItems(Set.of(0, 1, 2, 3, 4, 5, 6, 7));
        CLOCK.advance(Duration.ofDays(30));
        awaitExpirer();
        assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 7), items());
        IndexContents.awaitIndexesMatch(client(), table, Duration.ofSeconds(10));
        IndexContents.assertCounts(client(), table);
    }

    @Test
    void itemsAlreadyThereWhenEnabledExpireToo() {
        for (int i = 0; i < 6; i++) put(i, seconds(i < 3 ? NOW - 60 : NOW + 60));
        put(6, s("not a number"));
        enable();
        awaitItems(Set.of(3, 4, 5, 6));
        CLOCK.advance(Duration.ofSeconds(61));
        awaitItems(Set.of(6));
        IndexContents.awaitIndexesMatch(client(), table, Duration.ofSeconds(10));
        IndexContents.assertCounts(client(), table);
    }

    @Test
    void anItemWhoseTtlMovedLaterIsKeptUntilThen() {
        enable();
        put(0, seconds(NOW + 60));
        put(1, seconds(NOW + 60));
        put(2, seconds(NOW + 60));
        client().updateItem(b -> b.tableName(table).key(key(0)).updateExpression("SET exp = :later")
                .expressionAttributeValues(Map.of(":later", seconds(NOW + 3600))));
        client().updateItem(b -> b.tableName(table).key(key(1)).updateExpression("REMOVE exp"));
        client().updateItem(b -> b.tableName(table).key(key(2)).updateExpression("SET exp = :s")
                .expressionAttributeValues(Map.of(":s", s("never"))));
        CLOCK.advance(Duration.ofSeconds(61));
        awaitExpirer();
        assertEquals(Set.of(0, 1, 2), items());
        CLOCK.advance(Duration.ofHours(1));
        awaitItems(Set.of(1, 2));
    }

    @Test
    void anItemWhoseTtlMovedEarlierExpiresThen() {
        enable();
        put(0, seconds(NOW + 3600));
        client().updateItem(b -> b.tableName(table).key(key(0)).updateExpression("SET exp = :sooner")
                .expressionAttributeValues(Map.of(":sooner", seconds(NOW + 10))));
        CLOCK.advance(Duration.ofSeconds(11));
        awaitItems(Set.of());
    }

    @Test
    void anExpiredItemIsDeletedOnlyOnceItsSecondHasPassed() {
        enable();
        put(0, seconds(NOW + 10));
        CLOCK.advance(Duration.ofSeconds(10));
        awaitExpirer();
        assertEquals(Set.of(0), items(), "not before its time");
        CLOCK.advance(Duration.ofMillis(1));
        awaitItems(Set.of());
    }

    @Test
    void disablingStopsTheDeletions() {
        enable();
        CLOCK.advance(Duration.ofHours(1));
        long now = NOW + 3600;
        for (int i = 0; i < 4; i++) put(i, seconds(now + 60));
        client().updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(s -> s.enabled(false).attributeName("exp")));
        Eventually.until("DISABLED", () -> client().describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription()
                .timeToLiveStatus(), TimeToLiveStatus.DISABLED::equals);
        CLOCK.advance(Duration.ofSeconds(61));
        awaitExpirer();
        put(4, seconds(now - 60));
        awaitExpirer();
        assertEquals(Set.of(0, 1, 2, 3, 4), items());
    }

    @Test
    void theExpiriesSurviveARestart() {
        enable();
        for (int i = 0; i < 5; i++) put(i, seconds(NOW + 60));
        server.restart();
        CLOCK.advance(Duration.ofSeconds(61));
        awaitItems(Set.of());
        IndexContents.awaitIndexesMatch(client(), table, Duration.ofSeconds(10));
        IndexContents.assertCounts(client(), table);
    }

    @Test
    void deletingTheTableDropsItsExpiries() {
        enable();
        for (int i = 0; i < 5; i++) put(i, seconds(NOW + 60));
        client().deleteTable(b -> b.tableName(table));
        // A new table of the same name starts without Time to Live.
        create(table);
        put(0, seconds(NOW + 60));
        CLOCK.advance(Duration.ofSeconds(61));
        awaitExpirer();
        assertEquals(Set.of(0), items());
        assertEquals(TimeToLiveStatus.DISABLED, client().describeTimeToLive(b -> b.tableName(table))
                .timeToLiveDescription().timeToLiveStatus());
    }

    @Test
    void aTransactionsItemsExpireLikeAnyOther() {
        enable();
        client().transactWriteItems(b -> b.transactItems(List.of(
                software.amazon.awssdk.services.dynamodb.model.TransactWriteItem.builder().put(p -> p.tableName(table)
                        .item(with(key(0), "exp", seconds(NOW + 5)))).build(),
                software.amazon.awssdk.services.dynamodb.model.TransactWriteItem.builder().put(p -> p.tableName(table)
                        .item(with(key(1), "exp", seconds(NOW + 500)))).build())));
        client().batchWriteItem(b -> b.requestItems(Map.of(table, List.of(
                software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
                        .putRequest(p -> p.item(with(key(2), "exp", seconds(NOW + 5)))).build()))));
        CLOCK.advance(Duration.ofSeconds(6));
        awaitItems(Set.of(1));
    }
}
