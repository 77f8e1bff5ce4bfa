package io.stator.engine.read;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.key.KeyLayout;
import io.stator.core.key.KeyRanges;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.RowKeys;
import io.stator.engine.read.KeyConditions.KeyCondition;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One read plan serves every read: a single item, a Query page and a Scan segment, of the table
 * (index 0) or of any index, each a walk of one key range.
 */
class ReadPlanTest {

    @TempDir
    Path directory;

    private TestEngine test;
    private Engine engine;
    private TableDefinition table;

    @BeforeEach
    void open() throws InterruptedException {
        test = TestEngine.open(directory);
        engine = test.engine();
        table = test.createTable("events", true, List.of(TestEngine.globalIndex("byGroup")),
                List.of(TestEngine.localIndex("byLocal")));
        for (String pk : List.of("a", "b", "c")) {
            for (int sk = 1; sk <= 5; sk++) {
                put(item("pk", pk, "sk", sk, "gpk", "g" + (sk % 2), "gsk", sk, "lsk", 10 - sk, "payload", pk + sk));
            }
        }
        test.awaitGlobalIndexes();
    }

    @AfterEach
    void close() {
        test.close();
    }

    @Test
    void aSingleItemIsThePointRangeOfIndexZero() {
        Map<String, AttributeValue> key = item("pk", "a", "sk", 3);
        ReadPlan plan = ReadPlan.item(table, key, false, null, false);
        assertTrue(plan.singleItem());
        assertFalse(plan.target().isIndex());
        assertEquals(KeyRanges.item(RowKeys.of(table, key)), plan.range());
        assertEquals(KeyLayout.BASE_TABLE_INDEX_ID, KeyLayout.indexIdOf(plan.range().from()));

        Page read = engine.items().get(table, key, false, null);
        assertEquals(s("a3"), read.item().get("payload"));
        assertEquals(0.5, read.consumed().total());
        assertNull(engine.items().get(table, item("pk", "a", "sk", 9), true, null).item());
    }

    @Test
    void aQueryOfTheTableReadsOnePartitionInSortKeyOrderInPages() {
        List<Map<String, AttributeValue>> all = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        int pages = 0;
        do {
            Page page = engine.items().query(table, query(null, Map.of("pk", eq(s("b"))), start, 2, true));
            all.addAll(page.items());
            start = page.lastEvaluatedKey();
            pages++;
        } while (start != null);
        assertEquals(3, pages, "5 items, 2 a page: a last page of 1, without LastEvaluatedKey");
        assertEquals(List.of(1, 2, 3, 4, 5), sortKeys(all));

        Page backwards = engine.items().query(table, query(null,
                Map.of("pk", eq(s("b")), "sk", new KeyCondition(ComparisonOperator.BETWEEN, List.of(n(2), n(4)))), null, 100, false));
        assertEquals(List.of(4, 3, 2), sortKeys(backwards.items()));
    }

    @Test
    void aQueryOfAGlobalIndexReadsTheIndexPartition() {
        Page page = engine.items().query(table, query("byGroup",
                Map.of("gpk", eq(s("g1")), "gsk", new KeyCondition(ComparisonOperator.GT, List.of(n(1)))), null, 100, true));
        assertEquals(6, page.count());
        for (Map<String, AttributeValue> item : page.items()) assertEquals(s("g1"), item.get("gpk"));
        ReadPlan plan = ReadPlan.query(table, query("byGroup", Map.of("gpk", eq(s("g1"))), null, 100, true));
        assertTrue(plan.target().isIndex());
        assertEquals(table.index("byGroup").id(), KeyLayout.indexIdOf(plan.range().from()));
        // Billed to the index, not the table.
        assertEquals(0.0, page.consumed().tableUnits());
        assertEquals(Set.of("byGroup"), page.consumed().globalIndexUnits().keySet());
    }

