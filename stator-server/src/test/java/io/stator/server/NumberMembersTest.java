package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.RawDynamoDb;
import io.stator.server.testing.RawDynamoDb.Reply;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Integer and long members (Limit, Segment, TotalSegments; ReadCapacityUnits) hold what was sent
 * or refuse it: a JSON number the member's type cannot hold exactly is never bent into one. Before,
 * a Limit of 2147483648 was narrowed to -2147483648, one of 1.5 to 1, and 1e999999 or a 40-digit
 * number to Long.MAX_VALUE and on to -1.
 *
 * <p>At each edge and one past it: the largest and smallest values of the type reach the model's
 * constraints (ValidationException, DynamoDB's generic constraint texts, recorded in
 * docs/dynamodb/dynamodb-errors.md section 3.1) or the action; one past them is a type error
 * (SerializationException). Its texts follow the pattern of DynamoDB's recorded type errors
 * ("NUMBER_VALUE cannot be converted to String", "DECIMAL_VALUE cannot be converted to Boolean",
 * section 2 there) for an Integer or Long target; what DynamoDB itself answers for a number its
 * member's type cannot hold is not recorded anywhere we found (dynalite floors decimals and does
 * not check ranges), so these two texts are Stator's choice.
 */
class NumberMembersTest {

    private static final String SERIALIZATION = "com.amazon.coral.service#SerializationException";
    private static final String VALIDATION = "com.amazon.coral.validate#ValidationException";
    private static final String TABLE = StatorTestServer.tableName();
    private static final String FORTY_DIGITS = "1234567890123456789012345678901234567890";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static RawDynamoDb raw;

    @BeforeAll
    static void createTable() {
        StatorTestServer.createTable(server.client(), TABLE);
        raw = new RawDynamoDb(server.endpoint());
    }

    /** What a request must get: 200, or an error type and its exact message. */
    record Expected(String type, String message) {
        static final Expected OK = new Expected(null, null);

        static Expected serialization(String message) { return new Expected(SERIALIZATION, message); }

        static Expected validation(String message) { return new Expected(VALIDATION, message); }
    }

    private static final Expected NOT_AN_INTEGER = Expected.serialization("DECIMAL_VALUE cannot be converted to Integer");
    private static final Expected OUTSIDE_INTEGER =
            Expected.serialization("NUMBER_VALUE cannot be converted to Integer");
    private static final Expected NOT_A_LONG = Expected.serialization("DECIMAL_VALUE cannot be converted to Long");
    private static final Expected OUTSIDE_LONG = Expected.serialization("NUMBER_VALUE cannot be converted to Long");

