package io.stator.server.api;

import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.SharedServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteTransactionResponse;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ParameterizedStatement;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * ExecuteTransaction against a running Stator: all-or-nothing writes (INSERT, UPDATE, DELETE,
 * EXISTS) and snapshot reads, compared with TransactWriteItems and TransactGetItems on twin items
 * (same consumed capacity), the 100-statement limit, cancellation reasons and idempotent retry.
 * Expected texts are DynamoDB's as recorded by dynamodb-conformance where it records them, else
 * DynamoDB Local's (see ExecuteTransaction).
 */
class ExecuteTransactionTest {

    private static final String TABLE = "partiql_txn";
    private static final String Q = "\"" + TABLE + "\"";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static DynamoDbClient client() {
        return server.client();
    }

    private static ParameterizedStatement st(String text, AttributeValue... parameters) {
        ParameterizedStatement.Builder b = ParameterizedStatement.builder().statement(text);
        if (parameters.length > 0) b.parameters(parameters);
        return b.build();
    }

    private static ExecuteTransactionResponse transaction(ParameterizedStatement... statements) {
        return client().executeTransaction(b -> b.transactStatements(statements)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
    }

    private static Map<String, AttributeValue> item(String pk, long sk) {
        return client().getItem(b -> b.tableName(TABLE).key(Map.of("pk", s(pk), "sk", n(sk))).consistentRead(true))
                .item();
    }

    private static void put(String pk, long sk, Map<String, AttributeValue> more) {
        Map<String, AttributeValue> item = new java.util.HashMap<>(more);
        item.put("pk", s(pk));
        item.put("sk", n(sk));
        client().putItem(b -> b.tableName(TABLE).item(item));
    }

    private static void assertValidationContaining(String part, org.junit.jupiter.api.function.Executable call) {
        DynamoDbException e = assertThrows(DynamoDbException.class, call);
        assertEquals("ValidationException", e.awsErrorDetails().errorCode());
        assertTrue(e.awsErrorDetails().errorMessage().contains(part), e.awsErrorDetails().errorMessage());
    }

    private static List<String> codes(TransactionCanceledException e) {
        return e.cancellationReasons().stream().map(CancellationReason::code).toList();
    }

    @BeforeAll
    static void createTable() {
        client().createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N), Tables.definition("g", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(gsi -> gsi.indexName("by_g").keySchema(Tables.key("g", KeyType.HASH))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())));
    }

    @Test
    void insertUpdateAndDeleteApplyTogetherAndCostWhatTransactWriteItemsCosts() {
        put("iud", 2, Map.of("v", s("before")));
        put("iud", 3, Map.of());
        put("iud-twin", 2, Map.of("v", s("before")));
        put("iud-twin", 3, Map.of());

        ExecuteTransactionResponse r = transaction(
                st("INSERT INTO " + Q + " VALUE {'pk': 'iud', 'sk': 1, 'v': 'new'}"),
                st("UPDATE " + Q + " SET v = ? WHERE pk = 'iud' AND sk = 2", s("after")),
                st("DELETE FROM " + Q + " WHERE pk = 'iud' AND sk = 3"));

        assertEquals(s("new"), item("iud", 1).get("v"));
        assertEquals(s("after"), item("iud", 2).get("v"));
        assertEquals(Map.of(), item("iud", 3));
        TransactWriteItemsResponse json = client().transactWriteItems(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .transactItems(
                        t -> t.put(p -> p.tableName(TABLE).item(Map.of("pk", s("iud-twin"), "sk", n(1), "v", s("new")))
                                .conditionExpression("attribute_not_exists(pk)")),
                        t -> t.update(u -> u.tableName(TABLE).key(Map.of("pk", s("iud-twin"), "sk", n(2)))
                                .updateExpression("SET v = :v").conditionExpression("attribute_exists(pk)")
                                .expressionAttributeValues(Map.of(":v", s("after")))),
                        t -> t.delete(d -> d.tableName(TABLE).key(Map.of("pk", s("iud-twin"), "sk", n(3))))));
        assertEquals(json.consumedCapacity(), r.consumedCapacity());
        assertEquals(6.0, r.consumedCapacity().get(0).capacityUnits());
    }

    @Test
    void aTakenKeyCancelsEverythingWithTheInsertsValidationError() {
        put("dup", 1, Map.of("v", s("existing")));

        TransactionCanceledException e = assertThrows(TransactionCanceledException.class, () -> transaction(
                st("INSERT INTO " + Q + " VALUE {'pk': 'dup', 'sk': 1, 'v': 'should-fail'}"),
                st("INSERT INTO " + Q + " VALUE {'pk': 'dup', 'sk': 2, 'v': 'should-roll-back'}")));

        assertEquals(List.of("ValidationError", "None"), codes(e));
        assertEquals("Duplicate primary key exists in table", e.cancellationReasons().get(0).message());
        assertTrue(e.awsErrorDetails().errorMessage().startsWith(
                "Transaction cancelled, please refer cancellation reasons for specific reasons [ValidationError, None]"));
        assertEquals(Map.of(), item("dup", 2));
        assertEquals(s("existing"), item("dup", 1).get("v"));
    }

    @Test
    void existsChecksAConditionAsConditionCheckDoes() {
        put("x", 1, Map.of());
        put("x", 2, Map.of());
        put("x", 3, Map.of("Awards", n(1)));

        transaction(st("EXISTS(SELECT * FROM " + Q + " WHERE pk = 'x' AND sk = 1 AND Awards IS MISSING)"),
                st("UPDATE " + Q + " SET AwardsWon = 1 WHERE pk = 'x' AND sk = 2"));
        assertEquals(n(1), item("x", 2).get("AwardsWon"));

        TransactionCanceledException e = assertThrows(TransactionCanceledException.class, () ->
                client().executeTransaction(b -> b.transactStatements(
                        ParameterizedStatement.builder()
                                .statement("EXISTS(SELECT * FROM " + Q + " WHERE pk = 'x' AND sk = 3 AND Awards IS MISSING)")
                                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build(),
                        st("UPDATE " + Q + " SET Touched = 1 WHERE pk = 'x' AND sk = 1"))));
        assertEquals(List.of("ConditionalCheckFailed", "None"), codes(e));
        assertEquals("The conditional request failed", e.cancellationReasons().get(0).message());
        assertEquals(n(1), e.cancellationReasons().get(0).item().get("Awards"));
        assertNull(item("x", 1).get("Touched"));

        assertValidation("Validation failed in TransactStatements[0]: "
                + "EXISTS() must contain a single item read with additional condition", () -> transaction(
                st("EXISTS(SELECT * FROM " + Q + " WHERE pk = 'x' AND sk = 1)"),
                st("UPDATE " + Q + " SET Touched = 1 WHERE pk = 'x' AND sk = 2")));
        assertValidation("EXISTS can only be used in ExecuteTransaction write requests.", () -> client()
                .executeStatement(b -> b.statement("EXISTS(SELECT * FROM " + Q + " WHERE pk = 'x' AND sk = 1 AND a = 1)")));
        assertNull(item("x", 2).get("Touched"));
    }

    @Test
    void readsComeFromOneSnapshotAndCostWhatTransactGetItemsCosts() {
        put("r", 1, Map.of("v", s("one"), "w", n(5)));
        put("r", 2, Map.of("v", s("two")));
        put("r", 4, Map.of("v", s("four"), "w", n(5)));

        ExecuteTransactionResponse r = transaction(
                st("SELECT * FROM " + Q + " WHERE pk = 'r' AND sk = 1"),
                st("SELECT v FROM " + Q + " WHERE pk = ? AND sk = ?", s("r"), n(2)),
                st("SELECT * FROM " + Q + " WHERE pk = 'r' AND sk = 3"),
                st("SELECT v FROM " + Q + " WHERE pk = 'r' AND sk = 4 AND w > 10"));

        assertEquals(4, r.responses().size());
        assertEquals(Map.of("pk", s("r"), "sk", n(1), "v", s("one"), "w", n(5)), r.responses().get(0).item());
        assertEquals(Map.of("v", s("two")), r.responses().get(1).item());
        assertEquals(Map.of(), r.responses().get(2).item());
        assertEquals(Map.of(), r.responses().get(3).item());
        TransactGetItemsResponse json = client().transactGetItems(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .transactItems(t -> t.get(g -> g.tableName(TABLE).key(Map.of("pk", s("r"), "sk", n(1)))),
                        t -> t.get(g -> g.tableName(TABLE).key(Map.of("pk", s("r"), "sk", n(2)))),
                        t -> t.get(g -> g.tableName(TABLE).key(Map.of("pk", s("r"), "sk", n(3)))),
                        t -> t.get(g -> g.tableName(TABLE).key(Map.of("pk", s("r"), "sk", n(4))))));
        assertEquals(json.consumedCapacity(), r.consumedCapacity());
    }

    @Test
    void aStatementThatNamesNoWholeKeyIsItsValidationError() {
        TransactionCanceledException e = assertThrows(TransactionCanceledException.class, () -> transaction(
                st("SELECT * FROM " + Q + " WHERE pk = 'r' AND sk = 1"),
                st("SELECT * FROM " + Q + " WHERE pk = 'r'")));
        assertEquals(List.of("None", "ValidationError"), codes(e));
        assertEquals("Where clause does not contain a mandatory equality on all key attributes",
                e.cancellationReasons().get(1).message());

        e = assertThrows(TransactionCanceledException.class, () -> transaction(
                st("UPDATE " + Q + " SET a = 1 WHERE pk = 'k' AND sk = 'not a number'"),
                st("INSERT INTO " + Q + " VALUE {'pk': 'k', 'sk': 9}")));
        assertEquals(List.of("ValidationError", "None"), codes(e));
        assertEquals(Map.of(), item("k", 9));
    }

    @Test
    void whatATransactionCannotHoldFailsTheRequestNamingTheStatement() {
        put("v", 1, Map.of("data", s("old")));
        // Recorded from DynamoDB (dynamodb-conformance).
        assertValidation("Validation failed in TransactStatements[1]: RETURNING clause is not supported in ExecuteTransaction.",
                () -> transaction(st("INSERT INTO " + Q + " VALUE {'pk': 'v', 'sk': 2}"),
                        st("UPDATE " + Q + " SET data = 'new' WHERE pk = 'v' AND sk = 1 RETURNING ALL NEW *")));
        assertValidation("Validation failed in TransactStatements[0]: Reads on indices are not supported within transactions.",
                () -> transaction(st("SELECT * FROM " + Q + ".\"by_g\" WHERE g = 'x'")));
        assertValidation("Validation failed in TransactStatements[0]: "
                + "Statement wasn't well formed, can't be processed: Expected data manipulation",
                () -> transaction(st("SELEKT * FROM " + Q)));
        // DynamoDB Local's text, as recorded by other emulators' tests.
        assertValidation("ExecuteTransaction API does not support both read and write operations in the same request.",
                () -> transaction(st("SELECT * FROM " + Q + " WHERE pk = 'v' AND sk = 1"),
                        st("UPDATE " + Q + " SET data = 'new' WHERE pk = 'v' AND sk = 1")));
        assertValidation("Transaction request cannot include multiple operations on one item", () -> transaction(
                st("UPDATE " + Q + " SET data = 'a' WHERE pk = 'v' AND sk = 1"),
                st("DELETE FROM " + Q + " WHERE pk = 'v' AND sk = 1")));
        assertThrows(ResourceNotFoundException.class, () -> transaction(
                st("INSERT INTO \"no_such_table\" VALUE {'pk': 'v', 'sk': 1}")));
        assertEquals(s("old"), item("v", 1).get("data"));
        assertEquals(Map.of(), item("v", 2));
    }

    @Test
    void takesOneHundredStatementsAndRefusesOneHundredAndOne() {
        List<ParameterizedStatement> statements = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            statements.add(st("INSERT INTO " + Q + " VALUE {'pk': 'many', 'sk': ?}", n(i)));
        }
        assertValidationContaining("failed to satisfy constraint: Member must have length less than or equal to 100",
                () -> client().executeTransaction(b -> b.transactStatements(statements)));
        assertEquals(0, client().query(b -> b.tableName(TABLE).keyConditionExpression("pk = :p")
                .expressionAttributeValues(Map.of(":p", s("many")))).count());

        ExecuteTransactionResponse r = client().executeTransaction(b -> b.transactStatements(statements.subList(0, 100))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(200.0, r.consumedCapacity().get(0).capacityUnits());
        assertEquals(100, client().query(b -> b.tableName(TABLE).keyConditionExpression("pk = :p")
                .expressionAttributeValues(Map.of(":p", s("many")))).count());

        assertValidationContaining("Member must have length greater than or equal to 1",
                () -> client().executeTransaction(b -> b.transactStatements(List.of())));
    }

    /**
     * Recorded from DynamoDB (dynamodb-conformance): a replay under the same token does not run
     * the statements again; the first call is billed 2 WCU, the replay 2 RCU.
     */
    @Test
    void aRetryWithTheSameTokenIsAppliedOnce() {
        client().executeStatement(b -> b.statement("INSERT INTO " + Q + " VALUE {'pk': 'idem', 'sk': 1, 'n': 0}"));
        String token = UUID.randomUUID().toString();
        ParameterizedStatement increment = st("UPDATE " + Q + " SET n = n + 1 WHERE pk = 'idem' AND sk = 1");

        ExecuteTransactionResponse first = client().executeTransaction(b -> b.clientRequestToken(token)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).transactStatements(increment));
        ExecuteTransactionResponse replay = client().executeTransaction(b -> b.clientRequestToken(token)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).transactStatements(increment));

        assertEquals(n(1), item("idem", 1).get("n"));
        ConsumedCapacity written = first.consumedCapacity().get(0);
        ConsumedCapacity read = replay.consumedCapacity().get(0);
        assertEquals(2.0, written.writeCapacityUnits());
        assertNull(written.readCapacityUnits());
        assertEquals(2.0, read.readCapacityUnits());
        assertNull(read.writeCapacityUnits());

        assertThrows(IdempotentParameterMismatchException.class, () -> client().executeTransaction(b -> b
                .clientRequestToken(token).transactStatements(st("UPDATE " + Q + " SET n = n + 2 WHERE pk = 'idem' AND sk = 1"))));
        assertEquals(n(1), item("idem", 1).get("n"));
    }

    /** The service model's limit on a statement: 8,192 characters, at the edge and one past it. */
    @Test
    void aStatementOfEightKilobytesRunsAndOneCharacterMoreIsRefused() {
        String head = "SELECT * FROM " + Q + " WHERE pk = 'r' AND sk = 1 AND v <> '";
        String atLimit = head + "x".repeat(8192 - head.length() - 1) + "'";
        assertEquals(8192, atLimit.length());
        client().executeStatement(b -> b.statement(atLimit));
        transaction(st(atLimit));
        String over = head + "x".repeat(8192 - head.length()) + "'";
        assertValidationContaining("Member must have length less than or equal to 8192",
                () -> client().executeStatement(b -> b.statement(over)));
        assertValidationContaining("Member must have length less than or equal to 8192", () -> transaction(st(over)));
    }
}
