package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.DynamoAssertions.assertError;
import static io.stator.server.testing.DynamoAssertions.assertSameItem;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static io.stator.server.testing.ErrorAssertions.assertErrorMatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.RawResponses;
import io.stator.server.testing.KeyShape;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * BatchWriteItem through the SDK: up to 25 puts and deletes over several tables, the whole
 * request checked before anything is written, then each write atomic by itself. Texts and
 * figures are DynamoDB's as recorded in docs/dynamodb/batches-transactions.md §2 (dynalite's tests run
 * against DynamoDB, dynamodb-conformance, Scylla's tests); where DynamoDB's text is unknown the
 * test says so and checks Stator's choice.
 */
class BatchWriteItemTest {

    private static final String DUPLICATES = "Provided list of item keys contains duplicates";
    private static final String NOT_SCHEMA = "The provided key element does not match the schema";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static String first;
    private static String second;
    /** Keyed by "pk" and the number "sk". */
    private static String sorted;
    /** Keyed by "pk" and "sk" strings, with an LSI "lsi" on lsiSk and a GSI "gsi" on gsiPk. */
    private static String indexed;

    @BeforeAll
    static void createTables() {
        first = new KeyShape(ScalarAttributeType.S, null).createTable(server.client());
        second = new KeyShape(ScalarAttributeType.S, null).createTable(server.client());
        sorted = new KeyShape(ScalarAttributeType.S, ScalarAttributeType.N).createTable(server.client());
        indexed = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(indexed).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.S),
                        Tables.definition("gsiPk", ScalarAttributeType.S),
                        Tables.definition("lsiSk", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("gsi")
                        .keySchema(Tables.key("gsiPk", KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.ALL)).build())
                .localSecondaryIndexes(i -> i.indexName("lsi")
                        .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("lsiSk", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL))));
    }

    private static String unique() {
        return UUID.randomUUID().toString();
    }

    private static Map<String, AttributeValue> key(String pk) {
        return item("pk", s(pk));
    }

    private static WriteRequest put(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(p -> p.item(item)).build();
    }

    private static WriteRequest delete(Map<String, AttributeValue> key) {
        return WriteRequest.builder().deleteRequest(d -> d.key(key)).build();
    }

    private static BatchWriteItemResponse batchWrite(Map<String, List<WriteRequest>> requestItems) {
        return server.client().batchWriteItem(b -> b.requestItems(requestItems));
    }

    /** The request items in the order given: table, list of requests, table, list, ... */
    @SuppressWarnings("unchecked")
    private static Map<String, List<WriteRequest>> requests(Object... tablesAndLists) {
        Map<String, List<WriteRequest>> map = new LinkedHashMap<>();
        for (int i = 0; i < tablesAndLists.length; i += 2) {
            map.put((String) tablesAndLists[i], (List<WriteRequest>) tablesAndLists[i + 1]);
        }
        return map;
    }

    private static Map<String, AttributeValue> read(String table, Map<String, AttributeValue> key) {
        var response = server.client().getItem(b -> b.tableName(table).key(key).consistentRead(true));
        return response.hasItem() ? response.item() : null;
    }

    private static void seed(String table, Map<String, AttributeValue> item) {
        server.client().putItem(b -> b.tableName(table).item(item));
    }

    private static List<WriteRequest> puts(int count) {
        List<WriteRequest> puts = new ArrayList<>();
        for (int i = 0; i < count; i++) puts.add(put(key(unique())));
        return puts;
    }

    // ---- writing ------------------------------------------------------------------------------

    @Test
    void putsAndDeletesOverSeveralTablesAreApplied() {
        Map<String, AttributeValue> a = item("pk", s(unique()), "x", s("a"));
        Map<String, AttributeValue> b = item("pk", s(unique()), "x", s("b"));
        String gone = unique();
        seed(second, key(gone));

        BatchWriteItemResponse response = batchWrite(requests(first, List.of(put(a), delete(key(unique()))),
                second, List.of(put(b), delete(key(gone)))));

        assertTrue(response.unprocessedItems().isEmpty());
        assertTrue(response.consumedCapacity().isEmpty(), "no ConsumedCapacity unless asked for");
        assertSameItem(a, read(first, key(a.get("pk").s())));
        assertSameItem(b, read(second, key(b.get("pk").s())));
        assertNull(read(second, key(gone)));
    }

    @Test
    void unprocessedItemsIsAlwaysPresent() {
        RawResponses raw = new RawResponses();
        try (DynamoDbClient client = server.newClient(raw)) {
            client.batchWriteItem(b -> b.requestItems(requests(first, puts(1))));
        }
        // dynalite's tests against DynamoDB, Scylla's, dynamodb-conformance.
        assertEquals("{\"UnprocessedItems\":{}}", new String(raw.lastBytes()).trim());
    }

    @Test
    void putReplacesTheWholeItem() {
        String p = unique();
        seed(first, item("pk", s(p), "old", s("x")));

        batchWrite(requests(first, List.of(put(item("pk", s(p), "new", s("y"))))));

        assertSameItem(item("pk", s(p), "new", s("y")), read(first, key(p)));
    }

    // ---- limits -------------------------------------------------------------------------------

    @Test
    void twentyFiveRequestsOverSeveralTablesAreAccepted() {
        List<WriteRequest> firstPuts = puts(15);
        List<WriteRequest> secondPuts = puts(10);

        batchWrite(requests(first, firstPuts, second, secondPuts));

        for (WriteRequest w : firstPuts) assertSameItem(w.putRequest().item(), read(first, w.putRequest().item()));
        for (WriteRequest w : secondPuts) assertSameItem(w.putRequest().item(), read(second, w.putRequest().item()));
    }

    @Test
    void twentySixRequestsForOneTableAreRefused() {
        List<WriteRequest> writes = puts(26);

        // DynamoDB's older wording (dynamodb-conformance capture, 2026; dynalite's tests): the
        // whole map is shown in a form that varies, so only its envelope is matched.
        assertErrorMatches("ValidationException", "(?s)1 validation error detected: Value '\\{.+\\}' at 'requestItems' "
                + "failed to satisfy constraint: Map value must satisfy constraint: \\[Member must have length less "
                + "than or equal to 25, Member must have length greater than or equal to 1\\]",
                () -> batchWrite(requests(first, writes)));
        assertNull(read(first, writes.get(0).putRequest().item()));
    }

    @Test
    void twentySixRequestsOverSeveralTablesAreRefused() {
        List<WriteRequest> firstPuts = puts(13);

        // DynamoDB's text for this is unknown; Stator gives DynamoDB Local's.
        assertValidation("Too many items requested for the BatchWriteItem call",
                () -> batchWrite(requests(first, firstPuts, second, puts(13))));
        assertNull(read(first, firstPuts.get(0).putRequest().item()));
    }

    @Test
    void emptyRequestItemsAreRefused() {
        // The text most regions gave in 2026 (dynamodb-conformance).
        assertValidation("The requestItems parameter is required for BatchWriteItem", () -> batchWrite(Map.of()));
    }

    @Test
    void itemOf400KBIsAcceptedAndOneByteMoreRefused() {
        Map<String, AttributeValue> edge = DynamoSize.padded(key(unique()), 409_600);
        Map<String, AttributeValue> over = DynamoSize.padded(key(unique()), 409_601);

        batchWrite(requests(first, List.of(put(edge))));
        assertValidation("Item size has exceeded the maximum allowed size",
                () -> batchWrite(requests(first, List.of(put(key(unique())), put(over)))));

        assertSameItem(edge, read(first, key(edge.get("pk").s())));
        assertNull(read(first, key(over.get("pk").s())));
    }

    @Test
    void itemSizeIsCheckedBeforeTheTable() {
        // dynalite's tests and dynamodb-conformance: an over-size item on a missing table is a
        // ValidationException; a just-small-enough one is ResourceNotFound.
        assertValidation("Item size has exceeded the maximum allowed size", () -> batchWrite(
                requests("no-such-table", List.of(put(DynamoSize.padded(key(unique()), 409_601))))));
        assertError("ResourceNotFoundException", "Requested resource not found", () -> batchWrite(
                requests("no-such-table", List.of(put(DynamoSize.padded(key(unique()), 409_600))))));
    }

    @Test
    void twoRequestsOnOneItemAreRefusedWhateverTheirKinds() {
        String p = unique();
        List<List<WriteRequest>> pairs = List.of(
                List.of(put(key(p)), put(item("pk", s(p), "x", s("y")))),
                List.of(delete(key(p)), delete(key(p))),
                List.of(put(key(p)), delete(key(p))),
                List.of(delete(key(p)), put(key(p))));
        for (List<WriteRequest> pair : pairs) {
            assertValidation(pair.toString(), DUPLICATES, () -> batchWrite(requests(first, pair)));
        }
        assertValidation(DUPLICATES, () -> batchWrite(requests(sorted,
                List.of(put(item("pk", s(p), "sk", n("1"))), delete(item("sk", n("1"), "pk", s(p)))))));
        assertNull(read(first, key(p)));
    }

    @Test
    void sameKeyInTwoTablesNamesTwoItems() {
        Map<String, AttributeValue> k = key(unique());

        batchWrite(requests(first, List.of(put(k)), second, List.of(put(k))));

        assertSameItem(k, read(first, k));
        assertSameItem(k, read(second, k));
    }

    @Test
    void tableIsCheckedBeforeDuplicates() {
        // dynalite's tests against DynamoDB: "should check table exists first before checking for
        // duplicate keys".
        String p = unique();
        assertError("ResourceNotFoundException", "Requested resource not found",
                () -> batchWrite(requests("no-such-table", List.of(put(key(p)), delete(key(p))))));
    }

    // ---- the whole request is checked before any write --------------------------------------

    @Test
    void badRequestAnywhereLeavesEveryItemUnwritten() {
        List<WriteRequest> valid = puts(3);
        assertValidation(NOT_SCHEMA, () -> batchWrite(requests(first,
                List.of(valid.get(0), put(item("pk", n("1"))), valid.get(1)))));
        assertError("ResourceNotFoundException", "Requested resource not found", () -> batchWrite(requests(
                first, List.of(valid.get(0)), second, List.of(valid.get(1)), "no-such-table", List.of(valid.get(2)))));
        assertValidation(DUPLICATES, () -> batchWrite(requests(first, List.of(valid.get(0)),
                second, List.of(valid.get(1), valid.get(1)))));
        assertValidation("One or more parameter values were invalid: Type mismatch for Index Key lsiSk Expected: S "
                + "Actual: N IndexName: lsi", () -> batchWrite(requests(first, List.of(valid.get(0)),
                indexed, List.of(put(item("pk", s(unique()), "sk", s("1"), "lsiSk", n("1")))))));
        for (WriteRequest w : valid) {
            assertNull(read(first, w.putRequest().item()));
            assertNull(read(second, w.putRequest().item()));
        }
    }

    @Test
    void keysNotMatchingTheSchemaAreOneError() {
        // dynamodb-conformance (4 regions): a PutRequest's wrong or missing key is worded as a
        // Key's, unlike PutItem's "Type mismatch for key".
        List<WriteRequest> bad = List.of(
                put(item("pk", n("1"))),
                put(item("x", s("no key"))),
                delete(item("pk", n("1"))),
                delete(item("pk", s(unique()), "x", s("extra"))),
                put(item("pk", s(unique()))));
        for (WriteRequest w : bad.subList(0, 4)) {
            assertValidation(w.toString(), NOT_SCHEMA, () -> batchWrite(requests(first, List.of(w))));
        }
        assertValidation(NOT_SCHEMA, () -> batchWrite(requests(sorted, List.of(bad.get(4)))));
    }

    @Test
    void emptyKeyValueIsRefusedInPutsAndDeletes() {
        // dynamodb-conformance (2026), for PutRequest and DeleteRequest alike.
        String message = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                + "contain an empty string value. Key: pk";
        assertValidation(message, () -> batchWrite(requests(first, List.of(put(key(""))))));
        assertValidation(message, () -> batchWrite(requests(first, List.of(delete(key(""))))));
    }

    @Test
    void writeRequestWithNeitherPutNorDeleteIsRefused() {
        // dynalite's tests against DynamoDB (sic).
        assertValidation("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
                + "supported datatypes", () -> batchWrite(requests(first, List.of(WriteRequest.builder().build()))));
    }

    // ---- results ------------------------------------------------------------------------------

    @Test
    void consumedCapacityIsOneEntryPerTable() {
        String deletedMissing = unique();

        BatchWriteItemResponse response = server.client().batchWriteItem(b -> b
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .requestItems(requests(first, List.of(put(DynamoSize.padded(key(unique()), 1024)), put(key(unique()))),
                        second, List.of(put(DynamoSize.padded(key(unique()), 1025)), put(key(unique())),
                                delete(key(deletedMissing))))));

        // dynalite's tests against DynamoDB: {a 1 KB item, a small one} = 2, {over 1 KB, small} = 3;
        // a delete of a missing item costs 1 (API reference).
        Map<String, Double> units = new HashMap<>();
        for (ConsumedCapacity c : response.consumedCapacity()) units.put(c.tableName(), c.capacityUnits());
        assertEquals(Map.of(first, 2.0, second, 4.0), units);
    }

    @Test
    void indexesModeShowsTheTableAndEachIndexWritten() {
        // dynamodb-conformance (docs/dynamodb/indexes.md §4.5): [an item in the GSI, a sparse item] is one
        // entry of 3 units, 2 on the table and 1 on the GSI, and no LSI part.
        BatchWriteItemResponse response = server.client().batchWriteItem(b -> b
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)
                .requestItems(requests(indexed, List.of(put(item("pk", s(unique()), "sk", s("a"), "gsiPk", s("g"))),
                        put(item("pk", s(unique()), "sk", s("b")))))));

        assertEquals(1, response.consumedCapacity().size());
        ConsumedCapacity c = response.consumedCapacity().get(0);
        assertEquals(3.0, c.capacityUnits());
        assertEquals(2.0, c.table().capacityUnits());
        assertEquals(1.0, c.globalSecondaryIndexes().get("gsi").capacityUnits());
        assertFalse(c.hasLocalSecondaryIndexes());
    }

    @Test
    void itemCollectionMetricsComeForTablesWithALocalIndex() {
        String pk = unique();

        BatchWriteItemResponse response = server.client().batchWriteItem(b -> b
                .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)
                .requestItems(requests(indexed, List.of(put(item("pk", s(pk), "sk", s("a"), "lsiSk", s("1"))),
                        put(item("pk", s(pk), "sk", s("b")))), first, puts(1))));

        assertEquals(List.of(indexed), List.copyOf(response.itemCollectionMetrics().keySet()));
        List<ItemCollectionMetrics> metrics = response.itemCollectionMetrics().get(indexed);
        assertEquals(2, metrics.size());
        for (ItemCollectionMetrics m : metrics) {
            assertEquals(Map.of("pk", s(pk)), m.itemCollectionKey());
            assertEquals(List.of(0.0, 1.0), m.sizeEstimateRangeGB());
        }

        BatchWriteItemResponse without = server.client().batchWriteItem(b -> b
                .requestItems(requests(indexed, List.of(put(item("pk", s(pk), "sk", s("c")))))));
        assertFalse(without.hasItemCollectionMetrics());
    }

    @Test
    void eachWriteIsAtomicByItself() throws Exception {
        // Two writers keep rewriting the same items, every attribute of an item stamped with the
        // writer's round; a reader must never see an item mixing two writes.
        List<String> pks = new ArrayList<>();
        for (int i = 0; i < 10; i++) pks.add(unique());
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int writer = w;
            writers.add(new Thread(() -> {
                try {
                    for (int round = 0; round < 100 && failure.get() == null; round++) {
                        String stamp = writer + "-" + round;
                        List<WriteRequest> writes = new ArrayList<>();
                        for (String p : pks) {
                            writes.add(put(item("pk", s(p), "a", s(stamp), "b", s(stamp), "c", s(stamp))));
                        }
                        batchWrite(requests(first, writes));
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }));
        }
        writers.forEach(Thread::start);
        Thread reader = new Thread(() -> {
            try {
                while (!done.get()) {
                    for (String p : pks) {
                        Map<String, AttributeValue> i = read(first, key(p));
                        if (i == null) continue;
                        assertEquals(i.get("a"), i.get("b"), i::toString);
                        assertEquals(i.get("a"), i.get("c"), i::toString);
                    }
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        });
        reader.start();
        for (Thread t : writers) t.join();
        done.set(true);
        reader.join();
        if (failure.get() != null) throw new AssertionError(failure.get());
    }
}
