package io.stator.server.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** Three regions as three processes: started with each other's endpoints, paused, resumed, killed, restarted. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionsTest {

    private static final List<String> NAMES = List.of("us-east-1", "us-west-2", "eu-west-1");
    /** What each region's options were computed from. */
    private static final Map<String, Map<String, URI>> GIVEN = new ConcurrentHashMap<>();
    private static Regions regions;
    private static String table;

    /** An account id per region, passed as an option of its own, so the ARNs show the options arrived. */
    private static String accountOf(URI endpoint) {
        return String.format("%012d", endpoint.getPort());
    }

    @BeforeAll
    static void startThreeRegions() throws Exception {
        long started = System.nanoTime();
        regions = Regions.start(NAMES, (region, endpoints) -> {
            GIVEN.put(region, endpoints);
            return List.of("--account-id", accountOf(endpoints.get(region)));
        });
        System.out.printf("three regions started in %d ms%n", (System.nanoTime() - started) / 1_000_000);
        table = StatorTestServer.tableName();
        for (String region : NAMES) StatorTestServer.createTable(regions.client(region), table);
    }

    @AfterAll
    static void stopThem() throws Exception {
        if (regions != null) regions.close();
    }

    @Test
    @Order(1)
    void eachRegionWasGivenEveryEndpointBeforeItStarted() {
        assertEquals(NAMES, regions.regions());
        assertEquals(3, regions.endpoints().values().stream().map(URI::getPort).distinct().count());
        for (String region : NAMES) assertEquals(regions.endpoints(), GIVEN.get(region), region);
    }

    @Test
    @Order(2)
    void tablesAnswerWithTheirRegionInTheirArns() {
        for (String region : NAMES) {
            TableDescription t = regions.client(region).describeTable(b -> b.tableName(table)).table();
            assertEquals("arn:aws:dynamodb:" + region + ":" + accountOf(regions.endpoint(region)) + ":table/" + table,
                    t.tableArn());
        }
    }

    @Test
    @Order(3)
    void regionsWithoutReplicationAreNotOneRegister() {
        // How a test of global tables records and checks a history; these regions replicate nothing yet.
        History history = new History();
        RegisterClient east = new RegisterClient(history, 0, regions.client("us-east-1"), table);
        RegisterClient west = new RegisterClient(history, 1, regions.client("us-west-2"), table);
        assertEquals(Linearizability.OK, east.run(new Linearizability.Put("k", "written in us-east-1")));
        assertEquals(new Linearizability.Read(null), west.run(new Linearizability.Get("k")));
        Linearizability.Result result = history.check();
        assertEquals(Linearizability.Verdict.NOT_LINEARIZABLE, result.verdict(), result::toString);
        assertEquals("k", result.key());
    }

    @Test
    @Order(4)
    void pausedRegionTimesOutWhileTheOthersAnswerUntilResumed() throws Exception {
        regions.pause("us-west-2");
        try (DynamoDbClient impatient = regions.newClient("us-west-2", Duration.ofMillis(1500))) {
            long before = System.nanoTime();
            assertThrows(SdkClientException.class, () -> impatient.describeTable(b -> b.tableName(table)));
            long waited = (System.nanoTime() - before) / 1_000_000;
            assertTrue(waited >= 1400 && waited < 10_000, "waited " + waited + " ms");
            for (String other : List.of("us-east-1", "eu-west-1")) {
                assertEquals(table, regions.client(other).describeTable(b -> b.tableName(table)).table().tableName());
            }
        } finally {
            regions.resume("us-west-2");
        }
        try (DynamoDbClient impatient = regions.newClient("us-west-2", Duration.ofSeconds(10))) {
            assertEquals(table, impatient.describeTable(b -> b.tableName(table)).table().tableName());
        }
    }

    @Test
    @Order(5)
    void killedRegionRestartsOnItsPortWithItsData() throws Exception {
        Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("before the kill"),
                "v", AttributeValue.fromS("kept"));
        DynamoDbClient euWest = regions.client("eu-west-1");
        euWest.putItem(b -> b.tableName(table).item(item));
        long pid = regions.pid("eu-west-1");

        regions.kill("eu-west-1");
        assertFalse(regions.isRunning("eu-west-1"));
        assertThrows(SdkClientException.class, () -> euWest.describeTable(b -> b.tableName(table)));

        regions.restart("eu-west-1");
        assertTrue(regions.isRunning("eu-west-1"));
        assertNotEquals(pid, regions.pid("eu-west-1"));
        assertEquals(item, euWest.getItem(b -> b.tableName(table).consistentRead(true)
                .key(Map.of("id", item.get("id")))).item());
    }

    @Test
    @Order(6)
    void restartOfARunningPausedRegionStopsItFirst() throws Exception {
        regions.client("us-east-1").putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS("x"))));
        regions.pause("us-east-1");
        regions.restart("us-east-1");
        assertEquals("x", regions.client("us-east-1").getItem(b -> b.tableName(table).consistentRead(true)
                .key(Map.of("id", AttributeValue.fromS("x")))).item().get("id").s());
    }
}
