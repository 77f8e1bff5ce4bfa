package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.capacity.ThroughputSettings;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsAction;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsMode;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsStatus;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsSummary;
import software.amazon.awssdk.services.dynamodb.model.DescribeContributorInsightsResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ListContributorInsightsResponse;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.UpdateContributorInsightsResponse;

/**
 * Contributor Insights through the SDK against a real server whose clock the test moves: the
 * three actions in both modes, their errors (ack-api-quirks' live probes, see the engine's
 * ContributorInsights), and the graphs' data from the read API: a skewed workload's top keys with
 * their per-minute maximum of 3 x write units + read units, ThrottleCount on a throttled
 * provisioned table.
 */
class ContributorInsightsTest {

    private static final TestClock CLOCK = new TestClock();
    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");
    private static final AtomicInteger UNIQUE = new AtomicInteger();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK).withThroughput(ThroughputSettings.DEFAULTS));

    private DynamoDbClient dynamo;

    @BeforeEach
    void stopTheClock() {
        CLOCK.set(START.plus(Duration.ofHours(UNIQUE.incrementAndGet())));
        dynamo = server.client();
    }

    @AfterAll
    static void followSystemTime() {
        CLOCK.useSystemTime();
    }

    /** A table keyed by pk (S) and sk (S), with a global index gsi on gpk and a local index lsi on lsk. */
    private String table() {
        String name = "ci-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("sk").attributeType("S"), a -> a.attributeName("gpk").attributeType("S"),
                        a -> a.attributeName("lsk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE"))
                .globalSecondaryIndexes(g -> g.indexName("gsi").keySchema(k -> k.attributeName("gpk").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .localSecondaryIndexes(l -> l.indexName("lsi").keySchema(k -> k.attributeName("pk").keyType("HASH"),
                        k -> k.attributeName("lsk").keyType("RANGE")).projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
        return name;
    }

    private UpdateContributorInsightsResponse update(String table, String index, ContributorInsightsAction action,
                                                     ContributorInsightsMode mode) {
        return dynamo.updateContributorInsights(b -> b.tableName(table).indexName(index).contributorInsightsAction(action)
                .contributorInsightsMode(mode));
    }

    @Test
    void enablingDescribingListingAndDisablingInBothModes() {
        String t = table();
        DescribeContributorInsightsResponse never = dynamo.describeContributorInsights(b -> b.tableName(t));
        assertEquals(t, never.tableName());
        assertEquals(ContributorInsightsStatus.DISABLED, never.contributorInsightsStatus());
        assertNull(never.contributorInsightsMode());
        assertNull(never.lastUpdateDateTime());
        assertFalse(never.hasContributorInsightsRuleList());
        assertEquals(List.of(), dynamo.listContributorInsights(b -> b.tableName(t)).contributorInsightsSummaries());

        Instant enabledAt = CLOCK.instant();
        UpdateContributorInsightsResponse enabling = update(t, null, ContributorInsightsAction.ENABLE, null);
        assertEquals(ContributorInsightsStatus.ENABLING, enabling.contributorInsightsStatus());
        assertEquals(ContributorInsightsMode.ACCESSED_AND_THROTTLED_KEYS, enabling.contributorInsightsMode());
        assertEquals(ContributorInsightsStatus.ENABLING,
                dynamo.describeContributorInsights(b -> b.tableName(t)).contributorInsightsStatus());
        CLOCK.advance(Duration.ofSeconds(1));
        DescribeContributorInsightsResponse enabled = dynamo.describeContributorInsights(b -> b.tableName(t));
        assertEquals(ContributorInsightsStatus.ENABLED, enabled.contributorInsightsStatus());
        assertEquals(enabledAt.plusSeconds(1), enabled.lastUpdateDateTime());
        long stamp = enabledAt.toEpochMilli();
        assertEquals(List.of("DynamoDBContributorInsights-PKC-" + t + "-" + stamp, "DynamoDBContributorInsights-SKC-" + t
                + "-" + stamp, "DynamoDBContributorInsights-PKT-" + t + "-" + stamp, "DynamoDBContributorInsights-SKT-" + t
                + "-" + stamp), enabled.contributorInsightsRuleList());
        // ENABLE again in the same mode: nothing changes.
        assertEquals(ContributorInsightsStatus.ENABLED, update(t, null, ContributorInsightsAction.ENABLE, null)
                .contributorInsightsStatus());

        // THROTTLED_KEYS: ENABLING again, then the throttled keys' rules only, with the same stamp.
        assertEquals(ContributorInsightsStatus.ENABLING, update(t, null, ContributorInsightsAction.ENABLE,
                ContributorInsightsMode.THROTTLED_KEYS).contributorInsightsStatus());
        CLOCK.advance(Duration.ofSeconds(1));
        DescribeContributorInsightsResponse throttledOnly = dynamo.describeContributorInsights(b -> b.tableName(t));
        assertEquals(ContributorInsightsMode.THROTTLED_KEYS, throttledOnly.contributorInsightsMode());
        assertEquals(List.of("DynamoDBContributorInsights-PKT-" + t + "-" + stamp, "DynamoDBContributorInsights-SKT-" + t
                + "-" + stamp), throttledOnly.contributorInsightsRuleList());

        // The index on its own, listed after its table.
        assertEquals(ContributorInsightsStatus.ENABLING, update(t, "gsi", ContributorInsightsAction.ENABLE, null)
                .contributorInsightsStatus());
        CLOCK.advance(Duration.ofSeconds(1));
        DescribeContributorInsightsResponse index = dynamo.describeContributorInsights(b -> b.tableName(t).indexName("gsi"));
        assertEquals("gsi", index.indexName());
        assertEquals(List.of("DynamoDBContributorInsights-PKC-" + t + "-gsi-" + CLOCK.instant().minusSeconds(1).toEpochMilli(),
                "DynamoDBContributorInsights-PKT-" + t + "-gsi-" + CLOCK.instant().minusSeconds(1).toEpochMilli()),
                index.contributorInsightsRuleList(), "no sort key: no SK rules");
        ListContributorInsightsResponse listed = dynamo.listContributorInsights(b -> b.tableName(t));
        assertEquals(List.of(ContributorInsightsSummary.builder().tableName(t)
                        .contributorInsightsStatus(ContributorInsightsStatus.ENABLED)
                        .contributorInsightsMode(ContributorInsightsMode.THROTTLED_KEYS).build(),
                ContributorInsightsSummary.builder().tableName(t).indexName("gsi")
                        .contributorInsightsStatus(ContributorInsightsStatus.ENABLED)
                        .contributorInsightsMode(ContributorInsightsMode.ACCESSED_AND_THROTTLED_KEYS).build()),
                listed.contributorInsightsSummaries());
        assertNull(listed.nextToken());
        ListContributorInsightsResponse page = dynamo.listContributorInsights(b -> b.tableName(t).maxResults(1));
        assertEquals(1, page.contributorInsightsSummaries().size());
        assertEquals("gsi", dynamo.listContributorInsights(b -> b.tableName(t).maxResults(1).nextToken(page.nextToken()))
                .contributorInsightsSummaries().get(0).indexName());

        // DISABLE answers the mode in force, whatever mode it names; DISABLING, then DISABLED and unlisted.
        UpdateContributorInsightsResponse disabling = update(t, null, ContributorInsightsAction.DISABLE,
                ContributorInsightsMode.ACCESSED_AND_THROTTLED_KEYS);
        assertEquals(ContributorInsightsStatus.DISABLING, disabling.contributorInsightsStatus());
        assertEquals(ContributorInsightsMode.THROTTLED_KEYS, disabling.contributorInsightsMode());
        assertEquals(2, dynamo.listContributorInsights(b -> b.tableName(t)).contributorInsightsSummaries().size(),
                "DISABLING is listed");
        CLOCK.advance(Duration.ofSeconds(2));
        DescribeContributorInsightsResponse disabled = dynamo.describeContributorInsights(b -> b.tableName(t));
        assertEquals(ContributorInsightsStatus.DISABLED, disabled.contributorInsightsStatus());
        assertEquals(ContributorInsightsMode.THROTTLED_KEYS, disabled.contributorInsightsMode());
        assertFalse(disabled.hasContributorInsightsRuleList());
        assertEquals(List.of("gsi"), dynamo.listContributorInsights(b -> b.tableName(t)).contributorInsightsSummaries()
                .stream().map(ContributorInsightsSummary::indexName).toList());
        assertEquals(ContributorInsightsStatus.DISABLED, update(t, null, ContributorInsightsAction.DISABLE, null)
                .contributorInsightsStatus());
        // By ARN, as TableName allows.
        assertEquals(t, dynamo.describeContributorInsights(b -> b.tableName(
                "arn:aws:dynamodb:us-east-1:000000000000:table/" + t)).tableName());
    }

    @Test
    void unknownTablesIndexesAndValuesAreRefusedAsDynamoDbRefusesThem() {
        String t = table();
        ResourceNotFoundException table = assertThrows(ResourceNotFoundException.class,
                () -> dynamo.describeContributorInsights(b -> b.tableName("no-such-table")));
        assertEquals("Requested resource not found: Table: no-such-table not found", table.awsErrorDetails().errorMessage());
        assertThrows(ResourceNotFoundException.class,
                () -> update("no-such-table", null, ContributorInsightsAction.ENABLE, null));
        assertThrows(ResourceNotFoundException.class,
                () -> dynamo.listContributorInsights(b -> b.tableName("no-such-table")));
        for (String index : List.of("nope", "lsi")) {
            ResourceNotFoundException e = assertThrows(ResourceNotFoundException.class,
                    () -> update(t, index, ContributorInsightsAction.ENABLE, null));
            assertEquals("Requested resource not found: Index: " + index + " not found for table: " + t,
                    e.awsErrorDetails().errorMessage());
            assertThrows(ResourceNotFoundException.class,
                    () -> dynamo.describeContributorInsights(b -> b.tableName(t).indexName(index)));
        }
        DynamoDbException action = assertThrows(DynamoDbException.class, () -> dynamo.updateContributorInsights(
                b -> b.tableName(t).contributorInsightsAction("START")));
        assertEquals("ValidationException", action.awsErrorDetails().errorCode());
        assertEquals("1 validation error detected: Value 'START' at 'contributorInsightsAction' failed to satisfy "
                + "constraint: Member must satisfy enum value set: [ENABLE, DISABLE]", action.awsErrorDetails().errorMessage());
        DynamoDbException mode = assertThrows(DynamoDbException.class, () -> dynamo.updateContributorInsights(
                b -> b.tableName(t).contributorInsightsAction(ContributorInsightsAction.ENABLE).contributorInsightsMode("ALL")));
        assertEquals("ValidationException", mode.awsErrorDetails().errorCode());
        assertTrue(mode.awsErrorDetails().errorMessage().contains("'contributorInsightsMode'"), mode.getMessage());
        DynamoDbException max = assertThrows(DynamoDbException.class,
                () -> dynamo.listContributorInsights(b -> b.maxResults(101)));
        assertEquals("ValidationException", max.awsErrorDetails().errorCode());
        assertTrue(dynamo.listContributorInsights(b -> b.maxResults(100)).contributorInsightsSummaries().size() <= 100,
                "100, the edge, is taken");
        DynamoDbException token = assertThrows(DynamoDbException.class,
                () -> dynamo.listContributorInsights(b -> b.nextToken("not-a-token")));
        assertEquals("ValidationException", token.awsErrorDetails().errorCode());
    }

    // ---- the graphs' data, from the read API -----------------------------------------------------

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static JsonNode get(String target) {
        RawHttp.Response r = RawHttp.exchange(server.port(), new RawHttp.Request("GET", target, Map.of(), new byte[0]));
        assertEquals(200, r.status(), r.toString());
        return JsonNode.parser().parse(r.bodyText());
    }

    private static double number(JsonNode node, String field) {
        return Double.parseDouble(node.field(field).orElseThrow().asNumber());
    }

    @Test
    void aSkewedWorkloadsTopKeysComeInOrderWithTheirPerMinuteMaximum() {
        String t = table();
        // Minute 1: hot written 5 times (1 WCU each) and read 4 times eventually (0.5 RCU): 3 x 5 + 2 = 17;
        // warm written twice: 6; cold read strongly 3 times, absent (1 RCU each): 3.
        for (int i = 0; i < 5; i++) dynamo.putItem(b -> b.tableName(t).item(Map.of("pk", s("hot"), "sk", s("1"))));
        for (int i = 0; i < 4; i++) dynamo.getItem(b -> b.tableName(t).key(Map.of("pk", s("hot"), "sk", s("1"))));
        for (int i = 0; i < 2; i++) dynamo.putItem(b -> b.tableName(t).item(Map.of("pk", s("warm"), "sk", s("1"))));
        for (int i = 0; i < 3; i++) {
            dynamo.getItem(b -> b.tableName(t).key(Map.of("pk", s("cold"), "sk", s("1"))).consistentRead(true));
        }
        // PartiQL is left out of Contributor Insights.
        dynamo.executeStatement(b -> b.statement("SELECT * FROM \"" + t + "\" WHERE pk = 'cold' AND sk = '1'"));
        // Minute 2: warm written 4 times (12), hot once (3).
        CLOCK.advance(Duration.ofSeconds(60));
        for (int i = 0; i < 4; i++) dynamo.putItem(b -> b.tableName(t).item(Map.of("pk", s("warm"), "sk", s("1"))));
        dynamo.putItem(b -> b.tableName(t).item(Map.of("pk", s("hot"), "sk", s("1"))));
        update(t, null, ContributorInsightsAction.ENABLE, null);

        JsonNode top = get("/stator/advisor/top-keys?table=" + t);
        assertEquals(t, top.field("tableName").orElseThrow().asString());
        assertEquals("ENABLING", top.field("contributorInsights").orElseThrow().field("status").orElseThrow().asString());
        List<JsonNode> keys = top.field("mostAccessedPartitionKeys").orElseThrow().asArray();
        assertEquals(List.of("hot", "warm", "cold"), keys.stream().map(k -> k.field("key").orElseThrow().field("pk")
                .orElseThrow().field("S").orElseThrow().asString()).toList());
        assertEquals(17, number(keys.get(0), "maximum"));
        assertEquals(20, number(keys.get(0), "sum"));
        assertEquals(12, number(keys.get(1), "maximum"));
        assertEquals(18, number(keys.get(1), "sum"));
        assertEquals(3, number(keys.get(2), "maximum"));
        List<JsonNode> points = keys.get(0).field("datapoints").orElseThrow().asArray();
        assertEquals(START.plus(Duration.ofHours(UNIQUE.get() - 1)).toString(), points.get(0).field("minute").orElseThrow()
                .asString());
        assertEquals(17, number(points.get(0), "value"));
        List<JsonNode> items = top.field("mostAccessedItems").orElseThrow().asArray();
        assertEquals("1", items.get(0).field("key").orElseThrow().field("sk").orElseThrow().field("S").orElseThrow()
                .asString());
        assertEquals(List.of(), top.field("mostThrottledPartitionKeys").orElseThrow().asArray());
        assertEquals(2, get("/stator/advisor/top-keys?table=" + t + "&limit=2").field("mostAccessedPartitionKeys")
                .orElseThrow().asArray().size());
    }

    @Test
    void throttleCountOnAThrottledProvisionedTable() {
        String t = "ci-provisioned-" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> b.tableName(t).billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L))
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH")));
        // 1 WCU holds 300 seconds of burst: the clock standing still, the 301st write is throttled.
        int throttled = 0;
        for (int i = 0; i < 310; i++) {
            try {
                dynamo.putItem(b -> b.tableName(t).item(Map.of("pk", s("hot"))));
            } catch (ProvisionedThroughputExceededException e) {
                throttled++;
            }
        }
        assertTrue(throttled >= 9, "throttled: " + throttled);
        JsonNode top = get("/stator/advisor/top-keys?table=" + t);
        JsonNode hot = top.field("mostThrottledPartitionKeys").orElseThrow().asArray().get(0);
        assertEquals("hot", hot.field("key").orElseThrow().field("pk").orElseThrow().field("S").orElseThrow().asString());
        assertEquals(throttled, number(hot, "maximum"));
        JsonNode accessed = top.field("mostAccessedPartitionKeys").orElseThrow().asArray().get(0);
        assertEquals(3.0 * (310 - throttled), number(accessed, "maximum"));
        assertTrue(top.field("mostThrottledItems").isEmpty(), "no sort key: no items' graphs");
    }
}
