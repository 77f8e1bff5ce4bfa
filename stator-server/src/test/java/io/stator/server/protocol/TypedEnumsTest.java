package io.stator.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.server.protocol.request.PutItemInput;
import io.stator.server.protocol.request.QueryInput;
import io.stator.server.protocol.request.ReturnValue;
import io.stator.server.protocol.request.Select;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Members typed by a generated Java enum: a value of the set is read into its constant; one
 * outside it leaves the member null and is still reported with DynamoDB's text, in its place
 * among the request's other violations (the texts BadRequestsTest holds the endpoint to).
 */
class TypedEnumsTest {

    private static final Shape.StructureShape PUT_ITEM = ServiceModel.get().operation("PutItem").input();

    @Test
    void aValueOfTheSetIsReadIntoItsConstant() {
        PutItemInput put = (PutItemInput) read(PUT_ITEM,
                "{\"TableName\": \"abc\", \"Item\": {}, \"ReturnValues\": \"ALL_OLD\"}");
        assertEquals(ReturnValue.ALL_OLD, put.returnValues());
        assertEquals("ALL_OLD", put.returnValues().wireName());
        QueryInput query = (QueryInput) read(ServiceModel.get().operation("Query").input(),
                "{\"TableName\": \"abc\", \"Select\": \"ALL_PROJECTED_ATTRIBUTES\"}");
        assertEquals(Select.ALL_PROJECTED_ATTRIBUTES, query.select());
    }

    @Test
    void aValueOutsideTheSetIsReportedInItsPlaceAmongTheOthers() {
        RequestReader.Parsed parsed = RequestReader.parse(
                "{\"ReturnValues\": \"all_old\", \"Item\": {}}".getBytes(StandardCharsets.UTF_8), PUT_ITEM);
        assertNull(((PutItemInput) parsed.request()).returnValues());
        DynamoDbException refused = assertThrows(DynamoDbException.class, () -> Constraints.check(parsed, PUT_ITEM));
        assertEquals("2 validation errors detected: Value null at 'tableName' failed to satisfy constraint: "
                + "Member must not be null; Value 'all_old' at 'returnValues' failed to satisfy constraint: "
                + "Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]",
                refused.getMessage());
    }

    @Test
    void aMemberGivenTwiceIsTheLastOneSent() {
        PutItemInput put = (PutItemInput) read(PUT_ITEM,
                "{\"TableName\": \"abc\", \"Item\": {}, \"ReturnValues\": \"hi\", \"ReturnValues\": \"NONE\"}");
        assertEquals(ReturnValue.NONE, put.returnValues());
        PutItemInput absent = (PutItemInput) read(PUT_ITEM,
                "{\"TableName\": \"abc\", \"Item\": {}, \"ReturnValues\": \"hi\", \"ReturnValues\": null}");
        assertNull(absent.returnValues());
        RequestReader.Parsed last = RequestReader.parse(("{\"TableName\": \"abc\", \"Item\": {}, "
                + "\"ReturnValues\": \"NONE\", \"ReturnValues\": \"hi\"}").getBytes(StandardCharsets.UTF_8), PUT_ITEM);
        assertThrows(DynamoDbException.class, () -> Constraints.check(last, PUT_ITEM));
    }

    /** Reads and checks the body as the endpoint does. */
    private static Object read(Shape.StructureShape shape, String body) {
        RequestReader.Parsed parsed = RequestReader.parse(body.getBytes(StandardCharsets.UTF_8), shape);
        Constraints.check(parsed, shape);
        return parsed.request();
    }
}
