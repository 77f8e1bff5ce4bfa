package io.stator.server.api;

import static io.stator.server.testing.Attrs.bool;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.m;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.names;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.DynamoAssertions.assertResourceNotFound;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static io.stator.server.testing.ItemTables.keyOf;
import static io.stator.server.testing.KeyShape.PARTITION_KEY;
import static io.stator.server.testing.KeyShape.SORT_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.KeyCases;
import io.stator.server.testing.KeyOrder;
import io.stator.server.testing.KeyShape;
import io.stator.server.testing.SharedServer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ConditionalOperator;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Scan against a running Stator, each test on tables of its own (a Scan reads the whole table),
 * one body per key configuration: the whole table once, Limit, filters, Select, projection,
 * capacity, ExclusiveStartKey and parallel-scan parameters, with DynamoDB's messages
 * (docs/dynamodb/query-scan.md sections 2 to 6). DynamoDB documents no scan order: the tests require
 * only what it does guarantee (every item once; a partition's items together, in sort-key order).
 */
class ScanTest {

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final String START_KEY_DOES_NOT_MATCH =
            "The provided starting key is invalid: The provided key element does not match the schema";

    /** Shapes for tests where the key configuration does not matter: pk (S); pk and sk (S, S). */
    private static final KeyShape HASH = new KeyShape(ScalarAttributeType.S, null);
    private static final KeyShape RANGE = new KeyShape(ScalarAttributeType.S, ScalarAttributeType.S);

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    // ---- tables and requests ----------------------------------------------------------------

    /** A new table of that shape holding {@code count} items: 4 per partition with a sort key. */
    private static String tableWithItems(KeyShape shape, int count) {
        String table = shape.createTable(server.client());
        AttributeValue partition = null;
        for (int i = 0; i < count; i++) {
            Map<String, AttributeValue> key = shape.newKey();
            if (shape.hasSortKey()) {
                if (i % 4 == 0) partition = key.get(PARTITION_KEY);
                key.put(PARTITION_KEY, partition);
            }
            Map<String, AttributeValue> item = new LinkedHashMap<>(key);
            item.putAll(item("i", n("" + i), "even", bool(i % 2 == 0)));
            server.client().putItem(b -> b.tableName(table).item(item));
        }
        return table;
    }

    private static ScanResponse scan(String table, Consumer<ScanRequest.Builder> request) {
        return server.client().scan(b -> {
            b.tableName(table);
            request.accept(b);
        });
    }

    /** The whole table, page by page of at most {@code limit} items (null: no Limit). */
    private static List<Map<String, AttributeValue>> pagedByLimit(String table, Integer limit,
                                                                  Consumer<ScanRequest.Builder> request) {
        List<Map<String, AttributeValue>> all = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page = scan(table, request.andThen(b -> b.limit(limit).exclusiveStartKey(from)));
            if (limit != null) assertTrue(page.scannedCount() <= limit);
            all.addAll(page.items());
            start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return all;
    }

    private static int intOf(Map<String, AttributeValue> item) {
        return Integer.parseInt(item.get("i").n());
    }

    private static Condition condition(ComparisonOperator operator, AttributeValue... values) {
        return Condition.builder().comparisonOperator(operator).attributeValueList(values).build();
    }

    // ---- the whole table --------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void scanReturnsEveryItemOnceWithEachPartitionTogetherInSortKeyOrder(KeyShape shape) {
        String table = tableWithItems(shape, 40);

        ScanResponse r = scan(table, b -> { });

        assertEquals(40, r.count());
        assertEquals(40, r.scannedCount());
        assertFalse(r.hasLastEvaluatedKey());
        assertEquals(40, new HashSet<>(r.items().stream().map(ScanTest::intOf).toList()).size());
        List<AttributeValue> partitionsSeen = new ArrayList<>();
        for (int i = 0; i < r.items().size(); i++) {
            Map<String, AttributeValue> item = r.items().get(i);
            AttributeValue partition = item.get(PARTITION_KEY);
            if (i > 0 && partition.equals(r.items().get(i - 1).get(PARTITION_KEY))) {
                assertTrue(KeyOrder.compare(r.items().get(i - 1).get(SORT_KEY), item.get(SORT_KEY)) < 0, "sort-key order");
            } else {
                assertFalse(partitionsSeen.contains(partition), "a partition's items come together");
                partitionsSeen.add(partition);
            }
        }
        assertEquals(r.items(), scan(table, b -> b.consistentRead(true)).items(), "the same order every time");
    }

    @Test
    void scanOfAnEmptyTableAnswersZeroCounts() {
        String table = tableWithItems(HASH, 0);
        ScanResponse r = scan(table, b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertEquals(List.of(), r.items());
        assertTrue(r.hasItems());
        assertEquals(0, r.count());
        assertEquals(0, r.scannedCount());
        assertFalse(r.hasLastEvaluatedKey());
        // The minimum read once per partition visited: a new on-demand table has 4 (DynamoDB
        // reports 4.0 strongly consistent and 2.0 eventually for a Scan of a new table).
        assertEquals(2.0, r.consumedCapacity().capacityUnits(), "the minimum read, per partition");
    }

    // ---- Limit and ExclusiveStartKey ---------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void scanPagesByLimitFollowOneAnotherInScanOrder(KeyShape shape) {
        String table = tableWithItems(shape, 25);
        List<Map<String, AttributeValue>> order = scan(table, b -> { }).items();

        for (int limit : new int[] {1, 7, 25, 26}) {
            assertEquals(order, pagedByLimit(table, limit, b -> { }), "Limit " + limit);
        }
        ScanResponse atLimit = scan(table, b -> b.limit(25));
        assertEquals(keyOf(shape, order.get(24)), atLimit.lastEvaluatedKey(), "exactly Limit items read");
        assertFalse(scan(table, b -> b.limit(26)).hasLastEvaluatedKey());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void exclusiveStartKeyIsAPositionInScanOrderEvenOnceItsItemIsGone(KeyShape shape) {
        String table = tableWithItems(shape, 12);
        List<Map<String, AttributeValue>> order = scan(table, b -> { }).items();
        Map<String, AttributeValue> fifth = keyOf(shape, order.get(4));

        assertEquals(order.subList(5, 12), scan(table, b -> b.exclusiveStartKey(fifth)).items());
        server.client().deleteItem(b -> b.tableName(table).key(fifth));
        assertEquals(order.subList(5, 12), scan(table, b -> b.exclusiveStartKey(fifth)).items());
    }

    @Test
    void limitCountsTheItemsReadBeforeTheFilter() {
        String table = tableWithItems(HASH, 25);
        List<Map<String, AttributeValue>> order = scan(table, b -> { }).items();
        Map<String, AttributeValue> last = order.get(24);

        ScanResponse r = scan(table, b -> b.filterExpression("pk = :last").expressionAttributeValues(
                item(":last", last.get(PARTITION_KEY))).limit(2));

        assertEquals(List.of(), r.items());
        assertEquals(2, r.scannedCount());
        assertEquals(keyOf(HASH, order.get(1)), r.lastEvaluatedKey());
        assertEquals(List.of(last), pagedByLimit(table, 2, b -> b.filterExpression("pk = :last")
                .expressionAttributeValues(item(":last", last.get(PARTITION_KEY)))));
    }

    // ---- filters ----------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void filtersMayTestKeyAttributesAndCountWhatTheyRead(KeyShape shape) {
        String table = tableWithItems(shape, 20);
        List<Map<String, AttributeValue>> order = scan(table, b -> { }).items();
        AttributeValue third = order.get(2).get(PARTITION_KEY);
        Predicate<Map<String, AttributeValue>> inPartition = i -> i.get(PARTITION_KEY).equals(third);
        List<Map<String, AttributeValue>> expected = order.stream().filter(inPartition).toList();

        ScanResponse expression = scan(table, b -> b.filterExpression("#k = :k").expressionAttributeNames(
                names("#k", PARTITION_KEY)).expressionAttributeValues(item(":k", third)));
        assertEquals(expected, expression.items());
        assertEquals(expected.size(), expression.count());
        assertEquals(20, expression.scannedCount());

        ScanResponse legacy = scan(table, b -> b.scanFilter(Map.of(PARTITION_KEY, condition(ComparisonOperator.EQ, third))));
        assertEquals(expected, legacy.items());
    }

    @Test
    void scanFilterCombinesItsConditionsWithConditionalOperator() {
        String table = tableWithItems(RANGE, 20);
        List<Map<String, AttributeValue>> order = scan(table, b -> { }).items();
        Map<String, Condition> conditions = Map.of("i", condition(ComparisonOperator.LT, n("6")),
                "j", condition(ComparisonOperator.NULL));

        assertEquals(order, scan(table, b -> b.scanFilter(Map.of())).items(), "an empty ScanFilter filters nothing");
        assertEquals(order.stream().filter(i -> intOf(i) < 6).toList(),
                scan(table, b -> b.scanFilter(conditions)).items(), "AND by default");
        assertEquals(order.stream().filter(i -> intOf(i) < 6).toList(),
                scan(table, b -> b.scanFilter(conditions).conditionalOperator(ConditionalOperator.AND)).items());
        Map<String, Condition> either = Map.of("i", condition(ComparisonOperator.LT, n("2")),
                "even", condition(ComparisonOperator.NOT_NULL));
        assertEquals(order, scan(table, b -> b.scanFilter(either).conditionalOperator(ConditionalOperator.OR)).items());
        Map<String, Condition> neither = Map.of("i", condition(ComparisonOperator.GT, n("17")),
                "j", condition(ComparisonOperator.NOT_NULL));
        assertEquals(order.stream().filter(i -> intOf(i) > 17).toList(),
                scan(table, b -> b.scanFilter(neither).conditionalOperator(ConditionalOperator.OR)).items());
    }

    /**
     * EQ and NE compare lists, maps, sets, booleans and NULL by equality (scylladb
     * test/alternator/test_query_filter.py, test_query_filter_eq and _ne, run against DynamoDB).
     */
    @Test
    void scanFilterEqAndNeTakeEveryAttributeType() {
        KeyShape shape = new KeyShape(software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S, null);
        String table = shape.createTable(server.client());
        List<AttributeValue> values = List.of(AttributeValue.fromL(List.of(s("a"), n("1"))), m("x", n("1")),
                bool(true), AttributeValue.fromNul(true), AttributeValue.fromSs(List.of("a", "b")),
                AttributeValue.fromNs(List.of("1", "2")), AttributeValue.fromL(List.of()));
        for (int i = 0; i < values.size(); i++) {
            Map<String, AttributeValue> it = item(PARTITION_KEY, s("k" + i), "v", values.get(i));
            server.client().putItem(b -> b.tableName(table).item(it));
        }
        for (int i = 0; i < values.size(); i++) {
            AttributeValue v = values.get(i);
            List<Map<String, AttributeValue>> equal = scan(table, b -> b.scanFilter(Map.of("v", condition(ComparisonOperator.EQ, v))))
                    .items();
            assertEquals(List.of(s("k" + i)), equal.stream().map(x -> x.get(PARTITION_KEY)).toList(), v.toString());
            int others = scan(table, b -> b.scanFilter(Map.of("v", condition(ComparisonOperator.NE, v)))).count();
            assertEquals(values.size() - 1, others, v.toString());
        }
    }

    // ---- Select, projection, capacity --------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void selectAndProjectionChooseWhatIsReturnedNotWhatIsRead(KeyShape shape) {
        String table = shape.createTable(server.client());
        Map<String, AttributeValue> full = shape.newItem(item("m", m("x", s("1"), "y", s("2")), "a", s("a")));
        Map<String, AttributeValue> bare = shape.newItem(Map.of());
        server.client().putItem(b -> b.tableName(table).item(full));
        server.client().putItem(b -> b.tableName(table).item(bare));
        List<Map<String, AttributeValue>> order = scan(table, b -> b.select(Select.ALL_ATTRIBUTES)).items();
        assertEquals(new HashSet<>(List.of(full, bare)), new HashSet<>(order));

        ScanResponse count = scan(table, b -> b.select(Select.COUNT).limit(1));
        assertFalse(count.hasItems());
        assertEquals(1, count.count());
        assertEquals(1, count.scannedCount());
        assertEquals(keyOf(shape, order.get(0)), count.lastEvaluatedKey());

        List<Map<String, AttributeValue>> projected = order.stream()
                .map(i -> i.containsKey("m") ? item("m", m("x", s("1"))) : Map.<String, AttributeValue>of()).toList();
        assertEquals(projected, scan(table, b -> b.projectionExpression("m.x")).items());
        assertEquals(projected, scan(table, b -> b.projectionExpression("#m.x").expressionAttributeNames(names("#m", "m"))
                .select(Select.SPECIFIC_ATTRIBUTES)).items());
        assertEquals(order.stream().map(i -> i.containsKey("a") ? item("a", s("a"), PARTITION_KEY, i.get(PARTITION_KEY))
                : item(PARTITION_KEY, i.get(PARTITION_KEY))).toList(),
                scan(table, b -> b.attributesToGet("a", PARTITION_KEY, "missing")).items());
    }

    @Test
    void consumedCapacityRoundsTheSumOfTheItemsReadUpTo4KbPerPage() {
        KeyShape shape = RANGE;
        String table = shape.createTable(server.client());
        for (int i = 0; i < 3; i++) {
            Map<String, AttributeValue> item = DynamoSize.padded(shape.newItem(Map.of()), 10_000);
            server.client().putItem(b -> b.tableName(table).item(item));
        }
        Consumer<ScanRequest.Builder> total = b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);

        // 30,000 bytes is 8 units strongly consistent; rounding each item would make it 9. (Sizes
        // above the minimum of its 4 partitions, which a Scan pays at least.)
        assertEquals(8.0, scan(table, total.andThen(b -> b.consistentRead(true))).consumedCapacity().capacityUnits());
        assertEquals(4.0, scan(table, total).consumedCapacity().capacityUnits());
        assertEquals(4.0, scan(table, total.andThen(b -> b.filterExpression("attribute_exists(nothing)")
                .select(Select.COUNT))).consumedCapacity().capacityUnits());
        assertEquals(2.5, scan(table, total.andThen(b -> b.limit(2))).consumedCapacity().capacityUnits());

        ScanResponse indexes = scan(table, b -> b.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertEquals(table, indexes.consumedCapacity().tableName());
        assertEquals(4.0, indexes.consumedCapacity().table().capacityUnits());
        assertNull(scan(table, b -> b.returnConsumedCapacity(ReturnConsumedCapacity.NONE)).consumedCapacity());
    }

    // ---- parallel scan parameters -------------------------------------------------------------

    @Test
    void totalSegmentsOfAMillionIsTheMostAndOneMoreIsRefused() {
        String table = tableWithItems(HASH, 5);
        assertEquals(5, scan(table, b -> b.segment(0).totalSegments(1)).count());
        assertTrue(scan(table, b -> b.segment(0).totalSegments(1_000_000)).count() <= 5);
        assertTrue(scan(table, b -> b.segment(999_999).totalSegments(1_000_000)).count() <= 5);
        // The exact text is not recorded; this is DynamoDB's generic wording of the model's limits.
        assertValidation("1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: "
                + "Member must have value less than or equal to 1000000",
                () -> scan(table, b -> b.segment(0).totalSegments(1_000_001)));
        assertValidation("1 validation error detected: Value '1000000' at 'segment' failed to satisfy constraint: "
                + "Member must have value less than or equal to 999999",
                () -> scan(table, b -> b.segment(1_000_000).totalSegments(1_000_000)));
    }

    @Test
    void exclusiveStartKeyFromAnotherSegmentIsRefused() {
        String table = tableWithItems(HASH, 30);
        Map<String, AttributeValue> fromSegment1 = scan(table, b -> b.segment(1).totalSegments(2)).items().get(0);
        Map<String, AttributeValue> fromSegment0 = scan(table, b -> b.segment(0).totalSegments(2)).items().get(0);

        assertValidation("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey "
                + "with correct Segment. TotalSegments: 2 Segment: 0", () -> scan(table, b -> b.segment(0).totalSegments(2)
                .filterExpression("attribute_exists(pk.b.c)").exclusiveStartKey(keyOf(HASH, fromSegment1))));
        assertValidation("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey "
                + "with correct Segment. TotalSegments: 2 Segment: 1", () -> scan(table, b -> b.segment(1).totalSegments(2)
                .exclusiveStartKey(keyOf(HASH, fromSegment0))));
        scan(table, b -> b.segment(1).totalSegments(2).exclusiveStartKey(keyOf(HASH, fromSegment1)));
    }

    // ---- refused requests -------------------------------------------------------------------

    private static void assertRefused(String message, KeyShape shape, Consumer<ScanRequest.Builder> request) {
        String table = shape.createTable(server.client());
        assertValidation(message, () -> scan(table, request));
    }

    @Test
    void segmentAndTotalSegmentsAreRefusedWithDynamoDbsMessages() {
        KeyShape shape = HASH;
        String noTotal = "The TotalSegments parameter is required but was not present in the request when Segment "
                + "parameter is present";
        assertRefused(noTotal, shape, b -> b.segment(0));
        assertRefused(noTotal, shape, b -> b.segment(1));
        assertRefused("The Segment parameter is required but was not present in the request when parameter TotalSegments "
                + "is present", shape, b -> b.totalSegments(2));
        assertRefused("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 1 is not "
                + "less than TotalSegments: 1", shape, b -> b.segment(1).totalSegments(1));
        assertRefused("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 5 is not "
                + "less than TotalSegments: 5", shape, b -> b.segment(5).totalSegments(5));
        assertRefused("1 validation error detected: Value '-1' at 'segment' failed to satisfy constraint: "
                + "Member must have value greater than or equal to 0", shape, b -> b.segment(-1).totalSegments(2));
        assertRefused("1 validation error detected: Value '0' at 'totalSegments' failed to satisfy constraint: "
                + "Member must have value greater than or equal to 1", shape, b -> b.segment(0).totalSegments(0));
        // The start key's values are checked before the segments.
        assertRefused("The provided starting key is invalid: Supplied AttributeValue has more than one datatypes set, must "
                + "contain exactly one of the supported datatypes", shape, b -> b.totalSegments(2)
                .exclusiveStartKey(item(PARTITION_KEY, AttributeValue.builder().s("a").n("1").build())));
    }

    @Test
    void selectErrorsAreWordedWithoutQuerysPrefix() {
        KeyShape shape = HASH;
        assertRefused("Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES",
                shape, b -> b.select(Select.SPECIFIC_ATTRIBUTES));
        assertRefused("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName", shape,
                b -> b.select(Select.ALL_PROJECTED_ATTRIBUTES));
        for (Select select : List.of(Select.ALL_ATTRIBUTES, Select.ALL_PROJECTED_ATTRIBUTES, Select.COUNT)) {
            String what = select == Select.COUNT ? "only the Count" : select.toString();
            assertRefused("Cannot specify the ProjectionExpression when choosing to get " + what, shape,
                    b -> b.select(select).projectionExpression("a"));
            assertRefused("Cannot specify the AttributesToGet when choosing to get " + what, shape,
                    b -> b.select(select).attributesToGet("a"));
        }
        assertRefused("1 validation error detected: Value 'count' at 'select' failed to satisfy constraint: Member must "
                + "satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]",
                shape, b -> b.select("count"));
    }

    @Test
    void parametersAreRefusedWithDynamoDbsMessages() {
        KeyShape shape = HASH;
        assertRefused("1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
                + "Member must have value greater than or equal to 1", shape, b -> b.limit(0));
        assertRefused("Can not use both expression and non-expression parameters in the same request: Non-expression "
                + "parameters: {AttributesToGet, ScanFilter} Expression parameters: {FilterExpression}", shape,
                b -> b.attributesToGet("a").scanFilter(Map.of("a", condition(ComparisonOperator.NULL)))
                        .filterExpression("attribute_exists(a)"));
        assertRefused("ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null",
                shape, b -> b.expressionAttributeValues(item(":a", s("a"))));
        // Duplicate AttributesToGet come before the ScanFilter's errors (the reverse of Query).
        assertRefused(INVALID + "Duplicate value in attribute name: a", shape, b -> b.attributesToGet("a", "a")
                .scanFilter(Map.of("a", condition(ComparisonOperator.EQ))));
        assertRefused(INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator", shape,
                b -> b.scanFilter(Map.of("a", condition(ComparisonOperator.EQ))));
        assertRefused(INVALID + "ComparisonOperator GT is not valid for SS AttributeValue type", shape,
                b -> b.scanFilter(Map.of("a", condition(ComparisonOperator.GT, AttributeValue.fromSs(List.of("x"))))));
        String scalars = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: ";
        for (String filter : List.of("attribute_exists(pk.b.c) and #k = b", "attribute_exists(#k.b.c)", "attribute_exists(#k[0])")) {
            assertRefused(scalars + "pk", shape, b -> b.filterExpression(filter).expressionAttributeNames(names("#k", "pk")));
        }
        assertRefused(scalars + "sk", RANGE, b -> b.projectionExpression("a, sk[1]"));
        assertRefused("The table does not have the specified index: byName", shape, b -> b.indexName("byName"));
        assertResourceNotFound("Requested resource not found", () -> scan("no-such-table", b -> b
                .exclusiveStartKey(item("z", s("a"), "y", s("b")))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void exclusiveStartKeyNotOfTheKeySchemaIsRefused(KeyShape shape) {
        String table = shape.createTable(server.client());
        List<Map<String, AttributeValue>> refused = new ArrayList<>();
        refused.add(Map.of());
        refused.add(with(shape.newKey(), "other", s("x")));
        Map<String, AttributeValue> renamed = shape.newKey();
        renamed.put("other", renamed.remove(PARTITION_KEY));
        refused.add(renamed);
        Map<String, AttributeValue> partial = shape.newKey();
        partial.remove(shape.hasSortKey() ? SORT_KEY : PARTITION_KEY);
        if (shape.hasSortKey()) refused.add(partial);
        for (String name : shape.keyNames()) {
            KeyCases.oneValueOfEachType().forEach((type, value) -> {
                if (!type.equals(shape.keyType(name).toString())) refused.add(with(shape.newKey(), name, value));
            });
        }
        for (Map<String, AttributeValue> start : refused) {
            assertValidation(start.toString(), START_KEY_DOES_NOT_MATCH, () -> scan(table, b -> b.exclusiveStartKey(start)));
        }
    }

    private static Map<String, AttributeValue> with(Map<String, AttributeValue> key, String name, AttributeValue value) {
        Map<String, AttributeValue> result = new LinkedHashMap<>(key);
        result.put(name, value);
        return result;
    }
}
