package io.stator.server.api;

import static io.stator.server.testing.Attrs.b;
import static io.stator.server.testing.Attrs.bool;
import static io.stator.server.testing.Attrs.bs;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.l;
import static io.stator.server.testing.Attrs.m;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.ns;
import static io.stator.server.testing.Attrs.nul;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Attrs.ss;
import static io.stator.server.testing.Attrs.with;
import static io.stator.server.testing.KeyShape.PARTITION_KEY;
import static io.stator.server.testing.KeyShape.SORT_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.DynamoAssertions;
import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.ItemTables;
import io.stator.server.testing.KeyOrder;
import io.stator.server.testing.KeyShape;
import io.stator.server.testing.ParallelWrites;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Walking a partition of 5,000 items of about 1 KB, page by page, as applications do: with and
 * without Limit, with and without a selective filter, forwards and backwards. Every page must
 * end where DynamoDB ends it: after Limit items read, or once the items read reach 1 MiB as
 * DynamoDB measures pages (the item that reaches it belongs to the page and is its
 * LastEvaluatedKey), and cost ceil(sum of its items' sizes / 4 KB) half units. The expected
 * pages are computed here from those rules ({@link DynamoSize#pageBytes}), not by the server's
 * code; the rules themselves are pinned by the page ends DynamoDB was recorded giving
 * (docs/dynamodb/query-scan.md sections 3 and 5).
 */
class PaginationTest {

    /** The partition of the first shape; the other key types get smaller ones, still several pages long. */
    private static final int ITEMS = 5_000;
    private static final int SMALLER_ITEMS = 2_000;
    private static final Map<KeyShape, String> tables = new HashMap<>();
    /** Each table's one partition, in sort-key order. */
    private static final Map<KeyShape, List<Map<String, AttributeValue>>> partitions = new HashMap<>();

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    /** Every key type, as partition key and as sort key, in three tables. */
    static Stream<KeyShape> shapes() {
        return Stream.of(new KeyShape(ScalarAttributeType.S, ScalarAttributeType.N),
                new KeyShape(ScalarAttributeType.N, ScalarAttributeType.B),
                new KeyShape(ScalarAttributeType.B, ScalarAttributeType.S));
    }

    @BeforeAll
    static void load() {
        shapes().forEach(shape -> {
            int size = tables.isEmpty() ? ITEMS : SMALLER_ITEMS;
            List<Map<String, AttributeValue>> items = partition(shape, size, new Random(shape.hashCode()));
            tables.put(shape, shape.createTable(server.client()));
            partitions.put(shape, items);
            List<Map<String, AttributeValue>> shuffled = new ArrayList<>(items);
            Collections.shuffle(shuffled, new Random(1));
            ParallelWrites.putAll(server.endpoint(), tables.get(shape), shuffled);
        });
    }

    // ---- the data ---------------------------------------------------------------------------

    /**
     * {@code size} items of one partition key with random sort keys, of 800 to 1100 bytes, with
     * attributes of every type here and there (the page measure counts each type its own way),
     * and {@code hit} true on one item in 97 (for a selective filter). Sorted by sort key.
     */
    private static List<Map<String, AttributeValue>> partition(KeyShape shape, int size, Random random) {
        AttributeValue pk = KeyShape.value(shape.partitionKeyType(), KeyShape.nextNumber());
        Set<AttributeValue> sortKeys = new TreeSet<>(KeyOrder.VALUES);
        while (sortKeys.size() < size) sortKeys.add(randomKey(shape.sortKeyType(), random));
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        int i = 0;
        for (AttributeValue sk : sortKeys) {
            Map<String, AttributeValue> item = item(PARTITION_KEY, pk, SORT_KEY, sk,
                    "filler", s(ascii(random, 800 + random.nextInt(300))),
                    "n", n(BigDecimal.valueOf(random.nextLong(), random.nextInt(10)).stripTrailingZeros().toPlainString()),
                    "hit", bool(i % 97 == 0));
            if (i % 5 == 0) item.put("tags", ss("red", ascii(random, 1 + random.nextInt(20))));
            if (i % 7 == 0) item.put("nested", m("a", n("12.3456"), "b", l(s("x"), bool(false), nul())));
            if (i % 11 == 0) item.put("bin", b(random.ints(1 + random.nextInt(40), 0, 256).toArray()));
            if (i % 13 == 0) item.put("sets", ns("1.23", "12.3"));
            if (i % 17 == 0) item.put("binaries", bs(new int[] {1, 2}, new int[] {2}));
            if (i % 19 == 0) item.put("nothing", nul());
            items.add(item);
            i++;
        }
        return items;
    }

    private static AttributeValue randomKey(ScalarAttributeType type, Random random) {
        return switch (type) {
            case S -> s(ascii(random, 1 + random.nextInt(30)));
            case B -> b(random.ints(1 + random.nextInt(30), 0, 256).toArray());
            case N -> {
                BigInteger digits = new BigInteger(1 + random.nextInt(120), random);
                BigDecimal value = new BigDecimal(random.nextBoolean() ? digits : digits.negate(), random.nextInt(40) - 10);
                yield n(value.round(new MathContext(38)).stripTrailingZeros().toPlainString());
            }
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    private static String ascii(Random random, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) sb.append((char) (' ' + random.nextInt(95)));
        return sb.toString();
    }

    // ---- what DynamoDB answers, by its rules ---------------------------------------------------

    /** One page as DynamoDB returns it: the keys of the items that passed the filter, and the rest. */
    record Page(List<Map<String, AttributeValue>> keys, int scannedCount, Map<String, AttributeValue> lastEvaluatedKey,
                double consumedUnits) {}

    /**
     * The pages of a walk over {@code read} (the items in the order the walk reads them): each
     * ends after {@code limit} items or once its items reach 1 MiB of {@link DynamoSize#pageBytes},
     * the item that ends it included and named LastEvaluatedKey even when nothing follows (then
     * one more, empty page ends the walk).
     */
    static List<Page> expectedPages(KeyShape shape, List<Map<String, AttributeValue>> read, Integer limit,
                                    Predicate<Map<String, AttributeValue>> filter) {
        List<Page> pages = new ArrayList<>();
        int next = 0;
        while (true) {
            List<Map<String, AttributeValue>> kept = new ArrayList<>();
            int scanned = 0;
            long pageBytes = 0;
            long itemBytes = 0;
            Map<String, AttributeValue> last = null;
            while (next < read.size()) {
                Map<String, AttributeValue> item = read.get(next++);
                scanned++;
                pageBytes += DynamoSize.pageBytes(item, shape.hasSortKey() ? SORT_KEY : null);
                itemBytes += DynamoSize.of(item);
                if (filter.test(item)) kept.add(ItemTables.keyOf(shape, item));
                if ((limit != null && scanned >= limit) || pageBytes >= DynamoSize.PAGE_BYTES) {
                    last = ItemTables.keyOf(shape, item);
                    break;
                }
            }
            // Half a unit per 4 KB read (eventually consistent), never less than half a unit.
            pages.add(new Page(kept, scanned, last, Math.max(1, (itemBytes + 4095) / 4096) / 2.0));
            if (last == null) return pages;
        }
    }

    /** The pages a walk over the partition gets, following LastEvaluatedKey until there is none. */
    private static List<Page> walk(KeyShape shape, Integer limit, boolean filtered, boolean forward) {
        List<Page> pages = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse r = server.client().query(b -> {
                b.tableName(tables.get(shape)).keyConditionExpression("pk = :pk").scanIndexForward(forward).limit(limit)
                        .exclusiveStartKey(from).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        // A projection changes what is returned, not what is read: it keeps the walk light.
                        .projectionExpression("pk, sk");
                Map<String, AttributeValue> values = item(":pk", partitions.get(shape).get(0).get(PARTITION_KEY));
                if (filtered) {
                    b.filterExpression("hit = :t");
                    values.put(":t", bool(true));
                }
                b.expressionAttributeValues(values);
            });
            assertEquals(r.items().size(), r.count());
            pages.add(new Page(r.items(), r.scannedCount(), r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null,
                    r.consumedCapacity().capacityUnits()));
            start = r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        return pages;
    }

    private static List<Map<String, AttributeValue>> keys(List<Page> pages) {
        return pages.stream().flatMap(p -> p.keys().stream()).toList();
    }

    // ---- walking a partition ------------------------------------------------------------------

    static Stream<Arguments> walks() {
        List<Arguments> walks = new ArrayList<>();
        shapes().forEach(shape -> {
            for (Integer limit : new Integer[] {null, 100, 1000}) {
                for (boolean filtered : new boolean[] {false, true}) {
                    for (boolean forward : new boolean[] {true, false}) walks.add(Arguments.of(shape, limit, filtered, forward));
                }
            }
        });
        // Limit 7 means 715 pages: once each way is enough.
        KeyShape first = shapes().findFirst().orElseThrow();
        walks.add(Arguments.of(first, 7, false, true));
        walks.add(Arguments.of(first, 7, true, false));
        return walks.stream();
    }

    @ParameterizedTest(name = "{0}, Limit {1}, filtered {2}, forward {3}")
    @MethodSource("walks")
    void walkingAPartitionFindsEveryItemOnceInOrderWithDynamoDbsPageEnds(KeyShape shape, Integer limit,
                                                                         boolean filtered, boolean forward) {
        List<Map<String, AttributeValue>> read = new ArrayList<>(partitions.get(shape));
        if (!forward) Collections.reverse(read);
        Predicate<Map<String, AttributeValue>> filter = filtered ? i -> i.get("hit").bool() : i -> true;

        List<Page> expected = expectedPages(shape, read, limit, filter);
        List<Page> actual = walk(shape, limit, filtered, forward);

        assertEquals(read.stream().filter(filter).map(i -> ItemTables.keyOf(shape, i)).toList(), keys(actual),
                "every item once, in order");
        assertEquals(expected.size(), actual.size(), "pages");
        for (int p = 0; p < expected.size(); p++) assertEquals(expected.get(p), actual.get(p), "page " + p);
        if (limit == null) assertTrue(expected.size() > 1, "pages ended by size");
    }

    @Test
    void walkingWithoutProjectionReturnsTheItemsWhole() {
        KeyShape shape = shapes().skip(1).findFirst().orElseThrow();
        List<Map<String, AttributeValue>> all = server.client().queryPaginator(b -> b.tableName(tables.get(shape))
                .keyConditionExpression("pk = :pk").expressionAttributeValues(item(":pk",
                        partitions.get(shape).get(0).get(PARTITION_KEY)))).items().stream().toList();
        assertEquals(partitions.get(shape).size(), all.size());
        for (int i = 0; i < all.size(); i++) DynamoAssertions.assertSameItem(partitions.get(shape).get(i), all.get(i));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void scanPagesEndOnceTheItemsReadReachOneMebibyte(KeyShape shape) {
        Set<Map<String, AttributeValue>> seen = new HashSet<>();
        Map<String, AttributeValue> start = null;
        int pages = 0;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse r = server.client().scan(b -> b.tableName(tables.get(shape)).exclusiveStartKey(from));
            long bytes = 0;
            long lastItemBytes = 0;
            for (Map<String, AttributeValue> item : r.items()) {
                assertTrue(seen.add(ItemTables.keyOf(shape, item)), "returned twice");
                lastItemBytes = DynamoSize.pageBytes(item, SORT_KEY);
                bytes += lastItemBytes;
            }
            if (r.hasLastEvaluatedKey()) {
                assertTrue(bytes >= DynamoSize.PAGE_BYTES && bytes - lastItemBytes < DynamoSize.PAGE_BYTES,
                        "page " + pages + " of " + bytes + " bytes");
                assertEquals(ItemTables.keyOf(shape, r.items().get(r.count() - 1)), r.lastEvaluatedKey());
            } else {
                assertTrue(bytes < DynamoSize.PAGE_BYTES);
            }
            pages++;
            start = r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        assertEquals(partitions.get(shape).size(), seen.size());
        assertTrue(pages > 1);
    }

    // ---- the page ends recorded from DynamoDB ---------------------------------------------------

    /**
     * A page end recorded from DynamoDB by dynalite's 1 MB tests (run against DynamoDB with
     * Select COUNT): items of about 42 KB that reach 1 MiB just before or just at the last one,
     * and what DynamoDB answered. The items are given by their position in read order, which for
     * a Scan of several partitions is known only once the keys are stored ({@code keysInReadOrder}
     * then names them). {@code lastEvaluated}: the position of the LastEvaluatedKey, -1 for none,
     * null where the recording does not say.
     */
    record Recorded(String description, Table table, List<Map<String, AttributeValue>> keys, ItemAt itemAt,
                    Integer limit, int scannedCount, Integer lastEvaluated, double units) {
        @Override public String toString() { return description; }
    }

    /** The tables of dynalite's tests: a (S), or a (S) and b (S or N). */
    enum Table { HASH, RANGE, NUMBER_RANGE }

    /** The item at a position in read order, from its key. */
    interface ItemAt {
        Map<String, AttributeValue> item(int position, Map<String, AttributeValue> key);
    }

    private static String repeat(char c, int times) {
        return String.valueOf(c).repeat(times);
    }

    /** 25 keys: one partition (dynalite's ids are 10 characters) and sort keys 0 to 24, or 25 partitions. */
    private static List<Map<String, AttributeValue>> keys(Table table, String sortKeyFormat) {
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            keys.add(switch (table) {
                case HASH -> item("a", s(String.format("%02d", i)));
                case RANGE -> sortKeyFormat == null ? item("a", s(String.format("%02d", i)), "b", s(String.format("%02d", i)))
                        : item("a", s("abcdefghij"), "b", s(String.format(sortKeyFormat, i)));
                case NUMBER_RANGE -> item("a", s("abcdefghij"), "b", n(Integer.toString(i)));
            });
        }
        return keys;
    }

    /** The second-last item of dynalite's scan tests: a long string and one attribute of each other scalar and set type. */
    private static Map<String, AttributeValue> everyType(Map<String, AttributeValue> key, String[] names, int length) {
        return with(key, names[0], s(repeat('b', length)), names[1], n("12.3456"), names[2], b(1, 2),
                names[3], ss("a", "bc"), names[4], ns("1.23", "12.3"), names[5], bs(new int[] {1, 2}, new int[] {2}, new int[] {1}));
    }

    static Stream<Recorded> recorded() {
        String e255 = repeat('e', 255);
        String b255 = repeat('b', 255);
        String[] short6 = {"b", "c", "d", "e", "f", "g"};
        String[] long6 = {"bfasfdsfdsa", "cfadsfdsaafds", "dfasdfdafdsa", "efdasfdasfd", "ffdsafsdfd", "gfsdfdsaafds"};
        String[] range6 = {"z", "y", "x", "w", "v", "u"};
        List<Map<String, AttributeValue>> partition = keys(Table.RANGE, "%02d");
        return Stream.of(
                // Query of one partition.
                new Recorded("query just under 1 MiB: no LastEvaluatedKey", Table.RANGE, partition,
                        (p, k) -> with(k, e255, s(repeat('e', 41645))), 26, 25, -1, 128),
                new Recorded("query just under 1 MiB, Limit 25: LastEvaluatedKey", Table.RANGE, partition,
                        (p, k) -> with(k, e255, s(repeat('e', 41645))), 25, 25, 24, 128),
                new Recorded("query reaching 1 MiB with the last item", Table.RANGE, partition,
                        (p, k) -> with(k, "e", s(repeat('e', p == 24 ? 41646 : 41645))), null, 25, 24, 127.5),
                new Recorded("query just under 1 MiB before the last item", Table.RANGE, partition,
                        (p, k) -> with(k, e255, s(repeat('e', p == 23 ? 43387 : p == 24 ? 44999 : 43372))), null, 25, 24, 133.5),
                new Recorded("query reaching 1 MiB with the second-last item", Table.RANGE, partition,
                        (p, k) -> with(k, "e", s(repeat('e', p == 23 ? 43388 : p == 24 ? 44999 : 43372))), null, 24, 23, 127.5),
                // Scan of a table of one partition.
                new Recorded("scan just under 1 MiB: no LastEvaluatedKey", Table.RANGE, keys(Table.RANGE, "%06d"),
                        (p, k) -> with(k, "c", s("abcde"), e255, s(repeat('e', 41582))), 26, 25, -1, 128),
                new Recorded("scan reaching 1 MiB with the last item", Table.RANGE, keys(Table.RANGE, "%05d"),
                        (p, k) -> with(k, "c", s("abcde"), "e", s(repeat('e', p == 24 ? 41597 : 41596))), null, 25, 24, 127.5),
                new Recorded("scan of number sort keys just under 1 MiB", Table.NUMBER_RANGE, keys(Table.NUMBER_RANGE, null),
                        (p, k) -> with(k, "c", s("abcde"), e255, s(repeat('e', p == 24 ? 41652 : 41638))), 26, 25, -1, 128),
                new Recorded("scan of number sort keys reaching 1 MiB with the last item", Table.NUMBER_RANGE,
                        keys(Table.NUMBER_RANGE, null),
                        (p, k) -> with(k, "c", s("abcde"), "e", s(repeat('e', p == 24 ? 41653 : 41638))), null, 25, 24, 127.5),
                // Scan of 25 (or 13) partitions, in whatever order the table returns them.
                new Recorded("scan of 25 partition keys just under 1 MiB", Table.HASH, keys(Table.HASH, null),
                        (p, k) -> p == 23 ? everyType(k, short6, 43366) : with(k, "b", s(p == 24 ? "b" : repeat('b', 43411))),
                        null, 25, null, 127.5),
                new Recorded("scan of 25 partition keys reaching 1 MiB", Table.HASH, keys(Table.HASH, null),
                        (p, k) -> p == 23 ? everyType(k, short6, 43367) : with(k, "b", s(p == 24 ? "b" : repeat('b', 43411))),
                        null, 24, 23, 127.5),
                new Recorded("scan with long names just under 1 MiB", Table.HASH, keys(Table.HASH, null),
                        (p, k) -> p == 23 ? everyType(k, long6, 43366) : p == 24 ? with(k, "b", s("b"))
                                : with(k, b255, s(repeat('b', 43411))), null, 25, null, 128),
                new Recorded("scan with long names reaching 1 MiB", Table.HASH, keys(Table.HASH, null),
                        (p, k) -> p == 23 ? everyType(k, long6, 43367) : with(k, b255, s(repeat('b', p == 24 ? 99 : 43411))),
                        null, 24, 23, 128),
                new Recorded("scan of 25 partitions with sort keys just under 1 MiB", Table.RANGE, keys(Table.RANGE, null),
                        (p, k) -> p == 23 ? everyType(k, range6, 43359) : p == 24 ? with(k, "z", s("b"))
                                : with(k, b255, s(repeat('b', 43380))), null, 25, null, 128),
                new Recorded("scan of 25 partitions with sort keys reaching 1 MiB", Table.RANGE, keys(Table.RANGE, null),
                        (p, k) -> p == 23 ? everyType(k, range6, 43360) : with(k, "z", s(p == 24 ? "b" : repeat('b', 43380))),
                        null, 24, 23, 127.5),
                new Recorded("scan of 13 partitions of 87 KB reaching 1 MiB", Table.RANGE, thirteenKeys(),
                        (p, k) -> with(k, "z", s(p == 11 ? repeat('b', 86639) : p == 12 ? "b" : repeat('b', 86647))),
                        null, 12, 11, 127));
    }

    private static List<Map<String, AttributeValue>> thirteenKeys() {
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < 13; i++) keys.add(item("a", s(String.format("%02d", i)), "b", s(String.format("%07d", i))));
        return keys;
    }

    private static String tableOf(Table table) {
        String name = StatorTestServer.tableName();
        var request = Tables.onDemand(name);
        if (table == Table.HASH) {
            request.attributeDefinitions(Tables.definition("a", ScalarAttributeType.S)).keySchema(Tables.key("a", KeyType.HASH));
        } else {
            request.attributeDefinitions(Tables.definition("a", ScalarAttributeType.S), Tables.definition("b",
                    table == Table.NUMBER_RANGE ? ScalarAttributeType.N : ScalarAttributeType.S))
                    .keySchema(Tables.key("a", KeyType.HASH), Tables.key("b", KeyType.RANGE));
        }
        server.client().createTable(request.build());
        return name;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recorded")
    void pagesEndWhereDynamoDbEndedThem(Recorded c) {
        String table = tableOf(c.table());
        boolean query = c.description().startsWith("query");
        // Store the keys first: a Scan's read order is known once they are stored.
        ParallelWrites.putAll(server.endpoint(), table, c.keys());
        List<Map<String, AttributeValue>> keysInReadOrder = query ? c.keys()
                : server.client().scanPaginator(b -> b.tableName(table)).items().stream().toList();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int p = 0; p < keysInReadOrder.size(); p++) items.add(c.itemAt().item(p, keysInReadOrder.get(p)));
        ParallelWrites.putAll(server.endpoint(), table, items);

        int scanned;
        int count;
        double units;
        Map<String, AttributeValue> lastEvaluatedKey;
        if (query) {
            QueryResponse r = server.client().query(b -> b.tableName(table).keyConditionExpression("a = :a")
                    .expressionAttributeValues(item(":a", items.get(0).get("a"))).select(Select.COUNT)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).limit(c.limit()));
            scanned = r.scannedCount();
            count = r.count();
            units = r.consumedCapacity().capacityUnits();
            lastEvaluatedKey = r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null;
        } else {
            ScanResponse r = server.client().scan(b -> b.tableName(table).select(Select.COUNT)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).limit(c.limit()));
            scanned = r.scannedCount();
            count = r.count();
            units = r.consumedCapacity().capacityUnits();
            lastEvaluatedKey = r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null;
        }

        assertEquals(c.scannedCount(), scanned, "ScannedCount");
        assertEquals(c.scannedCount(), count, "Count");
        assertEquals(c.units(), units, "CapacityUnits");
        if (c.lastEvaluated() != null) {
            assertEquals(c.lastEvaluated() < 0 ? null : keysInReadOrder.get(c.lastEvaluated()), lastEvaluatedKey);
        }
        // The recorded pages end where the rules used for the walks above say they do.
        Predicate<Map<String, AttributeValue>> all = i -> true;
        KeyShape shape = new KeyShape(ScalarAttributeType.S, c.table() == Table.HASH ? null : ScalarAttributeType.S);
        assertEquals(c.scannedCount(), expectedPages(shape, renamed(items, shape.hasSortKey()), c.limit(), all).get(0)
                .scannedCount());
    }

    /** The items with a and b named as {@link KeyShape} names keys (pk, sk), for {@link #expectedPages}. */
    private static List<Map<String, AttributeValue>> renamed(List<Map<String, AttributeValue>> items, boolean sortKey) {
        return items.stream().map(i -> {
            Map<String, AttributeValue> r = new LinkedHashMap<>(i);
            r.put(PARTITION_KEY, r.remove("a"));
            if (sortKey) r.put(SORT_KEY, r.remove("b"));
            return r;
        }).toList();
    }
}
