package io.stator.server.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * What a table's secondary indexes must hold, worked out by the tests from the table's items
 * with DynamoDB's rules, and what they do hold, read back with Scan and IndexName (every page).
 *
 * <p>The rules (docs/dynamodb/indexes.md §4.4): an item has an entry in an index only when every key
 * attribute of the index is present with the type the index declares (a sparse index; items
 * written with another type before the index existed are silently left out, §3.2); the entry
 * holds the table key and the index key, plus the INCLUDE attributes the item has, or the whole
 * item for ALL. Entries are compared by the table key of their item.
 */
public final class IndexContents {

    private IndexContents() {}

    /** One secondary index, as DescribeTable shows it. */
    public record IndexSpec(String name, boolean global, Map<String, String> keyTypes, ProjectionType projection,
                            Set<String> nonKeyAttributes) {}

    /** The table's key attribute names, partition key first. */
    public static List<String> tableKey(TableDescription table) {
        return table.keySchema().stream().map(KeySchemaElement::attributeName).toList();
    }

    /** Every secondary index of the table, local ones first. */
    public static List<IndexSpec> indexes(TableDescription table) {
        Map<String, String> types = new HashMap<>();
        for (AttributeDefinition d : table.attributeDefinitions()) types.put(d.attributeName(), d.attributeTypeAsString());
        List<IndexSpec> specs = new ArrayList<>();
        for (LocalSecondaryIndexDescription i : table.localSecondaryIndexes()) {
            specs.add(spec(i.indexName(), false, i.keySchema(), i.projection(), types));
        }
        for (GlobalSecondaryIndexDescription i : table.globalSecondaryIndexes()) {
            specs.add(spec(i.indexName(), true, i.keySchema(), i.projection(), types));
        }
        return specs;
    }

    private static IndexSpec spec(String name, boolean global, List<KeySchemaElement> keySchema, Projection projection,
                                  Map<String, String> types) {
        Map<String, String> keyTypes = new LinkedHashMap<>();
        for (KeySchemaElement k : keySchema) keyTypes.put(k.attributeName(), types.get(k.attributeName()));
        return new IndexSpec(name, global, keyTypes, projection.projectionType(),
                new LinkedHashSet<>(projection.nonKeyAttributes()));
    }

    /** The entry the item must have in the index, or null when it has none. */
    public static Map<String, AttributeValue> entry(IndexSpec index, List<String> tableKey,
                                                    Map<String, AttributeValue> item) {
        for (Map.Entry<String, String> k : index.keyTypes().entrySet()) {
            AttributeValue v = item.get(k.getKey());
            if (v == null || !v.type().name().equals(k.getValue())) return null;
        }
        if (index.projection() == ProjectionType.ALL) return item;
        Map<String, AttributeValue> entry = new HashMap<>();
        for (Map.Entry<String, AttributeValue> a : item.entrySet()) {
            String name = a.getKey();
            if (tableKey.contains(name) || index.keyTypes().containsKey(name) || index.nonKeyAttributes().contains(name)) {
                entry.put(name, a.getValue());
            }
        }
        return entry;
    }

    /** What the index must hold for these items, by table key. */
    public static Map<Map<String, AttributeValue>, Map<String, AttributeValue>> expected(
            IndexSpec index, List<String> tableKey, Collection<Map<String, AttributeValue>> items) {
        Map<Map<String, AttributeValue>, Map<String, AttributeValue>> entries = new HashMap<>();
        for (Map<String, AttributeValue> item : items) {
            Map<String, AttributeValue> entry = entry(index, tableKey, item);
            if (entry != null) entries.put(keyOf(tableKey, item), entry);
        }
        return entries;
    }

    /** The table's items (a full Scan), or an index's entries (Scan with IndexName), by table key. */
    public static Map<Map<String, AttributeValue>, Map<String, AttributeValue>> scan(
            DynamoDbClient client, String table, String indexName, List<String> tableKey) {
        Map<Map<String, AttributeValue>, Map<String, AttributeValue>> found = new HashMap<>();
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest.Builder request = ScanRequest.builder().tableName(table).indexName(indexName);
            if (start != null) request.exclusiveStartKey(start);
            ScanResponse page = client.scan(request.build());
            for (Map<String, AttributeValue> item : page.items()) {
                if (found.put(keyOf(tableKey, item), item) != null) fail("two entries for one item: " + item);
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return found;
    }

    public static Map<String, AttributeValue> keyOf(List<String> tableKey, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> key = new HashMap<>();
        for (String k : tableKey) key.put(k, item.get(k));
        return key;
    }

    /**
     * Waits until every index of the table holds exactly what the table's items say it must
     * (global indexes catch up asynchronously), and fails with the differences if that has not
     * happened within {@code timeout}. Call it when no writes are in flight.
     */
    public static void awaitIndexesMatch(DynamoDbClient client, String table, Duration timeout) {
        TableDescription description = client.describeTable(b -> b.tableName(table)).table();
        List<String> tableKey = tableKey(description);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Collection<Map<String, AttributeValue>> items = scan(client, table, null, tableKey).values();
            String differences = "";
            for (IndexSpec index : indexes(description)) {
                differences += differences(index.name(), expected(index, tableKey, items),
                        scan(client, table, index.name(), tableKey));
            }
            if (differences.isEmpty()) return;
            if (System.nanoTime() > deadline) fail("indexes of " + table + " differ from its items:\n" + differences);
            Eventually.sleep(20);
        }
    }

