package io.stator.server.api;

import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.DynamoAssertions.assertError;
import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * ExecuteStatement against a running Stator: each statement is compared with the JSON-API call
 * that does the same thing on the same data (items, their order, consumed capacity), since both
 * front ends must run the same engine operation.
 */
class ExecuteStatementTest {

    private static final String TABLE = "partiql_music";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static DynamoDbClient client() {
        return server.client();
    }

    @BeforeAll
    static void createTableAndItems() {
        client().createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N), Tables.definition("genre", ScalarAttributeType.S),
                        Tables.definition("n", ScalarAttributeType.N))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("byGenre")
                        .keySchema(Tables.key("genre", KeyType.HASH), Tables.key("n", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)).build()));
        for (String pk : List.of("a", "b", "c", "d")) {
            for (int sk = 1; sk <= 5; sk++) {
                execute("INSERT INTO \"" + TABLE + "\" VALUE {'pk': ?, 'sk': ?, 'n': " + (sk * 2)
                        + ", 'genre': '" + (pk.compareTo("b") <= 0 ? "rock" : "jazz") + "', 'tags': <<'x', 'y'>>, 'nested': {'list': [1, 'two'], 'm': {'k': 'v'}}, 'text': 'item "
                        + pk + sk + "'}", s(pk), n(sk));
            }
        }
    }

    private static ExecuteStatementResponse execute(String statement, AttributeValue... parameters) {
        return execute(statement, b -> { }, parameters);
    }

    private static ExecuteStatementResponse execute(String statement, Consumer<ExecuteStatementRequest.Builder> options,
                                                    AttributeValue... parameters) {
        return client().executeStatement(b -> {
            b.statement(statement);
            if (parameters.length > 0) b.parameters(parameters);
            options.accept(b);
        });
    }

    private static ExecuteStatementResponse select(String where) {
        return execute("SELECT * FROM \"" + TABLE + "\"" + where,
                b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
    }

    private static void assertSameItems(List<Map<String, AttributeValue>> expected, List<Map<String, AttributeValue>> actual) {
        assertEquals(expected.size(), actual.size(), "items");
        for (int i = 0; i < expected.size(); i++) assertSameItem(expected.get(i), actual.get(i));
    }

    private static void assertSameCapacity(ConsumedCapacity expected, ConsumedCapacity actual) {
        assertEquals(expected.tableName(), actual.tableName());
        assertEquals(expected.capacityUnits(), actual.capacityUnits());
    }

    // ---- SELECT -------------------------------------------------------------------------------

    @Test
    void insertedItemsAreThoseGetItemReads() {
        Map<String, AttributeValue> item = client().getItem(b -> b.tableName(TABLE)
                .key(Map.of("pk", s("b"), "sk", n(3)))).item();
        assertEquals(n(6), item.get("n"));
        assertEquals(s("item b3"), item.get("text"));
        assertEquals(List.of("x", "y"), item.get("tags").ss().stream().sorted().toList());
        assertEquals(s("two"), item.get("nested").m().get("list").l().get(1));
    }

    @Test
    void selectOnThePartitionKeyIsTheQuery() {
        ExecuteStatementResponse partiql = select(" WHERE pk = 'a'");
        QueryResponse query = client().query(b -> b.tableName(TABLE).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", s("a"))).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(5, partiql.items().size());
        assertSameItems(query.items(), partiql.items());
        assertSameCapacity(query.consumedCapacity(), partiql.consumedCapacity());
    }

    @Test
    void sortKeyTermsBecomeKeyConditionsAndTheRestAFilter() {
        ExecuteStatementResponse partiql = select(" WHERE pk = 'a' AND sk BETWEEN 2 AND 4 AND n > 4");
        QueryResponse query = client().query(b -> b.tableName(TABLE)
                .keyConditionExpression("pk = :pk AND sk BETWEEN :lo AND :hi").filterExpression("n > :n")
                .expressionAttributeValues(Map.of(":pk", s("a"), ":lo", n(2), ":hi", n(4), ":n", n(4)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(2, partiql.items().size());
        assertSameItems(query.items(), partiql.items());
        assertSameCapacity(query.consumedCapacity(), partiql.consumedCapacity());
    }

    /**
     * A term on a key attribute that no key condition takes is applied with the filter, to each
     * item read, before the projection: its other attributes are the item's, not the selected
     * ones (WHERE chooses items, the select list shapes them). Read and billed as the partition's
     * Query.
     */
    @Test
    void keyTermsBeyondTheKeyConditionTestTheItemNotItsProjection() {
        ExecuteStatementResponse partiql = execute("SELECT text FROM \"" + TABLE + "\" WHERE pk = 'a' AND (sk = 1 OR n = 6)",
                b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(List.of(Map.of("text", s("item a1")), Map.of("text", s("item a3"))), partiql.items());
        QueryResponse query = client().query(b -> b.tableName(TABLE).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", s("a"))).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertSameCapacity(query.consumedCapacity(), partiql.consumedCapacity());
    }

    @Test
    void orderByTheSortKeyDescendingIsABackwardQuery() {
        ExecuteStatementResponse partiql = select(" WHERE pk = 'b' ORDER BY sk DESC");
        QueryResponse query = client().query(b -> b.tableName(TABLE).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", s("b"))).scanIndexForward(false));
        assertSameItems(query.items(), partiql.items());
        assertEquals(n(5), partiql.items().get(0).get("sk"));
    }

    @Test
    void projectionOfNestedPathsIsTheProjectionExpression() {
        ExecuteStatementResponse partiql = execute("SELECT sk, nested.list[1], nested.m.k FROM \"" + TABLE
                + "\" WHERE pk = ? AND sk >= ?", s("c"), n(4));
        QueryResponse query = client().query(b -> b.tableName(TABLE).keyConditionExpression("pk = :pk AND sk >= :sk")
                .projectionExpression("sk, nested.#l[1]").expressionAttributeNames(Map.of("#l", "list"))
                .expressionAttributeValues(Map.of(":pk", s("c"), ":sk", n(4))));
        // A nested path ending in a name comes back under that name (nested.m.k as k), as
        // recorded from DynamoDB by dynamodb-conformance; the rest as ProjectionExpression has it.
        List<Map<String, AttributeValue>> expected = new ArrayList<>();
        for (Map<String, AttributeValue> item : query.items()) {
            Map<String, AttributeValue> named = new java.util.LinkedHashMap<>(item);
            named.put("k", s("v"));
            expected.add(named);
        }
        assertEquals(2, partiql.items().size());
        assertSameItems(expected, partiql.items());
    }

    @Test
    void selectFromAnIndexIsTheQueryOfTheIndex() {
        Eventually.until("the index holds the ten rock items", () -> client().query(b -> b.tableName(TABLE)
                .indexName("byGenre").keyConditionExpression("genre = :g")
                .expressionAttributeValues(Map.of(":g", s("rock")))).count(), c -> c == 10);
        ExecuteStatementResponse partiql = execute("SELECT pk, sk, n FROM \"" + TABLE + "\".\"byGenre\""
                        + " WHERE genre = 'rock' AND n > 4 AND sk <> 5 ORDER BY n DESC",
                b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        QueryResponse query = client().query(b -> b.tableName(TABLE).indexName("byGenre")
                .keyConditionExpression("genre = :g AND n > :n").filterExpression("sk <> :sk")
                .projectionExpression("pk, sk, n").scanIndexForward(false)
                .expressionAttributeValues(Map.of(":g", s("rock"), ":n", n(4), ":sk", n(5)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(4, partiql.items().size());
        assertSameItems(query.items(), partiql.items());
        assertSameCapacity(query.consumedCapacity(), partiql.consumedCapacity());
    }

    @Test
    void selectWithoutThePartitionKeyIsTheScan() {
        ExecuteStatementResponse partiql = select(" WHERE n >= 6 AND begins_with(text, 'item') AND tags IS NOT MISSING");
        ScanResponse scan = client().scan(b -> b.tableName(TABLE)
                .filterExpression("n >= :n AND begins_with(#t, :p) AND attribute_exists(tags)")
                .expressionAttributeNames(Map.of("#t", "text"))
                .expressionAttributeValues(Map.of(":n", n(6), ":p", s("item")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(12, partiql.items().size());
        assertSameItems(scan.items(), partiql.items());
        assertSameCapacity(scan.consumedCapacity(), partiql.consumedCapacity());
        ExecuteStatementResponse all = select("");
        ScanResponse whole = client().scan(b -> b.tableName(TABLE).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertSameItems(whole.items(), all.items());
        assertSameCapacity(whole.consumedCapacity(), all.consumedCapacity());
    }

    @Test
    void inOnThePartitionKeyIsAQueryOfEachPartitionInTurn() {
        ExecuteStatementResponse partiql = select(" WHERE pk IN ('d', 'a') AND sk >= 4 AND n > 8");
        List<Map<String, AttributeValue>> expected = new ArrayList<>();
        double units = 0;
        for (String pk : List.of("d", "a")) {
            QueryResponse query = client().query(b -> b.tableName(TABLE)
                    .keyConditionExpression("pk = :pk AND sk >= :sk").filterExpression("n > :n")
                    .expressionAttributeValues(Map.of(":pk", s(pk), ":sk", n(4), ":n", n(8)))
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
            expected.addAll(query.items());
            units += query.consumedCapacity().capacityUnits();
        }
        assertEquals(2, partiql.items().size());
        assertSameItems(expected, partiql.items());
        assertEquals(units, partiql.consumedCapacity().capacityUnits());
    }

    @Test
    void limitAndNextTokenPageThroughTheQueriesOfIn() {
        List<Map<String, AttributeValue>> paged = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String from = token;
            ExecuteStatementResponse page = execute("SELECT * FROM \"" + TABLE + "\" WHERE pk IN ['b', 'c']",
                    b -> b.limit(3).nextToken(from));
            assertTrue(page.items().size() <= 3);
            paged.addAll(page.items());
            token = page.nextToken();
            pages++;
        } while (token != null);
        assertEquals(10, paged.size());
        assertEquals(List.of("b", "b", "b", "b", "b", "c", "c", "c", "c", "c"),
                paged.stream().map(i -> i.get("pk").s()).toList());
        assertEquals(4, pages);
    }

    @Test
    void limitAndNextTokenPageThroughTheScan() {
        List<Map<String, AttributeValue>> paged = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String from = token;
            ExecuteStatementResponse page = execute("SELECT * FROM \"" + TABLE + "\"", b -> b.limit(3).nextToken(from));
            assertTrue(page.items().size() <= 3);
            paged.addAll(page.items());
            token = page.nextToken();
            pages++;
        } while (token != null);
        ScanResponse whole = client().scan(b -> b.tableName(TABLE));
        assertSameItems(whole.items(), paged);
        assertTrue(pages >= whole.items().size() / 3, "pages: " + pages);
    }

    @Test
    void selectOfAMissingTableIsResourceNotFound() {
        assertError("ResourceNotFoundException", "Requested resource not found",
                () -> execute("SELECT * FROM \"no_such_table\""));
    }

    // ---- writes -------------------------------------------------------------------------------

    @Test
    void insertOfAnExistingKeyIsDuplicateItem() {
        assertError("DuplicateItemException", "Duplicate primary key exists in table",
                () -> execute("INSERT INTO \"" + TABLE + "\" VALUE {'pk': 'a', 'sk': 1}"));
    }

    @Test
    void updateIsUpdateItemWithTheRestOfWhereAsItsCondition() {
        execute("INSERT INTO \"" + TABLE + "\" VALUE {'pk': 'u', 'sk': 1, 'n': 1, 'gone': 'x'}");
        client().putItem(b -> b.tableName(TABLE).item(Map.of("pk", s("u"), "sk", n(2), "n", n(1), "gone", s("x"))));
        ExecuteStatementResponse partiql = execute("UPDATE \"" + TABLE + "\" SET n = n + 5 SET added = 'yes' REMOVE gone"
                        + " WHERE pk = 'u' AND sk = 1 AND n = 1 RETURNING ALL NEW *",
                b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        UpdateItemResponse json = client().updateItem(b -> b.tableName(TABLE).key(Map.of("pk", s("u"), "sk", n(2)))
                .updateExpression("SET n = n + :five, added = :yes REMOVE gone").conditionExpression("n = :one")
                .expressionAttributeValues(Map.of(":five", n(5), ":yes", s("yes"), ":one", n(1)))
                .returnValues(ReturnValue.ALL_NEW).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(1, partiql.items().size());
        Map<String, AttributeValue> updated = partiql.items().get(0);
        assertEquals(n(6), updated.get("n"));
        assertEquals(s("yes"), updated.get("added"));
        assertFalse(updated.containsKey("gone"));
        assertEquals(json.attributes().get("n"), updated.get("n"));
        assertSameCapacity(json.consumedCapacity(), partiql.consumedCapacity());
        assertError("ConditionalCheckFailedException", "The conditional request failed",
                () -> execute("UPDATE \"" + TABLE + "\" SET n = 0 WHERE pk = 'u' AND sk = 1 AND n = 1"));
        // UPDATE never creates an item.
        assertError("ConditionalCheckFailedException", "The conditional request failed",
                () -> execute("UPDATE \"" + TABLE + "\" SET n = 0 WHERE pk = 'u' AND sk = 99"));
        assertValidation("Where clause does not contain a mandatory equality on all key attributes",
                () -> execute("UPDATE \"" + TABLE + "\" SET n = 0 WHERE pk = 'u'"));
    }

    @Test
    void deleteReturningAllOldIsDeleteItem() {
        execute("INSERT INTO \"" + TABLE + "\" VALUE {'pk': 'del', 'sk': 1, 'v': 'old'}");
        ExecuteStatementResponse deleted = execute("DELETE FROM \"" + TABLE + "\" WHERE pk = ? AND sk = ? RETURNING ALL OLD *",
                s("del"), n(1));
        assertEquals(s("old"), deleted.items().get(0).get("v"));
        assertNull(client().getItem(b -> b.tableName(TABLE).key(Map.of("pk", s("del"), "sk", n(1)))).item().get("pk"));
        execute("INSERT INTO \"" + TABLE + "\" VALUE {'pk': 'del', 'sk': 2, 'v': 'old'}");
        assertError("ConditionalCheckFailedException", "The conditional request failed",
                () -> execute("DELETE FROM \"" + TABLE + "\" WHERE pk = 'del' AND sk = 2 AND v = 'new'"));
    }

    @Test
    void syntaxErrorsAreDynamoDbs() {
        assertValidation("Statement wasn't well formed, can't be processed: Expected data manipulation",
                () -> execute("DROP TABLE x"));
        assertValidation("Number of parameters in request and statement don't match.",
                () -> execute("SELECT * FROM \"" + TABLE + "\" WHERE pk = ?"));
        // One value too many is refused too, and the write it came with is not made.
        assertValidation("Number of parameters in request and statement don't match.",
                () -> execute("SELECT * FROM \"" + TABLE + "\" WHERE pk = ?", s("a"), s("b")));
        assertValidation("Number of parameters in request and statement don't match.",
                () -> execute("INSERT INTO \"" + TABLE + "\" VALUE {'pk': 'extra', 'sk': ?}", n(1), n(2)));
        assertEquals(0, execute("SELECT * FROM \"" + TABLE + "\" WHERE pk = 'extra'").items().size());
    }
}
