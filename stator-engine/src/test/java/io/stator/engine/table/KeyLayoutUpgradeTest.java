package io.stator.engine.table;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.stator.core.key.PartitionHash;
import io.stator.core.model.AttributeValue;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.read.ComparisonOperator;
import io.stator.engine.read.KeyConditions.KeyCondition;
import io.stator.engine.read.Page;
import io.stator.engine.read.QuerySpec;
import io.stator.engine.read.ScanSpec;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.storage.Cursor;
import io.stator.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A RocksDB data directory whose table was stored by a Stator before key layout 2 (its catalog
 * row in TableCodec version 9, which has no partition hash): opened by this one, the table keeps
 * key layout 1 (xxHash64), so its rows, written in that layout, are all found, in their order,
 * across restarts; a table created beside it gets DynamoDB's hash. No migration runs.
 */
class KeyLayoutUpgradeTest {

    @TempDir
    Path directory;

    @Test
    void aTableStoredBeforeKeyLayoutTwoKeepsItsHashItsItemsAndItsOrder() {
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.createTable("old", false, List.of(TestEngine.globalIndex("g")), null);
            storeAsVersion9(test, table);
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) keys.add("k" + i);
        List<String> xxHashOrder = new ArrayList<>(keys);
        xxHashOrder.sort((x, y) -> Long.compareUnsigned(PartitionHash.XXH64.of(new AttributeValue.S(x)),
                PartitionHash.XXH64.of(new AttributeValue.S(y))));
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.engine().catalog().find("old");
            assertEquals(PartitionHash.XXH64, table.partitionHash());
            for (int i = 0; i < keys.size(); i++) {
                test.engine().items().write(ItemWrite.put(table, item("pk", keys.get(i), "gpk", "G", "gsk", i), null,
                        ReturnValues.NONE, false, false));
            }
            awaitIndexes(test);
            assertReadable(test, table, keys, xxHashOrder);
            assertEquals(PartitionHash.DYNAMODB, test.createTable("new", false, null, null).partitionHash());
        }
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.engine().catalog().find("old");
            assertEquals(PartitionHash.XXH64, table.partitionHash());
            assertReadable(test, table, keys, xxHashOrder);
            assertEquals(PartitionHash.DYNAMODB, test.engine().catalog().find("new").partitionHash());
        }
    }

    /** Rewrites the table's catalog row as a Stator before key layout 2 wrote it. */
    private static void storeAsVersion9(TestEngine test, TableDefinition table) {
        byte[] current = TableCodec.encode(table);
        byte[] row = null;
        try (Cursor c = test.storage().range(null, Keyspaces.CATALOG, null, null, false)) {
            while (c.next()) if (Arrays.equals(c.value(), current)) row = c.key();
        }
        assertNotNull(row, "the table's catalog row");
        int tail = 2 + PartitionHash.DYNAMODB.name().getBytes(StandardCharsets.UTF_8).length + 1; // and no transition
        byte[] version9 = Arrays.copyOf(current, current.length - tail);
        version9[0] = 9;
        WriteBatch batch = test.storage().newBatch();
        batch.put(Keyspaces.CATALOG, row, version9);
        test.storage().commit(batch);
        assertArrayEquals(version9, test.storage().get(Keyspaces.CATALOG, row));
    }

    private static void assertReadable(TestEngine test, TableDefinition table, List<String> keys, List<String> order) {
        Page all = test.engine().items().scan(table, new ScanSpec(null, null, null, null, null, 0, 1, Integer.MAX_VALUE, false));
        assertEquals(order, all.items().stream().map(i -> ((AttributeValue.S) i.get("pk")).value()).toList());
        List<String> segments = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            Page page = test.engine().items().scan(table, new ScanSpec(null, null, null, null, null, s, 4, Integer.MAX_VALUE,
                    false));
            page.items().forEach(i -> segments.add(((AttributeValue.S) i.get("pk")).value()));
        }
        assertEquals(order, segments);
        for (String k : keys) {
            assertNotNull(test.engine().items().get(table, item("pk", k), true, null).item(), k);
        }
        Map<String, KeyCondition> onG = new LinkedHashMap<>();
        onG.put("gpk", new KeyCondition(ComparisonOperator.EQ, List.of(new AttributeValue.S("G"))));
        Page index = test.engine().items().query(table, new QuerySpec("g", onG, null, false, null, null, null,
                Integer.MAX_VALUE, true, false));
        assertEquals(keys, index.items().stream().map(i -> ((AttributeValue.S) i.get("pk")).value()).toList(),
                "the index's entries, in gsk order");
    }

    private static void awaitIndexes(TestEngine test) {
        try {
            test.awaitGlobalIndexes();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
