package io.stator.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.RawHttp;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The console stays responsive with 100 tables and 10,000 distinct hot keys: every page answers
 * in well under its two-second refresh (the bound asserted is generous, for a busy CI machine;
 * the times measured are printed), while the workload's keys are all in the observations.
 */
class ConsoleScaleTest {

    private static final TestClock CLOCK = new TestClock();
    private static final int TABLES = 100;
    private static final int KEYS = 10_000;
    /** Generous: a page is refreshed every two seconds; the figure printed is what it took. */
    private static final long MAX_MILLIS = 5_000;

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK));

    @BeforeAll
    static void aHundredTablesAndTenThousandHotKeys() {
        CLOCK.set(Instant.parse("2026-11-01T00:00:00Z"));
        DynamoDbClient dynamo = server.client();
        for (int t = 0; t < TABLES; t++) {
            String name = "Scale" + t;
            dynamo.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH")));
            dynamo.putItem(p -> p.tableName(name).item(Map.of("pk", AttributeValue.fromS("one"))));
        }
        // 10,000 distinct keys on one table within a second, and twice again over the next two.
        for (int round = 0; round < 3; round++) {
            List<WriteRequest> puts = new ArrayList<>();
            for (int k = 0; k < KEYS; k++) {
                puts.add(WriteRequest.builder().putRequest(PutRequest.builder().item(Map.of("pk",
                        AttributeValue.fromS("key" + k))).build()).build());
            }
            for (int i = 0; i < puts.size(); i += 25) {
                List<WriteRequest> batch = puts.subList(i, i + 25);
                dynamo.batchWriteItem(b -> b.requestItems(Map.of("Scale0", batch)));
            }
            CLOCK.advance(Duration.ofSeconds(1));
        }
    }

    @AfterAll
    static void followSystemTime() {
        CLOCK.useSystemTime();
    }

    @Test
    void everyPageAnswersQuicklyWithAHundredTablesAndTenThousandKeys() {
        Document overview = timed("/console/");
        assertEquals(TABLES, overview.select("#tables tbody tr").size());
        Document top = timed("/console/tables/Scale0/top-keys");
        assertEquals(10, top.select("#most-accessed-partition-keys tbody tr").size());
        Document heat = timed("/console/tables/Scale0/heat-map");
        assertTrue(heat.select("#heat-rows tr").size() >= 1);
        timed("/console/tables/Scale0/heat-map?bucket=10");
        timed("/console/tables/Scale0/heat-map?bucket=60");
        timed("/console/tables/Scale0");
        timed("/console/tables/Scale0/access-patterns");
        timed("/console/tables/Scale0/throttle-events");
        timed("/console/findings");
        timed("/console/cost");
        // Again, as the next refresh would be: the findings are cached for two seconds.
        timed("/console/");
    }

    private static Document timed(String target) {
        long start = System.nanoTime();
        RawHttp.Response r = RawHttp.exchange(server.port(), new RawHttp.Request("GET", target, Map.of(), new byte[0]));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.println("ConsoleScaleTest: " + target + " in " + millis + " ms, " + r.bodyText().length() + " characters");
        assertEquals(200, r.status(), target);
        assertTrue(millis < MAX_MILLIS, target + " took " + millis + " ms");
        return Jsoup.parse(r.bodyText());
    }
}
