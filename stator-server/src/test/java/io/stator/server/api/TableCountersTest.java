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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.server.testing.DynamoSize;
import io.stator.server.testing.ItemTables;
import io.stator.server.testing.KeyShape;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * DescribeTable's ItemCount and TableSizeBytes. DynamoDB refreshes them about every six hours;
 * Stator keeps them current, so once writes are acknowledged they must be exact: the number of
 * items, and the sum of their sizes by DynamoDB's item-size rules (computed here by
 * {@link DynamoSize}; an observation on DynamoDB matches that sum without the 100 bytes of
 * per-item overhead its storage billing adds: docs/dynamodb/query-scan.md section 7).
 */
class TableCountersTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    /** What a table holds, kept by the test alongside its writes. */
    private static final class Expected {
        final KeyShape shape;
        final Map<Map<String, AttributeValue>, Map<String, AttributeValue>> items = new HashMap<>();

        Expected(KeyShape shape) { this.shape = shape; }

        void put(Map<String, AttributeValue> item) { items.put(ItemTables.keyOf(shape, item), item); }

        void delete(Map<String, AttributeValue> keyOrItem) { items.remove(ItemTables.keyOf(shape, keyOrItem)); }
    }

    private static TableDescription describe(String table) {
        return server.client().describeTable(b -> b.tableName(table)).table();
    }

    private static void assertCounters(String table, Expected expected, String after) {
        TableDescription d = describe(table);
        assertEquals(expected.items.size(), d.itemCount(), "ItemCount after " + after);
        assertEquals(expected.items.values().stream().mapToLong(DynamoSize::of).sum(), d.tableSizeBytes(),
                "TableSizeBytes after " + after);
    }

    private static void put(String table, Expected expected, Map<String, AttributeValue> item) {
        server.client().putItem(b -> b.tableName(table).item(item));
        expected.put(item);
    }

    private static Map<String, AttributeValue> everyType() {
        return item("s", s("text ü 中 \uD83D\uDE00"), "n", n("-12.345"), "b", b(1, 2, 3), "bool", bool(true), "null", nul(),
                "ss", ss("x", "yz"), "ns", ns("1", "22"), "bs", bs(new int[] {1}, new int[] {2, 3}),
                "m", m("a", l(n("1"), s("b")), "c", m()), "l", l(bool(false), nul()), "名前", s("名"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.stator.server.testing.KeyShape#all")
    void itemCountAndTableSizeFollowEveryKindOfWrite(KeyShape shape) {
        String table = shape.createTable(server.client());
        Expected expected = new Expected(shape);
        assertCounters(table, expected, "creation");

        Map<String, AttributeValue> a = shape.newItem(item("v", s("first")));
        put(table, expected, a);
        assertCounters(table, expected, "a new item");
        Map<String, AttributeValue> full = shape.newItem(everyType());
        put(table, expected, full);
        assertCounters(table, expected, "an item of every type");
        put(table, expected, a);
        assertCounters(table, expected, "the same item again");
        Map<String, AttributeValue> bigger = with(a, "v", s("x".repeat(5000)), "w", n("1"));
        put(table, expected, bigger);
        assertCounters(table, expected, "a bigger replacement");
        Map<String, AttributeValue> smaller = ItemTables.keyOf(shape, a);
        put(table, expected, smaller);
        assertCounters(table, expected, "a replacement of the key alone");

        server.client().updateItem(b -> b.tableName(table).key(ItemTables.keyOf(shape, full))
                .updateExpression("SET added = :v, n = n + :one REMOVE s, m.a[0]")
                .expressionAttributeValues(item(":v", s("new"), ":one", n("1"))));
        Map<String, AttributeValue> updated = new HashMap<>(full);
        updated.put("added", s("new"));
        updated.put("n", n("-11.345"));
        updated.remove("s");
        updated.put("m", m("a", l(s("b")), "c", m()));
        expected.put(updated);
        assertCounters(table, expected, "an update");

        Map<String, AttributeValue> created = shape.newKey();
        server.client().updateItem(b -> b.tableName(table).key(created).updateExpression("SET v = :v")
                .expressionAttributeValues(item(":v", n("7"))));
        expected.put(with(created, "v", n("7")));
        assertCounters(table, expected, "an update that creates the item");

        assertThrows(ConditionalCheckFailedException.class, () -> server.client().putItem(b -> b.tableName(table)
                .item(with(full, "big", s("y".repeat(3000)))).conditionExpression("attribute_not_exists(pk)")));
        assertThrows(ConditionalCheckFailedException.class, () -> server.client().updateItem(b -> b.tableName(table)
                .key(created).updateExpression("SET big = :b").conditionExpression("v = :zero")
                .expressionAttributeValues(item(":b", s("y".repeat(3000)), ":zero", n("0")))));
        assertThrows(ConditionalCheckFailedException.class, () -> server.client().deleteItem(b -> b.tableName(table)
                .key(created).conditionExpression("attribute_not_exists(v)")));
        assertCounters(table, expected, "refused conditional writes");

        server.client().deleteItem(b -> b.tableName(table).key(ItemTables.keyOf(shape, full)).returnValues(ReturnValue.ALL_OLD));
        expected.delete(full);
        assertCounters(table, expected, "a delete");
        server.client().deleteItem(b -> b.tableName(table).key(shape.newKey()));
        assertCounters(table, expected, "a delete of nothing");
        server.client().deleteItem(b -> b.tableName(table).key(ItemTables.keyOf(shape, a)));
        server.client().deleteItem(b -> b.tableName(table).key(created));
        expected.delete(a);
        expected.delete(created);
        assertCounters(table, expected, "deleting everything");
    }

    @Test
    void countersSurviveARestart() {
        KeyShape shape = new KeyShape(ScalarAttributeType.N, ScalarAttributeType.B);
        String table = shape.createTable(server.client());
        Expected expected = new Expected(shape);
        for (int i = 0; i < 30; i++) put(table, expected, shape.newItem(item("i", n("" + i), "pad", s("x".repeat(i * 10)))));
        Map<String, AttributeValue> gone = expected.items.values().iterator().next();
        server.client().deleteItem(b -> b.tableName(table).key(ItemTables.keyOf(shape, gone)));
        expected.delete(gone);
        assertCounters(table, expected, "the writes");

        server.restart();

        assertCounters(table, expected, "a restart");
        put(table, expected, shape.newItem(everyType()));
        assertCounters(table, expected, "a write after the restart");
    }

    @Test
    void aTableCreatedAgainUnderTheSameNameStartsFromNothing() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
        for (int i = 0; i < 10; i++) {
            int n = i;
            server.client().putItem(b -> b.tableName(table).item(item("id", s("k" + n), "v", s("x".repeat(100)))));
        }
        assertEquals(10, describe(table).itemCount());

        server.client().deleteTable(b -> b.tableName(table));
        StatorTestServer.createTable(server.client(), table);

        assertEquals(0, describe(table).itemCount());
        assertEquals(0, describe(table).tableSizeBytes());
        server.client().putItem(b -> b.tableName(table).item(item("id", s("k0"))));
        assertEquals(1, describe(table).itemCount());
        assertEquals(DynamoSize.of(item("id", s("k0"))), describe(table).tableSizeBytes());
    }

    @Test
    void concurrentWritesToTheSameKeysLeaveTheCountersExact() throws Exception {
        KeyShape shape = new KeyShape(ScalarAttributeType.S, ScalarAttributeType.N);
        String table = shape.createTable(server.client());
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) keys.add(shape.newKey());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                Random random = new Random(t);
                writers.add(pool.submit(() -> {
                    for (int op = 0; op < 150; op++) {
                        Map<String, AttributeValue> key = keys.get(random.nextInt(keys.size()));
                        switch (random.nextInt(3)) {
                            case 0 -> server.client().putItem(b -> b.tableName(table)
                                    .item(with(key, "pad", s("x".repeat(random.nextInt(2000))))));
                            case 1 -> server.client().deleteItem(b -> b.tableName(table).key(key));
                            default -> server.client().updateItem(b -> b.tableName(table).key(key)
                                    .updateExpression("ADD hits :one SET pad2 = :p")
                                    .expressionAttributeValues(item(":one", n("1"), ":p", s("y".repeat(random.nextInt(500))))));
                        }
                    }
                }));
            }
            for (Future<?> w : writers) w.get();
        } finally {
            pool.shutdownNow();
        }

        Expected actual = new Expected(shape);
        server.client().scanPaginator(b -> b.tableName(table).consistentRead(true)).items().forEach(actual::put);
        assertCounters(table, actual, "racing writes");
    }
}
