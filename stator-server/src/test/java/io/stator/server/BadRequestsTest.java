package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.RawHttp;
import io.stator.server.testing.RawHttp.Request;
import io.stator.server.testing.RawHttp.Response;
import io.stator.server.testing.StatorTestServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;

/**
 * Bad requests, sent as raw JSON exactly as a client would put them on the wire, each with the
 * error DynamoDB answers: its {@code __type}, the member that carries the message ("message" or
 * "Message", DynamoDB spells it both ways) and the exact text.
 *
 * <p>Every expected text is DynamoDB's as recorded in docs/dynamodb/dynamodb-errors.md (section in
 * each group's comment), which cites dynalite's tests run against DynamoDB, live probes and AWS
 * user reports; none was copied from Stator's output. Where DynamoDB lists several constraint
 * violations its order is not stable, so those messages are compared as a count prefix and a
 * set of violations, as dynalite's own tests do.
 */
class BadRequestsTest {

    private static final String SERIALIZATION = "com.amazon.coral.service#SerializationException";
    private static final String VALIDATION = "com.amazon.coral.validate#ValidationException";
    private static final String NOT_FOUND = "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException";
    private static final String IN_USE = "com.amazonaws.dynamodb.v20120810#ResourceInUseException";
    private static final String UNKNOWN_OPERATION = "com.amazon.coral.service#UnknownOperationException";
    private static final String MISSING_TOKEN = "com.amazon.coral.service#MissingAuthenticationTokenException";
    private static final String INCOMPLETE_SIGNATURE = "com.amazon.coral.service#IncompleteSignatureException";
    private static final String INVALID_SIGNATURE = "com.amazon.coral.service#InvalidSignatureException";

    /** A table with a string hash key "id", created before the cases run. */
    private static final String TABLE = "bad-requests-table";
    private static final String MISSING_TABLE = "bad-requests-missing";

    private static StatorTestServer server;

    @BeforeAll
    static void startServerWithOneTable() {
        server = StatorTestServer.start();
        StatorTestServer.createTable(server.client(), TABLE);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) server.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void answersDynamoDbsErrorFor(String description, Request request, String type, String messageKey,
                                  Expected message) {
        Response response = RawHttp.exchange(server.port(), request);

        assertEquals(400, response.status(), response::toString);
        Map<String, JsonNode> body = JsonNode.parser().parse(response.bodyText()).asObject();
        assertEquals(type, body.get("__type").asString(), response::toString);
        if (message instanceof Expected.None) {
            assertEquals(Set.of("__type"), body.keySet(), "no message member: " + response);
            return;
        }
        assertEquals(Set.of("__type", messageKey), body.keySet(), "message member is '" + messageKey + "'");
        String text = body.get(messageKey).asString();
        switch (message) {
            case Expected.Exact exact -> assertEquals(exact.text(), text);
            case Expected.Violations violations -> assertViolations(violations.elements(), text);
            case Expected.None none -> throw new AssertionError();
        }
    }

    /** "N validation error(s) detected: a; b; ..." with exactly these violations, in any order. */
    private static void assertViolations(List<String> expected, String text) {
        int n = expected.size();
        String prefix = n + " validation error" + (n == 1 ? "" : "s") + " detected: ";
        assertTrue(text.startsWith(prefix), () -> "expected prefix '" + prefix + "' in: " + text);
        List<String> actual = Arrays.asList(text.substring(prefix.length()).split("; "));
        assertEquals(n, actual.size(), text);
        assertEquals(new HashSet<>(expected), new HashSet<>(actual), text);
    }

    /** What the message must be. */
    sealed interface Expected {
        record Exact(String text) implements Expected {}

        record Violations(List<String> elements) implements Expected {}

        /** No message member at all. */
        record None() implements Expected {}
    }

