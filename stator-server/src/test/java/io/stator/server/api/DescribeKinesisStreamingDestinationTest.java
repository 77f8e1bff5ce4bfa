package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.PrometheusText;
import io.stator.server.testing.RawDynamoDb;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeKinesisStreamingDestinationResponse;

/**
 * DescribeKinesisStreamingDestination: a table, named by its name or its ARN, that was never
 * streamed ({"TableName": ..., "KinesisDataStreamDestinations": []}; its destinations once enabled:
 * KinesisStreamingDestinationTest); a missing table
 * is ResourceNotFoundException; TableName is checked as DescribeTable checks it (a name of 3 to
 * 255 characters, an ARN of at most 1024: the model's TableArn, 1 to 1024, as DynamoDB applies it).
 */
class DescribeKinesisStreamingDestinationTest {

    private static final String ARN_PREFIX = "arn:aws:dynamodb:us-east-1:000000000000:table/";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static DynamoDbClient client() {
        return server.client();
    }

    private static DescribeKinesisStreamingDestinationResponse describe(String table) {
        return client().describeKinesisStreamingDestination(b -> b.tableName(table));
    }

    /** The table's name and no destinations: an empty list on the wire, not an absent one. */
    private static void assertNone(String table, DescribeKinesisStreamingDestinationResponse response) {
        assertEquals(table, response.tableName());
        assertTrue(response.hasKinesisDataStreamDestinations(), response.toString());
        assertEquals(List.of(), response.kinesisDataStreamDestinations());
    }

    @Test
    void aTableHasNoDestinations() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        assertNone(table, describe(table));
        RawDynamoDb.Reply raw = new RawDynamoDb(server.endpoint()).call("DescribeKinesisStreamingDestination",
                "{\"TableName\": \"" + table + "\"}");
        assertEquals(200, raw.status(), raw.body());
        assertEquals("{\"TableName\":\"" + table + "\",\"KinesisDataStreamDestinations\":[]}", raw.body());
    }

    @Test
    void aTableIsNamedByItsArnAndAnsweredByItsName() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        String arn = client().describeTable(b -> b.tableName(table)).table().tableArn();
        assertNone(table, describe(arn));
    }

    @Test
    void itsMetricsAreLabelledWithTheTableNamedByNameOrArn() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
        describe(table);
        describe(client().describeTable(b -> b.tableName(table)).table().tableArn());
        RawHttp.Response reply = RawHttp.exchange(server.port(), new RawHttp.Request("GET", "/metrics", Map.of(), new byte[0]));
        assertEquals(200, reply.status(), reply.toString());
        assertEquals(2, PrometheusText.parse(reply.bodyText()).sum("dynamodb_successful_request_latency_seconds_count",
                "operation", "DescribeKinesisStreamingDestination", "table", table));
    }

    @Test
    void aMissingTableIsNotFound() {
        assertError("ResourceNotFoundException", "Requested resource not found: Table: no-such-table not found",
                () -> describe("no-such-table"));
        String arn = ARN_PREFIX + "no-such-table";
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + arn + " not found",
                () -> describe(arn));
    }

    @Test
    void namesOfThreeAnd255CharactersAreLookedUp() {
        for (String table : List.of("kd3", "k".repeat(255))) {
            assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                    () -> describe(table));
            StatorTestServer.createTable(client(), table);
            assertNone(table, describe(table));
        }
    }

    @Test
    void namesOfTwoAnd256CharactersAreRefused() {
        assertValidation("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 3", () -> describe("ab"));
        String tooLong = "t".repeat(256);
        assertValidation("1 validation error detected: Value '" + tooLong + "' at 'tableName' failed to satisfy "
                + "constraint: Member must have length less than or equal to 255", () -> describe(tooLong));
    }

    @Test
    void anArnOf1024CharactersIsLookedUpAndOneOf1025Refused() {
        String arn = (ARN_PREFIX + "n".repeat(1024)).substring(0, 1024);
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + arn + " not found",
                () -> describe(arn));
        String tooLong = arn + "n";
        assertValidation("1 validation error detected: Value '" + tooLong + "' at 'tableName' failed to satisfy "
                + "constraint: Member must have length less than or equal to 1024", () -> describe(tooLong));
    }

    @Test
    void aMissingEmptyOrBadTableNameIsRefusedAsDescribeTableRefusesIt() {
        RawDynamoDb raw = new RawDynamoDb(server.endpoint());
        for (String body : new String[] {"{}", "{\"TableName\": \"\"}", "{\"TableName\": \"a;b\"}"}) {
            RawDynamoDb.Reply expected = raw.call("DescribeTable", body);
            RawDynamoDb.Reply reply = raw.call("DescribeKinesisStreamingDestination", body);
            assertEquals(400, reply.status(), body);
            assertEquals(expected.type(), reply.type(), body);
            assertEquals(expected.message(), reply.message(), body);
        }
    }
}
