package io.stator.server.api;

import static io.stator.server.testing.Attrs.bool;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.KeyShape.PARTITION_KEY;
import static io.stator.server.testing.KeyShape.SORT_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.KeyShape;
import io.stator.server.testing.ParallelWrites;
import io.stator.server.testing.SharedServer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * A selective filter over many items (40,000 read to return 10): ScannedCount reports every item
 * read, Count only those returned, page after page, and capacity is charged for what was read.
 * This is how DynamoDB shows a client that its Scan is slow (docs/dynamodb/query-scan.md section 3.1).
 */
class ScannedCountTest {

    private static final int ITEMS = 40_000;
    /** The items of the queried partition: sort keys 0 .. 19,999; the rest are 2,000 partitions of 10. */
    private static final int BIG_PARTITION = 20_000;
    private static final Set<Integer> BIG_PARTITION_HITS = Set.of(17, 4_999, 10_000, 15_001, 19_998);
    private static final Set<Integer> OTHER_HITS = Set.of(3, 5_555, 12_345, 17_770, 19_999);
    private static final KeyShape SHAPE = new KeyShape(ScalarAttributeType.S, ScalarAttributeType.N);

    @RegisterExtension
    static final SharedServer server = new SharedServer();
    private static String table;
    private static long totalItemBytes;

    @BeforeAll
    static void load() {
        table = SHAPE.createTable(server.client());
        List<Map<String, AttributeValue>> items = new ArrayList<>(ITEMS);
        // A 40-character pad makes the pages hold about 15,000 items: the walks span several pages.
        String pad = "p".repeat(40);
        for (int i = 0; i < BIG_PARTITION; i++) {
            items.add(item(PARTITION_KEY, s("big"), SORT_KEY, n("" + i), "hit", bool(BIG_PARTITION_HITS.contains(i)),
                    "pad", s(pad)));
        }
        for (int i = 0; i < ITEMS - BIG_PARTITION; i++) {
            items.add(item(PARTITION_KEY, s("p" + i / 10), SORT_KEY, n("" + i % 10), "hit", bool(OTHER_HITS.contains(i)),
                    "pad", s(pad)));
        }
        totalItemBytes = items.stream().mapToLong(DynamoSize::of).sum();
        ParallelWrites.putAll(server.endpoint(), table, items);
    }

    /** Totals over the pages of a walk. */
    private record Totals(int pages, int scannedCount, int count, Set<Map<String, AttributeValue>> items, double units) {}

    private static Totals scanAll(Consumer<ScanRequest.Builder> request) {
        int pages = 0;
        int scanned = 0;
        int count = 0;
        double units = 0;
        Set<Map<String, AttributeValue>> items = new HashSet<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse r = server.client().scan(b -> {
                b.tableName(table).exclusiveStartKey(from).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
                request.accept(b);
            });
            pages++;
            assertTrue(r.count() <= r.scannedCount());
            scanned += r.scannedCount();
            count += r.count();
            units += r.consumedCapacity().capacityUnits();
            if (r.hasItems()) items.addAll(r.items());
            start = r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        return new Totals(pages, scanned, count, items, units);
    }

    private static void assertHonest(Totals t, int read, int returned) {
        assertEquals(read, t.scannedCount(), "ScannedCount over all pages");
        assertEquals(returned, t.count(), "Count over all pages");
        assertTrue(t.pages() >= 3, "pages: " + t.pages());
        // Charged for every item read: half a unit per 4 KB per page, each page rounded up.
        double least = Math.ceil(totalItemBytes / 4096.0) / 2;
        assertTrue(t.units() >= least && t.units() <= least + t.pages() * 0.5, "units " + t.units() + ", at least " + least);
    }

    @Test
    void scanWithASelectiveFilterReportsEveryItemItReadOnEveryPage() {
        Totals t = scanAll(b -> b.filterExpression("hit = :t").expressionAttributeValues(item(":t", bool(true))));
        assertHonest(t, ITEMS, 10);
        assertEquals(10, t.items().size());
        assertTrue(t.items().stream().allMatch(i -> i.get("hit").bool()));
    }

    @Test
    void selectCountReportsTheSameCountsWithoutItems() {
        Totals t = scanAll(b -> b.filterExpression("hit = :t").expressionAttributeValues(item(":t", bool(true)))
                .select(Select.COUNT));
        assertHonest(t, ITEMS, 10);
        assertTrue(t.items().isEmpty());
    }

    @Test
    void scanFilterReportsTheSameAsFilterExpression() {
        Totals t = scanAll(b -> b.scanFilter(Map.of("hit", Condition.builder()
                .comparisonOperator("EQ").attributeValueList(n("1")).build())));
        assertHonest(t, ITEMS, 0);
    }

    @Test
    void pagesOfLimitItemsEachCountExactlyLimitItemsRead() {
        int limit = 4_000;
        List<Integer> scannedPerPage = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        int count = 0;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse r = server.client().scan(b -> b.tableName(table).limit(limit).exclusiveStartKey(from)
                    .filterExpression("hit = :t").expressionAttributeValues(item(":t", bool(true))));
            scannedPerPage.add(r.scannedCount());
            count += r.count();
            start = r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        // Ten full pages; the tenth read the last item, but has a LastEvaluatedKey: an eleventh reads nothing.
        List<Integer> expected = new ArrayList<>(Collections.nCopies(ITEMS / limit, limit));
        expected.add(0);
        assertEquals(expected, scannedPerPage);
        assertEquals(10, count);
    }

    @ParameterizedTest(name = "TotalSegments {0}")
    @ValueSource(ints = {1, 4, 13})
    void parallelScanSegmentsTogetherReportEveryItemReadOnce(int totalSegments) {
        int scanned = 0;
        int count = 0;
        for (int segment = 0; segment < totalSegments; segment++) {
            int s = segment;
            Totals t = scanAll(b -> b.segment(s).totalSegments(totalSegments).filterExpression("hit = :t")
                    .expressionAttributeValues(item(":t", bool(true))).select(Select.COUNT));
            scanned += t.scannedCount();
            count += t.count();
        }
        assertEquals(ITEMS, scanned);
        assertEquals(10, count);
    }

    @ParameterizedTest(name = "forward {0}")
    @ValueSource(booleans = {true, false})
    void queryWithASelectiveFilterEndsEachPageAtTheLastItemItRead(boolean forward) {
        int scanned = 0;
        List<Integer> hits = new ArrayList<>();
        int pages = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse r = server.client().query(b -> b.tableName(table).keyConditionExpression("pk = :big")
                    .filterExpression("hit = :t").expressionAttributeValues(item(":big", s("big"), ":t", bool(true)))
                    .scanIndexForward(forward).exclusiveStartKey(from));
            pages++;
            scanned += r.scannedCount();
            r.items().forEach(i -> hits.add(Integer.parseInt(i.get(SORT_KEY).n())));
            if (r.hasLastEvaluatedKey()) {
                // The page's ScannedCount says exactly how far it read.
                int lastRead = forward ? scanned - 1 : BIG_PARTITION - scanned;
                assertEquals(n("" + lastRead), r.lastEvaluatedKey().get(SORT_KEY));
            }
            start = r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        assertEquals(BIG_PARTITION, scanned);
        List<Integer> expected = new ArrayList<>(new TreeSet<>(BIG_PARTITION_HITS));
        if (!forward) Collections.reverse(expected);
        assertEquals(expected, hits);
        assertTrue(pages >= 2, "pages: " + pages);
        assertFalse(hits.isEmpty());
    }
}