    static Stream<Arguments> integerMembers() {
        String scan = "{\"TableName\": \"" + TABLE + "\", ";
        String query = "{\"TableName\": \"" + TABLE + "\", \"KeyConditionExpression\": \"id = :v\", "
                + "\"ExpressionAttributeValues\": {\":v\": {\"S\": \"x\"}}, ";
        return Stream.of(
                Arguments.of("Scan", scan + "\"Limit\": 2147483647}", Expected.OK),
                Arguments.of("Scan", scan + "\"Limit\": 2147483648}", OUTSIDE_INTEGER),
                Arguments.of("Scan", scan + "\"Limit\": " + FORTY_DIGITS + "}", OUTSIDE_INTEGER),
                Arguments.of("Scan", scan + "\"Limit\": 1e999999}", NOT_AN_INTEGER),
                Arguments.of("Scan", scan + "\"Limit\": 1.5}", NOT_AN_INTEGER),
                Arguments.of("Scan", scan + "\"Limit\": 1.0}", NOT_AN_INTEGER),
                Arguments.of("Scan", scan + "\"Limit\": 1E2}", NOT_AN_INTEGER),
                Arguments.of("Scan", scan + "\"Limit\": 1}", Expected.OK),
                Arguments.of("Scan", scan + "\"Limit\": -2147483648}", Expected.validation("1 validation error detected: "
                        + "Value '-2147483648' at 'limit' failed to satisfy constraint: "
                        + "Member must have value greater than or equal to 1")),
                Arguments.of("Scan", scan + "\"Limit\": -2147483649}", OUTSIDE_INTEGER),
                Arguments.of("Query", query + "\"Limit\": 2147483647}", Expected.OK),
                Arguments.of("Query", query + "\"Limit\": 2147483648}", OUTSIDE_INTEGER),
                Arguments.of("Query", query + "\"Limit\": 2.5}", NOT_AN_INTEGER),
                Arguments.of("ListTables", "{\"Limit\": 100}", Expected.OK),
                Arguments.of("ListTables", "{\"Limit\": 2147483648}", OUTSIDE_INTEGER),
                Arguments.of("ListTables", "{\"Limit\": 99.5}", NOT_AN_INTEGER),
                Arguments.of("Scan", scan + "\"Segment\": 999999, \"TotalSegments\": 1000000}", Expected.OK),
                Arguments.of("Scan", scan + "\"Segment\": 0, \"TotalSegments\": 1000001}", Expected.validation(
                        "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: "
                                + "Member must have value less than or equal to 1000000")),
                Arguments.of("Scan", scan + "\"Segment\": 0, \"TotalSegments\": 2147483648}", OUTSIDE_INTEGER),
                Arguments.of("Scan", scan + "\"Segment\": 2147483648, \"TotalSegments\": 1}", OUTSIDE_INTEGER),
                Arguments.of("Scan", scan + "\"Segment\": 4294967296, \"TotalSegments\": 1}", OUTSIDE_INTEGER),
                Arguments.of("Scan", scan + "\"Segment\": 0.5, \"TotalSegments\": 1}", NOT_AN_INTEGER),
                Arguments.of("Scan", scan + "\"Segment\": 0, \"TotalSegments\": 1.9}", NOT_AN_INTEGER));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("integerMembers")
    void anIntegerMemberHoldsAnIntOrIsRefused(String action, String body, Expected expected) {
        assertAnswer(expected, raw.call(action, body));
    }

    static Stream<Arguments> longMembers() {
        return Stream.of(
                Arguments.of("9223372036854775807",
                        Expected.validation("Given value 9223372036854775807 for ReadCapacityUnits is out of bounds")),
                Arguments.of("9223372036854775808", OUTSIDE_LONG),
                Arguments.of(FORTY_DIGITS, OUTSIDE_LONG),
                Arguments.of("-9223372036854775808", Expected.validation("1 validation error detected: "
                        + "Value '-9223372036854775808' at 'provisionedThroughput.readCapacityUnits' failed to satisfy "
                        + "constraint: Member must have value greater than or equal to 1")),
                Arguments.of("-9223372036854775809", OUTSIDE_LONG),
                Arguments.of("1e999999", NOT_A_LONG),
                Arguments.of("1.5", NOT_A_LONG),
                Arguments.of("5.0", NOT_A_LONG));
    }

    @ParameterizedTest(name = "ReadCapacityUnits {0}")
    @MethodSource("longMembers")
    void aLongMemberHoldsALongOrIsRefused(String readCapacityUnits, Expected expected) {
        String body = "{\"TableName\": \"" + StatorTestServer.tableName() + "\", "
                + "\"AttributeDefinitions\": [{\"AttributeName\": \"id\", \"AttributeType\": \"S\"}], "
                + "\"KeySchema\": [{\"AttributeName\": \"id\", \"KeyType\": \"HASH\"}], "
                + "\"ProvisionedThroughput\": {\"ReadCapacityUnits\": " + readCapacityUnits
                + ", \"WriteCapacityUnits\": 5}}";

        assertAnswer(expected, raw.call("CreateTable", body));
    }

    private static void assertAnswer(Expected expected, Reply reply) {
        if (expected.type() == null) {
            assertEquals(200, reply.status(), reply::toString);
            return;
        }
        assertEquals(400, reply.status(), reply::toString);
        assertEquals(expected.type(), reply.type(), reply::toString);
        assertEquals(expected.message(), reply.message(), reply::toString);
    }
}