    @Test
    void aQueryOfALocalIndexFetchesWhatItDoesNotProjectFromTheTable() {
        Page keysOnly = engine.items().query(table, query("byLocal", Map.of("pk", eq(s("c"))), null, 100, true));
        assertEquals(List.of(5, 4, 3, 2, 1), sortKeys(keysOnly.items()), "in the index's sort-key order (lsk = 10 - sk)");
        assertFalse(keysOnly.items().get(0).containsKey("payload"));

        QuerySpec all = new QuerySpec("byLocal", Map.of("pk", eq(s("c"))), null, false, null, Select.ALL_ATTRIBUTES,
                null, 100, true, false);
        Page fetched = engine.items().query(table, all);
        assertEquals(s("c5"), fetched.items().get(0).get("payload"));
        assertTrue(fetched.consumed().tableUnits() > 0, "items fetched for a local index are billed to the table");
    }

    @Test
    void theSegmentsOfAParallelScanCoverEveryItemOnce() {
        Set<String> seen = new HashSet<>();
        for (int segment = 0; segment < 4; segment++) {
            Page page = engine.items().scan(table, new ScanSpec(null, null, null, null, null, segment, 4,
                    Integer.MAX_VALUE, false));
            for (Map<String, AttributeValue> item : page.items()) {
                assertTrue(seen.add(item.get("payload").toString()), "read twice: " + item);
            }
        }
        assertEquals(15, seen.size());
    }

    @Test
    void aFilterAndAProjectionShapeWhatIsReturnedNotWhatIsRead() {
        ExpressionContext expressions = new ExpressionContext(null, item(":three", 3));
        ScanSpec spec = new ScanSpec(null, expressions.condition(ExpressionKind.FILTER, "sk = :three"),
                new ExpressionContext(null, null).projection("payload"), null, null, 0, 1, Integer.MAX_VALUE, false);
        Page page = engine.items().scan(table, spec);
        assertEquals(15, page.scannedCount());
        assertEquals(3, page.count());
        for (Map<String, AttributeValue> item : page.items()) assertEquals(Set.of("payload"), item.keySet());

        Page counted = engine.items().scan(table, new ScanSpec(null, spec.filter(), null, Select.COUNT, null, 0, 1,
                Integer.MAX_VALUE, false));
        assertEquals(3, counted.count());
        assertTrue(counted.items().isEmpty());
    }

    @Test
    void aTargetIsCheckedAsDynamoDbChecksIt() {
        DynamoDbException missing = assertThrows(DynamoDbException.class, () -> engine.items().query(table,
                query("nope", Map.of("pk", eq(s("a"))), null, 1, true)));
        assertEquals("The table does not have the specified index: nope", missing.getMessage());
        DynamoDbException consistent = assertThrows(DynamoDbException.class, () -> engine.items().query(table,
                new QuerySpec("byGroup", Map.of("gpk", eq(s("g1"))), null, false, null, null, null, 1, true, true)));
        assertEquals("Consistent reads are not supported on global secondary indexes", consistent.getMessage());
        DynamoDbException notEqual = assertThrows(DynamoDbException.class, () -> engine.items().query(table,
                query(null, Map.of("pk", new KeyCondition(ComparisonOperator.GT, List.of(s("a")))), null, 1, true)));
        assertEquals("Query key condition not supported", notEqual.getMessage());
    }

    private void put(Map<String, AttributeValue> item) {
        engine.items().write(ItemWrite.put(table, item, null, ReturnValues.NONE, false, false));
    }

    private static QuerySpec query(String index, Map<String, KeyCondition> conditions, Map<String, AttributeValue> start,
                                   int limit, boolean forward) {
        return new QuerySpec(index, new LinkedHashMap<>(conditions), null, false, null, null, start, limit, forward,
                false);
    }

    private static KeyCondition eq(AttributeValue value) {
        return new KeyCondition(ComparisonOperator.EQ, List.of(value));
    }

    private static AttributeValue s(String value) {
        return new AttributeValue.S(value);
    }

    private static AttributeValue n(int value) {
        return item("n", value).get("n");
    }

    private static List<Integer> sortKeys(List<Map<String, AttributeValue>> items) {
        return items.stream().map(i -> ((AttributeValue.N) i.get("sk")).value().bigDecimal().intValue()).toList();
    }
}