    /**
     * Asserts that DescribeTable's ItemCount and IndexSizeBytes of every index, and the table's
     * ItemCount and TableSizeBytes, are those of what the table holds (Stator keeps them exact,
     * where DynamoDB refreshes them every six hours). Call it once the indexes match. On shared
     * storage they are counted again some seconds after writes: nothing is asserted there, where
     * {@link #awaitCounts} waits for them.
     */
    public static void assertCounts(DynamoDbClient client, String table) {
        if (TestBackend.cassandra()) return;
        List<String> expected = expectedCounts(client, table);
        assertEquals(expected, counts(client, table));
    }

    /**
     * As {@link #assertCounts}, on either backend: on shared storage the counters are counted
     * again about ten seconds after writes ({@code TableCounters#recount}), so they are awaited
     * there (DynamoDB itself refreshes them about every six hours); on one server they are exact
     * at once. Call it once the writes are done and the indexes match.
     */
    public static void awaitCounts(DynamoDbClient client, String table) {
        List<String> expected = expectedCounts(client, table);
        long end = System.nanoTime() + Duration.ofSeconds(TestBackend.cassandra() ? 90 : 0).toNanos();
        List<String> counted = counts(client, table);
        while (!expected.equals(counted) && System.nanoTime() < end) {
            Eventually.sleep(250);
            counted = counts(client, table);
        }
        assertEquals(expected, counted);
    }

    /** ItemCount and TableSizeBytes, then each index's ItemCount and IndexSizeBytes, from the items. */
    private static List<String> expectedCounts(DynamoDbClient client, String table) {
        TableDescription description = client.describeTable(b -> b.tableName(table)).table();
        List<String> tableKey = tableKey(description);
        Collection<Map<String, AttributeValue>> items = scan(client, table, null, tableKey).values();
        List<String> out = new ArrayList<>();
        out.add("table: " + items.size() + " items, " + items.stream().mapToLong(DynamoSize::of).sum() + " bytes");
        for (IndexSpec index : indexes(description)) {
            Collection<Map<String, AttributeValue>> entries = expected(index, tableKey, items).values();
            out.add(index.name() + ": " + entries.size() + " items, "
                    + entries.stream().mapToLong(DynamoSize::of).sum() + " bytes");
        }
        return out;
    }

    /** The same figures as DescribeTable gives them. */
    private static List<String> counts(DynamoDbClient client, String table) {
        TableDescription description = client.describeTable(b -> b.tableName(table)).table();
        List<String> out = new ArrayList<>();
        out.add("table: " + description.itemCount() + " items, " + description.tableSizeBytes() + " bytes");
        for (IndexSpec index : indexes(description)) {
            long count;
            long bytes;
            if (index.global()) {
                GlobalSecondaryIndexDescription g = description.globalSecondaryIndexes().stream()
                        .filter(i -> i.indexName().equals(index.name())).findFirst().orElseThrow();
                count = g.itemCount();
                bytes = g.indexSizeBytes();
            } else {
                LocalSecondaryIndexDescription l = description.localSecondaryIndexes().stream()
                        .filter(i -> i.indexName().equals(index.name())).findFirst().orElseThrow();
                count = l.itemCount();
                bytes = l.indexSizeBytes();
            }
            out.add(index.name() + ": " + count + " items, " + bytes + " bytes");
        }
        return out;
    }

    /** A few lines on how an index differs from what it must hold; empty when it does not. */
    public static String differences(String index, Map<Map<String, AttributeValue>, Map<String, AttributeValue>> expected,
                                     Map<Map<String, AttributeValue>, Map<String, AttributeValue>> actual) {
        StringBuilder out = new StringBuilder();
        int shown = 0;
        int total = 0;
        Set<Map<String, AttributeValue>> keys = new LinkedHashSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        for (Map<String, AttributeValue> key : keys) {
            Map<String, AttributeValue> want = expected.get(key);
            Map<String, AttributeValue> have = actual.get(key);
            if (want == null ? have == null : want.equals(have)) continue;
            total++;
            if (shown++ < 5) out.append("  ").append(index).append(' ').append(key).append(": expected ").append(want)
                    .append(", found ").append(have).append('\n');
        }
        if (total > 5) out.append("  ").append(index).append(": ").append(total - 5).append(" more\n");
        return out.toString();
    }
}
