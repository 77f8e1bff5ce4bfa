package io.stator.server.api;

import static io.stator.server.testing.Attrs.b;
import static io.stator.server.testing.Attrs.bool;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.l;
import static io.stator.server.testing.Attrs.m;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.names;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Attrs.ss;
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
import io.stator.server.testing.ItemTables;
import io.stator.server.testing.KeyShape;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ConditionalOperator;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Query against a running Stator, one body per key configuration: key conditions in both
 * forms, order, Limit, filters, Select, projection, capacity and ExclusiveStartKey. DynamoDB's
 * behaviour as recorded by suites run against it (docs/dynamodb/query-scan.md sections 1, 3, 5 and 6;
 * docs/dynamodb/expressions.md section 10). The refused requests are in {@link QueryErrorsTest}.
 */
class QueryTest {

    @RegisterExtension
    static final ItemTables db = new ItemTables();

    /** A partition of this many items, sort keys {@link #sortKey}(0..11). */
    private static final int PARTITION_SIZE = 12;
    private static final int[] GROUP_BYTES = {0x00, 0x7F, 0x80, 0xFF};

    // ---- the data ---------------------------------------------------------------------------

    /**
     * The i-th of twelve sort-key values of a type, ascending with i in DynamoDB's order, in four
     * groups of three that share a prefix (S, B): "a0" .. "d2"; -12.5 .. 15 by 2.5; two bytes
     * whose first is 0x00, 0x7F, 0x80 or 0xFF (unsigned order puts 0x80 above 0x7F).
     */
    static AttributeValue sortKey(ScalarAttributeType type, int i) {
        int group = i / 3;
        int member = i % 3;
        return switch (type) {
            case S -> s("" + (char) ('a' + group) + member);
            case N -> n(new BigDecimal(i - 5).multiply(new BigDecimal("2.5")).stripTrailingZeros().toPlainString());
            case B -> b(GROUP_BYTES[group], member);
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** The prefix shared by a group of three S or B sort keys. */
    static AttributeValue groupPrefix(ScalarAttributeType type, int group) {
        return type == ScalarAttributeType.S ? s("" + (char) ('a' + group)) : b(GROUP_BYTES[group]);
    }

    /** A sort-key value between {@code sortKey(i)} and {@code sortKey(i + 1)}, itself no item's. */
    static AttributeValue justAfter(ScalarAttributeType type, int i) {
        AttributeValue v = sortKey(type, i);
        return switch (type) {
            case S -> s(v.s() + "x");
            case N -> n(new BigDecimal(v.n()).add(new BigDecimal("0.1")).toPlainString());
            case B -> b(GROUP_BYTES[i / 3], i % 3, 0);
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /**
     * Stores a new partition of {@link #PARTITION_SIZE} items, put in shuffled order, and returns
     * them in sort-key order: item i has sort key {@code sortKey(i)}, {@code i} = i and
     * {@code odd} = whether i is odd.
     */
    private static List<Map<String, AttributeValue>> newPartition(KeyShape shape) {
        AttributeValue partitionKey = shape.newKey().get(PARTITION_KEY);
        List<Map<String, AttributeValue>> items = IntStream.range(0, PARTITION_SIZE)
                .mapToObj(i -> item(PARTITION_KEY, partitionKey, SORT_KEY, sortKey(shape.sortKeyType(), i),
                        "i", n(Integer.toString(i)), "odd", bool(i % 2 == 1)))
                .toList();
        List<Map<String, AttributeValue>> shuffled = new ArrayList<>(items);
        Collections.shuffle(shuffled);
        shuffled.forEach(item -> db.put(shape, item));
        return items;
    }

    private static List<Map<String, AttributeValue>> only(List<Map<String, AttributeValue>> items, IntPredicate which) {
        return IntStream.range(0, items.size()).filter(which).mapToObj(items::get).toList();
    }

    private static <T> List<T> reversed(List<T> list) {
        List<T> r = new ArrayList<>(list);
        Collections.reverse(r);
        return r;
    }

    // ---- requests ---------------------------------------------------------------------------

    private static QueryResponse query(KeyShape shape, Consumer<QueryRequest.Builder> request) {
        return db.client().query(b -> {
            b.tableName(db.table(shape));
            request.accept(b);
        });
    }

    /** {@code pk = :pk} for the partition of these items. */
    private static Consumer<QueryRequest.Builder> partition(List<Map<String, AttributeValue>> items) {
        return b -> b.keyConditionExpression("pk = :pk").expressionAttributeValues(
                item(":pk", items.get(0).get(PARTITION_KEY)));
    }

    private static Condition condition(ComparisonOperator operator, AttributeValue... values) {
        return Condition.builder().comparisonOperator(operator).attributeValueList(values).build();
    }

    /** Every item of the query, page by page of at most {@code limit} items, following LastEvaluatedKey. */
    private static List<Map<String, AttributeValue>> pagedByLimit(KeyShape shape, Consumer<QueryRequest.Builder> request,
                                                                  int limit, boolean forward) {
        List<Map<String, AttributeValue>> all = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = query(shape, request.andThen(b -> b.limit(limit).scanIndexForward(forward)
                    .exclusiveStartKey(from)));
            assertTrue(page.count() <= limit);
            assertEquals(page.count(), page.scannedCount());
            all.addAll(page.items());
            start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return all;
    }

    // ---- key conditions ---------------------------------------------------------------------

    /** One sort-key condition, in every way a request can say it, and the items it selects. */
    record SortKeyCase(String operator, List<Form> forms, IntPredicate selects) {
        @Override public String toString() { return operator; }
    }

    /** One way of writing a key condition: {@code :pk} and {@code :v}, {@code :w} are bound by the test. */
    record Form(String description, Consumer<QueryRequest.Builder> request) {
        @Override public String toString() { return description; }
    }

    private static Form expression(String keyConditionExpression, Map<String, AttributeValue> values) {
        return new Form(keyConditionExpression, b -> b.keyConditionExpression(keyConditionExpression)
                .expressionAttributeValues(values));
    }

    private static Form legacy(AttributeValue partitionKey, ComparisonOperator operator, AttributeValue... values) {
        return new Form("KeyConditions " + operator, b -> b.keyConditions(Map.of(
                PARTITION_KEY, condition(ComparisonOperator.EQ, partitionKey), SORT_KEY, condition(operator, values))));
    }

    /** A comparison, written plainly, with its operands reversed, and in KeyConditions. */
    private static SortKeyCase comparison(String operator, String reversedOperator, ComparisonOperator legacy,
                                          AttributeValue partitionKey, AttributeValue v, IntPredicate selects) {
        Map<String, AttributeValue> values = item(":pk", partitionKey, ":v", v);
        return new SortKeyCase(operator, List.of(
                expression("pk = :pk AND sk " + operator + " :v", values),
                expression(":v " + reversedOperator + " sk AND :pk = pk", values),
                expression("(pk = :pk) AND (sk " + operator + " :v)", values),
                new Form("with names", b -> b.keyConditionExpression("#p = :pk and #s " + operator + " :v")
                        .expressionAttributeNames(names("#p", PARTITION_KEY, "#s", SORT_KEY))
                        .expressionAttributeValues(values)),
                legacy(partitionKey, legacy, v)), selects);
    }

    static Stream<Arguments> sortKeyConditions() {
        return KeyShape.withSortKey().flatMap(shape -> {
            ScalarAttributeType type = shape.sortKeyType();
            AttributeValue pk = KeyShape.value(shape.partitionKeyType(), KeyShape.nextNumber());
            AttributeValue v = sortKey(type, 5);
            List<SortKeyCase> cases = new ArrayList<>(List.of(
                    comparison("=", "=", ComparisonOperator.EQ, pk, v, i -> i == 5),
                    comparison("<", ">", ComparisonOperator.LT, pk, v, i -> i < 5),
                    comparison("<=", ">=", ComparisonOperator.LE, pk, v, i -> i <= 5),
                    comparison(">", "<", ComparisonOperator.GT, pk, v, i -> i > 5),
                    comparison(">=", "<=", ComparisonOperator.GE, pk, v, i -> i >= 5),
                    new SortKeyCase("= a value no item has", List.of(
                            expression("pk = :pk AND sk = :v", item(":pk", pk, ":v", justAfter(type, 5))),
                            legacy(pk, ComparisonOperator.EQ, justAfter(type, 5))), i -> false),
                    new SortKeyCase("BETWEEN", List.of(
                            expression("pk = :pk AND sk BETWEEN :v AND :w", item(":pk", pk, ":v", sortKey(type, 3),
                                    ":w", sortKey(type, 8))),
                            legacy(pk, ComparisonOperator.BETWEEN, sortKey(type, 3), sortKey(type, 8))),
                            i -> i >= 3 && i <= 8),
                    new SortKeyCase("BETWEEN one value", List.of(
                            expression("pk = :pk AND sk BETWEEN :v AND :v", item(":pk", pk, ":v", v)),
                            legacy(pk, ComparisonOperator.BETWEEN, v, v)), i -> i == 5),
                    new SortKeyCase("BETWEEN values no item has", List.of(
                            expression("pk = :pk AND sk BETWEEN :v AND :w", item(":pk", pk,
                                    ":v", justAfter(type, 2), ":w", justAfter(type, 7)))), i -> i >= 3 && i <= 7)));
            if (type != ScalarAttributeType.N) {
                for (int group : new int[] {1, 2, 3}) {
                    AttributeValue prefix = groupPrefix(type, group);
                    cases.add(new SortKeyCase("begins_with group " + group, List.of(
                            expression("pk = :pk AND begins_with(sk, :v)", item(":pk", pk, ":v", prefix)),
                            legacy(pk, ComparisonOperator.BEGINS_WITH, prefix)), i -> i / 3 == group));
                }
                cases.add(new SortKeyCase("begins_with a whole key", List.of(
                        expression("pk = :pk AND begins_with(sk, :v)", item(":pk", pk, ":v", v))), i -> i == 5));
            }
            return cases.stream().map(c -> Arguments.of(shape, pk, c));
        });
    }

    /** The partitions that {@link #sortKeyConditions} query, stored once per table. */
    private static final Set<AttributeValue> storedConditionPartitions = new HashSet<>();

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("sortKeyConditions")
    void queryReturnsTheItemsWhoseSortKeySatisfiesTheConditionInOrder(KeyShape shape, AttributeValue pk,
                                                                     SortKeyCase c) {
        List<Map<String, AttributeValue>> items = IntStream.range(0, PARTITION_SIZE)
                .mapToObj(i -> item(PARTITION_KEY, pk, SORT_KEY, sortKey(shape.sortKeyType(), i), "i", n("" + i)))
                .toList();
        if (storedConditionPartitions.add(pk)) reversed(items).forEach(item -> db.put(shape, item));
        List<Map<String, AttributeValue>> expected = only(items, c.selects());

        for (Form form : c.forms()) {
            QueryResponse all = query(shape, form.request());
            assertEquals(expected, all.items(), form.description());
            assertEquals(expected.size(), all.count());
            assertEquals(expected.size(), all.scannedCount());
            assertFalse(all.hasLastEvaluatedKey());
            assertEquals(reversed(expected), query(shape, form.request().andThen(b -> b.scanIndexForward(false))).items(),
                    form + ", backwards");
        }
        Form first = c.forms().get(0);
        assertEquals(expected, pagedByLimit(shape, first.request(), 2, true), first + ", Limit 2");
        assertEquals(reversed(expected), pagedByLimit(shape, first.request(), 2, false), first + ", Limit 2 backwards");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void queryByPartitionKeyAloneReturnsThePartitionInSortKeyOrder(KeyShape shape) {
        List<Map<String, AttributeValue>> items = newPartition(shape);
        AttributeValue pk = items.get(0).get(PARTITION_KEY);

        assertEquals(items, query(shape, partition(items)).items());
        assertEquals(items, query(shape, b -> b.keyConditions(Map.of(PARTITION_KEY,
                condition(ComparisonOperator.EQ, pk)))).items());
        assertEquals(items, query(shape, b -> b.keyConditionExpression(":pk = pk")
                .expressionAttributeValues(item(":pk", pk))).items());
        assertEquals(reversed(items), query(shape, partition(items).andThen(b -> b.scanIndexForward(false))).items());
        assertEquals(items, query(shape, partition(items).andThen(b -> b.scanIndexForward(true))).items());
        assertEquals(items, query(shape, b -> b.keyConditions(Map.of(PARTITION_KEY, condition(ComparisonOperator.EQ, pk)))
                .queryFilter(Map.of())).items(), "an empty QueryFilter filters nothing");
        // KeyConditions may go with FilterExpression and ProjectionExpression (not with KeyConditionExpression).
        assertEquals(only(items, i -> i % 2 == 1).stream().map(i -> item("i", i.get("i"))).toList(),
                query(shape, b -> b.keyConditions(Map.of(PARTITION_KEY, condition(ComparisonOperator.EQ, pk)))
                        .filterExpression("odd = :t").projectionExpression("i")
                        .expressionAttributeValues(item(":t", bool(true)))).items());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void queryOfAPartitionWithoutItemsAnswersZeroCounts(KeyShape shape) {
        AttributeValue absent = shape.newKey().get(PARTITION_KEY);
        QueryResponse r = query(shape, b -> b.keyConditionExpression("pk = :pk")
                .expressionAttributeValues(item(":pk", absent)).consistentRead(false)
                .returnConsumedCapacity(ReturnConsumedCapacity.NONE).scanIndexForward(true).select(Select.ALL_ATTRIBUTES));

        assertEquals(List.of(), r.items());
        assertTrue(r.hasItems(), "Items: [] is sent");
        assertEquals(0, r.count());
        assertEquals(0, r.scannedCount());
        assertFalse(r.hasLastEvaluatedKey());
        assertNull(r.consumedCapacity());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hashOnlyShapes")
    void queryOfAHashOnlyTableReturnsTheOneItemOfThePartitionKey(KeyShape shape) {
        Map<String, AttributeValue> item = shape.newItem(item("a", s("x")));
        db.put(shape, item);
        db.put(shape, shape.newItem(item("a", s("other"))));

        assertEquals(List.of(item), query(shape, partition(List.of(item))).items());
        assertEquals(List.of(item), query(shape, b -> b.keyConditions(Map.of(PARTITION_KEY,
                condition(ComparisonOperator.EQ, item.get(PARTITION_KEY))))).items());

        // Limit 1 reads the one item: LastEvaluatedKey names it, and the next page is empty.
        QueryResponse limited = query(shape, partition(List.of(item)).andThen(b -> b.limit(1)));
        assertEquals(List.of(item), limited.items());
        assertEquals(keyOf(shape, item), limited.lastEvaluatedKey());
        QueryResponse next = query(shape, partition(List.of(item)).andThen(b -> b.exclusiveStartKey(limited.lastEvaluatedKey())));
        assertEquals(0, next.count());
        assertFalse(next.hasLastEvaluatedKey());
    }

    static Stream<KeyShape> hashOnlyShapes() {
        return KeyShape.all().filter(shape -> !shape.hasSortKey());
    }

    @Test
    void queryFindsANumberPartitionKeyHoweverItIsWritten() {
        KeyShape shape = new KeyShape(ScalarAttributeType.N, ScalarAttributeType.S);
        BigDecimal number = new BigDecimal(KeyShape.nextNumber() + ".5");
        Map<String, AttributeValue> stored = item(PARTITION_KEY, n(number.toPlainString()), SORT_KEY, s("x"));
        db.put(shape, stored);

        for (String spelling : List.of(number.setScale(4).toPlainString(), "00" + number.toPlainString(),
                number.unscaledValue() + "E-1", number.movePointLeft(5).toPlainString() + "e5")) {
            assertEquals(List.of(stored), query(shape, b -> b.keyConditionExpression("pk = :pk")
                    .expressionAttributeValues(item(":pk", n(spelling)))).items(), spelling);
        }
    }

    // ---- Limit and LastEvaluatedKey ----------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void limitCountsTheItemsReadBeforeTheFilter(KeyShape shape) {
        List<Map<String, AttributeValue>> items = newPartition(shape);
        Consumer<QueryRequest.Builder> oddOnes = b -> b.keyConditionExpression("pk = :pk")
                .filterExpression("odd = :t").expressionAttributeValues(item(":pk", items.get(0).get(PARTITION_KEY),
                        ":t", bool(true)));

        QueryResponse first = query(shape, oddOnes.andThen(b -> b.limit(4)));
        assertEquals(List.of(items.get(1), items.get(3)), first.items());
        assertEquals(2, first.count());
        assertEquals(4, first.scannedCount());
        assertEquals(keyOf(shape, items.get(3)), first.lastEvaluatedKey());

        QueryResponse second = query(shape, oddOnes.andThen(b -> b.limit(3).exclusiveStartKey(first.lastEvaluatedKey())));
        assertEquals(List.of(items.get(5)), second.items());
        assertEquals(3, second.scannedCount());
        assertEquals(keyOf(shape, items.get(6)), second.lastEvaluatedKey(), "the last item read, though filtered out");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void lastEvaluatedKeyIsReturnedWhenExactlyLimitItemsWereReadEvenIfNoneRemain(KeyShape shape) {
        List<Map<String, AttributeValue>> items = newPartition(shape);

        QueryResponse atLimit = query(shape, partition(items).andThen(b -> b.limit(PARTITION_SIZE)));
        assertEquals(items, atLimit.items());
        assertEquals(keyOf(shape, items.get(PARTITION_SIZE - 1)), atLimit.lastEvaluatedKey());

        QueryResponse after = query(shape, partition(items).andThen(b -> b.exclusiveStartKey(atLimit.lastEvaluatedKey())));
        assertEquals(List.of(), after.items());
        assertEquals(0, after.scannedCount());
        assertFalse(after.hasLastEvaluatedKey());

        QueryResponse pastLimit = query(shape, partition(items).andThen(b -> b.limit(PARTITION_SIZE + 1)));
        assertEquals(items, pastLimit.items());
        assertFalse(pastLimit.hasLastEvaluatedKey());
    }

    @Test
    void limitHasNoUpperBound() {
        KeyShape shape = new KeyShape(ScalarAttributeType.S, ScalarAttributeType.N);
        List<Map<String, AttributeValue>> items = newPartition(shape);
        assertEquals(items, query(shape, partition(items).andThen(b -> b.limit(Integer.MAX_VALUE))).items());
        assertEquals(List.of(items.get(0)), query(shape, partition(items).andThen(b -> b.limit(1))).items());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void exclusiveStartKeyIsAPositionStrictlyAfterItOrBeforeItBackwards(KeyShape shape) {
        List<Map<String, AttributeValue>> items = newPartition(shape);
        ScalarAttributeType type = shape.sortKeyType();
        Map<String, AttributeValue> existing = keyOf(shape, items.get(4));
        Map<String, AttributeValue> between = item(PARTITION_KEY, items.get(0).get(PARTITION_KEY),
                SORT_KEY, justAfter(type, 4));

        assertEquals(items.subList(5, 12), query(shape, partition(items).andThen(b -> b.exclusiveStartKey(existing))).items());
        assertEquals(reversed(items.subList(0, 4)), query(shape, partition(items).andThen(b -> b.exclusiveStartKey(existing)
                .scanIndexForward(false))).items());
        assertEquals(items.subList(5, 12), query(shape, partition(items).andThen(b -> b.exclusiveStartKey(between))).items());
        assertEquals(reversed(items.subList(0, 5)), query(shape, partition(items).andThen(b -> b.exclusiveStartKey(between)
                .scanIndexForward(false))).items());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void pagesFollowOneAnotherWithoutGapOrRepeatInBothDirections(KeyShape shape) {
        List<Map<String, AttributeValue>> items = newPartition(shape);
        for (int limit : new int[] {1, 5, 12, 13}) {
            assertEquals(items, pagedByLimit(shape, partition(items), limit, true), "Limit " + limit);
            assertEquals(reversed(items), pagedByLimit(shape, partition(items), limit, false), "Limit " + limit + " backwards");
        }
    }

    // ---- filters ----------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void filterExpressionDropsItemsAfterTheyAreReadAndCounted(KeyShape shape) {
        List<Map<String, AttributeValue>> items = newPartition(shape);

        QueryResponse r = query(shape, b -> b.keyConditionExpression("pk = :pk AND sk >= :from")
                .filterExpression("#i BETWEEN :lo AND :hi AND #odd = :f")
                .expressionAttributeNames(names("#i", "i", "#odd", "odd"))
                .expressionAttributeValues(item(":pk", items.get(0).get(PARTITION_KEY),
                        ":from", sortKey(shape.sortKeyType(), 2), ":lo", n("3"), ":hi", n("9"), ":f", bool(false))));

        assertEquals(only(items, i -> i >= 3 && i <= 9 && i % 2 == 0), r.items());
        assertEquals(3, r.count());
        assertEquals(10, r.scannedCount(), "items 2..11 were read");
        assertFalse(r.hasLastEvaluatedKey());
    }

    @Test
    void filterMatchingNothingStillReportsTheItemsRead() {
        KeyShape shape = new KeyShape(ScalarAttributeType.B, ScalarAttributeType.S);
        List<Map<String, AttributeValue>> items = newPartition(shape);

        QueryResponse r = query(shape, b -> b.keyConditionExpression("pk = :pk").filterExpression("attribute_exists(nope)")
                .expressionAttributeValues(item(":pk", items.get(0).get(PARTITION_KEY))));

        assertEquals(List.of(), r.items());
        assertEquals(0, r.count());
        assertEquals(PARTITION_SIZE, r.scannedCount());
    }

    /** QueryFilter entries with their ComparisonOperators, and the items (by i) they keep. */
    static Stream<Arguments> queryFilters() {
        return Stream.of(
                Arguments.of("i EQ 4", Map.of("i", condition(ComparisonOperator.EQ, n("4"))), null, (IntPredicate) i -> i == 4),
                Arguments.of("i NE 4", Map.of("i", condition(ComparisonOperator.NE, n("4"))), null, (IntPredicate) i -> i != 4),
                Arguments.of("i LT 4", Map.of("i", condition(ComparisonOperator.LT, n("4"))), null, (IntPredicate) i -> i < 4),
                Arguments.of("i LE 4", Map.of("i", condition(ComparisonOperator.LE, n("4"))), null, (IntPredicate) i -> i <= 4),
                Arguments.of("i GT 4", Map.of("i", condition(ComparisonOperator.GT, n("4"))), null, (IntPredicate) i -> i > 4),
                Arguments.of("i GE 4", Map.of("i", condition(ComparisonOperator.GE, n("4"))), null, (IntPredicate) i -> i >= 4),
                Arguments.of("i BETWEEN 2 AND 4", Map.of("i", condition(ComparisonOperator.BETWEEN, n("2"), n("4"))), null,
                        (IntPredicate) i -> i >= 2 && i <= 4),
                Arguments.of("i IN 1, 7", Map.of("i", condition(ComparisonOperator.IN, n("1"), n("7"))), null,
                        (IntPredicate) i -> i == 1 || i == 7),
                Arguments.of("tag NULL", Map.of("tag", condition(ComparisonOperator.NULL)), null, (IntPredicate) i -> i % 3 != 0),
                Arguments.of("tag NOT_NULL", Map.of("tag", condition(ComparisonOperator.NOT_NULL)), null,
                        (IntPredicate) i -> i % 3 == 0),
                Arguments.of("tag BEGINS_WITH t6", Map.of("tag", condition(ComparisonOperator.BEGINS_WITH, s("t6"))), null,
                        (IntPredicate) i -> i == 6),
                Arguments.of("tags CONTAINS even", Map.of("tags", condition(ComparisonOperator.CONTAINS, s("even"))), null,
                        (IntPredicate) i -> i % 3 == 0 && i % 2 == 0),
                // A missing attribute does not "not contain" a value.
                Arguments.of("tags NOT_CONTAINS even", Map.of("tags", condition(ComparisonOperator.NOT_CONTAINS, s("even"))),
                        null, (IntPredicate) i -> i % 3 == 0 && i % 2 == 1),
                Arguments.of("i GE 4 AND tag NOT_NULL (AND by default)", Map.of("i", condition(ComparisonOperator.GE, n("4")),
                        "tag", condition(ComparisonOperator.NOT_NULL)), null, (IntPredicate) i -> i >= 4 && i % 3 == 0),
                Arguments.of("i LE 6 AND tag NOT_NULL", Map.of("i", condition(ComparisonOperator.LE, n("6")),
                        "tag", condition(ComparisonOperator.NOT_NULL)), ConditionalOperator.AND,
                        (IntPredicate) i -> i <= 6 && i % 3 == 0),
                Arguments.of("i LT 2 OR tag NOT_NULL", Map.of("i", condition(ComparisonOperator.LT, n("2")),
                        "tag", condition(ComparisonOperator.NOT_NULL)), ConditionalOperator.OR,
                        (IntPredicate) i -> i < 2 || i % 3 == 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queryFilters")
    void queryFilterKeepsTheItemsItsConditionsMatch(String description, Map<String, Condition> filter,
                                                    ConditionalOperator operator, IntPredicate keeps) {
        KeyShape shape = new KeyShape(ScalarAttributeType.N, ScalarAttributeType.B);
        AttributeValue pk = shape.newKey().get(PARTITION_KEY);
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < PARTITION_SIZE; i++) {
            Map<String, AttributeValue> item = item(PARTITION_KEY, pk, SORT_KEY, sortKey(shape.sortKeyType(), i),
                    "i", n("" + i), "odd", bool(i % 2 == 1));
            if (i % 3 == 0) {
                item.put("tag", s("t" + i));
                item.put("tags", ss("x", i % 2 == 0 ? "even" : "odd"));
            }
            items.add(item);
            db.put(shape, item);
        }

        QueryResponse r = query(shape, b -> b.keyConditions(Map.of(PARTITION_KEY, condition(ComparisonOperator.EQ, pk)))
                .queryFilter(filter).conditionalOperator(operator));

        assertEquals(only(items, keeps), r.items());
        assertEquals(PARTITION_SIZE, r.scannedCount());
    }

    // ---- Select and projection ---------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void selectCountAnswersCountsWithoutItems(KeyShape shape) {
        List<Map<String, AttributeValue>> items = newPartition(shape);

        QueryResponse all = query(shape, partition(items).andThen(b -> b.select(Select.COUNT)));
        assertFalse(all.hasItems(), "no Items member");
        assertEquals(PARTITION_SIZE, all.count());
        assertEquals(PARTITION_SIZE, all.scannedCount());

        QueryResponse limited = query(shape, b -> b.keyConditionExpression("pk = :pk").filterExpression("odd = :f")
                .expressionAttributeValues(item(":pk", items.get(0).get(PARTITION_KEY), ":f", bool(false)))
                .select(Select.COUNT).limit(5));
        assertFalse(limited.hasItems());
        assertEquals(3, limited.count());
        assertEquals(5, limited.scannedCount());
        assertEquals(keyOf(shape, items.get(4)), limited.lastEvaluatedKey());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void projectionReturnsOnlyTheNamedPathsButLastEvaluatedKeyKeepsTheKey(KeyShape shape) {
        AttributeValue pk = shape.newKey().get(PARTITION_KEY);
        Map<String, AttributeValue> full = item(PARTITION_KEY, pk, SORT_KEY, sortKey(shape.sortKeyType(), 0),
                "m", m("x", s("1"), "y", s("2")), "l", l(s("a"), s("b"), s("c")), "name", s("n"), "rest", s("o"));
        Map<String, AttributeValue> bare = item(PARTITION_KEY, pk, SORT_KEY, sortKey(shape.sortKeyType(), 1));
        db.put(shape, full);
        db.put(shape, bare);
        Consumer<QueryRequest.Builder> byPartition = b -> b.keyConditionExpression("pk = :pk")
                .expressionAttributeValues(item(":pk", pk));

        QueryResponse projected = query(shape, byPartition.andThen(b -> b.projectionExpression("m.x, l[1], #n")
                .expressionAttributeNames(names("#n", "name")).limit(2)));
        assertEquals(List.of(item("m", m("x", s("1")), "l", l(s("b")), "name", s("n")), Map.of()), projected.items());
        assertEquals(keyOf(shape, bare), projected.lastEvaluatedKey());

        QueryResponse specific = query(shape, byPartition.andThen(b -> b.select(Select.SPECIFIC_ATTRIBUTES)
                .projectionExpression("rest, sk")));
        assertEquals(List.of(item("rest", s("o"), SORT_KEY, full.get(SORT_KEY)), item(SORT_KEY, bare.get(SORT_KEY))),
                specific.items());

        QueryResponse legacy = query(shape, b -> b.keyConditions(Map.of(PARTITION_KEY, condition(ComparisonOperator.EQ, pk)))
                .attributesToGet("name", "l", "missing").select(Select.SPECIFIC_ATTRIBUTES));
        assertEquals(List.of(item("name", s("n"), "l", full.get("l")), Map.of()), legacy.items());

        QueryResponse everything = query(shape, byPartition.andThen(b -> b.select(Select.ALL_ATTRIBUTES)));
        assertEquals(List.of(full, bare), everything.items());
    }

    // ---- consistency and capacity ------------------------------------------------------------

    /**
     * Stores a new partition of {@code count} items of exactly {@code bytes} each (DynamoDB's
     * item size), every other one with {@code keep} = true, and returns the partition key.
     */
    private static AttributeValue partitionOfSize(KeyShape shape, int count, int bytes) {
        AttributeValue pk = shape.newKey().get(PARTITION_KEY);
        for (int i = 0; i < count; i++) {
            db.put(shape, DynamoSize.padded(item(PARTITION_KEY, pk, SORT_KEY, sortKey(shape.sortKeyType(), i),
                    "keep", bool(i % 2 == 0)), bytes));
        }
        return pk;
    }

    private static double consumed(KeyShape shape, AttributeValue pk, boolean consistentRead,
                                   Consumer<QueryRequest.Builder> options) {
        QueryResponse r = query(shape, b -> {
            b.keyConditionExpression("pk = :pk").expressionAttributeValues(item(":pk", pk)).consistentRead(consistentRead)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
            options.accept(b);
        });
        return db.totalUnits(shape, r.consumedCapacity());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void consumedCapacityRoundsTheSumOfTheItemsReadUpTo4KbPerPage(KeyShape shape) {
        // 3 items of 1500 bytes: 4500 bytes is 2 units; rounding each item up would make it 3.
        AttributeValue pk = partitionOfSize(shape, 3, 1500);
        assertEquals(2.0, consumed(shape, pk, true, b -> { }));
        assertEquals(1.0, consumed(shape, pk, false, b -> { }));
        // Filter, projection and Select change what is returned, not what is read.
        assertEquals(2.0, consumed(shape, pk, true, b -> b.filterExpression("keep = :f")
                .expressionAttributeValues(item(":pk", pk, ":f", bool(false)))));
        assertEquals(2.0, consumed(shape, pk, true, b -> b.projectionExpression("keep")));
        assertEquals(2.0, consumed(shape, pk, true, b -> b.select(Select.COUNT)));
        // Limit 2 reads 3000 bytes: 1 unit.
        assertEquals(1.0, consumed(shape, pk, true, b -> b.limit(2)));
        assertEquals(0.5, consumed(shape, pk, false, b -> b.limit(2)));

        // 10 items of 4100 bytes: 41000 bytes, 11 units (10 items of 2 units each one by one).
        AttributeValue big = partitionOfSize(shape, 10, 4100);
        assertEquals(11.0, consumed(shape, big, true, b -> { }));
        assertEquals(5.5, consumed(shape, big, false, b -> { }));
        // Exactly 4096 bytes is one unit; one byte more is two.
        assertEquals(1.0, consumed(shape, partitionOfSize(shape, 2, 2048), true, b -> { }));
        assertEquals(2.0, consumed(shape, partitionOfSize(shape, 1, 4097), true, b -> { }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void queryReadingNothingConsumesTheMinimumRead(KeyShape shape) {
        AttributeValue absent = shape.newKey().get(PARTITION_KEY);
        assertEquals(1.0, consumed(shape, absent, true, b -> { }));
        assertEquals(0.5, consumed(shape, absent, false, b -> { }));
    }

    @Test
    void consumedCapacityIndexesAddsTheTableBreakdownAndNoneLeavesItOut() {
        KeyShape shape = new KeyShape(ScalarAttributeType.S, ScalarAttributeType.S);
        AttributeValue pk = partitionOfSize(shape, 3, 1500);

        QueryResponse indexes = query(shape, b -> b.keyConditionExpression("pk = :pk")
                .expressionAttributeValues(item(":pk", pk)).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertEquals(db.table(shape), indexes.consumedCapacity().tableName());
        assertEquals(1.0, indexes.consumedCapacity().capacityUnits());
        assertEquals(1.0, indexes.consumedCapacity().table().capacityUnits());

        QueryResponse none = query(shape, b -> b.keyConditionExpression("pk = :pk")
                .expressionAttributeValues(item(":pk", pk)).returnConsumedCapacity(ReturnConsumedCapacity.NONE));
        assertNull(none.consumedCapacity());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#withSortKey")
    void consistentAndEventualReadsSeeTheSameItems(KeyShape shape) {
        List<Map<String, AttributeValue>> items = newPartition(shape);
        assertEquals(items, query(shape, partition(items).andThen(b -> b.consistentRead(true))).items());
        assertEquals(items, query(shape, partition(items).andThen(b -> b.consistentRead(false))).items());
    }

    // ---- table and index ----------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void queryNamingAnIndexIsRefusedWhileTablesHaveNone(KeyShape shape) {
        assertValidation("The table does not have the specified index: byName", () -> query(shape,
                b -> b.indexName("byName").keyConditionExpression("pk = :pk")
                        .expressionAttributeValues(item(":pk", shape.newKey().get(PARTITION_KEY)))));
        assertValidation("The table does not have the specified index: other.index-1", () -> query(shape,
                b -> b.indexName("other.index-1").select(Select.ALL_PROJECTED_ATTRIBUTES)
                        .keyConditions(Map.of("z", condition(ComparisonOperator.NULL)))));
    }

    @Test
    void queryOfAMissingTableIsRefusedBeforeItsKeyIsChecked() {
        for (Consumer<QueryRequest.Builder> keys : List.<Consumer<QueryRequest.Builder>>of(
                b -> b.keyConditions(Map.of("z", condition(ComparisonOperator.NULL))),
                b -> b.keyConditionExpression("z = :a").expressionAttributeValues(item(":a", n("1"))),
                b -> b.keyConditionExpression("b between :a and :b").expressionAttributeValues(item(":a", n("1"), ":b", n("1"))))) {
            for (Map<String, AttributeValue> start : List.of(Map.<String, AttributeValue>of(), item("b", s("a")),
                    item("a", s("a"), "b", s("a")))) {
                assertResourceNotFound("Requested resource not found", () -> db.client().query(b -> {
                    b.tableName("no-such-table").exclusiveStartKey(start);
                    keys.accept(b);
                }));
            }
        }
    }
}
