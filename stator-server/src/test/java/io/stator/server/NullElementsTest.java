package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
 * A JSON null where an attribute value's element belongs (in L, SS, NS, BS, or as a member of M)
 * is refused with DynamoDB's ValidationException, and nothing is written; it was dropped before,
 * {"L": [null]} stored as []. The texts are DynamoDB Local's (AWS's own emulator:
 * InputConverter, LocalDBInputConverter, LocalDBUtils), the list's also DynamoDB's own answer to
 * an SDK that sent a null element (aws/aws-sdk-java#2103); see core's AttributeValues. A null
 * attribute of the item itself stays absent, as a null member of a request always is
 * (DuplicateMembersTest).
 */
class NullElementsTest {

    private static final String TABLE = StatorTestServer.tableName();
    private static final String VALIDATION = "com.amazon.coral.validate#ValidationException";
    private static final String NULL_ATTRIBUTE_VALUE = "The supplied Item contains a null AttributeValue";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static RawDynamoDb raw;

    @BeforeAll
    static void createTable() {
        StatorTestServer.createTable(server.client(), TABLE);
        raw = new RawDynamoDb(server.endpoint());
    }

    @Test
    void aNullListElementIsRefused() {
        assertRefused("{\"L\": [null]}", NULL_ATTRIBUTE_VALUE);
        assertRefused("{\"L\": [{\"S\": \"a\"}, null]}", NULL_ATTRIBUTE_VALUE);
        assertRefused("{\"M\": {\"x\": {\"L\": [{\"N\": \"1\"}, null]}}}", NULL_ATTRIBUTE_VALUE);
    }

    @Test
    void aNullMapMemberIsRefusedByName() {
        assertRefused("{\"M\": {\"a\": null}}", NULL_ATTRIBUTE_VALUE + ": a is null");
        assertRefused("{\"M\": {\"a\": {\"S\": \"x\"}, \"b\": null}}", NULL_ATTRIBUTE_VALUE + ": b is null");
        // A name given twice counts with its last value (DuplicateMembersTest): a null one too.
        assertRefused("{\"M\": {\"a\": {\"S\": \"x\"}, \"a\": null}}", NULL_ATTRIBUTE_VALUE + ": a is null");
        assertRefused("{\"L\": [{\"M\": {\"deep\": null}}]}", NULL_ATTRIBUTE_VALUE + ": deep is null");
    }

    @Test
    void aNullSetMemberIsRefused() {
        assertRefused("{\"SS\": [null]}",
                "One or more parameter values were invalid: An string set may not have a null string as a member");
        assertRefused("{\"SS\": [\"a\", null]}",
                "One or more parameter values were invalid: An string set may not have a null string as a member");
        assertRefused("{\"NS\": [\"1\", null]}", "The parameter cannot be converted to a numeric value");
        assertRefused("{\"BS\": [\"AA==\", null]}", NULL_ATTRIBUTE_VALUE);
    }

    @Test
    void theFirstProblemInOrderIsReported() {
        assertRefused("{\"L\": [{\"N\": \"x\"}, null]}", "The parameter cannot be converted to a numeric value: x");
        assertRefused("{\"L\": [null, {\"N\": \"x\"}]}", NULL_ATTRIBUTE_VALUE);
    }

    @Test
    void aNullInAnExpressionValueIsRefusedToo() {
        Reply reply = raw.call("PutItem", "{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \"eav\"}}, "
                + "\"ConditionExpression\": \"attribute_not_exists(id) OR v = :v\", "
                + "\"ExpressionAttributeValues\": {\":v\": {\"L\": [null]}}}");

        assertEquals(400, reply.status(), reply::toString);
        assertEquals(VALIDATION, reply.type(), reply::toString);
        assertEquals("ExpressionAttributeValues contains invalid value: " + NULL_ATTRIBUTE_VALUE + " for key :v",
                reply.message());
        assertFalse(stored("eav"));
    }

    @Test
    void nullsOutsideAttributeValuesAreStillAbsent() {
        Reply reply = raw.call("PutItem", "{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \"kept\"}, "
                + "\"gone\": null, \"l\": {\"L\": []}}, \"ReturnValues\": null}");

        assertEquals(200, reply.status(), reply::toString);
        Map<String, AttributeValue> item = server.client().getItem(b -> b.tableName(TABLE)
                .key(Map.of("id", AttributeValue.fromS("kept")))).item();
        assertEquals(Map.of("id", AttributeValue.fromS("kept"), "l", AttributeValue.fromL(java.util.List.of())), item);
    }

    /** PutItem of an item whose attribute {@code v} is {@code value} is refused with {@code message}, writing nothing. */
    private static void assertRefused(String value, String message) {
        String id = "refused-" + Integer.toHexString(value.hashCode());
        Reply reply = raw.call("PutItem", "{\"TableName\": \"" + TABLE + "\", \"Item\": {\"id\": {\"S\": \"" + id
                + "\"}, \"v\": " + value + "}}");

        assertEquals(400, reply.status(), reply::toString);
        assertEquals(VALIDATION, reply.type(), reply::toString);
        assertEquals(message, reply.message(), value);
        assertFalse(stored(id), value);
    }

    private static boolean stored(String id) {
        return server.client().getItem(b -> b.tableName(TABLE).key(Map.of("id", AttributeValue.fromS(id)))
                .consistentRead(true)).hasItem();
    }
}
