package io.stator.server.api;

import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.server.testing.SharedServer;
import io.stator.server.testing.Tables;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementErrorCodeEnum;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * BatchExecuteStatement against a running Stator: each statement answers in its place, reads
 * as GetItem reads (compared with BatchGetItem on the same items), errors per statement.
 */
class BatchExecuteStatementTest {

    private static final String TABLE = "partiql_batch";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static DynamoDbClient client() {
        return server.client();
    }

    private static BatchStatementRequest statement(String text, AttributeValue... parameters) {
        BatchStatementRequest.Builder b = BatchStatementRequest.builder().statement(text);
        if (parameters.length > 0) b.parameters(parameters);
        return b.build();
    }

    private static BatchExecuteStatementResponse batch(BatchStatementRequest... statements) {
        return client().batchExecuteStatement(b -> b.statements(statements)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
    }

    @BeforeAll
    static void createTable() {
        client().createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE)));
    }

    @Test
    void writesThenReadsEachInItsPlace() {
        String q = "\"" + TABLE + "\"";
        BatchExecuteStatementResponse writes = batch(
                statement("INSERT INTO " + q + " VALUE {'pk': 'w', 'sk': 1, 'v': 'one'}"),
                statement("INSERT INTO " + q + " VALUE {'pk': ?, 'sk': ?, 'v': 'two'}", s("w"), n(2)),
                statement("INSERT INTO " + q + " VALUE {'pk': 'w', 'sk': 1}"),
                statement("UPDATE " + q + " SET v = 'uno' WHERE pk = 'w' AND sk = 1 AND v = 'other'"),
                statement("DELETE FROM \"no_such_table\" WHERE pk = 'w' AND sk = 1"),
                statement("SELEKT * FROM " + q));
        List<BatchStatementResponse> r = writes.responses();
        assertEquals(6, r.size());
        assertNull(r.get(0).error());
        assertEquals(TABLE, r.get(0).tableName());
        assertNull(r.get(1).error());
        assertEquals(BatchStatementErrorCodeEnum.DUPLICATE_ITEM, r.get(2).error().code());
        assertEquals("Duplicate primary key exists in table", r.get(2).error().message());
        assertEquals(BatchStatementErrorCodeEnum.CONDITIONAL_CHECK_FAILED, r.get(3).error().code());
        assertEquals(BatchStatementErrorCodeEnum.RESOURCE_NOT_FOUND, r.get(4).error().code());
        assertEquals(BatchStatementErrorCodeEnum.VALIDATION_ERROR, r.get(5).error().code());
        assertEquals("Statement wasn't well formed, can't be processed: Expected data manipulation",
                r.get(5).error().message());
        assertEquals(1, writes.consumedCapacity().size());
        assertEquals(TABLE, writes.consumedCapacity().get(0).tableName());

        BatchExecuteStatementResponse reads = batch(
                statement("SELECT * FROM " + q + " WHERE pk = 'w' AND sk = 1"),
                statement("SELECT v FROM " + q + " WHERE pk = 'w' AND sk = 2"),
                statement("SELECT * FROM " + q + " WHERE pk = 'w' AND sk = 3"),
                statement("SELECT * FROM " + q + " WHERE pk = 'w' AND sk = 1 AND v = 'nope'"),
                statement("SELECT * FROM " + q + " WHERE pk = 'w'"));
        r = reads.responses();
        assertEquals(s("one"), r.get(0).item().get("v"));
        assertEquals(Map.of("v", s("two")), r.get(1).item());
        assertEquals(Map.of(), r.get(2).item());
        assertEquals(Map.of(), r.get(3).item());
        assertEquals(BatchStatementErrorCodeEnum.VALIDATION_ERROR, r.get(4).error().code());
        assertEquals("Select statements within BatchExecuteStatement must specify the primary key in the where clause.",
                r.get(4).error().message());

        BatchGetItemResponse json = client().batchGetItem(b -> b.requestItems(Map.of(TABLE, KeysAndAttributes.builder()
                .keys(Map.of("pk", s("w"), "sk", n(1)), Map.of("pk", s("w"), "sk", n(2)), Map.of("pk", s("w"), "sk", n(3)),
                        Map.of("pk", s("x"), "sk", n(1)))
                .build())).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        // Four GetItems of small items cost what BatchGetItem's four keys cost.
        assertEquals(json.consumedCapacity().get(0).capacityUnits(), reads.consumedCapacity().get(0).capacityUnits());
    }

    /** DynamoDB's API reference: a batch is all reads or all writes. The text is DynamoDB Local's. */
    @Test
    void readsAndWritesTogetherAreRefusedWhole() {
        String q = "\"" + TABLE + "\"";
        software.amazon.awssdk.services.dynamodb.model.DynamoDbException e = org.junit.jupiter.api.Assertions.assertThrows(
                software.amazon.awssdk.services.dynamodb.model.DynamoDbException.class, () -> batch(
                        statement("SELEKT nothing"),
                        statement("INSERT INTO " + q + " VALUE {'pk': 'mixed', 'sk': 1}"),
                        statement("SELECT * FROM " + q + " WHERE pk = 'mixed' AND sk = 1")));
        assertEquals("ValidationException", e.awsErrorDetails().errorCode());
        assertEquals("Read and write requests together in the same batch is not supported.",
                e.awsErrorDetails().errorMessage());
        assertEquals(Map.of(), client().getItem(b -> b.tableName(TABLE)
                .key(Map.of("pk", s("mixed"), "sk", n(1)))).item());
    }
}