    // ---- the cases ------------------------------------------------------------------------------

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        serializationCases(all);
        constraintCases(all);
        attributeValueCases(all);
        keyCases(all);
        tableStateCases(all);
        authenticationCases(all);
        return all.stream();
    }

    /** Section 2: SerializationException, "Message" with a capital M. */
    private static void serializationCases(List<Arguments> all) {
        serialization(all, "DescribeTable", "{\"TableName\": true}", "TRUE_VALUE cannot be converted to String");
        serialization(all, "DescribeTable", "{\"TableName\": false}", "FALSE_VALUE cannot be converted to String");
        serialization(all, "DescribeTable", "{\"TableName\": 23}", "NUMBER_VALUE cannot be converted to String");
        serialization(all, "DescribeTable", "{\"TableName\": 2147483648}",
                "NUMBER_VALUE cannot be converted to String");
        serialization(all, "DescribeTable", "{\"TableName\": 2.5}", "DECIMAL_VALUE cannot be converted to String");
        serialization(all, "DescribeTable", "{\"TableName\": []}",
                "Unrecognized collection type class java.lang.String");
        serialization(all, "DescribeTable", "{\"TableName\": {}}", "Start of structure or map found where not expected");
        serialization(all, "GetItem", "{\"ConsistentRead\": \"23\"}", "Unexpected token received from parser");
        serialization(all, "GetItem", "{\"ConsistentRead\": 23}", "NUMBER_VALUE cannot be converted to Boolean");
        serialization(all, "GetItem", "{\"ConsistentRead\": 34.56}", "DECIMAL_VALUE cannot be converted to Boolean");
        serialization(all, "GetItem", "{\"ConsistentRead\": []}",
                "Unrecognized collection type class java.lang.Boolean");
        serialization(all, "GetItem", "{\"ConsistentRead\": {}}", "Start of structure or map found where not expected");
        serialization(all, "ListTables", "{\"Limit\": \"23\"}", "STRING_VALUE cannot be converted to Integer");
        serialization(all, "ListTables", "{\"Limit\": false}", "FALSE_VALUE cannot be converted to Integer");
        serialization(all, "ListTables", "{\"Limit\": []}", "Unrecognized collection type class java.lang.Integer");
        serialization(all, "CreateTable", "{\"ProvisionedThroughput\": {\"ReadCapacityUnits\": \"1\"}}",
                "STRING_VALUE cannot be converted to Long");
        serialization(all, "CreateTable", "{\"ProvisionedThroughput\": {\"WriteCapacityUnits\": true}}",
                "TRUE_VALUE cannot be converted to Long");
        serialization(all, "PutItem", "{\"Item\": {\"a\": {\"B\": 5}}}",
                "only base-64-encoded strings are convertible to bytes");
        serialization(all, "PutItem", "{\"Item\": {\"a\": {\"B\": []}}}",
                "Unrecognized collection type class java.nio.ByteBuffer");
        serialization(all, "PutItem", "{\"Item\": {\"a\": {\"B\": \"23456\"}}}",
                "Base64 encoded length is expected a multiple of 4 bytes but found: 5");
        serialization(all, "PutItem", "{\"Item\": {\"a\": {\"B\": \"=+/=\"}}}",
                "Invalid last non-pad Base64 character dectected");
        serialization(all, "PutItem", "{\"Item\": {\"a\": {\"BS\": [\"+/+=\"]}}}",
                "Invalid last non-pad Base64 character dectected");
        serialization(all, "CreateTable", "{\"KeySchema\": \"a\"}", "Unexpected field type");
        serialization(all, "CreateTable", "{\"KeySchema\": {}}", "Start of structure or map found where not expected");
        serialization(all, "CreateTable", "{\"KeySchema\": [\"a\"]}", "Unexpected value type in payload");
        serialization(all, "CreateTable", "{\"KeySchema\": [[]]}",
                "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.KeySchemaElement");
        serialization(all, "CreateTable", "{\"ProvisionedThroughput\": \"a\"}", "Unexpected field type");
        serialization(all, "CreateTable", "{\"ProvisionedThroughput\": []}",
                "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.ProvisionedThroughput");
        serialization(all, "PutItem", "{\"Item\": \"a\"}", "Unexpected field type");
        serialization(all, "PutItem", "{\"Item\": []}", "Unrecognized collection type java.util.Map<java.lang.String, "
                + "com.amazonaws.dynamodb.v20120810.AttributeValue>");
        serialization(all, "PutItem", "{\"Item\": {\"a\": \"x\"}}", "Unexpected value type in payload");
        serialization(all, "PutItem", "{\"Item\": {\"a\": []}}",
                "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue");
        serialization(all, "PutItem", "{\"Item\": {\"a\": {\"L\": [\"x\"]}}}", "Unexpected value type in payload");
        serialization(all, "PutItem", "{\"Item\": {\"a\": {\"SS\": \"x\"}}}", "Unexpected field type");
        serialization(all, "PutItem", "{\"Item\": {\"a\": {\"M\": {\"b\": 1}}}}", "Unexpected value type in payload");
        serialization(all, "PutItem", "{\"ExpressionAttributeNames\": []}",
                "Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>");
        serialization(all, "PutItem", "{\"Expected\": []}", "Unrecognized collection type java.util.Map<"
                + "java.lang.String, com.amazonaws.dynamodb.v20120810.ExpectedAttributeValue>");
        add(all, "PutItem with malformed JSON", Request.action("PutItem", "{\"Item\": "), SERIALIZATION, null,
                new Expected.None());
        add(all, "ListTables with an empty body", Request.action("ListTables", ""), SERIALIZATION, null,
                new Expected.None());
        add(all, "an operation DynamoDB does not have", Request.action("ListTable", "{}"), UNKNOWN_OPERATION, null,
                new Expected.None());
    }

    /** Section 3: the generic constraints, "N validation error(s) detected: ...". */
    private static void constraintCases(List<Arguments> all) {
        violations(all, "DescribeTable", "{\"TableName\": \"\"}",
                "Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3",
                "Value '' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: "
                        + "[a-zA-Z0-9_.-]+");
        violations(all, "UpdateTable", "{\"TableName\": \"ab\"}",
                "Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3");
        violations(all, "ListTables", "{\"Limit\": 0}",
                "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1");
        violations(all, "ListTables", "{\"Limit\": 101}",
                "Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100");
        String name256 = "a".repeat(256);
        violations(all, "ListTables", "{\"ExclusiveStartTableName\": \"" + name256 + "\"}",
                "Value '" + name256 + "' at 'exclusiveStartTableName' failed to satisfy constraint: "
                        + "Member must have length less than or equal to 255");
        violations(all, "ListTables", "{\"ExclusiveStartTableName\": \"\", \"Limit\": 0}",
                "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
                "Value '' at 'exclusiveStartTableName' failed to satisfy constraint: "
                        + "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                "Value '' at 'exclusiveStartTableName' failed to satisfy constraint: "
                        + "Member must have length greater than or equal to 3");
        violations(all, "PutItem", "{}",
                "Value null at 'tableName' failed to satisfy constraint: Member must not be null",
                "Value null at 'item' failed to satisfy constraint: Member must not be null");
        violations(all, "GetItem", "{\"TableName\": \"abc\"}",
                "Value null at 'key' failed to satisfy constraint: Member must not be null");
        violations(all, "GetItem", "{\"TableName\": \"abc\", \"Key\": {\"id\": {\"S\": \"a\"}}, \"AttributesToGet\": []}",
                "Value '[]' at 'attributesToGet' failed to satisfy constraint: "
                        + "Member must have length greater than or equal to 1");
        String item = "\"TableName\": \"abc\", \"Item\": {\"id\": {\"S\": \"a\"}}";
        violations(all, "PutItem", "{" + item + ", \"ReturnValues\": \"hi\"}",
                "Value 'hi' at 'returnValues' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]");
        violations(all, "PutItem", "{" + item + ", \"ReturnConsumedCapacity\": \"hi\"}",
                "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]");
        violations(all, "PutItem", "{" + item + ", \"ReturnItemCollectionMetrics\": \"hi\"}",
                "Value 'hi' at 'returnItemCollectionMetrics' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [SIZE, NONE]");
        violations(all, "PutItem", "{" + item + ", \"ConditionalOperator\": \"hi\"}",
                "Value 'hi' at 'conditionalOperator' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [OR, AND]");
        String definitions = "\"AttributeDefinitions\": [{\"AttributeName\": \"a\", \"AttributeType\": \"S\"}]";
        String keySchema = "\"KeySchema\": [{\"AttributeName\": \"a\", \"KeyType\": \"HASH\"}]";
        violations(all, "CreateTable", "{\"TableName\": \"abc\", " + definitions
                        + ", \"KeySchema\": [{\"AttributeName\": \"a\", \"KeyType\": \"x\"}], "
                        + "\"BillingMode\": \"PAY_PER_REQUEST\"}",
                "Value 'x' at 'keySchema.1.member.keyType' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [HASH, RANGE]");
        violations(all, "CreateTable", "{\"TableName\": \"abc\", "
                        + "\"AttributeDefinitions\": [{\"AttributeName\": \"a\", \"AttributeType\": \"x\"}], "
                        + keySchema + ", \"BillingMode\": \"PAY_PER_REQUEST\"}",
                "Value 'x' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [B, N, S]");
        violations(all, "CreateTable", "{\"TableName\": \"abc\", " + definitions + ", " + keySchema
                        + ", \"BillingMode\": \"x\"}",
                "Value 'x' at 'billingMode' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
        violations(all, "CreateTable", "{\"TableName\": \"abc\", " + definitions + ", " + keySchema
                        + ", \"BillingMode\": \"PAY_PER_REQUEST\", "
                        + "\"StreamSpecification\": {\"StreamEnabled\": true, \"StreamViewType\": \"x\"}}",
                "Value 'x' at 'streamSpecification.streamViewType' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [OLD_IMAGE, KEYS_ONLY, NEW_AND_OLD_IMAGES, NEW_IMAGE]");
        violations(all, "CreateTable", "{\"TableName\": \"abc\", " + definitions + ", " + keySchema
                        + ", \"BillingMode\": \"PAY_PER_REQUEST\", \"StreamSpecification\": {}}",
                "Value null at 'streamSpecification.streamEnabled' failed to satisfy constraint: "
                        + "Member must not be null");
        violations(all, "CreateTable", "{\"TableName\": \"abc\", " + definitions + ", " + keySchema
                        + ", \"BillingMode\": \"PAY_PER_REQUEST\", \"SSESpecification\": {\"SSEType\": \"x\"}}",
                "Value 'x' at 'sSESpecification.sSEType' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [AES256, KMS]");
        violations(all, "CreateTable", "{\"TableName\": \"abc\", " + definitions + ", " + keySchema
                        + ", \"ProvisionedThroughput\": {\"ReadCapacityUnits\": 0, \"WriteCapacityUnits\": 0}}",
                "Value '0' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: "
                        + "Member must have value greater than or equal to 1",
                "Value '0' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: "
                        + "Member must have value greater than or equal to 1");
        // Nine empty indexes break 27 constraints; DynamoDB reports ten.
        List<String> firstTen = new ArrayList<>();
        for (int index = 1; firstTen.size() < 10; index++) {
            for (String member : List.of("indexName", "keySchema", "projection")) {
                if (firstTen.size() < 10) {
                    firstTen.add("Value null at 'localSecondaryIndexes." + index + ".member." + member
                            + "' failed to satisfy constraint: Member must not be null");
                }
            }
        }
        add(all, "CreateTable with nine empty LocalSecondaryIndexes reports ten of 27 violations",
                Request.action("CreateTable", "{\"TableName\": \"abc\", "
                        + "\"AttributeDefinitions\": [{\"AttributeName\": \"a\", \"AttributeType\": \"S\"}, "
                        + "{\"AttributeName\": \"b\", \"AttributeType\": \"S\"}], "
                        + "\"KeySchema\": [{\"KeyType\": \"HASH\", \"AttributeName\": \"a\"}, "
                        + "{\"KeyType\": \"RANGE\", \"AttributeName\": \"b\"}], "
                        + "\"LocalSecondaryIndexes\": [{}, {}, {}, {}, {}, {}, {}, {}, {}], "
                        + "\"ProvisionedThroughput\": {\"ReadCapacityUnits\": 1, \"WriteCapacityUnits\": 1}}"),
                VALIDATION, "message", new Expected.Violations(firstTen));
        // Section 4.2: CreateTable's own checks, one message without a count.
        validation(all, "CreateTable", "{\"TableName\": \"abc\", " + definitions + ", " + keySchema
                        + ", \"BillingMode\": \"PAY_PER_REQUEST\", "
                        + "\"ProvisionedThroughput\": {\"ReadCapacityUnits\": 1, \"WriteCapacityUnits\": 1}}",
                "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be "
                        + "specified when BillingMode is PAY_PER_REQUEST");
        validation(all, "CreateTable", "{\"TableName\": \"abc\", " + definitions + ", " + keySchema + "}",
                "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be "
                        + "specified when BillingMode is PROVISIONED");
        validation(all, "CreateTable", "{\"TableName\": \"abc\", " + definitions + ", " + keySchema
                        + ", \"ProvisionedThroughput\": {\"ReadCapacityUnits\": 1000000000001, "
                        + "\"WriteCapacityUnits\": 1000000000001}}",
                "Given value 1000000000001 for ReadCapacityUnits is out of bounds");
    }

    /** Section 9.2 and 9.5: attribute values and items, checked before the table is looked up. */
    private static void attributeValueCases(List<Arguments> all) {
        String prefix = "One or more parameter values were invalid: ";
        item(all, "{\"a\": {}}", "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
        item(all, "{\"a\": {\"M\": {\"b\": {}}}}",
                "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
        item(all, "{\"a\": {\"S\": \"a\", \"N\": \"1\"}}", "Supplied AttributeValue has more than one datatypes set, "
                + "must contain exactly one of the supported datatypes");
        item(all, "{\"a\": {\"S\": \"a\", \"N\": \"b\"}}", "The parameter cannot be converted to a numeric value: b");
        item(all, "{\"a\": {\"NULL\": false}}", prefix + "Null attribute value types must have the value of true");
        item(all, "{\"a\": {\"SS\": []}}", prefix + "An string set  may not be empty");
        item(all, "{\"a\": {\"NS\": []}}", prefix + "An number set  may not be empty");
        item(all, "{\"a\": {\"BS\": []}}", prefix + "Binary sets should not be empty");
        item(all, "{\"a\": {\"SS\": [\"a\", \"a\"]}}", prefix + "Input collection [a, a] contains duplicates.");
        item(all, "{\"a\": {\"BS\": [\"Yg==\", \"Yg==\"]}}",
                prefix + "Input collection [Yg==, Yg==]of type BS contains duplicates.");
        item(all, "{\"a\": {\"NS\": [\"1\", \"1\"]}}", "Input collection contains duplicates");
        item(all, "{\"a\": {\"N\": \"b\"}}", "The parameter cannot be converted to a numeric value: b");
        item(all, "{\"a\": {\"N\": \"\"}}", "The parameter cannot be converted to a numeric value");
        item(all, "{\"a\": {\"N\": \"1" + "0".repeat(38) + "1\"}}",
                "Attempting to store more than 38 significant digits in a Number");
        item(all, "{\"a\": {\"N\": \"1e126\"}}",
                "Number overflow. Attempting to store a number with magnitude larger than supported range");
        item(all, "{\"a\": {\"N\": \"1e-131\"}}",
                "Number underflow. Attempting to store a number with magnitude smaller than supported range");
        item(all, "{\"a\": " + "{\"L\": [".repeat(40) + "{\"S\": \"deep\"}" + "]}".repeat(40) + "}",
                "Nesting Levels have exceeded supported limits: "
                        + "Attributes in the item have nested levels beyond supported limit");
        validation(all, "PutItem", "{\"TableName\": \"" + MISSING_TABLE + "\", \"Item\": {\"id\": {\"S\": \"a\"}}, "
                + "\"ReturnValues\": \"UPDATED_OLD\"}", "ReturnValues can only be ALL_OLD or NONE");
        // 409,601 bytes by DynamoDB's size rules: name "a" (1) + value; the size check comes before the lookup.
        validation(all, "PutItem", "{\"TableName\": \"" + MISSING_TABLE + "\", \"Item\": {\"a\": {\"S\": \""
                + "x".repeat(409_600) + "\"}}}", "Item size has exceeded the maximum allowed size");
        validation(all, "GetItem", "{\"TableName\": \"" + MISSING_TABLE + "\", \"Key\": {\"id\": {\"S\": \"a\"}}, "
                + "\"AttributesToGet\": [\"a\", \"a\"]}", prefix + "Duplicate value in attribute name: a");
    }

    /** Section 9.3: keys against the table's key schema (string hash key "id"). */
    private static void keyCases(List<Arguments> all) {
        String table = "\"TableName\": \"" + TABLE + "\"";
        String prefix = "One or more parameter values were invalid: ";
        validation(all, "PutItem", "{" + table + ", \"Item\": {\"x\": {\"S\": \"1\"}}}",
                prefix + "Missing the key id in the item");
        validation(all, "PutItem", "{" + table + ", \"Item\": {\"id\": {\"N\": \"1\"}}}",
                prefix + "Type mismatch for key id expected: S actual: N");
        validation(all, "PutItem", "{" + table + ", \"Item\": {\"id\": {\"S\": \"\"}}}",
                "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain "
                        + "an empty string value. Key: id");
        validation(all, "PutItem", "{" + table + ", \"Item\": {\"id\": {\"S\": \"" + "k".repeat(2049) + "\"}}}",
                prefix + "Size of hashkey has exceeded the maximum size limit of2048 bytes");
        validation(all, "GetItem", "{" + table + ", \"Key\": {\"id\": {\"S\": \"\"}}}",
                prefix + "The AttributeValue for a key attribute cannot contain an empty string value. Key: id");
        validation(all, "GetItem", "{" + table + ", \"Key\": {\"id\": {\"N\": \"1\"}}}",
                "The provided key element does not match the schema");
        validation(all, "GetItem", "{" + table + ", \"Key\": {}}", "The provided key element does not match the schema");
        validation(all, "GetItem", "{" + table + ", \"Key\": {\"id\": {\"S\": \"a\"}, \"b\": {\"S\": \"b\"}}}",
                "The provided key element does not match the schema");
        validation(all, "DeleteItem", "{" + table + ", \"Key\": {\"x\": {\"S\": \"a\"}}}",
                "The provided key element does not match the schema");
        validation(all, "DeleteItem", "{" + table + ", \"Key\": {\"id\": {\"S\": \"a\"}}, "
                + "\"ReturnValues\": \"UPDATED_OLD\"}", "ReturnValues can only be ALL_OLD or NONE");
    }

    /** Sections 5.1 and 11 (6): a table that is missing, or already there. */
    private static void tableStateCases(List<Arguments> all) {
        String missing = "{\"TableName\": \"" + MISSING_TABLE + "\"";
        error(all, "DescribeTable", missing + "}", NOT_FOUND,
                "Requested resource not found: Table: " + MISSING_TABLE + " not found");
        error(all, "DeleteTable", missing + "}", NOT_FOUND,
                "Requested resource not found: Table: " + MISSING_TABLE + " not found");
        error(all, "GetItem", missing + ", \"Key\": {\"id\": {\"S\": \"a\"}}}", NOT_FOUND, "Requested resource not found");
        error(all, "GetItem", missing + ", \"Key\": {}}", NOT_FOUND, "Requested resource not found");
        error(all, "PutItem", missing + ", \"Item\": {\"id\": {\"S\": \"a\"}}}", NOT_FOUND,
                "Requested resource not found");
        error(all, "DeleteItem", missing + ", \"Key\": {\"id\": {\"S\": \"a\"}}}", NOT_FOUND,
                "Requested resource not found");
        error(all, "CreateTable", "{\"TableName\": \"" + TABLE + "\", "
                        + "\"AttributeDefinitions\": [{\"AttributeName\": \"id\", \"AttributeType\": \"S\"}], "
                        + "\"KeySchema\": [{\"AttributeName\": \"id\", \"KeyType\": \"HASH\"}], "
                        + "\"BillingMode\": \"PAY_PER_REQUEST\"}",
                IN_USE, "Table already exists: " + TABLE);
    }

    /** Section 1.1 (9): the signature, checked after the target and before the body. */
    private static void authenticationCases(List<Arguments> all) {
        auth(all, "no Authorization header", "/", Map.of(), MISSING_TOKEN, "Request is missing Authentication Token");
        auth(all, "Authorization 'AWS4'", "/", Map.of("Authorization", "AWS4"), MISSING_TOKEN,
                "Request is missing Authentication Token");
        auth(all, "query parameters but no X-Amz-Algorithm",
                "/?X-Amz-Credential=a&X-Amz-Signature=b&X-Amz-SignedHeaders=c&X-Amz-Date=d", Map.of(),
                MISSING_TOKEN, "Request is missing Authentication Token");
        auth(all, "Authorization 'AWS4-' and no date", "/", Map.of("Authorization", "AWS4-"), INCOMPLETE_SIGNATURE,
                "Authorization header requires 'Credential' parameter. "
                        + "Authorization header requires 'Signature' parameter. "
                        + "Authorization header requires 'SignedHeaders' parameter. "
                        + "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
                        + "Authorization=AWS4-");
        auth(all, "Authorization without SignedHeaders, space separated", "/",
                Map.of("Authorization", "AWS4- Signature=b Credential=a", "Date", "a"), INCOMPLETE_SIGNATURE,
                "Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4- Signature=b Credential=a");
        auth(all, "Authorization without SignedHeaders, comma separated", "/",
                Map.of("Authorization", "AWS4- Signature=b,Credential=a", "Date", "a"), INCOMPLETE_SIGNATURE,
                "Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4- Signature=b,Credential=a");
        auth(all, "an empty X-Amz-Algorithm query parameter", "/?X-Amz-Algorithm", Map.of(), INCOMPLETE_SIGNATURE,
                "AWS query-string parameters must include 'X-Amz-Algorithm'. "
                        + "AWS query-string parameters must include 'X-Amz-Credential'. "
                        + "AWS query-string parameters must include 'X-Amz-Signature'. "
                        + "AWS query-string parameters must include 'X-Amz-SignedHeaders'. "
                        + "AWS query-string parameters must include 'X-Amz-Date'. "
                        + "Re-examine the query-string parameters.");
        auth(all, "query authentication without X-Amz-SignedHeaders",
                "/?X-Amz-Algorithm=a&X-Amz-Credential=b&X-Amz-Signature=c&X-Amz-Date=d", Map.of(),
                INCOMPLETE_SIGNATURE, "AWS query-string parameters must include 'X-Amz-SignedHeaders'. "
                        + "Re-examine the query-string parameters.");
        auth(all, "both an Authorization header and X-Amz-Algorithm", "/?X-Amz-Algorithm",
                Map.of("Authorization", "X"), INVALID_SIGNATURE,
                "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.");
    }

    // ---- building cases -------------------------------------------------------------------------

    private static void add(List<Arguments> all, String description,
                            Request request, String type, String messageKey, Expected message) {
        all.add(Arguments.of(description, request, type, messageKey, message));
    }

    private static void serialization(List<Arguments> all, String target,
                                      String body, String message) {
        add(all, target + " " + body, Request.action(target, body), SERIALIZATION, "Message",
                new Expected.Exact(message));
    }

    private static void violations(List<Arguments> all, String target,
                                   String body, String... violations) {
        add(all, target + " " + abbreviate(body), Request.action(target, body), VALIDATION, "message",
                new Expected.Violations(List.of(violations)));
    }

    private static void validation(List<Arguments> all, String target,
                                   String body, String message) {
        error(all, target, body, VALIDATION, message);
    }

    private static void item(List<Arguments> all, String item, String message) {
        validation(all, "PutItem", "{\"TableName\": \"" + MISSING_TABLE + "\", \"Item\": " + item + "}", message);
    }

    private static void error(List<Arguments> all, String target, String body,
                              String type, String message) {
        add(all, target + " " + abbreviate(body), Request.action(target, body), type, "message",
                new Expected.Exact(message));
    }

    /** A ListTables request with exactly these authentication headers (and the target and type). */
    private static void auth(List<Arguments> all, String description,
                             String requestTarget, Map<String, String> authHeaders, String type, String message) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", RawHttp.JSON_1_0);
        headers.put("X-Amz-Target", "DynamoDB_20120810.ListTables");
        headers.putAll(authHeaders);
        add(all, "ListTables with " + description,
                new Request("POST", requestTarget, headers, "{}".getBytes(StandardCharsets.UTF_8)),
                type, "message", new Expected.Exact(message));
    }

    private static String abbreviate(String body) {
        return body.length() <= 160 ? body : body.substring(0, 150) + "...(" + body.length() + " chars)";
    }
}
