package io.stator.engine.partiql;

import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.List;

/**
 * The key attributes a SELECT reads by: the partition key and sort key of the table, or of the
 * index it names ({@code FROM "t"."i"}).
 */
public record KeyAttributes(List<String> partitionKey, List<String> sortKey) {

    /** The target's key attributes; null when the index does not exist or is a vector index (which PartiQL cannot read). */
    public static KeyAttributes of(TableDefinition table, String indexName) {
        if (indexName == null) {
            KeySchema keys = table.keySchema();
            return new KeyAttributes(List.of(keys.partitionKey()),
                    keys.hasSortKey() ? List.of(keys.sortKey()) : List.of());
        }
        IndexDefinition index = table.index(indexName);
        if (index == null || index.isVector()) return null;
        return new KeyAttributes(index.partitionKey().stream().map(IndexDefinition.KeyAttribute::name).toList(),
                index.sortKey().stream().map(IndexDefinition.KeyAttribute::name).toList());
    }

    /** The table's own key attributes, partition key first. */
    public static List<String> ofTable(TableDefinition table) {
        KeySchema keys = table.keySchema();
        return keys.hasSortKey() ? List.of(keys.partitionKey(), keys.sortKey()) : List.of(keys.partitionKey());
    }

    public List<String> all() {
        List<String> all = new ArrayList<>(partitionKey);
        all.addAll(sortKey);
        return all;
    }
}
