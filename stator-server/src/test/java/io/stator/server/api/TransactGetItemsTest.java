package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.names;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.DynamoAssertions.assertError;
import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static io.stator.server.testing.ErrorAssertions.assertErrorMatches;
import static io.stator.server.testing.Transact.assertCancelled;
import static io.stator.server.testing.Transact.codes;
import static io.stator.server.testing.Transact.get;
import static io.stator.server.testing.Transact.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.RawResponses;
import io.stator.server.testing.KeyShape;
import io.stator.server.testing.SharedServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * TransactGetItems through the SDK: up to 100 items of any tables, read as one snapshot, each
 * answered in request order. Texts and figures are DynamoDB's as recorded in
 * docs/dynamodb/batches-transactions.md §4 (dynamodb-conformance, Scylla's tests); where DynamoDB's
 * text is unknown the test says so and checks Stator's choice.
 */
class TransactGetItemsTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static String first;
    private static String second;

    @BeforeAll
    static void createTables() {
        first = new KeyShape(ScalarAttributeType.S, null).createTable(server.client());
        second = new KeyShape(ScalarAttributeType.S, null).createTable(server.client());
    }

    private static Map<String, AttributeValue> key(String pk) {
        return item("pk", s(pk));
    }

    private static String unique() {
        return UUID.randomUUID().toString();
    }

    private static void seed(String table, Map<String, AttributeValue> item) {
        server.client().putItem(b -> b.tableName(table).item(item));
    }

    private static TransactGetItemsResponse read(TransactGetItem... gets) {
        return server.client().transactGetItems(b -> b.transactItems(gets));
    }

    @Test
    void itemsOfSeveralTablesComeInRequestOrderAndMissingOnesAsEmptyResponses() {
        Map<String, AttributeValue> a = item("pk", s(unique()), "x", s("a"));
        Map<String, AttributeValue> b = item("pk", s(unique()), "x", s("b"));
        seed(first, a);
        seed(second, b);

        List<ItemResponse> responses = read(get(second, key(b.get("pk").s())), get(first, key(unique())),
                get(first, key(a.get("pk").s()))).responses();

        assertEquals(3, responses.size());
        assertSameItem(b, responses.get(0).item());
        assertFalse(responses.get(1).hasItem(), "a missing item has no Item (Scylla's test)");
        assertSameItem(a, responses.get(2).item());
    }

    @Test
    void missingItemIsAnEmptyObjectOnTheWire() {
        RawResponses raw = new RawResponses();
        try (DynamoDbClient client = server.newClient(raw)) {
            client.transactGetItems(b -> b.transactItems(get(first, key(unique()))));
        }
        assertEquals("{\"Responses\":[{}]}", new String(raw.lastBytes()).trim());
    }

    @Test
    void projectionIsPerGetAndDoesNotAddTheKey() {
        Map<String, AttributeValue> stored = item("pk", s(unique()), "x", n("1"), "y", n("2"), "z", n("3"));
        seed(first, stored);
        Map<String, AttributeValue> k = key(stored.get("pk").s());

        List<ItemResponse> responses = server.client().transactGetItems(b -> b.transactItems(
                TransactGetItem.builder().get(g -> g.tableName(first).key(k).projectionExpression("x, z")).build(),
                TransactGetItem.builder().get(g -> g.tableName(second).key(k)).build())).responses();

        // Scylla's test against DynamoDB: 'x,z' gives {x, z} only.
        assertSameItem(item("x", n("1"), "z", n("3")), responses.get(0).item());
        assertFalse(responses.get(1).hasItem());
    }

    @Test
    void projectionWithNamesIsApplied() {
        Map<String, AttributeValue> stored = item("pk", s(unique()), "name", s("n"), "y", n("2"));
        seed(first, stored);

        ItemResponse response = server.client().transactGetItems(b -> b.transactItems(TransactGetItem.builder()
                .get(g -> g.tableName(first).key(key(stored.get("pk").s())).projectionExpression("#n")
                        .expressionAttributeNames(names("#n", "name"))).build())).responses().get(0);

        assertSameItem(item("name", s("n")), response.item());
    }

    @Test
    void oneHundredGetsAreAcceptedAndOneHundredAndOneRefused() {
        List<TransactGetItem> gets = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            String p = unique();
            seed(i % 2 == 0 ? first : second, item("pk", s(p), "i", n(Integer.toString(i))));
            gets.add(get(i % 2 == 0 ? first : second, key(p)));
        }

        List<ItemResponse> responses = server.client().transactGetItems(b -> b.transactItems(gets.subList(0, 100)))
                .responses();
        for (int i = 0; i < 100; i++) assertEquals(Integer.toString(i), responses.get(i).item().get("i").n());

        // The older of DynamoDB's two wordings (dynamodb-conformance); the dump of the list varies.
        assertErrorMatches("ValidationException", "(?s)1 validation error detected: Value '\\[.*\\]' at "
                + "'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100",
                () -> server.client().transactGetItems(b -> b.transactItems(gets)));
    }

    @Test
    void emptyRequestIsRefused() {
        assertValidation("1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 1",
                () -> server.client().transactGetItems(b -> b.transactItems(List.of())));
    }

    @Test
    void unknownTableIsRefusedEvenBesideAKnownOne() {
        assertError("ResourceNotFoundException", "Requested resource not found",
                () -> read(get(first, key(unique())), get("no-such-table", key(unique()))));
    }

    @Test
    void badTableNameIsAConstraintOfItsGet() {
        // dynamodb-conformance, exact in us-east-1 and eu-west-2.
        assertValidation("1 validation error detected: Value 'bad!name' at 'transactItems.2.member.get.tableName' "
                + "failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                () -> read(get(first, key(unique())), get("bad!name", key(unique()))));
    }

    @Test
    void keyNotMatchingTheSchemaCancelsWithAValidationError() {
        // dynamodb-conformance: Key {} gives [ValidationError].
        TransactionCanceledException e = assertCancelled(List.of("ValidationError"), () -> read(get(first, Map.of())));
        assertEquals("The provided key element does not match the schema", e.cancellationReasons().get(0).message());

        assertCancelled(List.of("None", "ValidationError"),
                () -> read(get(first, key(unique())), get(second, item("pk", n("1")))));
    }

    @Test
    void emptyKeyValueIsTheRequestsError() {
        assertValidation("One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                + "contain an empty string value. Key: pk", () -> read(get(first, key(""))));
    }

    @Test
    void sameItemTwiceIsRefused() {
        String p = unique();
        // dynamodb-conformance shows a ValidationException; its text is not recorded, and Stator
        // gives TransactWriteItems' text for the same mistake.
        assertValidation("Transaction request cannot include multiple operations on one item",
                () -> read(get(first, key(p)), get(second, key(p)), get(first, key(p))));
    }

    @Test
    void projectionErrorsAreTheRequestsErrors() {
        // dynamodb-conformance, exact.
        assertValidation("Invalid ProjectionExpression: Syntax error; token: \"!\", near: \"!!\"",
                () -> server.client().transactGetItems(b -> b.transactItems(TransactGetItem.builder()
                        .get(g -> g.tableName(first).key(key(unique())).projectionExpression("!!")).build())));
        assertValidation("Value provided in ExpressionAttributeNames unused in expressions: keys: {#qq}",
                () -> server.client().transactGetItems(b -> b.transactItems(TransactGetItem.builder()
                        .get(g -> g.tableName(first).key(key(unique())).projectionExpression("x")
                                .expressionAttributeNames(names("#qq", "q"))).build())));
    }

    // ---- capacity and size -------------------------------------------------------------------

    @Test
    void everyItemCostsTwoUnitsPer4KBMissingOnesToo() {
        String small = unique();
        String big = unique();
        seed(first, key(small));
        seed(first, DynamoSize.padded(key(big), 9000));

        TransactGetItemsResponse response = server.client().transactGetItems(b -> b
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .transactItems(get(first, key(small)), get(first, key(unique())), get(first, key(big)),
                        get(second, key(unique()))));

        // Transactional reads are 2 units per 4 KB (developer guide); a missing item is still
        // charged (dynamodb-conformance: present + missing = 4). One entry per table.
        Map<String, ConsumedCapacity> byTable = new HashMap<>();
        for (ConsumedCapacity c : response.consumedCapacity()) byTable.put(c.tableName(), c);
        assertEquals(2, byTable.size());
        assertEquals(2.0 + 2.0 + 6.0, byTable.get(first).capacityUnits());
        assertEquals(10.0, byTable.get(first).readCapacityUnits());
        assertNull(byTable.get(first).table(), "TOTAL has no per-table breakdown");
        assertEquals(2.0, byTable.get(second).capacityUnits());
    }

    @Test
    void indexesModeReportsTheTablesReadUnits() {
        TransactGetItemsResponse response = server.client().transactGetItems(b -> b
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                .transactItems(get(first, key(unique()))));

        // dynamodb-conformance: INDEXES is accepted and Table.ReadCapacityUnits is reported.
        ConsumedCapacity c = response.consumedCapacity().get(0);
        assertEquals(2.0, c.capacityUnits());
        assertEquals(2.0, c.table().readCapacityUnits());
    }

    @Test
    void itemsOf4MBAreReadAndOneByteMoreRefused() {
        // DynamoDB limits the items of a transaction to 4 MB (API reference); its text for a read
        // past it is unknown. Stator counts 4 MiB of stored items and gives TransactWriteItems'
        // text.
        long total = 4L * 1024 * 1024;
        List<TransactGetItem> gets = new ArrayList<>();
        String lastKey = null;
        long left = total;
        while (left > 0) {
            long size = Math.min(left, 400_000);
            lastKey = unique();
            seed(first, DynamoSize.padded(key(lastKey), size));
            gets.add(get(first, key(lastKey)));
            left -= size;
        }

        assertEquals(gets.size(), server.client().transactGetItems(b -> b.transactItems(gets)).responses().size());

        server.client().updateItem(b -> b.tableName(first).key(key(gets.get(0).get().key().get("pk").s()))
                .updateExpression("SET b = :b").expressionAttributeValues(item(":b", s("x"))));
        assertValidation("Transaction payload size cannot exceed 4 MB",
                () -> server.client().transactGetItems(b -> b.transactItems(gets)));
    }

    // ---- one snapshot ------------------------------------------------------------------------

    @Test
    void readsSeeEachWriteTransactionWholeOrNotAtAll() throws Exception {
        // A writer moves units between an item of each table and stamps both with the same
        // version, in one transaction; readers must never see the two items disagree.
        String a = unique();
        String b = unique();
        seed(first, item("pk", s(a), "units", n("100"), "version", n("0")));
        seed(second, item("pk", s(b), "units", n("100"), "version", n("0")));
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger writes = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();

        Thread writer = new Thread(() -> {
            try {
                for (int v = 1; v <= 150; v++) {
                    Map<String, AttributeValue> values = item(":d", n(v % 2 == 0 ? "7" : "-7"),
                            ":v", n(Integer.toString(v)));
                    server.client().transactWriteItems(t -> t.transactItems(
                            update(first, key(a), "SET units = units + :d, version = :v", values),
                            update(second, key(b), "SET units = units - :d, version = :v", values)));
                    writes.incrementAndGet();
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                done.set(true);
            }
        });
        writer.start();
        while (!done.get() && failure.get() == null) {
            try {
                List<ItemResponse> r = read(get(first, key(a)), get(second, key(b))).responses();
                Map<String, AttributeValue> x = r.get(0).item();
                Map<String, AttributeValue> y = r.get(1).item();
                assertEquals(x.get("version"), y.get("version"), "one snapshot: " + x + " " + y);
                assertEquals(200, Integer.parseInt(x.get("units").n()) + Integer.parseInt(y.get("units").n()));
                reads.incrementAndGet();
            } catch (TransactionCanceledException e) {
                // A write transaction was committing one of the items (DynamoDB cancels such reads too).
                assertEquals(List.of("TransactionConflict"), codes(e).stream().filter(c -> !c.equals("None")).toList());
            }
        }
        writer.join();
        if (failure.get() != null) throw new AssertionError("the writer failed", failure.get());
        assertEquals(150, writes.get());
        assertTrue(reads.get() > 10, "too few reads to mean anything: " + reads.get());
    }
}
