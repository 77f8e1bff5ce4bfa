package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.server.testing.RawDynamoDb;
import io.stator.server.testing.RawDynamoDb.Reply;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A name given twice in one JSON object: the last one counts, as if the earlier one were not
 * there, at every level (a request's members, a nested structure's, an item's attributes, a map's
 * keys, the type of an attribute value), and a last one that is JSON null makes the name absent,
 * as null always does (but a map value's null, inside an attribute value, is refused:
 * NullElementsTest).
 *
 * <p>What DynamoDB does with a repeated name is not recorded anywhere we found (no test of dynalite,
 * Alternator, the conformance suites or moto sends one). Last-wins is what RFC 8259 section 4
 * observes of most parsers, what dynalite (JSON.parse) and moto (Python's json) do, and what a
 * Java front end that binds members by setters does; refusing such a request could break a
 * client that DynamoDB serves. Before, Stator already let the last member of a structure and the
 * last key of a map win, but counted {"S": "a", "S": "b"} as two types, and let a key's null
 * leave its earlier value standing.
 */
class DuplicateMembersTest {

    private static final String TABLE = StatorTestServer.tableName();

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static RawDynamoDb raw;

    @BeforeAll
    static void createTable() {
        StatorTestServer.createTable(server.client(), TABLE);
        raw = new RawDynamoDb(server.endpoint());
    }

    @Test
    void aRequestMemberGivenTwiceIsTheLastOne() {
        put("{\"id\": {\"S\": \"top\"}}");
        String key = "\"Key\": {\"id\": {\"S\": \"top\"}}";

        assertOk(raw.call("GetItem", "{\"TableName\": \"missing-table\", \"TableName\": \"" + TABLE + "\", " + key + "}"));
        Reply reversed = raw.call("GetItem", "{\"TableName\": \"" + TABLE + "\", \"TableName\": \"missing-table\", "
                + key + "}");
        assertEquals("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", reversed.type(), reversed::toString);
    }

    @Test
    void aRequestMemberGivenTwiceWithNullLastIsAbsent() {
        Reply reply = raw.call("DescribeTable", "{\"TableName\": \"" + TABLE + "\", \"TableName\": null}");

        assertEquals("com.amazon.coral.validate#ValidationException", reply.type(), reply::toString);
        assertEquals("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: "
                + "Member must not be null", reply.message());
    }

    @Test
    void aNestedStructuresMemberGivenTwiceIsTheLastOne() {
        String table = StatorTestServer.tableName();
        String keys = "\"AttributeDefinitions\": [{\"AttributeName\": \"id\", \"AttributeType\": \"S\"}], "
                + "\"KeySchema\": [{\"AttributeName\": \"id\", \"KeyType\": \"RANGE\", \"KeyType\": \"HASH\"}]";

        assertOk(raw.call("CreateTable", "{\"TableName\": \"" + table + "\", " + keys
                + ", \"ProvisionedThroughput\": {\"ReadCapacityUnits\": 0, \"ReadCapacityUnits\": 3, "
                + "\"WriteCapacityUnits\": 4}}"));
        assertEquals(3L, server.client().describeTable(b -> b.tableName(table)).table().provisionedThroughput()
                .readCapacityUnits());

        Reply refused = raw.call("CreateTable", "{\"TableName\": \"" + StatorTestServer.tableName() + "\", " + keys
                + ", \"ProvisionedThroughput\": {\"ReadCapacityUnits\": 3, \"ReadCapacityUnits\": 0, "
                + "\"WriteCapacityUnits\": 4}}");
        assertEquals("com.amazon.coral.validate#ValidationException", refused.type(), refused::toString);
        assertEquals("1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' failed to "
                + "satisfy constraint: Member must have value greater than or equal to 1", refused.message());
    }

    @Test
    void anAttributeGivenTwiceIsTheLastOne() {
        put("{\"id\": {\"S\": \"attr\"}, \"v\": {\"S\": \"first\"}, \"v\": {\"S\": \"last\"}}");

        assertEquals("last", item("attr").get("v").s());
    }

    @Test
    void aKeyAttributeGivenTwiceIsTheLastOne() {
        put("{\"id\": {\"S\": \"key-first\"}, \"id\": {\"S\": \"key-last\"}, \"v\": {\"S\": \"x\"}}");

        assertEquals("x", item("key-last").get("v").s());
        assertFalse(server.client().getItem(b -> b.tableName(TABLE)
                .key(Map.of("id", AttributeValue.fromS("key-first")))).hasItem());
    }

    @Test
    void anAttributeGivenTwiceWithNullLastIsAbsent() {
        put("{\"id\": {\"S\": \"nulled\"}, \"v\": {\"S\": \"first\"}, \"v\": null, \"w\": {\"S\": \"w\"}}");

        Map<String, AttributeValue> item = item("nulled");
        assertNull(item.get("v"), item::toString);
        assertEquals("w", item.get("w").s());
    }

    @Test
    void aMapKeyGivenTwiceIsTheLastOne() {
        put("{\"id\": {\"S\": \"map\"}, \"m\": {\"M\": {\"k\": {\"S\": \"first\"}, \"k\": {\"N\": \"2\"}}}}");

        AttributeValue m = item("map").get("m");
        assertEquals(1, m.m().size(), m::toString);
        assertEquals("2", m.m().get("k").n());
    }

    @Test
    void anAttributeValueTypeGivenTwiceIsTheLastOne() {
        put("{\"id\": {\"S\": \"type\"}, \"v\": {\"S\": \"first\", \"S\": \"last\"}, "
                + "\"l\": {\"L\": [{\"N\": \"1\", \"N\": \"2\"}]}}");

        Map<String, AttributeValue> item = item("type");
        assertEquals("last", item.get("v").s());
        assertEquals("2", item.get("l").l().get(0).n());
    }

    @Test
    void anAttributeValueTypeGivenTwiceStillCountsOtherTypes() {
        Reply twoTypes = raw.call("PutItem", "{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \"types\"}, "
                + "\"v\": {\"S\": \"a\", \"N\": \"1\", \"S\": \"b\"}}}");

        assertEquals("com.amazon.coral.validate#ValidationException", twoTypes.type(), twoTypes::toString);
        assertEquals("Supplied AttributeValue has more than one datatypes set, "
                + "must contain exactly one of the supported datatypes", twoTypes.message());
    }

    @Test
    void anAttributeValueTypeGivenTwiceWithNullLastIsAbsent() {
        Reply empty = raw.call("PutItem", "{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \"e\"}, "
                + "\"v\": {\"S\": \"a\", \"S\": null}}}");

        assertEquals("com.amazon.coral.validate#ValidationException", empty.type(), empty::toString);
        assertEquals("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes",
                empty.message());
    }

    @Test
    void anInvalidValueGivenFirstIsReplacedByTheLastOne() {
        put("{\"id\": {\"S\": \"fixed\"}, \"v\": {\"N\": \"not a number\", \"N\": \"7\"}}");

        assertEquals("7", item("fixed").get("v").n());
    }

    @Test
    void anExpressionAttributeNameOrValueGivenTwiceIsTheLastOne() {
        put("{\"id\": {\"S\": \"expr\"}, \"v\": {\"S\": \"b\"}}");

        Reply reply = raw.call("PutItem", "{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \"expr\"}, "
                + "\"v\": {\"S\": \"c\"}}, \"ConditionExpression\": \"#n = :x\", "
                + "\"ExpressionAttributeNames\": {\"#n\": \"w\", \"#n\": \"v\"}, "
                + "\"ExpressionAttributeValues\": {\":x\": {\"S\": \"a\"}, \":x\": {\"S\": \"b\"}}}");

        assertOk(reply);
        assertEquals("c", item("expr").get("v").s());
    }

    private static void put(String item) {
        assertOk(raw.call("PutItem", "{\"TableName\": \"" + TABLE + "\", \"Item\": " + item + "}"));
    }

    private static Map<String, AttributeValue> item(String id) {
        return server.client().getItem(b -> b.tableName(TABLE).key(Map.of("id", AttributeValue.fromS(id))))
                .item();
    }

    private static void assertOk(Reply reply) {
        assertEquals(200, reply.status(), reply::toString);
    }
}
