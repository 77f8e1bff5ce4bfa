package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.l;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static io.stator.server.testing.DynamoAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertErrorMatches;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static io.stator.server.testing.Transact.assertCancelled;
import static io.stator.server.testing.Transact.check;
import static io.stator.server.testing.Transact.delete;
import static io.stator.server.testing.Transact.put;
import static io.stator.server.testing.Transact.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * TransactWriteItems through the SDK: all or nothing over items of several tables, the
 * request's own errors (ValidationException) apart from the actions' (TransactionCanceledException
 * with one reason per action), the limits at their edge and one past it, and the capacity a
 * transaction consumes. Texts and figures are DynamoDB's as recorded in
 * docs/dynamodb/batches-transactions.md §3 and §6 (dynamodb-conformance and dynoxide's captures against
 * DynamoDB, Scylla's tests, raw responses); where DynamoDB's text is unknown, the test says so
 * and checks Stator's choice.
 */
class TransactWriteItemsTest {

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final String CONDITION_FAILED = "The conditional request failed";
    private static final String NOT_SCHEMA = "The provided key element does not match the schema";
    private static final String ONE_ITEM = "Transaction request cannot include multiple operations on one item";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    /** Keyed by the string "pk". */
    private static String plain;
    private static String other;
    /** Keyed by "pk" and the number "sk". */
    private static String sorted;
    /**
     * dynoxide's capture table: pk/sk strings, a GSI "gsi-inc" on gsiPk projecting INCLUDE [proj],
     * an LSI "lsi-all" on pk/lsiSk projecting ALL.
     */
    private static String indexed;

    @BeforeAll
    static void createTables() {
        plain = onDemand();
        other = onDemand();
        sorted = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(sorted).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.N))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE)));
        indexed = createIndexedTable(server.client());
    }

    private static String onDemand() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        return table;
    }

    /** The table dynoxide measured DynamoDB's transactional capacity on (see the class comment). */
    static String createIndexedTable(DynamoDbClient client) {
        String table = StatorTestServer.tableName();
        client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.S),
                        Tables.definition("gsiPk", ScalarAttributeType.S),
                        Tables.definition("lsiSk", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("gsi-inc").keySchema(Tables.key("gsiPk", KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("proj")))
                .localSecondaryIndexes(i -> i.indexName("lsi-all")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("lsiSk", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL))));
        return table;
    }

    // ---- helpers ----------------------------------------------------------------------------

    private static String unique() {
        return UUID.randomUUID().toString();
    }

    private static Map<String, AttributeValue> key(String pk) {
        return item("pk", s(pk));
    }

    private static TransactWriteItemsResponse write(TransactWriteItem... actions) {
        return server.client().transactWriteItems(b -> b.transactItems(actions));
    }

    private static TransactWriteItemsResponse write(ReturnConsumedCapacity mode, TransactWriteItem... actions) {
        return server.client().transactWriteItems(b -> b.transactItems(actions).returnConsumedCapacity(mode));
    }

    /** The item with the key of {@code keyOrItem} ("pk", and "sk" when it has one), or null. */
    private static Map<String, AttributeValue> read(String table, Map<String, AttributeValue> keyOrItem) {
        Map<String, AttributeValue> key = item("pk", keyOrItem.get("pk"));
        if (keyOrItem.containsKey("sk")) key.put("sk", keyOrItem.get("sk"));
        var response = server.client().getItem(b -> b.tableName(table).key(key).consistentRead(true));
        return response.hasItem() ? response.item() : null;
    }

    private static void seed(String table, Map<String, AttributeValue> item) {
        server.client().putItem(b -> b.tableName(table).item(item));
    }

    /** The only entry of a transaction's ConsumedCapacity (a transaction on one table). */
    private static ConsumedCapacity only(TransactWriteItemsResponse response) {
        assertEquals(1, response.consumedCapacity().size(), () -> response.consumedCapacity().toString());
        return response.consumedCapacity().get(0);
    }

    private static String pad(int n) {
        return "x".repeat(n);
    }

    // ---- all or nothing ---------------------------------------------------------------------

    @Test
    void transactionAppliesEveryKindOfActionAcrossTables() {
        String a = unique();
        String b = unique();
        String c = unique();
        seed(other, item("pk", s(b), "n", n("1")));
        seed(plain, item("pk", s(c), "x", s("old")));

        TransactWriteItemsResponse response = write(
                put(plain, item("pk", s(a), "x", s("new"))),
                update(other, key(b), "SET n = n + :one", "n = :one", item(":one", n("1"))),
                delete(plain, key(c), "attribute_exists(pk)"),
                check(other, key(unique()), "attribute_not_exists(pk)"));

        assertTrue(response.consumedCapacity().isEmpty(), "no ConsumedCapacity unless asked for");
        assertFalse(response.hasItemCollectionMetrics());
        assertSameItem(item("pk", s(a), "x", s("new")), read(plain, key(a)));
        assertSameItem(item("pk", s(b), "n", n("2")), read(other, key(b)));
        assertNull(read(plain, key(c)));
    }

    @Test
    void successfulTransactionAnswersAnEmptyObject() {
        RawResponses raw = new RawResponses();
        try (DynamoDbClient client = server.newClient(raw)) {
            client.transactWriteItems(b -> b.transactItems(put(plain, key(unique()))));
        }
        // The model's output has only ConsumedCapacity and ItemCollectionMetrics, both not asked for.
        assertEquals("{}", new String(raw.lastBytes()).trim());
    }

    @Test
    void conditionCheckWritesNothing() {
        Map<String, AttributeValue> k = key(unique());

        write(check(plain, k, "attribute_not_exists(pk)"));

        assertNull(read(plain, k));
    }

    @Test
    void updateOfAMissingItemCreatesIt() {
        Map<String, AttributeValue> k = item("pk", s(unique()), "sk", n("7"));

        write(update(sorted, k, "SET a = :a", item(":a", s("v"))));

        assertSameItem(item("pk", k.get("pk"), "sk", n("7"), "a", s("v")), read(sorted, k));
    }

    @Test
    void deleteOfAMissingItemSucceeds() {
        Map<String, AttributeValue> k = key(unique());

        write(delete(plain, k), put(plain, key(unique())));

        assertNull(read(plain, k));
    }

    @Test
    void failedConditionCancelsEveryAction() {
        String a = unique();
        String b = unique();
        String c = unique();
        seed(plain, item("pk", s(b), "n", n("1")));
        seed(other, item("pk", s(c), "x", s("kept")));

        TransactionCanceledException e = assertCancelled(List.of("None", "None", "ConditionalCheckFailed", "None"),
                () -> write(
                        put(plain, item("pk", s(a))),
                        update(plain, key(b), "SET n = n + :one", item(":one", n("1"))),
                        check(other, key(unique()), "attribute_exists(pk)"),
                        delete(other, key(c))));

        CancellationReason failed = e.cancellationReasons().get(2);
        assertEquals(CONDITION_FAILED, failed.message());
        assertFalse(failed.hasItem(), "no Item unless ReturnValuesOnConditionCheckFailure is ALL_OLD");
        assertNull(read(plain, key(a)));
        assertSameItem(item("pk", s(b), "n", n("1")), read(plain, key(b)));
        assertSameItem(item("pk", s(c), "x", s("kept")), read(other, key(c)));
    }

    @Test
    void everyFailedConditionIsReported() {
        String exists = unique();
        seed(plain, key(exists));

        // As Scylla's test against DynamoDB shows: no short cut after the first failure.
        assertCancelled(List.of("None", "None", "ConditionalCheckFailed", "ConditionalCheckFailed"), () -> write(
                put(plain, key(unique())),
                put(plain, key(unique()), "attribute_not_exists(pk)"),
                check(plain, key(unique()), "attribute_exists(pk)"),
                put(plain, key(exists), "attribute_not_exists(pk)")));
    }

    @Test
    void noneReasonsCarryNothingButTheirCode() {
        String exists = unique();
        Map<String, AttributeValue> stored = item("pk", s(exists), "x", n("42"));
        seed(plain, stored);
        RawResponses raw = new RawResponses();
        try (DynamoDbClient client = server.newClient(raw)) {
            assertCancelled(List.of("None", "ConditionalCheckFailed"), () -> client.transactWriteItems(b ->
                    b.transactItems(put(plain, key(unique())), TransactWriteItem.builder().conditionCheck(c -> c
                            .tableName(plain).key(key(exists)).conditionExpression("x = :v")
                            .expressionAttributeValues(item(":v", n("43")))
                            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                            .build())));
        }
        // The wire form DynamoDB sends (raw responses quoted in boto3#2657 and erlcloud#607):
        // {"Code":"None"} alone; Code, Item, Message for a failed condition; "Message" capitalized.
        JsonNode body = raw.lastJson();
        assertEquals("com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
                body.field("__type").orElseThrow().text());
        assertTrue(body.field("Message").isPresent());
        List<JsonNode> reasons = body.field("CancellationReasons").orElseThrow().asArray();
        assertEquals("None", reasons.get(0).field("Code").orElseThrow().text());
        assertEquals(List.of("Code"), List.copyOf(reasons.get(0).asObject().keySet()));
        assertEquals(List.of("Code", "Item", "Message"), List.copyOf(reasons.get(1).asObject().keySet()));
    }

    @Test
    void failedConditionReturnsTheOldItemOfEachKindOfActionWhenAsked() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Map<String, AttributeValue> stored = item("pk", s(unique()), "x", n("42"), "y", s("dog"));
            seed(plain, stored);
            items.add(stored);
        }
        Map<String, AttributeValue> values = item(":v", n("43"));
        ReturnValuesOnConditionCheckFailure allOld = ReturnValuesOnConditionCheckFailure.ALL_OLD;

        TransactionCanceledException e = assertCancelled(List.of("ConditionalCheckFailed", "ConditionalCheckFailed",
                "ConditionalCheckFailed", "ConditionalCheckFailed"), () -> write(
                TransactWriteItem.builder().put(p -> p.tableName(plain).item(key(items.get(0).get("pk").s()))
                        .conditionExpression("x = :v").expressionAttributeValues(values)
                        .returnValuesOnConditionCheckFailure(allOld)).build(),
                TransactWriteItem.builder().update(u -> u.tableName(plain).key(key(items.get(1).get("pk").s()))
                        .updateExpression("SET y = :v").conditionExpression("x = :v")
                        .expressionAttributeValues(values).returnValuesOnConditionCheckFailure(allOld)).build(),
                TransactWriteItem.builder().delete(d -> d.tableName(plain).key(key(items.get(2).get("pk").s()))
                        .conditionExpression("x = :v").expressionAttributeValues(values)
                        .returnValuesOnConditionCheckFailure(allOld)).build(),
                TransactWriteItem.builder().conditionCheck(c -> c.tableName(plain).key(key(items.get(3).get("pk").s()))
                        .conditionExpression("x = :v").expressionAttributeValues(values)
                        .returnValuesOnConditionCheckFailure(allOld)).build()));

        for (int i = 0; i < 4; i++) {
            CancellationReason reason = e.cancellationReasons().get(i);
            assertSameItem(items.get(i), reason.item());
            assertEquals(CONDITION_FAILED, reason.message());
            assertSameItem(items.get(i), read(plain, items.get(i)));
        }
    }

    @Test
    void failedConditionOnAMissingItemReturnsNoItem() {
        TransactionCanceledException e = assertCancelled(List.of("ConditionalCheckFailed"), () -> write(
                TransactWriteItem.builder().conditionCheck(c -> c.tableName(plain).key(key(unique()))
                        .conditionExpression("attribute_exists(pk)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)).build()));

        assertFalse(e.cancellationReasons().get(0).hasItem());
    }

    // ---- cancellation reasons: ValidationError ----------------------------------------------

    @Test
    void onlyTheFirstValidationErrorIsReportedAndConditionsAreNotChecked() {
        String p = unique();

        // Scylla's test against DynamoDB: [ValidationError, None, None], the third action's false
        // condition not evaluated.
        TransactionCanceledException e = assertCancelled(List.of("ValidationError", "None", "None"), () -> write(
                put(plain, item("pk", n("7"))),
                put(plain, item("pk", n("8"))),
                put(plain, key(p), "attribute_exists(pk)")));

        assertEquals(INVALID + "Type mismatch for key pk expected: S actual: N", e.cancellationReasons().get(0).message());
        assertNull(e.cancellationReasons().get(1).message());
    }

    @Test
    void putWithANonScalarKeyIsAValidationError() {
        TransactionCanceledException e = assertCancelled(List.of("ValidationError"),
                () -> write(put(plain, item("pk", l(s("a"))))));

        assertEquals(INVALID + "Type mismatch for key pk expected: S actual: L", e.cancellationReasons().get(0).message());
    }

    @Test
    void keyOfAnotherTypeInUpdateDeleteOrConditionCheckIsAValidationError() {
        Map<String, AttributeValue> wrong = item("pk", n("1"));
        List<TransactWriteItem> actions = List.of(
                update(plain, wrong, "SET a = :a", item(":a", s("v"))),
                delete(plain, wrong),
                check(plain, wrong, "attribute_exists(pk)"));
        for (TransactWriteItem action : actions) {
            TransactionCanceledException e = assertCancelled(List.of("None", "ValidationError"),
                    () -> write(put(plain, key(unique())), action));
            assertEquals(NOT_SCHEMA, e.cancellationReasons().get(1).message());
        }
    }

    @Test
    void keyWithAMissingOrExtraAttributeIsAValidationError() {
        Map<String, AttributeValue> missingSortKey = item("pk", s(unique()));
        Map<String, AttributeValue> extra = item("pk", s(unique()), "sk", n("1"), "x", s("y"));
        for (Map<String, AttributeValue> k : List.of(missingSortKey, extra)) {
            TransactionCanceledException e = assertCancelled(List.of("ValidationError"),
                    () -> write(delete(sorted, k)));
            assertEquals(NOT_SCHEMA, e.cancellationReasons().get(0).message());
        }
    }

    @Test
    void indexKeyOfAnotherTypeIsAValidationError() {
        Map<String, AttributeValue> bad = item("pk", s(unique()), "sk", s("1"), "lsiSk", n("5"));

        TransactionCanceledException e = assertCancelled(List.of("None", "ValidationError"),
                () -> write(put(plain, key(unique())), put(indexed, bad)));

        assertEquals(INVALID + "Type mismatch for Index Key lsiSk Expected: S Actual: N IndexName: lsi-all",
                e.cancellationReasons().get(1).message());
        assertNull(read(indexed, item("pk", bad.get("pk"), "sk", s("1"))));
    }

    @Test
    void updateSettingAnIndexKeyToAnotherTypeIsAValidationError() {
        Map<String, AttributeValue> k = item("pk", s(unique()), "sk", s("1"));

        TransactionCanceledException e = assertCancelled(List.of("ValidationError"),
                () -> write(update(indexed, k, "SET gsiPk = :v", item(":v", n("1")))));

        assertEquals(INVALID + "Type mismatch for Index Key gsiPk Expected: S Actual: N IndexName: gsi-inc",
                e.cancellationReasons().get(0).message());
    }

    @Test
    void updateReferringToAMissingAttributeIsAValidationError() {
        String p = unique();
        seed(plain, key(p));

        // As a raw response quoted in aws-sdk-net#1292 shows: [None, ValidationError].
        TransactionCanceledException e = assertCancelled(List.of("None", "ValidationError"), () -> write(
                put(plain, key(unique())),
                update(plain, key(p), "SET n = n + :one", item(":one", n("1")))));

        assertEquals("The provided expression refers to an attribute that does not exist in the item",
                e.cancellationReasons().get(1).message());
    }

    @Test
    void updateMakingAnItemLargerThan400KBIsAValidationError() {
        String p = unique();
        seed(plain, DynamoSize.padded(key(p), 300_000));

        TransactionCanceledException e = assertCancelled(List.of("ValidationError"), () -> write(
                update(plain, key(p), "SET more = :v", item(":v", s(pad(200_000))))));

        assertTrue(e.cancellationReasons().get(0).message()
                .contains("Item size to update has exceeded the maximum allowed size"), e.cancellationReasons()::toString);
        assertEquals(300_000, DynamoSize.of(read(plain, key(p))));
    }

    // ---- the request's own errors -----------------------------------------------------------

    @Test
    void transactionOfOneHundredActionsIsAccepted() {
        List<TransactWriteItem> actions = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String p = unique();
            keys.add(p);
            actions.add(put(i % 2 == 0 ? plain : other, item("pk", s(p), "i", n(Integer.toString(i)))));
        }

        server.client().transactWriteItems(b -> b.transactItems(actions));

        for (int i = 0; i < 100; i++) {
            assertSameItem(item("pk", s(keys.get(i)), "i", n(Integer.toString(i))),
                    read(i % 2 == 0 ? plain : other, key(keys.get(i))));
        }
    }

    @Test
    void transactionOfOneHundredAndOneActionsIsRefused() {
        List<TransactWriteItem> actions = new ArrayList<>();
        for (int i = 0; i < 101; i++) actions.add(put(plain, key(unique())));

        // The older of DynamoDB's two wordings (dynamodb-conformance); the dump of the list varies.
        assertErrorMatches("ValidationException", "(?s)1 validation error detected: Value '\\[.*\\]' at "
                + "'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100",
                () -> server.client().transactWriteItems(b -> b.transactItems(actions)));
        assertNull(read(plain, actions.get(0).put().item()));
    }

    @Test
    void emptyTransactionIsRefused() {
        assertValidation("1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 1",
                () -> server.client().transactWriteItems(b -> b.transactItems(List.of())));
    }

    @Test
    void actionWithoutAnOperationIsRefused() {
        // us-east-1's text (dynamodb-conformance, 2026).
        assertValidation("Invalid Request: TransactWriteRequest should contain Delete or Put or Update request",
                () -> write(put(plain, key(unique())), TransactWriteItem.builder().build()));
    }

    @Test
    void actionWithTwoOperationsIsRefused() {
        // DynamoDB's text is unknown; Stator gives the one AWS's DAX clients give.
        assertValidation("TransactItems can only contain one of ConditionCheck, Put, Update or Delete",
                () -> write(TransactWriteItem.builder().put(p -> p.tableName(plain).item(key(unique())))
                        .delete(d -> d.tableName(plain).key(key(unique()))).build()));
    }

    @Test
    void twoActionsOnOneItemAreRefusedWhateverTheirKinds() {
        String p = unique();
        Map<String, AttributeValue> k = key(p);
        List<List<TransactWriteItem>> pairs = List.of(
                List.of(put(plain, k), put(plain, item("pk", s(p), "x", s("y")))),
                List.of(put(plain, k), check(plain, k, "attribute_not_exists(pk)")),
                List.of(update(plain, k, "SET a = :a", item(":a", s("v"))), delete(plain, k)),
                List.of(check(plain, k, "attribute_not_exists(pk)"), check(plain, k, "attribute_not_exists(pk)")));
        for (List<TransactWriteItem> pair : pairs) {
            assertValidation(pair.toString(), ONE_ITEM,
                    () -> server.client().transactWriteItems(b -> b.transactItems(pair)));
        }
        assertNull(read(plain, k));
    }

    @Test
    void keyAttributeOrderDoesNotMakeAnotherItem() {
        String p = unique();
        Map<String, AttributeValue> pkFirst = item("pk", s(p), "sk", n("1"));
        Map<String, AttributeValue> skFirst = item("sk", n("1.0"), "pk", s(p));

        assertValidation(ONE_ITEM, () -> write(put(sorted, item("pk", s(p), "sk", n("1"), "a", s("b"))),
                delete(sorted, skFirst)));
        assertValidation(ONE_ITEM, () -> write(delete(sorted, pkFirst), delete(sorted, skFirst)));
    }

    @Test
    void sameKeyInTwoTablesNamesTwoItems() {
        Map<String, AttributeValue> k = key(unique());

        write(put(plain, k), put(other, k));

        assertSameItem(k, read(plain, k));
        assertSameItem(k, read(other, k));
    }

    @Test
    void unknownTableIsRefusedAndNothingIsWritten() {
        Map<String, AttributeValue> k = key(unique());

        assertError("ResourceNotFoundException", "Requested resource not found",
                () -> write(put(plain, k), put("no-such-table", key(unique()))));

        assertNull(read(plain, k));
    }

    @Test
    void badTableNameIsAConstraintOfItsAction() {
        // dynamodb-conformance, exact in us-east-1 and eu-west-2: the 1-based action and its kind.
        assertValidation("1 validation error detected: Value 'bad!name' at 'transactItems.2.member.update.tableName' "
                + "failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                () -> write(put(plain, key(unique())),
                        update("bad!name", key(unique()), "SET a = :a", item(":a", s("v")))));
    }

    @Test
    void emptyKeyValueIsTheRequestsError() {
        assertValidation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                + "contain an empty string value. Key: pk", () -> write(put(plain, key(unique())), delete(plain, key(""))));
        assertValidation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                + "contain an empty string value. Key: pk", () -> write(put(plain, key(""))));
    }

    @Test
    void emptyIndexKeyValueInAPutIsTheRequestsError() {
        Map<String, AttributeValue> k = item("pk", s(unique()), "sk", s("1"));

        // dynamodb-conformance (eu-west-2): a top-level ValidationException, not a cancellation.
        assertValidation("One or more parameter values are not valid. A value specified for a secondary index key "
                + "is not supported. The AttributeValue for a key attribute cannot contain an empty string value. "
                + "IndexName: gsi-inc, IndexKey: gsiPk",
                () -> write(put(indexed, item("pk", k.get("pk"), "sk", s("1"), "gsiPk", s("")))));
        assertNull(read(indexed, k));
    }

    @Test
    void emptyIndexKeyValueInAnUpdateIsTheRequestsError() {
        Map<String, AttributeValue> k = item("pk", s(unique()), "sk", s("1"));

        // dynamodb-conformance: the update's own text, without the index's name.
        assertValidation("One or more parameter values are not valid. The update expression attempted to update a "
                + "secondary index key to a value that is not supported. The AttributeValue for a key attribute "
                + "cannot contain an empty string value.",
                () -> write(update(indexed, k, "SET lsiSk = :v", item(":v", s("")))));
        assertNull(read(indexed, k));
    }

    @Test
    void expressionErrorsAreTheRequestsErrors() {
        Map<String, AttributeValue> k = key(unique());
        assertValidation("Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}",
                () -> write(put(plain, key(unique())), TransactWriteItem.builder().put(p -> p.tableName(plain).item(k)
                        .conditionExpression("attribute_not_exists(pk)")
                        .expressionAttributeValues(item(":v", s("x")))).build()));
        assertValidation("Invalid ConditionExpression: The expression can not be empty;",
                () -> write(TransactWriteItem.builder().conditionCheck(c -> c.tableName(plain).key(k)
                        .conditionExpression("")).build()));
        assertValidation("Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"(\"",
                () -> write(put(plain, k, "attribute_exists(")));
        assertValidation("ExpressionAttributeValues must not be empty",
                () -> write(TransactWriteItem.builder().update(u -> u.tableName(plain).key(k)
                        .updateExpression("SET a = b").expressionAttributeValues(Map.of())).build()));
        assertValidation("Invalid UpdateExpression: The \"SET\" section can only be used once in an update expression;",
                () -> write(update(plain, k, "SET a = :a SET b = :a", item(":a", s("v")))));
        assertNull(read(plain, k));
    }

    @Test
    void conditionCheckWithoutAConditionIsRefused() {
        // Scylla's test only shows a ValidationException naming ConditionExpression; this is the
        // generic form of a missing required member.
        assertValidation("1 validation error detected: Value null at 'transactItems.1.member.conditionCheck."
                        + "conditionExpression' failed to satisfy constraint: Member must not be null",
                () -> write(TransactWriteItem.builder().conditionCheck(c -> c.tableName(plain).key(key(unique())))
                        .build()));
    }

    @Test
    void badReturnValuesOnConditionCheckFailureIsTheRequestsError() {
        // Scylla's test: a ValidationException naming the member, not a cancellation. Its exact
        // text is unknown; this is the generic enum constraint.
        for (String value : List.of("none", "dog")) {
            assertValidation("1 validation error detected: Value '" + value + "' at 'transactItems.1.member.put."
                            + "returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must satisfy "
                            + "enum value set: [ALL_OLD, NONE]",
                    () -> write(TransactWriteItem.builder().put(p -> p.tableName(plain).item(key(unique()))
                            .conditionExpression("attribute_not_exists(pk)")
                            .returnValuesOnConditionCheckFailure(value)).build()));
        }
    }

    @Test
    void clientRequestTokenOfThirtySixCharactersIsAcceptedAndThirtySevenRefused() {
        String token36 = (unique() + unique()).substring(0, 36);
        String token37 = (unique() + unique()).substring(0, 37);
        server.client().transactWriteItems(b -> b.clientRequestToken(token36).transactItems(put(plain, key(unique()))));

        // Scylla's test only shows a ValidationException naming ClientRequestToken; this is the
        // generic length constraint.
        assertValidation("1 validation error detected: Value '" + token37 + "' at 'clientRequestToken' failed to "
                + "satisfy constraint: Member must have length less than or equal to 36",
                () -> server.client().transactWriteItems(b -> b.clientRequestToken(token37)
                        .transactItems(put(plain, key(unique())))));
    }

    // ---- sizes --------------------------------------------------------------------------------

    @Test
    void putOfAnItemOf400KBIsAcceptedAndOneByteMoreRefused() {
        Map<String, AttributeValue> edge = DynamoSize.padded(key(unique()), 409_600);
        Map<String, AttributeValue> over = DynamoSize.padded(key(unique()), 409_601);

        write(put(plain, edge));
        // dynamodb-conformance: a top-level error, found before the transaction starts.
        assertValidation("Item size has exceeded the maximum allowed size", () -> write(put(plain, over)));

        assertSameItem(edge, read(plain, edge));
        assertNull(read(plain, over));
    }

    /**
     * A transaction of {@code count} Puts whose items add up to {@code total} bytes. DynamoDB
     * limits a transaction to 4 MB, counted on what the request carries (Scylla's tests); the
     * exact edge is unknown, and Stator's is 4 MiB of item and key bytes.
     */
    private static List<TransactWriteItem> putsOfTotalSize(long total) {
        List<TransactWriteItem> actions = new ArrayList<>();
        long left = total;
        while (left > 0) {
            long size = Math.min(left, 400_000);
            if (left - size > 0 && left - size < 100) size -= 100; // every item needs room for its key
            actions.add(put(plain, DynamoSize.padded(key(unique()), size)));
            left -= size;
        }
        return actions;
    }

    @Test
    void transactionOf4MBIsAcceptedAndOneByteMoreRefused() {
        List<TransactWriteItem> edge = putsOfTotalSize(4L * 1024 * 1024);
        List<TransactWriteItem> over = putsOfTotalSize(4L * 1024 * 1024 + 1);

        server.client().transactWriteItems(b -> b.transactItems(edge));
        // DynamoDB's text is unknown; it contains "size cannot exceed" (Scylla's test) and speaks
        // of the transaction payload.
        assertValidation("Transaction payload size cannot exceed 4 MB",
                () -> server.client().transactWriteItems(b -> b.transactItems(over)));

        for (TransactWriteItem a : edge) assertSameItem(a.put().item(), read(plain, a.put().item()));
        for (TransactWriteItem a : over) assertNull(read(plain, a.put().item()));
    }

    @Test
    void transactionDeletingMoreThan4MBOfItemsIsAccepted() {
        // Scylla's test against DynamoDB: the limit is on the request, not on the items it names.
        List<TransactWriteItem> deletes = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Map<String, AttributeValue> big = DynamoSize.padded(key(unique()), 100_000);
            seed(plain, big);
            deletes.add(delete(plain, key(big.get("pk").s())));
        }

        server.client().transactWriteItems(b -> b.transactItems(deletes));

        for (TransactWriteItem d : deletes) assertNull(read(plain, d.delete().key()));
    }

    // ---- indexes --------------------------------------------------------------------------------

    @Test
    void indexesSeeTheWholeTransaction() {
        String gsiKey = unique();
        String pk = unique();
        write(put(indexed, item("pk", s(pk), "sk", s("a"), "gsiPk", s(gsiKey), "lsiSk", s("1"))),
                put(indexed, item("pk", s(pk), "sk", s("b"), "gsiPk", s(gsiKey), "lsiSk", s("2"))),
                put(plain, key(unique())));

        assertEquals(2, server.client().query(b -> b.tableName(indexed).indexName("lsi-all").consistentRead(true)
                .keyConditionExpression("pk = :p").expressionAttributeValues(item(":p", s(pk)))).count());
        assertEquals(2, awaitGsiCount(gsiKey, 2));

        // A cancelled transaction leaves no index entry either.
        String cancelledGsiKey = unique();
        String cancelledPk = unique();
        assertCancelled(List.of("None", "ConditionalCheckFailed"), () -> write(
                put(indexed, item("pk", s(cancelledPk), "sk", s("a"), "gsiPk", s(cancelledGsiKey), "lsiSk", s("1"))),
                check(plain, key(unique()), "attribute_exists(pk)")));
        assertEquals(0, server.client().query(b -> b.tableName(indexed).indexName("lsi-all").consistentRead(true)
                .keyConditionExpression("pk = :p").expressionAttributeValues(item(":p", s(cancelledPk)))).count());
        assertEquals(0, gsiCount(cancelledGsiKey));
    }

    private static int gsiCount(String gsiKey) {
        return server.client().query(b -> b.tableName(indexed).indexName("gsi-inc")
                .keyConditionExpression("gsiPk = :g").expressionAttributeValues(item(":g", s(gsiKey)))).count();
    }

    /** Global indexes are updated after the write, as DynamoDB's are: waits for the count. */
    private static int awaitGsiCount(String gsiKey, int expected) {
        return awaitValue(() -> gsiCount(gsiKey), expected, Duration.ofSeconds(10));
    }

    private static int awaitValue(Supplier<Integer> value, int expected, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int v = value.get();
        while (v != expected && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            v = value.get();
        }
        return v;
    }

    @Test
    void itemCollectionMetricsArePerTableWhenAsked() {
        String pk = unique();
        TransactWriteItemsResponse response = server.client().transactWriteItems(b -> b
                .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)
                .transactItems(put(indexed, item("pk", s(pk), "sk", s("a"), "lsiSk", s("1"))),
                        put(indexed, item("pk", s(pk), "sk", s("b"))),
                        put(plain, key(unique()))));

        assertEquals(List.of(indexed), List.copyOf(response.itemCollectionMetrics().keySet()),
                "only tables with a local index have item collections");
        var metrics = response.itemCollectionMetrics().get(indexed);
        assertEquals(2, metrics.size());
        for (var m : metrics) {
            assertEquals(Map.of("pk", s(pk)), m.itemCollectionKey());
            assertEquals(List.of(0.0, 1.0), m.sizeEstimateRangeGB());
        }
    }

    // ---- capacity (dynoxide's measurements of DynamoDB, notes §6) ----------------------------

    private static Map<String, AttributeValue> indexedKey(String pk) {
        return item("pk", s(pk), "sk", s("1"));
    }

    private static Double gsi(ConsumedCapacity c) {
        return c.hasGlobalSecondaryIndexes() ? c.globalSecondaryIndexes().get("gsi-inc").capacityUnits() : null;
    }

    private static Double lsi(ConsumedCapacity c) {
        return c.hasLocalSecondaryIndexes() ? c.localSecondaryIndexes().get("lsi-all").capacityUnits() : null;
    }

    @Test
    void putChargesTheTableTwiceAndItsIndexesOnce() {
        // Captures A1, A2, A3.
        ConsumedCapacity a1 = only(write(ReturnConsumedCapacity.INDEXES,
                put(indexed, item("pk", s(unique()), "sk", s("1"), "gsiPk", s("g1")))));
        assertEquals(3.0, a1.capacityUnits());
        assertEquals(2.0, a1.table().capacityUnits());
        assertEquals(1.0, gsi(a1));
        assertNull(lsi(a1));

        ConsumedCapacity a2 = only(write(ReturnConsumedCapacity.INDEXES,
                put(indexed, item("pk", s(unique()), "sk", s("1"), "unprojected", s("o")))));
        assertEquals(2.0, a2.capacityUnits());
        assertEquals(2.0, a2.table().capacityUnits());
        assertFalse(a2.hasGlobalSecondaryIndexes());
        assertFalse(a2.hasLocalSecondaryIndexes());

        ConsumedCapacity a3 = only(write(ReturnConsumedCapacity.INDEXES, put(indexed, item("pk", s(unique()),
                "sk", s("1"), "gsiPk", s("g1"), "lsiSk", s("L1"), "proj", s("p")))));
        assertEquals(4.0, a3.capacityUnits());
        assertEquals(2.0, a3.table().capacityUnits());
        assertEquals(1.0, gsi(a3));
        assertEquals(1.0, lsi(a3));
    }

    @Test
    void transactionalUnitsAreRepeatedAsWriteCapacityUnitsAtEveryLevel() {
        ConsumedCapacity c = only(write(ReturnConsumedCapacity.INDEXES, put(indexed, item("pk", s(unique()),
                "sk", s("1"), "gsiPk", s("g1"), "lsiSk", s("L1")))));

        // dynoxide's capture: the transactional shape repeats the units as WriteCapacityUnits.
        assertEquals(indexed, c.tableName());
        assertEquals(4.0, c.writeCapacityUnits());
        assertEquals(2.0, c.table().writeCapacityUnits());
        assertEquals(1.0, c.globalSecondaryIndexes().get("gsi-inc").writeCapacityUnits());
        assertEquals(1.0, c.localSecondaryIndexes().get("lsi-all").writeCapacityUnits());

        ConsumedCapacity total = only(write(ReturnConsumedCapacity.TOTAL, put(indexed, item("pk", s(unique()),
                "sk", s("1"), "gsiPk", s("g1"), "lsiSk", s("L1")))));
        assertEquals(4.0, total.capacityUnits());
        assertEquals(4.0, total.writeCapacityUnits());
        assertNull(total.table(), "TOTAL has no per-table breakdown");
        assertFalse(total.hasGlobalSecondaryIndexes());
    }

    @Test
    void updatesAndDeletesChargeIndexesAsOutsideATransaction() {
        // Capture A5: an update outside the GSI's projection costs the LSI only.
        String a5 = unique();
        seed(indexed, item("pk", s(a5), "sk", s("1"), "gsiPk", s("g1"), "lsiSk", s("L1"), "unprojected", s("o")));
        ConsumedCapacity c5 = only(write(ReturnConsumedCapacity.INDEXES,
                update(indexed, indexedKey(a5), "SET unprojected = :v", item(":v", s("o2")))));
        assertEquals(3.0, c5.capacityUnits());
        assertEquals(2.0, c5.table().capacityUnits());
        assertNull(gsi(c5));
        assertEquals(1.0, lsi(c5));

        // Capture A7: moving a GSI key is a delete and a put in the index, not doubled.
        String a7 = unique();
        seed(indexed, item("pk", s(a7), "sk", s("1"), "gsiPk", s("g1"), "lsiSk", s("L1")));
        ConsumedCapacity c7 = only(write(ReturnConsumedCapacity.INDEXES,
                update(indexed, indexedKey(a7), "SET gsiPk = :v", item(":v", s("g2")))));
        assertEquals(5.0, c7.capacityUnits());
        assertEquals(2.0, c7.table().capacityUnits());
        assertEquals(2.0, gsi(c7));
        assertEquals(1.0, lsi(c7));

        // Capture A10.
        String a10 = unique();
        seed(indexed, item("pk", s(a10), "sk", s("1"), "gsiPk", s("g1"), "lsiSk", s("L1")));
        ConsumedCapacity c10 = only(write(ReturnConsumedCapacity.INDEXES, delete(indexed, indexedKey(a10))));
        assertEquals(4.0, c10.capacityUnits());
        assertEquals(2.0, c10.table().capacityUnits());
        assertEquals(1.0, gsi(c10));
        assertEquals(1.0, lsi(c10));

        // Capture F4: an update creating the item puts one entry in each index.
        ConsumedCapacity f4 = only(write(ReturnConsumedCapacity.INDEXES, update(indexed, indexedKey(unique()),
                "SET gsiPk = :g, lsiSk = :l", item(":g", s("g1"), ":l", s("L1")))));
        assertEquals(4.0, f4.capacityUnits());
        assertEquals(2.0, f4.table().capacityUnits());
        assertEquals(1.0, gsi(f4));
        assertEquals(1.0, lsi(f4));
    }

    @Test
    void conditionCheckChargesTheItemItReadsAndNoIndex() {
        // Captures A12 and F1.
        String small = unique();
        seed(indexed, item("pk", s(small), "sk", s("1"), "gsiPk", s("g1"), "lsiSk", s("L1")));
        ConsumedCapacity a12 = only(write(ReturnConsumedCapacity.INDEXES,
                check(indexed, indexedKey(small), "attribute_exists(pk)")));
        assertEquals(2.0, a12.capacityUnits());
        assertEquals(2.0, a12.table().capacityUnits());
        assertFalse(a12.hasGlobalSecondaryIndexes());
        assertFalse(a12.hasLocalSecondaryIndexes());

        String big = unique();
        seed(indexed, item("pk", s(big), "sk", s("1"), "unprojected", s(pad(3000))));
        ConsumedCapacity f1 = only(write(ReturnConsumedCapacity.INDEXES,
                check(indexed, indexedKey(big), "attribute_exists(pk)")));
        assertEquals(6.0, f1.capacityUnits());
    }

    @Test
    void writesAreSizedOnTheLargerOfTheOldAndNewItem() {
        // Capture B3: a shrinking Put is sized on the item it replaced.
        String b3 = unique();
        seed(indexed, item("pk", s(b3), "sk", s("1"), "unprojected", s(pad(3000))));
        assertEquals(6.0, only(write(ReturnConsumedCapacity.INDEXES, put(indexed, indexedKey(b3)))).capacityUnits());

        // Capture B5: a Delete is sized on the stored item, the GSI on its entry.
        String b5 = unique();
        seed(indexed, item("pk", s(b5), "sk", s("1"), "gsiPk", s("g1"), "proj", s(pad(3000))));
        ConsumedCapacity c5 = only(write(ReturnConsumedCapacity.INDEXES, delete(indexed, indexedKey(b5))));
        assertEquals(6.0, c5.table().capacityUnits());
        assertEquals(3.0, gsi(c5));
        assertEquals(9.0, c5.capacityUnits());

        // Capture B7: a key move of a 1.5 KB entry, the table doubled and the GSI not.
        String b7 = unique();
        seed(indexed, item("pk", s(b7), "sk", s("1"), "gsiPk", s("g1"), "proj", s(pad(1500))));
        ConsumedCapacity c7 = only(write(ReturnConsumedCapacity.INDEXES,
                update(indexed, indexedKey(b7), "SET gsiPk = :v", item(":v", s("g9")))));
        assertEquals(4.0, c7.table().capacityUnits());
        assertEquals(4.0, gsi(c7));
        assertEquals(8.0, c7.capacityUnits());

        // Capture K1: a Delete of a missing item costs the minimum.
        ConsumedCapacity k1 = only(write(ReturnConsumedCapacity.INDEXES, delete(indexed, indexedKey(unique()))));
        assertEquals(2.0, k1.capacityUnits());
        assertFalse(k1.hasGlobalSecondaryIndexes());
    }

    @Test
    void capacityIsOneEntryPerTableSummedOverItsActions() {
        // Capture A13: two Puts on one table, every part summed.
        ConsumedCapacity a13 = only(write(ReturnConsumedCapacity.INDEXES,
                put(indexed, item("pk", s(unique()), "sk", s("1"), "gsiPk", s("g1"), "lsiSk", s("L1"))),
                put(indexed, item("pk", s(unique()), "sk", s("1"), "gsiPk", s("g1"), "lsiSk", s("L1")))));
        assertEquals(8.0, a13.capacityUnits());
        assertEquals(4.0, a13.table().capacityUnits());
        assertEquals(2.0, gsi(a13));
        assertEquals(2.0, lsi(a13));

        TransactWriteItemsResponse two = write(ReturnConsumedCapacity.TOTAL,
                put(plain, key(unique())), put(other, key(unique())), put(plain, key(unique())));
        Map<String, Double> byTable = new java.util.HashMap<>();
        for (ConsumedCapacity c : two.consumedCapacity()) byTable.put(c.tableName(), c.capacityUnits());
        assertEquals(Map.of(plain, 4.0, other, 2.0), byTable);
    }
}
